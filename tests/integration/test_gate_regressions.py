"""The gates catch what they exist to catch: resolution that stops merging two names of one
entity is flagged at the Graph gate (likely duplicates) and the Community gate (the partition
moved beyond seed-to-seed), with notes that name the cause; a change of seed and a re-run with
the same settings pass — by the fixed rules, and by the band of a calibrated history."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphgate import Workspace
from graphgate.gates.runner import GatesReport
from tests.conftest import DEMO_CORPUS

UNMERGED = {"resolve": {"use_embeddings": False, "similarity_threshold": 1.0}}


def _index(ws_path: Path, **overrides: Any) -> str:
    with Workspace(ws_path, **overrides) as ws:
        return ws.index(DEMO_CORPUS, full=True).run_id


def _judged(ws_path: Path, run_id: str, baseline: str) -> GatesReport:
    with Workspace(ws_path) as ws:
        return ws.gates(run_id, baseline)


def _flagged(report: GatesReport) -> set[tuple[str, str]]:
    return {
        (r.gate, metric)
        for r in report.results
        for metric, verdict in r.verdicts.items()
        if verdict in {"WARN", "FAIL"}
    }


@pytest.mark.slow
def test_resolution_regressions_are_flagged_by_rules_and_by_history(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    base = _index(ws)
    with Workspace(ws) as workspace:
        workspace.set_baseline(base)
    other_seed = _index(ws, seed=1)
    unmerged = _index(ws, **UNMERGED)

    # Fixed rules: too little history (the baseline and one other seed).
    report = _judged(ws, other_seed, base)
    assert _flagged(report) == set() and report.notes[-1].startswith("thresholds: fixed rules")
    report = _judged(ws, unmerged, base)
    assert {("graph", "near_duplicate_rate"), ("community", "baseline_ari_gap")} <= _flagged(report)
    resolution = next(n for n in report.notes if n.startswith("entity resolution"))
    assert "short form" in resolution  # the samples name pairs resolution used to merge
    assert any("more than a change of seed" in n for n in report.notes)

    # Calibrated: three more seeds of the baseline's settings; the current run stays current.
    with Workspace(ws) as workspace:
        current = workspace.runs.current_id()
        made, calibrated = workspace.calibrate_gates(3)
        assert len(made) == 3 and workspace.runs.current_id() == current
    assert calibrated.notes[-1].startswith("thresholds: history of")

    report = _judged(ws, other_seed, base)
    assert _flagged(report) == set()
    assert report.notes[-1].startswith("thresholds: history of 4 comparable runs")
    report = _judged(ws, unmerged, base)
    flagged = _flagged(report)
    assert ("graph", "near_duplicate_rate") in flagged
    graph = next(r for r in report.results if r.gate == "graph")
    assert "of 4 comparable runs" in graph.reasons["near_duplicate_rate"]


def test_calibration_refuses_settings_the_run_was_not_indexed_with(
    small_workspace: Workspace, tmp_path: Path
) -> None:
    with Workspace(small_workspace.path, chunk={"size_tokens": 64}) as other:
        with pytest.raises(Exception, match=r"differ from run .* in chunk"):
            other.calibrate_gates(2)
        assert other.runs.list() == small_workspace.runs.list()  # nothing indexed
