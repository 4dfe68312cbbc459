"""Indexing's per-chunk work on a real two-node Ray cluster (tests/ray_cluster.py): the same
artifacts and answers as the local executor, a worker killed mid-run retried or failing the run
cleanly, and the CLI's --executor."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.cli import build_app
from graphgate.core.errors import WorkerDiedError
from graphgate.core.runs import FAILED
from graphgate.index.executor_ray import RayExecutor
from graphgate.index.pipeline import Advance
from tests.conftest import DEMO_CORPUS
from tests.ray_cluster import RayCluster

pytestmark = pytest.mark.slow
app = build_app()

DEMO_QUESTIONS = (
    "Who is Bob Cratchit's employer?",
    "What does the Ghost of Jacob Marley warn Scrooge about?",
    "Which of the Cratchit children is ill?",
)
ANSWER_MODES = ("vector", "local", "hybrid", "global")


def run_tables(ws: Workspace, run_id: str) -> dict[str, object]:
    folder = ws.runs.get(run_id).path
    return {p.name: pq.read_table(p) for p in sorted(folder.glob("*.parquet"))}


def same_artifacts(a: Workspace, b: Workspace) -> list[str]:
    """The artifact tables of the two current runs that differ (by name); none is equal."""
    left = run_tables(a, a.runs.current().run_id)
    right = run_tables(b, b.runs.current().run_id)
    assert left.keys() == right.keys() and len(left) >= 10
    return [name for name in left if not left[name].equals(right[name])]  # type: ignore[attr-defined]


def answers(ws: Workspace) -> list[tuple[str, str, list[str]]]:
    return [
        (mode, a.answer, [c.chunk_id for c in a.citations])
        for mode in ANSWER_MODES
        for a in (ws.query(q, mode=mode) for q in DEMO_QUESTIONS)
    ]


def killing_after_first(
    stage: str, ws: Workspace, killed: list[int]
) -> Callable[[str, int], Advance]:
    """A progress factory that kills one Ray worker when ``stage``'s first batch is done."""

    def factory(description: str, total: int) -> Advance:
        def advance(n: int) -> None:
            if description == stage and not killed:
                executor = ws.parts.executor
                assert isinstance(executor, RayExecutor)
                pid = executor.worker_pids()[-1]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        return advance

    return factory


def test_demo_through_ray_with_a_worker_killed_equals_local(
    ray_joined: str, demo_workspace: Workspace, tmp_path: Path
) -> None:
    settings = {"index": {"executor": ray_joined, "ray_batch_chunks": 8, "ray_retries": 2}}
    with Workspace(tmp_path / "ws", **settings) as ws:
        killed: list[int] = []
        report = ws.index(DEMO_CORPUS, progress=killing_after_first("extract", ws, killed))
        manifest = ws.runs.current().manifest()
        assert manifest.executor == {
            "executor": "ray",
            "address": "ray",
            "workers": 2,
            "nodes": 2,
        }
        executor = ws.parts.executor
        assert isinstance(executor, RayExecutor)
        assert killed and killed[0] not in executor.worker_pids()  # restarted, batch retried
        extract = next(s for s in report.stages if s.name == "extract")
        assert extract.info["chunks"] > 100 and extract.info["reused"] == 0
        assert same_artifacts(ws, demo_workspace) == []
        assert answers(ws) == answers(demo_workspace)


def test_a_lost_worker_without_retries_fails_the_run_and_keeps_the_index(
    ray_joined: str, small_workspace: Workspace, tmp_path: Path
) -> None:
    before = small_workspace.runs.current_id()
    small_workspace.close()
    changed = tmp_path / "changed"
    changed.mkdir()
    (changed / "new.txt").write_text(
        "\n\n".join(
            f"Ada Lovelace wrote note {i} for Charles Babbage in London in 184{i % 10}."
            for i in range(40)
        ),
        encoding="utf-8",
    )
    settings = {
        "index": {"executor": ray_joined, "ray_batch_chunks": 1, "ray_retries": 0},
        "chunk": {"size_tokens": 40, "overlap_tokens": 0},
    }
    with Workspace(small_workspace.path, **settings) as ws:
        killed: list[int] = []
        with pytest.raises(WorkerDiedError) as caught:
            ws.add([changed / "new.txt"], progress=killing_after_first("extract", ws, killed))
        assert "index.ray_retries" in caught.value.fix
        assert ws.runs.current_id() == before
        failed = [r for r in ws.runs.list() if r.run_id > before]
        assert failed and failed[-1].manifest().status == FAILED
        # The next run connects again and completes.
        report = ws.add([changed / "new.txt"])
        assert ws.runs.current_id() == report.run_id != before
        assert ws.status().counts["Document"] == 4


def test_cli_add_through_a_ray_client_records_it(
    ray_cluster: RayCluster, small_workspace: Workspace, tmp_path: Path
) -> None:
    """``--executor ray://HOST:PORT``: Ray Client, through the cluster's client server."""
    ray_address = ray_cluster.client
    small_workspace.close()
    doc = tmp_path / "belle.txt"
    doc.write_text("Belle was engaged to Ebenezer Scrooge in his youth.", encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["add", str(doc), "--executor", ray_address, "--json", "-w", str(small_workspace.path)],
    )
    assert result.exit_code == 0, result.output
    run_id = json.loads(result.stdout)["run_id"]
    with Workspace(small_workspace.path) as ws:
        manifest = ws.runs.get(run_id).manifest()
        assert manifest.executor is not None and manifest.executor["executor"] == "ray"
        assert manifest.settings["index"]["executor"] == ray_address


def test_cli_bad_executor_is_named(small_workspace: Workspace) -> None:
    before = small_workspace.runs.current_id()
    small_workspace.close()
    args = ["index", str(DEMO_CORPUS), "--executor", "spark://x:1", "-w", str(small_workspace.path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code != 0
    assert "index.executor" in result.output and "ray://HOST:PORT" in result.output
    assert Workspace(small_workspace.path).runs.current_id() == before
