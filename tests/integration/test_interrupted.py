"""kill -9 in the middle of indexing: no parser process outlives the indexer, the run shows as
interrupted, gates and the baseline refuse it, prune removes it, the previous run answers."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.app.history import runs_overview
from graphgate.cli import build_app
from tests.conftest import DEMO_CORPUS
from tests.processes import alive, children

runner = CliRunner()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_kill_during_extraction(small_workspace_path: Path, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws)
    before = (ws / "CURRENT").read_text()
    indexer = subprocess.Popen(
        [sys.executable, "-m", "graphgate.cli", "index", str(DEMO_CORPUS), "-w", str(ws)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    deadline = time.time() + 120
    while time.time() < deadline and len(workers) < 2 and indexer.poll() is None:
        workers = children(indexer.pid)
        time.sleep(0.1)
    assert len(workers) >= 2, "the demo corpus should be parsed by two worker processes"
    time.sleep(1.0)  # the workers are loading the model or parsing
    indexer.send_signal(signal.SIGKILL)
    indexer.wait()
    deadline = time.time() + 15
    while time.time() < deadline and any(alive(p) for p in workers):
        time.sleep(0.2)
    assert not any(alive(p) for p in workers), "parser workers outlived the killed indexer"

    app = build_app()
    assert (ws / "CURRENT").read_text() == before
    with Workspace(ws) as workspace:
        killed = [r for r in workspace.list_runs() if r.run_id != before]
        assert len(killed) == 1 and workspace.runs.state(killed[0]) == "interrupted"
        assert workspace.query("Who is Fred Holywell?", mode="hybrid").citations
    run_id = killed[0].run_id
    listing = runner.invoke(app, ["runs", "-w", str(ws)])
    assert "interrupted" in listing.stdout
    gates = runner.invoke(app, ["gates", "--run", run_id, "-w", str(ws)])
    assert gates.exit_code == 2 and "interrupted" in gates.stderr
    baseline = runner.invoke(app, ["gates", "baseline", "set", run_id, "-w", str(ws)])
    assert baseline.exit_code == 2 and not (ws / "BASELINE").exists()
    pruned = runner.invoke(app, ["runs", "prune", "-w", str(ws)])
    assert pruned.exit_code == 0 and run_id in pruned.stdout
    assert not (ws / "runs" / run_id).exists() and (ws / "runs" / before).exists()


def test_runs_keep_prunes_old_runs_but_never_current_or_baseline(
    small_corpus: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    with Workspace(ws, gates={"run_on_index": False}) as workspace:
        first = workspace.index(small_corpus).run_id
        workspace.set_baseline(first)
    with Workspace(ws, runs={"keep": 1}, gates={"run_on_index": False}) as workspace:
        second = workspace.index(small_corpus).run_id
        third = workspace.index(small_corpus).run_id
        kept = {r.run_id for r in workspace.list_runs()}
    assert kept == {first, third} and second not in kept


def test_a_run_whose_manifest_is_not_one_is_listed_interrupted_and_pruned(
    small_workspace: Workspace,
) -> None:
    broken = small_workspace.runs.create()
    broken.manifest_path.write_text('{"run_id": "x", "status": ')  # cut short by a full disk
    runs = runs_overview(small_workspace.runs)
    assert {r["run_id"]: r["status"] for r in runs}[broken.run_id] == "interrupted"
    assert broken.run_id in small_workspace.prune_runs()
    assert not broken.path.exists() and small_workspace.status().healthy
