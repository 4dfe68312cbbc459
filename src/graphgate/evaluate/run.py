"""An evaluation over given parts: pre-flight, the harness, the summary.

It depends on protocols (retrievers, a generator, a judge, a gold context), never on the
workspace that composes them (``Workspace.evaluate``), so any pipeline can be evaluated.
"""

from __future__ import annotations

import json
import secrets
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from graphgate.core.config import EvalSettings
from graphgate.core.errors import IndexMissingError, InputError
from graphgate.core.inputs import output_folder
from graphgate.core.modes import GRAPH_MODES
from graphgate.core.runs import Run
from graphgate.evaluate.harness import (
    RESULTS,
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
    max_question_chars: int | None = None,
) -> EvalOutcome:
    modes = list(retrievers)
    # Every case is checked (an empty test set refused) before the folder is made.
    cases = load_testset(testset, max_question_chars)
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


def write_summary(outcome: EvalOutcome, run: Run | None = None) -> str:
    """summary.json in the evaluation folder; with ``run``, also as the run's latest evaluation
    (the Gen gate reads it) and, unless it was written there, a copy of the whole evaluation
    kept with the run (``evals/<id>``), so every evaluation of a run can be listed and opened."""
    text = json.dumps(outcome.summary, indent=2, sort_keys=True)
    (outcome.out_dir / SUMMARY).write_text(text)
    if run is None:
        return text
    run.eval_summary_path.write_text(text)
    if outcome.out_dir.resolve().parent != run.evals_dir.resolve():
        eval_id = time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)
        folder = run.eval_dir(eval_id)
        folder.mkdir(parents=True)
        shutil.copyfile(outcome.out_dir / RESULTS, folder / RESULTS)
        (folder / SUMMARY).write_text(text)
    return text
