"""``graphgate eval`` over a workspace: pre-flight, the harness, summary.json."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.errors import IndexMissingError, InputError
from graphgate.evaluate.gold import IndexGoldContext
from graphgate.evaluate.harness import SUMMARY, EvalHarness
from graphgate.evaluate.summary import compare, latency_summary, summarize
from graphgate.evaluate.testset import load_testset
from graphgate.gates.context import EVAL_SUMMARY
from graphgate.inputs import output_folder, parse_modes
from graphgate.workspace import Workspace

GRAPH_MODES = {"local", "graph", "hybrid", "global"}


@dataclass(frozen=True)
class EvalOutcome:
    out_dir: Path
    records: list[dict[str, Any]]
    summary: dict[str, Any]


def preflight(ws: Workspace, modes: Sequence[str]) -> list[str]:
    """Checks before any case runs; each failure raises with the exact fix."""
    checks: list[str] = []
    loaded = ws.loaded()  # raises when there is no index, or on an embedding mismatch
    checks.append(f"index run {loaded.run.run_id} is current")
    checks.append(f"embedding {ws.embedder.model} ({ws.embedder.dimension}) matches the index")
    if GRAPH_MODES & set(modes):
        if not loaded.entities or not loaded.relationships:
            raise IndexMissingError(
                f"run {loaded.run.run_id} has {len(loaded.entities)} entities and "
                f"{len(loaded.relationships)} edges; graph modes need both",
                "index with the graph pipeline (`graphgate index CORPUS`)",
            )
        checks.append(f"{len(loaded.entities)} entities, {len(loaded.relationships)} edges")
    for mode in modes:
        ws.retriever(mode)  # unknown modes fail here, before any case
    return checks


def evaluate(
    ws: Workspace,
    testset: Path,
    modes: Sequence[str],
    out_dir: Path,
    resume: bool = False,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> EvalOutcome:
    modes = parse_modes(modes)
    cases = load_testset(testset)  # refuses an empty test set
    output_folder(out_dir, "the evaluation folder")
    preflight(ws, modes)
    settings = ws.settings.eval
    harness = EvalHarness(
        {m: ws.retriever(m) for m in modes},
        ws.answerer(),
        ws.judge(),
        settings,
        IndexGoldContext(ws.loaded()),
        run_id=ws.loaded().run.run_id,
    )
    records = harness.run(cases, modes, out_dir, resume=resume, progress=progress)
    if not records:
        raise InputError(
            f"the evaluation of {testset} scored no case", "check the test set and the modes"
        )
    summary = summarize(records, settings)
    summary["latency_ms"] = latency_summary(records)
    if "vector" in modes and len(modes) > 1:
        summary["comparison"] = compare(
            records, "vector", settings.bootstrap_samples, ws.settings.seed
        )
    summary["run_id"] = ws.loaded().run.run_id
    summary["testset"] = str(testset)
    summary["generator"] = harness.generator.name
    summary["judge"] = harness.judge.name
    summary["llm"] = ws.llm_usage()
    text = json.dumps(summary, indent=2, sort_keys=True)
    (out_dir / SUMMARY).write_text(text)
    # The Gen Eval gate reads the latest evaluation of the run it scored.
    (ws.loaded().run.path / EVAL_SUMMARY).write_text(text)
    return EvalOutcome(out_dir, records, summary)
