"""The pieces the injected-regression suite is made of, and the measures added for it, by hand:
the faults do what they say and only that; the new metrics give the numbers they should."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from graphgate.core.config import EvalSettings, GateSettings
from graphgate.core.types import Chunk, Community, Document
from graphgate.evaluate.harness import EvalHarness
from graphgate.evaluate.judge import DeterministicJudge
from graphgate.evaluate.testset import TestCase
from graphgate.gates.base import UNMEASURED, WARN, GateResult, apply_rules
from graphgate.gates.causes import cause_notes
from graphgate.gates.community import CommunityGate, HierarchyGate
from graphgate.gates.context import GateContext
from graphgate.gates.data_chunk import ChunkGate
from graphgate.gates.ie import IEGate, type_shift
from graphgate.gates.injections import (
    INJECTIONS,
    CitingNeighbour,
    Injection,
    duplicated,
    flatten_paragraphs,
    rewritten,
    truncate,
)
from graphgate.index.pipeline import IndexContext, Stage, StageOutput
from graphgate.index.stages import PIPELINES
from graphgate.query.base import Answer, Citation, RetrievalResult, RetrievedChunk

GATES = {"data", "chunk", "ie", "graph", "community", "hierarchy", "summary", "gen"}


def _ctx(**kw: Any) -> GateContext:
    return GateContext(settings=GateSettings(), **kw)


def test_the_catalogue_has_two_regressions_a_gate_each_with_a_judged_cause() -> None:
    rules = GateSettings().effective_rules()
    by_gate: dict[str, int] = {}
    for injection in INJECTIONS:
        assert injection.gates <= GATES and injection.cause.split(".")[0] in injection.gates
        assert injection.cause in rules, f"{injection.cause} has no rule: it could never flag"
        for gate in injection.gates:
            by_gate[gate] = by_gate.get(gate, 0) + 1
    assert by_gate.keys() == GATES and min(by_gate.values()) >= 2
    assert len({i.name for i in INJECTIONS}) == len(INJECTIONS)


def test_a_stage_fault_replaces_that_stage_only() -> None:
    seen: list[str] = []

    def fault(fn: Any, ctx: IndexContext, tables: dict[str, pa.Table]) -> StageOutput:
        seen.append("fault")
        return StageOutput({})

    injection = Injection(
        "x", frozenset({"data"}), "data.lineage_coverage", stage=("resolve", fault)
    )
    pipeline = injection.pipeline(PIPELINES)
    changed = [
        a.name for a, b in zip(pipeline.stages, PIPELINES["graph"].stages, strict=True) if a != b
    ]
    assert changed == ["resolve"] and pipeline.stage_names() == PIPELINES["graph"].stage_names()
    resolve = next(s for s in pipeline.stages if s.name == "resolve")
    assert isinstance(resolve, Stage) and resolve.fn(None, {}).tables == {}  # type: ignore[arg-type]
    assert seen == ["fault"]
    assert Injection("y", frozenset(), "").pipeline(PIPELINES) is PIPELINES["graph"]
    with pytest.raises(ValueError, match="no stage 'nope'"):
        Injection("z", frozenset(), "", stage=("nope", fault)).pipeline(PIPELINES)


def test_parser_faults_change_the_text_as_a_parser_would(tmp_path: Path) -> None:
    text = "# Title\n\nFirst paragraph ends here.\nStill first.\n\n  Second paragraph ends."
    flat = flatten_paragraphs(text)
    assert "\n" not in flat and flat.startswith("# Title First paragraph ends here. Still")
    cut = truncate("one two three four five six seven eight nine ten.")
    assert cut == "one two three four five six" and not cut.endswith(".")  # 60 %, at a space
    assert truncate("x" * 10) == "x" * 6  # no space: cut where it falls
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"id": f"d{i}", "text": f"Text {i}.\n\nMore."} for i in range(6)]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = rewritten(corpus, tmp_path / "flat", flatten_paragraphs)
    read = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in read] == [r["id"] for r in rows]
    assert read[0]["text"] == "Text 0. More."
    twice = [
        json.loads(line) for line in duplicated(corpus, tmp_path / "twice").read_text().splitlines()
    ]
    assert [r["id"] for r in twice[6:]] == ["d0 (copy)", "d5 (copy)"]
    assert twice[6]["text"] == rows[0]["text"]
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("A one.\nA two.")
    assert (
        rewritten(folder, tmp_path / "f2", flatten_paragraphs) / "a.txt"
    ).read_text() == "A one. A two."
    assert sorted(p.name for p in duplicated(folder, tmp_path / "f3").iterdir()) == [
        "a.txt",
        "copy-a.txt",
    ]


def test_an_answer_citing_the_next_chunk_is_not_an_accurate_citation() -> None:
    chunks = [
        RetrievedChunk("c1", "d1", "Alice founded Acme.", 0, 19, 1.0),
        RetrievedChunk("c2", "d1", "Bob left Acme.", 20, 34, 0.5),
    ]
    result = RetrievalResult("q", "local", chunks=chunks)

    class Quoting:
        name = "quoting"

        def answer(self, result: RetrievalResult, run_id: str) -> Answer:
            cited = [Citation(1, "c1", "d1", 0, 19, "Alice founded Acme.")]
            return Answer("q", "local", "Alice founded Acme. [1]", cited, result, self.name, run_id)

    case = TestCase.model_validate({"id": "c", "question": "q", "question_type": "single_hop"})
    judge = DeterministicJudge()
    right = judge.judge(case, Quoting().answer(result, "r"))
    wrong = CitingNeighbour(Quoting()).answer(result, "r")
    assert right.citation_coverage == 1.0
    assert [c.chunk_id for c in wrong.citations] == ["c2"]  # its span is c1's
    assert judge.judge(case, wrong).citation_coverage == 0.0


def test_type_shift_is_the_share_of_mentions_that_would_change_type() -> None:
    assert type_shift({"PERSON": 3, "ORG": 1}, {"ORG": 2, "PERSON": 6}) == 0.0
    assert type_shift({"PERSON": 4}, {"ORG": 4}) == 1.0
    assert type_shift({"PERSON": 1, "ORG": 1}, {"PERSON": 1}) == pytest.approx(0.5)
    assert type_shift({}, {}) == 0.0


def test_ie_gate_measures_yield_per_token_and_the_shift_from_its_baseline() -> None:
    chunks = [Chunk("c1", "d", 0, "x", 0, 1, 400), Chunk("c2", "d", 1, "y", 1, 2, 600)]
    base = _ctx(mention_types={"PERSON": 5, "ORG": 5})
    ctx = _ctx(
        chunks=chunks,
        mention_types={"PERSON": 8, "GPE": 2},
        relation_kinds={"svo": 1, "cooccurrence": 4},
        extraction={"chunks": 2},
        baseline=base,
    )
    m = IEGate().measure(ctx).metrics
    assert m["mentions_per_1k_tokens"] == 10.0 and m["relations_per_1k_tokens"] == 5.0
    assert m["type_shift"] == pytest.approx(0.5)  # 0.3 more PERSON, 0.2 GPE for ORG's 0.5
    alone = IEGate().measure(_ctx(chunks=chunks, mention_types={"PERSON": 1}, extraction={}))
    assert alone.metrics["type_shift"] is None
    vector_only = IEGate().measure(_ctx(chunks=chunks, extraction=None)).metrics
    assert vector_only["mentions_per_1k_tokens"] is None


def test_chunk_gate_sees_flattened_paragraphs_and_documents_cut_short() -> None:
    text = "First one.\n\nSecond one here.\n\nThird, and the last one."
    doc = Document("d", "t", text, "a" * 64, 1, len(text), "p")
    cut = "It went on and on until"
    short = Document("e", "t", cut, "b" * 64, 1, len(cut), "p")
    chunks = [
        Chunk("c0", "d", 0, text[0:10], 0, 10, 2),
        Chunk("c1", "d", 1, text[12:29], 12, 29, 3),
        Chunk("c2", "d", 2, text[15:40], 15, 40, 4),  # ends inside a paragraph
        Chunk("c3", "d", 3, text[31:], 31, len(text), 5),  # the last: not counted
        Chunk("e0", "e", 0, cut, 0, len(cut), 6),
    ]
    m = ChunkGate().measure(_ctx(documents=[doc, short], chunks=chunks)).metrics
    assert m["paragraph_end_rate"] == pytest.approx(2 / 3)
    assert m["unfinished_documents"] == 0.5
    assert m["chars_per_document"] == (len(text) + len(cut)) / 2
    single = ChunkGate().measure(_ctx(documents=[short], chunks=chunks[-1:])).metrics
    assert single["paragraph_end_rate"] is None  # no chunk has a next one to break before


def _community(cid: str, level: int, members: list[str], parent: str | None = None) -> Community:
    return Community(cid, level, parent, [], members, len(members))


def test_a_repeated_run_must_repeat_the_partition_and_levels_are_counted() -> None:
    now = [_community("a", 0, ["x", "y"]), _community("b", 0, ["z", "w"])]
    before = [_community("a", 0, ["x", "z"]), _community("b", 0, ["y", "w"])]
    base = _ctx(communities=before)
    repeated = _ctx(communities=now, baseline=base, repeats_baseline=True, stability={})
    metrics = CommunityGate().measure(repeated).metrics
    assert metrics["repeated_partition_ari"] == metrics["ari_vs_baseline"] < 0.999
    judged = apply_rules(GateResult("community", metrics), GateSettings().effective_rules(), {})
    assert judged.verdicts["repeated_partition_ari"] == WARN
    other_seed = _ctx(communities=now, baseline=base, stability={})
    assert CommunityGate().measure(other_seed).metrics["repeated_partition_ari"] is None
    nested = [
        _community("a", 0, ["x", "y"]),
        _community("b", 0, ["z", "w"]),
        _community("a1", 1, ["x"], "a"),
    ]
    assert HierarchyGate().measure(_ctx(communities=nested)).metrics["levels"] == 2.0
    judged = apply_rules(
        GateResult("community", {"repeated_partition_ari": None}),
        GateSettings().effective_rules(),
        {},
    )
    assert judged.verdicts["repeated_partition_ari"] == UNMEASURED


def test_cause_notes_name_the_stage_for_flagged_metrics_only() -> None:
    chunk = GateResult("chunk", {"paragraph_end_rate": 0.0, "unfinished_documents": 0.0})
    chunk.verdicts = {"paragraph_end_rate": WARN, "unfinished_documents": "PASS"}
    notes = cause_notes([chunk], {"chunk": {"paragraph_end_rate": 0.3717}})
    assert notes == [
        "chunks end at a paragraph break 0.0% of the time (was 0.3717): the parser may be "
        "losing paragraph breaks"
    ]
    gen = GateResult("gen", {"latency_p50_ms": 125.8})
    gen.verdicts = {"latency_p50_ms": WARN}
    assert "(was ?)" in cause_notes([gen], None)[0]


class _Counting:
    """An external retriever: the harness must not call it more than once a case."""

    def __init__(self) -> None:
        self.calls = 0

    def retrieve(self, question: str, top_k: int | None = None) -> RetrievalResult:
        self.calls += 1
        return RetrievalResult(question, "mine")


def test_the_harness_warms_only_its_own_modes(tmp_path: Path) -> None:
    class Silent:
        name = "silent"

        def answer(self, result: RetrievalResult, run_id: str) -> Answer:
            return Answer(result.question, result.mode, "", [], result, self.name, run_id)

    retriever = _Counting()
    cases = [
        TestCase.model_validate({"id": f"c{i}", "question": "q", "question_type": "single_hop"})
        for i in range(3)
    ]
    harness = EvalHarness({"mine": retriever}, Silent(), DeterministicJudge(), EvalSettings())
    harness.run(cases, ["mine"], tmp_path)
    assert retriever.calls == 3


def test_the_sensitivity_check_refuses_a_workspace_in_use(tmp_path: Path) -> None:
    from graphgate.app.sensitivity import gate_sensitivity
    from graphgate.core.errors import ConfigError

    used = tmp_path / "ws"
    used.mkdir()
    (used / "CURRENT").write_text("run")
    with pytest.raises(ConfigError, match="not empty") as refused:
        gate_sensitivity(used, tmp_path / "corpus")
    assert "new folder" in str(refused.value.fix) and sorted(p.name for p in used.iterdir()) == [
        "CURRENT"
    ]
