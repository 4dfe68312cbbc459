"""The gates catch what they exist to catch: resolution that stops merging two names of one
entity is flagged at the Graph gate (likely duplicates) and the Community gate (the partition
moved beyond seed-to-seed), with notes that name the cause; a change of seed and a re-run with
the same settings pass — by the fixed rules, and by the band of a calibrated history."""

from __future__ import annotations

import json
import shutil
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


INJECTIONS = [
    ("chunks of 60 tokens", {"chunk": {"size_tokens": 60}}, {"chunk"}),
    ("extractor narrowed to PERSON", {"extract": {"entity_types": ["PERSON"]}}, {"graph"}),
    ("co-occurrence edges off", {"extract": {"cooccurrence_edges": False}}, {"graph"}),
    ("Leiden resolution 8", {"communities": {"resolution": 8.0}}, {"community"}),
    (
        "reports truncated",
        {"communities": {"report_entities": 1, "report_relationships": 0, "report_sentences": 0}},
        {"summary"},
    ),
]


INJECTION_IDS = [name for name, _, _ in INJECTIONS]


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The demo indexed as the baseline and calibrated under three more seeds."""
    ws = tmp_path_factory.mktemp("calibrated") / "ws"
    base = _index(ws)
    with Workspace(ws) as workspace:
        workspace.set_baseline(base)
        workspace.calibrate_gates(3)
    return ws, base


@pytest.mark.slow
@pytest.mark.parametrize(("name", "overrides", "expected"), INJECTIONS, ids=INJECTION_IDS)
def test_each_injected_regression_is_flagged_at_its_gate(
    calibrated: tuple[Path, str], name: str, overrides: dict[str, Any], expected: set[str]
) -> None:
    ws, base = calibrated
    report = _judged(ws, _index(ws, gates={"run_on_index": False}, **overrides), base)
    gates = {gate for gate, _ in _flagged(report)}
    assert gates & expected, f"{name}: flagged {sorted(gates)}, expected one of {expected}"
    assert report.notes[-1].startswith("thresholds: history of")


@pytest.mark.slow
def test_documents_duplicated_under_new_ids_are_flagged_at_the_data_gate(
    calibrated: tuple[Path, str], tmp_path: Path
) -> None:
    ws, base = calibrated
    corpus = tmp_path / "twice"
    shutil.copytree(DEMO_CORPUS, corpus)
    for file in DEMO_CORPUS.iterdir():
        shutil.copy(file, corpus / f"copy-{file.name}")
    report = _judged(ws, _index_corpus(ws, corpus), base)
    assert ("data", "duplicate_content_rate") in _flagged(report)


@pytest.mark.slow
def test_a_seed_outside_the_history_passes(calibrated: tuple[Path, str]) -> None:
    ws, base = calibrated
    report = _judged(ws, _index(ws, seed=11, gates={"run_on_index": False}), base)
    assert _flagged(report) == set()


def _index_corpus(ws_path: Path, corpus: Path) -> str:
    with Workspace(ws_path, gates={"run_on_index": False}) as ws:
        return ws.index(corpus, full=True).run_id


def test_the_calibrate_command_leaves_the_current_run_current(small_workspace: Workspace) -> None:
    from typer.testing import CliRunner

    from graphgate.cli import build_app

    before = small_workspace.runs.current_id()
    where = ["-w", str(small_workspace.path)]
    args = ["gates", "calibrate", "--seeds", "1", "--json", *where]
    result = CliRunner().invoke(build_app(), args)
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)["runs"]
    assert len(made) == 1 and made[0] != before
    assert small_workspace.runs.current_id() == before
    assert small_workspace.runs.get(made[0]).manifest().origin == "calibrate"
    refused = CliRunner().invoke(build_app(), ["gates", "calibrate", "--seeds", "0", *where])
    assert refused.exit_code == 2
