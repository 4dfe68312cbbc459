"""The gates catch what they exist to catch: resolution that stops merging two names of one
entity is flagged at the Graph gate (likely duplicates) and the Community gate (the partition
moved beyond seed-to-seed), with notes that name the cause; a change of seed and a re-run with
the same settings pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphgate import Workspace
from tests.conftest import DEMO_CORPUS


def _index(ws_path: Path, **overrides: Any) -> str:
    with Workspace(ws_path, gates={"run_on_index": False}, **overrides) as ws:
        return ws.index(DEMO_CORPUS, full=True).run_id


def _flagged(ws_path: Path, run_id: str, baseline: str) -> tuple[set[tuple[str, str]], list[str]]:
    with Workspace(ws_path) as ws:
        report = ws.gates(run_id, baseline)
    flagged = {
        (r.gate, metric)
        for r in report.results
        for metric, verdict in r.verdicts.items()
        if verdict in {"WARN", "FAIL"}
    }
    return flagged, report.notes


@pytest.mark.slow
def test_resolution_without_merges_is_flagged_and_a_seed_change_is_not(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    base = _index(ws)
    other_seed = _index(ws, seed=1)
    unmerged = _index(ws, resolve={"use_embeddings": False, "similarity_threshold": 1.0})

    flagged, notes = _flagged(ws, other_seed, base)
    assert flagged == set() and notes == []

    flagged, notes = _flagged(ws, unmerged, base)
    assert {("graph", "near_duplicate_rate"), ("community", "baseline_ari_gap")} <= flagged
    resolution = next(n for n in notes if n.startswith("entity resolution"))
    assert "short form" in resolution  # the samples name pairs resolution used to merge
    assert any("more than a change of seed" in n for n in notes)
