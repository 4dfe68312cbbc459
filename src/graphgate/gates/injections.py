"""Realistic regressions, injected one at a time, to show that the gates catch what they exist
to catch (``app/sensitivity.py`` runs them): each is a change a team makes by accident — a
setting, a parser that reads documents differently, a stage whose output went wrong, an
answerer — named with the gates that must flag it.

A fault acts where the real one would: a setting through the settings, a parser on the
documents' text before indexing, a stage's bug on that stage's output (its inputs and the
content caches stay as they were), an answerer's bug on its answers. Nothing here changes how
the gates measure.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from graphgate.core.types import COOCCURS
from graphgate.evaluate.harness import Generator
from graphgate.index.pipeline import IndexContext, Pipeline, Stage, StageFn, StageOutput
from graphgate.query.base import Answer, Citation, RetrievalResult

# A stage's bug: the stage's own function, its context and inputs -> what the buggy stage gives.
StageFault = Callable[[StageFn, IndexContext, Mapping[str, pa.Table]], StageOutput]
CorpusFault = Callable[[Path, Path], Path]  # (corpus, scratch folder) -> the corpus as read


@dataclass(frozen=True)
class Injection:
    """One regression: how it is made, and the gates (by name) that must flag it."""

    name: str
    gates: frozenset[str]
    cause: str  # "gate.metric": the measure that names this regression when it is flagged
    settings: Mapping[str, Any] = field(default_factory=dict)
    corpus: CorpusFault | None = None
    stage: tuple[str, StageFault] | None = None
    answerer: Callable[[Generator], Generator] | None = None

    @property
    def at_query_time(self) -> bool:
        """Whether only answers change (the index is the baseline's; the Gen gate judges an
        evaluation of it)."""
        return self.answerer is not None

    def pipeline(self, pipelines: Mapping[str, Pipeline], name: str = "graph") -> Pipeline:
        """``pipelines[name]`` with this injection's stage fault in place (as it is without)."""
        chosen = pipelines[name]
        if self.stage is None:
            return chosen
        stage_name, fault = self.stage
        stages = tuple(_faulty(s, fault) if s.name == stage_name else s for s in chosen.stages)
        if stages == chosen.stages:
            raise ValueError(f"pipeline {name!r} has no stage {stage_name!r}")
        return Pipeline(chosen.name, stages)


def _faulty(stage: Stage, fault: StageFault) -> Stage:
    def run(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
        return fault(stage.fn, ctx, tables)

    return dataclasses.replace(stage, fn=run)


def _share(key: str, share: float) -> bool:
    """A fixed share of keys, the same on every run (no random state)."""
    digest = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")
    return digest < share * 2**32


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    return list(table.to_pylist())


def _table(rows: list[dict[str, Any]], like: pa.Table) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=like.schema)


# -- corpus faults: what a parser hands the chunker --------------------------------------------
def rewritten(corpus: Path, out: Path, change: Callable[[str], str]) -> Path:
    """``corpus`` (a folder of text files, or a JSONL file) with each document's text changed."""
    if corpus.is_dir():
        shutil.copytree(corpus, out, dirs_exist_ok=True)
        for file in sorted(p for p in out.rglob("*") if p.is_file()):
            file.write_text(change(file.read_text(encoding="utf-8")), encoding="utf-8")
        return out
    rows = [json.loads(line) for line in corpus.read_text().splitlines() if line.strip()]
    target = out.with_suffix(".jsonl")
    target.write_text("".join(json.dumps({**r, "text": change(r["text"])}) + "\n" for r in rows))
    return target


def flatten_paragraphs(text: str) -> str:
    """A parser that loses paragraph breaks: every line break becomes a space."""
    return re.sub(r"[ \t]*\n\s*", " ", text)


def truncate(text: str, keep: float = 0.6) -> str:
    """A reader that stops early (a page limit, a cut download): the text ends mid-sentence."""
    cut = text.rfind(" ", 0, int(len(text) * keep))
    return text[: cut if cut > 0 else int(len(text) * keep)]


