"""A workspace over time: its runs, each gate metric across them, and finished evaluations.

Everything here is read from what runs already stored (manifests, ``gates.json``, evaluation
folders); nothing is recomputed, so a page of history costs file reads, not gate runs. Run and
evaluation ids from a client are checked against their shapes before any path is built.
"""

from __future__ import annotations

import re
from typing import Any

from typing_extensions import TypedDict

from graphgate.core.config import GateSettings
from graphgate.core.errors import GraphgateError, NotFoundError
from graphgate.core.manifest import RunManifest
from graphgate.core.runs import INTERRUPTED, Run, RunRegistry
from graphgate.evaluate.harness import RESULTS, SUMMARY
from graphgate.evaluate.records import EvalRecord, parse_record, parse_summary
from graphgate.gates.bands import Band, judging_bands
from graphgate.gates.runner import baseline_id, stored_gates

_RUN_ID = re.compile(r"^\d{8}-\d{9}-[0-9a-f]{6}$")
_EVAL_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class RunOverview(TypedDict):
    run_id: str
    status: str
    pipeline: str | None
    seconds: float | None
    verdict: str | None
    current: bool
    baseline: bool
    started_at: str | None
    origin: str | None
    parent_run: str | None
    changes: dict[str, Any]
    counts: dict[str, Any]
    curation: int | None
    edits_not_applied: list[int]


class TrendPoint(TypedDict):
    run_id: str
    value: float | None
    verdict: str | None


class MetricTrend(TypedDict):
    gate: str
    metric: str
    direction: str
    fail_below: float | None
    fail_above: float | None
    baseline: float | None  # the baseline run's value
    # The band of the runs comparable with the baseline (gates/bands.py), when enough have it.
    band_low: float | None
    band_high: float | None
    band_runs: int
    band_source: str | None  # "comparable runs" (other seeds) or "recent runs" (evolving)
    points: list[TrendPoint]


class EvaluationRef(TypedDict):
    run_id: str
    eval_id: str
    cases: int
    modes: list[str]
    verdict: str
    testset: str  # the test set's file name, not where it lies


def run_by_id(registry: RunRegistry, run_id: str) -> Run:
    if not _RUN_ID.match(run_id) or not (registry.runs_dir / run_id).is_dir():
        raise NotFoundError(f"no run {run_id!r}", "pick one from the list of runs")
    return registry.get(run_id)


def runs_overview(registry: RunRegistry) -> list[RunOverview]:
    current, baseline = registry.current_id(), baseline_id(registry)
    out: list[RunOverview] = []
    for run in registry.list():
        try:
            manifest = run.manifest()
        except GraphgateError:  # listed as what it is to the registry: interrupted, prunable
            manifest = RunManifest(run_id=run.run_id, status=INTERRUPTED)
        changes = manifest.changes or {}
        resolved = manifest.stage("resolve")
        outcomes = resolved.info.get("curation", []) if resolved is not None else []
        out.append(
            {
                "run_id": run.run_id,
                "status": registry.state(run),
                "pipeline": manifest.pipeline,
                "seconds": manifest.seconds,
                "verdict": (stored_gates(run) or {}).get("verdict"),
                "current": run.run_id == current,
                "baseline": run.run_id == baseline,
                "started_at": manifest.started_at,
                "origin": manifest.origin,
                "parent_run": manifest.parent_run,
                "changes": {k: len(v) if isinstance(v, list) else v for k, v in changes.items()},
                "counts": manifest.counts,
                # The workspace's edits it was built with (the last one's number), and those
                # of them that did not apply (app/curation.py).
                "curation": manifest.curation,
                "edits_not_applied": [o["n"] for o in outcomes if not o.get("applied")],
            }
        )
    return out


def run_gates_view(registry: RunRegistry, run_id: str) -> dict[str, Any]:
    """The gates stored for one run (``gates: []`` when they never ran on it)."""
    stored = stored_gates(run_by_id(registry, run_id))
    return stored or {"run_id": run_id, "verdict": None, "gates": [], "notes": []}


