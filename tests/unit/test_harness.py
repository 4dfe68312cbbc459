"""The harness over an external pipeline: any retriever and generator with the documented shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphgate.core.config import EvalSettings
from graphgate.core.errors import InputError
from graphgate.evaluate.harness import (
    MISSED_RETRIEVAL_FAILURE,
    PASSED,
    REASONING_FAILURE,
    RESULTS,
    RETRIEVAL_FAILURE,
    UNATTRIBUTED,
    EvalHarness,
    read_results,
)
from graphgate.evaluate.judge import DeterministicJudge
from graphgate.evaluate.summary import summarize
from graphgate.evaluate.testset import TestCase, parse_testset
from graphgate.query.base import Answer, Citation, RetrievalResult, RetrievedChunk, RetrievedEntity

CORPUS = {
    "d1": "Alice Smith founded Acme Corp.",
    "d2": "Acme Corp is based in Paris.",
    "d3": "Bananas are yellow.",
}


class KeywordRetriever:
    """An external pipeline: returns documents sharing a word with the question."""

    mode = "keyword"

    def retrieve(self, question: str, top_k: int | None = None) -> RetrievalResult:
        words = set(question.lower().replace("?", "").split())
        chunks = [
            RetrievedChunk(d, d, t, 0, len(t), 1.0)
            for d, t in CORPUS.items()
            if words & set(t.lower().rstrip(".").split())
        ]
        names = [
            n for n in ("Alice Smith", "Acme Corp", "Paris") if any(n in c.text for c in chunks)
        ]
        entities = [RetrievedEntity(n, n, "X", 1.0) for n in names]
        return RetrievalResult(question, self.mode, chunks[: top_k or 5], entities)


class FirstSentenceGenerator:
    name = "first-sentence"

    def answer(self, result: RetrievalResult, run_id: str) -> Answer:
        if not result.chunks:
            return Answer(
                result.question, result.mode, "I do not know.", [], result, self.name, run_id
            )
        c = result.chunks[0]
        return Answer(
            result.question,
            result.mode,
            c.text,
            [Citation(1, c.id, c.doc_id, 0, 1, "")],
            result,
            self.name,
            run_id,
        )


class GoldFromCorpus:
    def context(self, case: TestCase) -> RetrievalResult | None:
        if not case.gold_docs:
            return None
        chunks = [RetrievedChunk(d, d, CORPUS[d], 0, 1, 1.0) for d in case.gold_docs]
        return RetrievalResult(case.question, "gold", chunks)


CASES = parse_testset(
    [
        json.dumps(c)
        for c in [
            # right from retrieval
            {
                "id": "pass",
                "question": "Who founded Acme?",
                "question_type": "single_hop",
                "answer": "Alice Smith",
                "gold_docs": ["d1"],
                "gold_entities": ["Alice Smith"],
            },
            # gold entity Bob Jones never retrieved: recall 0 < 0.85
            {
                "id": "retrieval",
                "question": "Who founded Acme?",
                "question_type": "single_hop",
                "answer": "Alice Smith",
                "gold_entities": ["Bob Jones"],
            },
            # recall fine (no entity gold), wrong answer, gold context gives it: a missed retrieval
            {
                "id": "missed",
                "question": "Where is Acme based?",
                "question_type": "multi_hop",
                "answer": "Paris",
                "gold_docs": ["d2"],
            },
            # wrong even from the gold context: reasoning
            {
                "id": "reasoning",
                "question": "What colour are bananas?",
                "question_type": "single_hop",
                "answer": "green",
                "gold_docs": ["d3"],
            },
            # wrong and no gold context
            {
                "id": "unattributed",
                "question": "Who founded Acme?",
                "question_type": "single_hop",
                "answer": "Bob",
            },
            {"id": "unmeasured", "question": "Anything?", "question_type": "global", "custom": 7},
        ]
    ]
)


def _harness() -> EvalHarness:
    return EvalHarness(
        {"keyword": KeywordRetriever()},
        FirstSentenceGenerator(),
        DeterministicJudge(),
        EvalSettings(),
        GoldFromCorpus(),
    )


def test_every_attribution_branch(tmp_path: Path) -> None:
    records = _harness().run(CASES, ["keyword"], tmp_path)
    failures = {r["case_id"]: r["failure"] for r in records}
    assert failures == {
        "pass": PASSED,
        "retrieval": RETRIEVAL_FAILURE,
        "missed": MISSED_RETRIEVAL_FAILURE,
        "reasoning": REASONING_FAILURE,
        "unattributed": UNATTRIBUTED,
        "unmeasured": None,
    }
    extra = next(r for r in records if r["case_id"] == "unmeasured")
    assert extra["extras"] == {"custom": 7}  # unknown fields pass through
    assert extra["metrics"]["answer_correctness"] is None


def test_summary_counts_unmeasured_apart(tmp_path: Path) -> None:
    records = _harness().run(CASES, ["keyword"], tmp_path)
    summary = summarize(records, EvalSettings())
    er = summary["modes"]["keyword"]["overall"]["metrics"]["entity_recall"]
    assert (er["measured"], er["unmeasured"], er["mean"]) == (2, 4, 0.5)
    single = summary["modes"]["keyword"]["by_type"]["single_hop"]
    assert single["cases"] == 4 and single["failures"][PASSED] == 1


def test_resume_after_a_killed_run_gives_the_same_summary(tmp_path: Path) -> None:
    full = summarize(_harness().run(CASES, ["keyword"], tmp_path / "full"), EvalSettings())
    out = tmp_path / "killed"
    seen: list[str] = []

    def die_after_three(record: dict[str, Any]) -> None:
        seen.append(record["case_id"])
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _harness().run(CASES, ["keyword"], out, progress=die_after_three)
    with (out / RESULTS).open("a") as fh:
        fh.write('{"case_id": "torn')  # a line cut short by the kill
    assert len(read_results(out)) == 3
    resumed = summarize(_harness().run(CASES, ["keyword"], out, resume=True), EvalSettings())
    assert resumed == full
    assert len((out / RESULTS).read_text().splitlines()) == len(CASES)


def test_resume_refuses_other_arguments_and_fresh_runs_refuse_old_results(tmp_path: Path) -> None:
    _harness().run(CASES[:2], ["keyword"], tmp_path)
    with pytest.raises(InputError, match="--resume"):
        _harness().run(CASES[:2], ["keyword"], tmp_path)
    with pytest.raises(InputError, match="another test set"):
        _harness().run(CASES, ["keyword"], tmp_path, resume=True)
    with pytest.raises(InputError, match="no evaluation to resume"):
        _harness().run(CASES, ["keyword"], tmp_path / "new", resume=True)
    with pytest.raises(InputError, match="unknown modes"):
        _harness().run(CASES, ["telepathy"], tmp_path / "x")
