"""An evaluation over given parts: pre-flight, the harness, the summary.

It depends on protocols (retrievers, a generator, a judge, a gold context), never on the
workspace that composes them (``Workspace.evaluate``), so any pipeline can be evaluated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from graphgate.config import EvalSettings
from graphgate.errors import IndexMissingError, InputError
from graphgate.evaluate.harness import (
    SUMMARY,
    EvalHarness,
    EvidenceSource,
    Generator,
    GoldContext,
)
from graphgate.evaluate.judge import Judge
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.records import EvalRecord, EvalSummary
from graphgate.evaluate.summary import compare, latency_summary, summarize
from graphgate.evaluate.testset import load_testset
from graphgate.inputs import output_folder
from graphgate.modes import GRAPH_MODES
from graphgate.query.base import Retriever


@dataclass(frozen=True)
class EvalOutcome:
    out_dir: Path
    records: list[EvalRecord]
    summary: EvalSummary


def check_graph(modes: Sequence[str], run_id: str, entities: int, relationships: int) -> str:
    """Graph modes need a graph: refuse before any case runs, with the fix."""
    if GRAPH_MODES & set(modes) and (not entities or not relationships):
        raise IndexMissingError(
            f"run {run_id} has {entities} entities and {relationships} edges; graph modes "
            "need both",
            "index with the graph pipeline (`graphgate index CORPUS`)",
        )
    return f"{entities} entities, {relationships} edges"


def run_evaluation(
    testset: Path,
    retrievers: Mapping[str, Retriever],
    generator: Generator,
    judge: Judge,
    settings: EvalSettings,
    gold: GoldContext,
    run_id: str,
    out_dir: Path,
    seed: int = 0,
    resume: bool = False,
    progress: Callable[[EvalRecord], None] | None = None,
    predicates: PredicateMatcher | None = None,
    evidence: EvidenceSource | None = None,
) -> EvalOutcome:
    modes = list(retrievers)
    cases = load_testset(testset)  # refuses an empty test set
    output_folder(out_dir, "the evaluation folder")
    harness = EvalHarness(
        dict(retrievers),
        generator,
        judge,
        settings,
        gold,
        run_id=run_id,
        predicates=predicates,
        evidence=evidence,
    )
    records = harness.run(cases, modes, out_dir, resume=resume, progress=progress)
    if not records:
        raise InputError(
            f"the evaluation of {testset} scored no case", "check the test set and the modes"
        )
    summary = summarize(records, settings)
    summary["latency_ms"] = latency_summary(records)
    if "vector" in modes and len(modes) > 1:
        summary["comparison"] = compare(records, "vector", settings.bootstrap_samples, seed)
    summary["run_id"] = run_id
    summary["testset"] = str(testset)
    summary["generator"] = harness.generator.name
    summary["judge"] = harness.judge.name
    return EvalOutcome(out_dir, records, summary)


def write_summary(outcome: EvalOutcome, *also: Path) -> str:
    """summary.json in the evaluation folder (and at each path in ``also``)."""
    text = json.dumps(outcome.summary, indent=2, sort_keys=True)
    for path in (outcome.out_dir / SUMMARY, *also):
        path.write_text(text)
    return text