def gate_trends(registry: RunRegistry, settings: GateSettings) -> list[MetricTrend]:
    """Every numeric gate metric over the runs that stored gates, oldest first, with the
    rule's hard bounds and the baseline run's value, so a regression reads at a glance."""
    rules = settings.effective_rules()
    base = baseline_id(registry)
    measured = [(run.run_id, stored) for run in registry.list() if (stored := stored_gates(run))]
    bands: dict[str, Band] = {}
    if base is not None and (registry.runs_dir / base).is_dir():
        bands, _ = judging_bands(registry, registry.get(base), None, dict(measured), settings)
    # One point per run for every metric (None where a run lacks it: a metric measured only
    # against a baseline, say), so every chart shares one axis of runs.
    series: dict[tuple[str, str], list[TrendPoint]] = {}
    baseline_values: dict[tuple[str, str], float] = {}
    for position, (run_id, stored) in enumerate(measured):
        for gate in stored.get("gates", []):
            verdicts = gate.get("verdicts", {})
            for metric, value in gate.get("metrics", {}).items():
                if not isinstance(value, int | float | type(None)) or isinstance(value, bool):
                    continue
                key = (str(gate["gate"]), str(metric))
                points = series.setdefault(key, [_no_value(r) for r, _ in measured])
                points[position] = {
                    "run_id": run_id,
                    "value": None if value is None else float(value),
                    "verdict": verdicts.get(metric),
                }
                if run_id == base and value is not None:
                    baseline_values[key] = float(value)
    trends: list[MetricTrend] = []
    for (gate_name, metric), points in series.items():
        if all(p["value"] is None for p in points):
            continue
        rule = rules.get(f"{gate_name}.{metric}")
        band = bands.get(f"{gate_name}.{metric}")
        trends.append(
            {
                "gate": gate_name,
                "metric": metric,
                "direction": rule.direction if rule else "info",
                "fail_below": rule.fail_below if rule else None,
                "fail_above": rule.fail_above if rule else None,
                "baseline": baseline_values.get((gate_name, metric)),
                "band_low": band.low if band else None,
                "band_high": band.high if band else None,
                "band_runs": band.runs if band else 0,
                "band_source": band.source if band else None,
                "points": points,
            }
        )
    return trends


def _no_value(run_id: str) -> TrendPoint:
    return {"run_id": run_id, "value": None, "verdict": None}


# -- evaluations -----------------------------------------------------------------------------
def evaluations(registry: RunRegistry) -> list[EvaluationRef]:
    """Finished evaluations (those with a summary), newest run first."""
    out: list[EvaluationRef] = []
    for run in reversed(registry.list()):
        root = run.evals_dir
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir(), reverse=True):
            path = folder / SUMMARY
            if not (_EVAL_ID.match(folder.name) and path.is_file()):
                continue
            summary = parse_summary(path.read_text(), str(path))
            out.append(
                {
                    "run_id": run.run_id,
                    "eval_id": folder.name,
                    "cases": summary["cases"],
                    "modes": sorted(summary["modes"]),
                    "verdict": summary["overall_verdict"],
                    "testset": str(summary.get("testset", "")).replace("\\", "/").split("/")[-1],
                }
            )
    return out


def evaluation(registry: RunRegistry, run_id: str, eval_id: str) -> dict[str, Any]:
    """One evaluation's summary and every result, ready for tables and case views."""
    run = run_by_id(registry, run_id)
    if not _EVAL_ID.match(eval_id) or not (run.eval_dir(eval_id) / SUMMARY).is_file():
        raise NotFoundError(f"no evaluation {eval_id!r} of run {run_id}", "pick one from the list")
    folder = run.eval_dir(eval_id)
    summary = dict(parse_summary((folder / SUMMARY).read_text(), str(folder / SUMMARY)))
    summary.pop("settings", None)  # settings and their sources name server paths
    summary.pop("settings_sources", None)
    summary["testset"] = str(summary.get("testset", "")).replace("\\", "/").split("/")[-1]
    records: list[EvalRecord] = []
    path = folder / RESULTS
    if path.is_file():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                records.append(parse_record(line, f"{path}:{n}"))
    return {"run_id": run_id, "eval_id": eval_id, "summary": summary, "records": records}