def duplicated(corpus: Path, out: Path) -> Path:
    """Every fifth document again under a new id (a folder ingested twice, a copy renamed)."""
    if corpus.is_dir():
        shutil.copytree(corpus, out, dirs_exist_ok=True)
        for file in sorted(p for p in corpus.iterdir() if p.is_file())[::5]:
            shutil.copy(file, out / f"copy-{file.name}")
        return out
    rows = [json.loads(line) for line in corpus.read_text().splitlines() if line.strip()]
    extra = [{**row, "id": f"{row['id']} (copy)"} for row in rows[::5]]
    target = out.with_suffix(".jsonl")
    target.write_text("".join(json.dumps(r) + "\n" for r in [*rows, *extra]))
    return target


# -- stage faults --------------------------------------------------------------------------------
def lineage_lost(fn: StageFn, ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """Resolution forgets the documents of the entities it merged from several."""
    out = fn(ctx, tables)
    entities = _rows(out.tables["entities"])
    for row in entities:
        if len(row["doc_ids"]) > 1 or len(row["chunk_ids"]) > 1:
            row["doc_ids"] = []
    return StageOutput(
        {**out.tables, "entities": _table(entities, out.tables["entities"])}, out.info
    )


def unreadable_answers(
    fn: StageFn, ctx: IndexContext, tables: Mapping[str, pa.Table], share: float = 0.1
) -> StageOutput:
    """A model whose answers for a share of chunks cannot be read (malformed JSON after the
    retry): those chunks give nothing, counted as failed, as the LLM extractor counts them."""
    out = fn(ctx, tables)
    lost = {c for c in tables["chunks"]["id"].to_pylist() if _share(c, share)}
    kept = {
        name: _table([r for r in _rows(out.tables[name]) if r["chunk_id"] not in lost], t)
        for name, t in out.tables.items()
    }
    info = {**out.info, "failed_chunks": int(out.info.get("failed_chunks", 0)) + len(lost)}
    return StageOutput(kept, info)


GENERIC_TERM = "the company"


def generic_hub(fn: StageFn, ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """An extractor that takes a generic term for a name (a prompt change: "the company" in
    every chunk), met by everything named beside it."""
    out = fn(ctx, tables)
    mentions, relations = _rows(out.tables["mentions"]), _rows(out.tables["raw_relations"])
    first: dict[str, dict[str, Any]] = {}
    names: dict[str, set[str]] = {}
    for m in mentions:
        first.setdefault(m["chunk_id"], m)
        names.setdefault(m["chunk_id"], set()).add(m["name"])
    for chunk_id, m in first.items():
        mentions.append({**m, "name": GENERIC_TERM, "type": "ORG"})
        for name in sorted(names[chunk_id]):
            relations.append(
                {
                    "chunk_id": chunk_id,
                    "doc_id": m["doc_id"],
                    "source_name": GENERIC_TERM,
                    "target_name": name,
                    "predicate": COOCCURS,
                    "kind": "cooccurrence",
                    "sentence": m["sentence"],
                    "valid_from": None,
                    "valid_to": None,
                }
            )
    return StageOutput(
        {
            "mentions": _table(mentions, out.tables["mentions"]),
            "raw_relations": _table(relations, out.tables["raw_relations"]),
        },
        out.info,
    )


HARD_CODED_SEED = 12345


def seed_ignored(fn: StageFn, ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """Community detection that no longer gets the run's seed (one hard-coded in its place):
    the run's settings and seed no longer say which partition it has."""
    settings = ctx.settings.model_copy(update={"seed": HARD_CODED_SEED})
    return fn(dataclasses.replace(ctx, settings=settings), tables)


UNSUPPORTED_CLAIM = "It was founded in 1843 by the Royal Society of Lamplighters."


def unsupported_claim(
    fn: StageFn, ctx: IndexContext, tables: Mapping[str, pa.Table]
) -> StageOutput:
    """A summarizer that adds a sentence no source holds to every report."""
    out = fn(ctx, tables)
    reports = _rows(out.tables["community_reports"])
    for row in reports:
        row["summary"] = f"{row['summary']} {UNSUPPORTED_CLAIM}".strip()
    return StageOutput(
        {**out.tables, "community_reports": _table(reports, out.tables["community_reports"])},
        out.info,
    )


# -- answerer faults -----------------------------------------------------------------------------
class CitingNeighbour:
    """An answerer whose markers are mapped to chunks off by one: each citation names the
    retrieved chunk after the one its text came from."""

    def __init__(self, inner: Generator) -> None:
        self.inner = inner
        self.name = inner.name

    def answer(self, result: RetrievalResult, run_id: str) -> Answer:
        answer = self.inner.answer(result, run_id)
        ids = [c.id for c in result.chunks]
        if len(ids) < 2:
            return answer
        after = {a: b for a, b in zip(ids, ids[1:] + ids[:1], strict=True)}
        answer.citations = [
            Citation(c.marker, after.get(c.chunk_id, c.chunk_id), c.doc_id, c.start, c.end, c.text)
            for c in answer.citations
        ]
        return answer


class SlowerAnswers:
    """An answerer that takes ``delay_s`` longer per answer (a slower model, a retry loop)."""

    def __init__(self, inner: Generator, delay_s: float = 0.1) -> None:
        self.inner = inner
        self.name = inner.name
        self.delay_s = delay_s

    def answer(self, result: RetrievalResult, run_id: str) -> Answer:
        time.sleep(self.delay_s)
        return self.inner.answer(result, run_id)


def _injection(name: str, cause: str, **how: Any) -> Injection:
    return Injection(name, frozenset({cause.split(".")[0]}), cause, **how)


def _text(change: Callable[[str], str]) -> CorpusFault:
    return lambda corpus, out: rewritten(corpus, out, change)


_REPORTS_TRUNCATED = {"report_entities": 1, "report_relationships": 0, "report_sentences": 0}

INJECTIONS: tuple[Injection, ...] = (
    _injection(
        "documents duplicated under new ids", "data.duplicate_content_rate", corpus=duplicated
    ),
    _injection(
        "lineage lost on merged entities", "data.lineage_coverage", stage=("resolve", lineage_lost)
    ),
    _injection("chunks of 60 tokens", "chunk.tokens_p50", settings={"chunk": {"size_tokens": 60}}),
    _injection(
        "chunk overlap gone", "chunk.overlap_mean", settings={"chunk": {"overlap_tokens": 0}}
    ),
    _injection(
        "parser loses paragraph breaks",
        "chunk.paragraph_end_rate",
        corpus=_text(flatten_paragraphs),
    ),
    _injection("documents truncated", "chunk.unfinished_documents", corpus=_text(truncate)),
    _injection(
        "extractor narrowed to PERSON",
        "ie.type_shift",
        settings={"extract": {"entity_types": ["PERSON"]}},
    ),
    _injection(
        "co-occurrence edges off",
        "ie.relations_per_1k_tokens",
        settings={"extract": {"cooccurrence_edges": False}},
    ),
    _injection(
        "a tenth of extractions unreadable",
        "ie.failed_chunk_share",
        stage=("extract", unreadable_answers),
    ),
    _injection(
        "resolution without embedding merges",
        "graph.near_duplicate_rate",
        settings={"resolve": {"use_embeddings": False, "similarity_threshold": 1.0}},
    ),
    _injection(
        "resolution stricter (0.95)",
        "graph.near_duplicate_rate",
        settings={"resolve": {"similarity_threshold": 0.95}},
    ),
    _injection(
        "resolution over-merging (0.0)",
        "graph.entities_per_document",
        settings={"resolve": {"similarity_threshold": 0.0}},
    ),
    _injection("a generic term becomes a hub", "graph.hub_share", stage=("extract", generic_hub)),
    _injection(
        "Leiden resolution 1 -> 8",
        "community.modularity",
        settings={"communities": {"resolution": 8.0}},
    ),
    _injection(
        "Leiden ignores the seed",
        "community.repeated_partition_ari",
        stage=("communities", seed_ignored),
    ),
    _injection(
        "levels collapsed (no split)",
        "hierarchy.levels",
        settings={"communities": {"max_cluster_size": 100_000}},
    ),
    _injection(
        "levels over-split (clusters of 10)",
        "hierarchy.levels",
        settings={"communities": {"max_cluster_size": 10}},
    ),
    _injection(
        "reports truncated", "summary.entity_coverage", settings={"communities": _REPORTS_TRUNCATED}
    ),
    _injection(
        "reports carry an unsupported claim",
        "summary.hallucinated_claims",
        stage=("summarize", unsupported_claim),
    ),
    _injection("answers cite the wrong chunk", "gen.citation_accuracy", answerer=CitingNeighbour),
    _injection("answers 100 ms slower", "gen.latency_p50_ms", answerer=SlowerAnswers),
)
