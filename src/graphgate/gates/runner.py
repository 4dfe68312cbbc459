"""Runs the eight gates on a run, judges them against rules and a baseline, stores the result."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from graphgate.core.config import GateSettings
from graphgate.core.errors import RunStateError
from graphgate.core.runs import COMPLETE, Run, RunRegistry, replace_text
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.gates.bands import Band, judging_bands
from graphgate.gates.base import FAIL, ORDER, PASS, UNMEASURED, WARN, Gate, GateResult, apply_rules
from graphgate.gates.causes import cause_notes
from graphgate.gates.community import CommunityGate, HierarchyGate
from graphgate.gates.context import GateContext, load_context
from graphgate.gates.data_chunk import ChunkGate, DataGate
from graphgate.gates.graph import GraphGate
from graphgate.gates.ie import IEGate
from graphgate.gates.summary_gen import GenGate, SummaryGate


def all_gates() -> list[Gate]:
    return [
        DataGate(),
        ChunkGate(),
        IEGate(),
        GraphGate(),
        CommunityGate(),
        HierarchyGate(),
        SummaryGate(),
        GenGate(),
    ]


@dataclass
class GatesReport:
    run_id: str
    baseline_id: str | None
    results: list[GateResult]
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        judged = [r.verdict for r in self.results if r.verdict != UNMEASURED]
        return max(judged, key=lambda v: ORDER[v]) if judged else UNMEASURED

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "baseline_id": self.baseline_id,
            "verdict": self.verdict,
            "notes": self.notes,
            "gates": [r.as_dict() for r in self.results],
        }


def evaluate_gates(
    ctx: GateContext,
    settings: GateSettings,
    baseline: dict[str, dict[str, Any]] | None = None,
    bands: dict[str, Band] | None = None,
    history_runs: int = 0,
) -> GatesReport:
    """Measure every gate and judge it; ``baseline`` is the baseline's stored metrics by gate;
    ``bands`` the history bands of ``history_runs`` comparable runs (empty: fixed rules)."""
    rules = settings.effective_rules()
    results = []
    for gate in all_gates():
        result = gate.measure(ctx)
        results.append(
            apply_rules(result, rules, (baseline or {}).get(result.gate), bands, settings)
        )
    report = GatesReport(ctx.run_id, ctx.baseline.run_id if ctx.baseline else None, results)
    report.notes = _cross_readings(report, baseline) + cause_notes(report.results, baseline)
    report.notes.append(_thresholds_note(bands, history_runs, settings))
    return report


def _thresholds_note(bands: dict[str, Band] | None, runs: int, settings: GateSettings) -> str:
    if bands:
        source = next(iter(bands.values())).source
        where = (
            "same documents and index settings, one a seed"
            if source == "comparable runs"
            else "the last runs with these index settings, an evolving corpus; counts by the "
            "fixed rules"
        )
        return (
            f"thresholds: history of {runs} {source} ({where}) for {len(bands)} metrics; fixed "
            "rules for the rest"
        )
    return (
        f"thresholds: fixed rules ({runs} comparable runs stored, "
        f"{settings.history_min_runs} needed; `graphgate gates calibrate` indexes more seeds)"
    )


def _cross_readings(report: GatesReport, baseline: dict[str, dict[str, Any]] | None) -> list[str]:
    """Duplicate rate is read together with hub share: fewer duplicates and a new hub is
    over-merging, not a win."""
    if not baseline or "graph" not in baseline:
        return []
    graph = next(r for r in report.results if r.gate == "graph")
    dup_now, hub_now = graph.metrics.get("duplicate_rate"), graph.metrics.get("hub_share")
    dup_before = baseline["graph"].get("duplicate_rate")
    hub_before = baseline["graph"].get("hub_share")
    if dup_now is None or hub_now is None or dup_before is None or hub_before is None:
        return []
    if dup_now < dup_before and hub_now > 1.25 * hub_before:
        if graph.verdicts.get("hub_share") != FAIL:
            graph.verdicts["hub_share"] = WARN
        return [
            f"over-merging: duplicate rate fell ({dup_before:.4f} -> {dup_now:.4f}) while hub "
            f"share rose ({hub_before:.4f} -> {hub_now:.4f}): the resolver merged distinct "
            "entities"
        ]
    return []


def stored_gates(run: Run) -> dict[str, Any] | None:
    path = run.gates_path
    return json.loads(path.read_text()) if path.exists() else None


def baseline_id(registry: RunRegistry) -> str | None:
    path = registry.baseline_path
    return path.read_text().strip() or None if path.exists() else None


def chosen_baseline(registry: RunRegistry, wanted: str | None = None) -> Run | None:
    """The run ``wanted``, else the set baseline, else none; a baseline must be complete."""
    chosen = wanted or baseline_id(registry)
    baseline = registry.get(chosen) if chosen else None
    if baseline is not None and registry.state(baseline) != COMPLETE:
        raise RunStateError(
            f"baseline run {baseline.run_id} is {registry.state(baseline)}, not complete",
            "set a complete run with `graphgate gates baseline set RUN`",
        )
    return baseline


def set_baseline(registry: RunRegistry, run_id: str) -> None:
    replace_text(registry.baseline_path, registry.get(run_id).run_id)


def run_gates(
    registry: RunRegistry,
    run: Run,
    settings: GateSettings,
    baseline: Run | None = None,
    predicates: PredicateMatcher | None = None,
) -> GatesReport:
    """Gates for ``run``, stored with it (:func:`judge_run`, then :func:`store_gates`)."""
    report = judge_run(registry, run, settings, baseline, predicates)
    store_gates(run, report)
    return report


def judge_run(
    registry: RunRegistry,
    run: Run,
    settings: GateSettings,
    baseline: Run | None = None,
    predicates: PredicateMatcher | None = None,
) -> GatesReport:
    """Gates for ``run``, not stored; the baseline's metrics come from its stored results
    (computed and stored first when it has none), so two runs compare without recomputing the
    baseline."""
    previous: dict[str, dict[str, Any]] | None = None
    if baseline is not None and baseline.run_id != run.run_id:
        stored = stored_gates(baseline)
        if stored is None:
            own = evaluate_gates(load_context(baseline, settings, None, predicates), settings)
            store_gates(baseline, own)
            stored = own.as_dict()
        previous = {g["gate"]: g["metrics"] for g in stored["gates"]}
    else:
        baseline = None
    history = {r.run_id: s for r in registry.list() if (s := stored_gates(r)) is not None}
    bands, runs = judging_bands(registry, baseline or run, run, history, settings)
    ctx = load_context(run, settings, baseline, predicates)
    return evaluate_gates(ctx, settings, previous, bands, runs)


def store_gates(run: Run, report: GatesReport) -> None:
    replace_text(
        run.gates_path, json.dumps(report.as_dict(), indent=2, sort_keys=True, default=str)
    )


__all__ = ["FAIL", "PASS", "WARN", "GatesReport", "run_gates", "set_baseline"]
