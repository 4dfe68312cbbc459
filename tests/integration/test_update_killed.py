"""kill -9 at five points of an update: the previous run keeps answering with exact citations,
and the update run again completes and equals an uninterrupted one (what the killed attempt
left in the content cache is whole entries of the same content, so reusing it changes nothing).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphgate import Workspace
from tests.conftest import DEMO_CORPUS

# Kill once the new run's manifest records this many finished stages (of ten).
KILL_AFTER_STAGES = (1, 3, 4, 6, 8)
TABLES = ("chunks", "mentions", "entities", "relationships", "communities", "community_reports")


def _newest_stages(ws: Path, before: set[str]) -> int:
    for manifest in sorted((ws / "runs").glob("*/manifest.json")):
        if manifest.parent.name in before:
            continue
        try:
            return len(json.loads(manifest.read_text()).get("stages", []))
        except (OSError, ValueError):
            return 0
    return 0


def _add(ws: Path, corpus: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "graphgate.cli", "add", str(corpus), "-w", str(ws)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_killed_updates_leave_the_previous_run_and_rerun_to_the_same_result(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    # The first 40 kB of the demo novel: enough that extraction and embedding take seconds, so
    # every kill point is reached while the update runs; half the time of the whole novel.
    text = (DEMO_CORPUS / "christmas_carol.txt").read_text(encoding="utf-8")[:40_000]
    corpus = tmp_path / "carol_part.txt"
    corpus.write_text(text, encoding="utf-8")
    reference = tmp_path / "reference"
    shutil.copytree(small_workspace_path, reference)
    # Uninterrupted updates and the re-runs after a kill run here (the CLI's `add` is the same
    # call): only the killed ones need a process of their own.
    with Workspace(reference) as ws:
        ws.add([corpus])
        expected = {name: ws.runs.current().read_artifact(name) for name in TABLES}

    for point in KILL_AFTER_STAGES:
        ws_path = tmp_path / f"killed-{point}"
        shutil.copytree(small_workspace_path, ws_path)
        current = (ws_path / "CURRENT").read_text()
        before = {p.name for p in (ws_path / "runs").iterdir()}
        update = _add(ws_path, corpus)
        deadline = time.time() + 120
        while update.poll() is None and time.time() < deadline:
            if _newest_stages(ws_path, before) >= point:
                update.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
        assert update.wait() == -signal.SIGKILL, f"the update finished before stage {point}"
        assert (ws_path / "CURRENT").read_text() == current
        with Workspace(ws_path) as ws:
            answer = ws.query("Who is Fred Holywell?", mode="hybrid")
            assert answer.run_id == current and answer.citations
            documents = {
                d["id"]: d["text"] for d in ws.runs.current().read_artifact("documents").to_pylist()
            }
            for c in answer.citations:
                assert documents[c.doc_id][c.start : c.end] == c.text
        with Workspace(ws_path) as ws:
            ws.add([corpus])
            run = ws.runs.current()
            assert run.run_id != current and run.manifest().to_json()["parent_run"] == current
            for name in TABLES:
                assert run.read_artifact(name).equals(expected[name]), (point, name)
