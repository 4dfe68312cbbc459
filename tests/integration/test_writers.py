"""Writers that overlap lose nothing: real processes (CLI commands, `graphgate serve` with one
and two workers, MCP over HTTP) change one workspace at once, and every change each of them
reports as applied is in the final run, on one chain of runs, each built on the one before.

Each test holds the workspace's write lock itself while the writers start, and lets it go only
once every writer has said it waits: so the writers certainly overlap (before the lock, each
started from the run current when it began, and the last to finish won).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphgate.app.workspace_lock import WorkspaceWriteLock
from tests.serving import free_port, mcp_call, wait_for_job, wait_until_up

TOKEN = "writers-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BASE_DOCS = {
    f"base{i}.txt": f"Base person {i} Hart works in Leeds for Hart Mills." for i in range(4)
}


def _text(i: int) -> str:
    return (
        f"Writer Number{i} Quill works for the Quill Press in York. Number{i} Quill met Ada Lane."
    )


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    """The small workspace with four more documents, so that four can be deleted."""
    from graphgate import Workspace

    path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, path)
    extra = tmp_path / "base"
    extra.mkdir()
    for name, text in BASE_DOCS.items():
        (extra / name).write_text(text, encoding="utf-8")
    with Workspace(path) as workspace:
        workspace.add([extra])
    return path


def _documents(ws: Path) -> set[str]:
    current = (ws / "CURRENT").read_text().strip()
    rows = _read_documents(ws / "runs" / current)
    return set(rows)


def _read_documents(run: Path) -> list[str]:
    import pyarrow.parquet as pq

    return [str(i) for i in pq.read_table(run / "documents.parquet", columns=["id"])["id"]]


def _chain(ws: Path) -> list[str]:
    """The current run and its ancestors by ``parent_run``, newest first."""
    chain: list[str] = []
    run: str | None = (ws / "CURRENT").read_text().strip()
    while run:
        chain.append(run)
        run = json.loads((ws / "runs" / run / "manifest.json").read_text()).get("parent_run")
    return chain


def _assert_on_one_chain(ws: Path, reported: list[str]) -> None:
    """Every run a writer reported is an ancestor of (or is) the current run: none was left
    aside by a later writer that started from an older run."""
    chain = _chain(ws)
    missing = [r for r in reported if r not in chain]
    assert not missing, f"runs reported applied but not on the current chain: {missing}"
    assert len(set(reported)) == len(reported), "two writers reported the same run"


@contextmanager
def _held(ws: Path) -> Iterator[WorkspaceWriteLock]:
    lock = WorkspaceWriteLock(ws)
    with lock.hold("test holds the workspace", wait_s=0):
        yield lock


def _cli(ws: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "graphgate.cli", *args, "-w", str(ws), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_waiters(ws: Path, count: int, seen: list[str], timeout_s: float = 120) -> None:
    """Until ``count`` writers are blocked on the lock (each told so on stderr, or as a job)."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if len(seen) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"only {len(seen)} of {count} writers came to wait: {seen}")


def _watch_stderr(process: subprocess.Popen[str], seen: list[str], lines: list[str]) -> None:
    assert process.stderr is not None
    for line in process.stderr:
        lines.append(line)
        if "waiting" in line:
            seen.append(line)


def test_overlapping_cli_writers_all_apply(ws: Path, tmp_path: Path) -> None:
    """Four deletes of different documents and an add, at once: all five apply."""
    new = tmp_path / "new.txt"
    new.write_text(_text(0), encoding="utf-8")
    seen: list[str] = []
    errs: list[list[str]] = []
    with _held(ws):
        processes = [_cli(ws, "delete", name) for name in BASE_DOCS]
        processes.append(_cli(ws, "add", str(new)))
        for process in processes:
            errs.append([])
            threading.Thread(
                target=_watch_stderr, args=(process, seen, errs[-1]), daemon=True
            ).start()
        _wait_for_waiters(ws, len(processes), seen)
        assert (ws / "CURRENT").read_text().strip() == _chain(ws)[0]
    reported = []
    for process, err in zip(processes, errs, strict=True):
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0, "".join(err)
        report = json.loads(out)
        assert report["new_run"] is True
        reported.append(report["run_id"])
    assert _documents(ws) == {*SMALL, "new.txt"}
    _assert_on_one_chain(ws, reported)


SMALL = {"scrooge.txt", "family.md", "fred.html"}


@contextmanager
def _server(ws: Path, workers: int = 1) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "GRAPHGATE_SERVE__WRITE_TOKEN": TOKEN}
    command = [sys.executable, "-m", "graphgate.cli", "serve", "-w", str(ws), "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--workers", str(workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def _post(base: str, docs: dict[str, str]) -> str:
    body = {"documents": [{"id": k, "text": v} for k, v in docs.items()]}
    response = httpx.post(f"{base}/documents", json=body, headers=AUTH, timeout=60)
    assert response.status_code == 202, response.text
    return str(response.json()["job"])


def _delete(base: str, doc_id: str) -> str:
    response = httpx.delete(f"{base}/documents", params={"id": doc_id}, headers=AUTH, timeout=60)
    assert response.status_code == 202, response.text
    return str(response.json()["job"])


def _waiting_jobs(base: str, jobs: list[str]) -> list[str]:
    states = [httpx.get(f"{base}/jobs/{j}", timeout=30).json() for j in jobs]
    return [s["id"] for s in states if s["state"] in {"queued", "running"}]


def _tool(response: httpx.Response) -> dict[str, Any]:
    """An MCP tool's answer (a JSON object), or the test fails with its error."""
    result = response.json()["result"]
    text = result["content"][0]["text"]
    assert not result.get("isError"), text
    answer: dict[str, Any] = json.loads(text)
    return answer


def _done(base: str, job: str) -> dict[str, Any]:
    state = wait_for_job(base, job, timeout_s=300)
    assert state["state"] == "done", state
    result: dict[str, Any] = state["result"]
    return result


def test_http_writes_apply_in_order_behind_a_cli_writer_and_mcp(ws: Path, tmp_path: Path) -> None:
    """One server process: an add, a delete of what it added and another add are queued behind a
    CLI add that holds the workspace, with an MCP add beside them; all apply, in order."""
    cli_doc = tmp_path / "cli.txt"
    cli_doc.write_text(_text(1), encoding="utf-8")
    seen: list[str] = []
    err: list[str] = []
    mcp_answer: list[httpx.Response] = []
    with _server(ws) as base:
        with _held(ws):
            cli = _cli(ws, "add", str(cli_doc))
            threading.Thread(target=_watch_stderr, args=(cli, seen, err), daemon=True).start()
            _wait_for_waiters(ws, 1, seen)
            jobs = [_post(base, {"x.txt": _text(2)}), _delete(base, "x.txt")]
            jobs.append(_post(base, {"y.txt": _text(3)}))

            def mcp_add() -> None:
                with httpx.Client(base_url=base, timeout=300) as client:
                    doc = {"id": "m.txt", "text": _text(4)}
                    params = {"name": "add_documents", "arguments": {"documents": [doc]}}
                    mcp_answer.append(mcp_call(client, "tools/call", params, AUTH))

            caller = threading.Thread(target=mcp_add, daemon=True)
            caller.start()
            time.sleep(1.0)
            assert len(_waiting_jobs(base, jobs)) == 3  # nothing applied while the lock is held
        results = [_done(base, j) for j in jobs]
        caller.join(timeout=300)
        out, _ = cli.communicate(timeout=300)
        assert cli.returncode == 0, "".join(err)
    job = _tool(mcp_answer[0])
    assert job["state"] == "done", job
    assert _documents(ws) == {*SMALL, *BASE_DOCS, "cli.txt", "y.txt", "m.txt"}
    reported = [json.loads(out)["run_id"], *(r["run_id"] for r in results), job["result"]["run_id"]]
    _assert_on_one_chain(ws, reported)
    chain = _chain(ws)
    order = [chain.index(r["run_id"]) for r in results]
    assert order == sorted(order, reverse=True), "HTTP writes applied out of the order sent"


def _owner(ws: Path, job: str) -> int:
    """The pid of the server worker that took the job (kept with its state in jobs/)."""
    return int(json.loads((ws / "jobs" / f"{job}.json").read_text())["owner"]["pid"])


def test_two_server_workers_lose_no_upload_and_keep_the_order(ws: Path) -> None:
    """`serve --workers 2`: uploads, each on a new connection, until both workers have taken
    some, then an MCP delete: every upload and the delete apply, in the order accepted."""
    jobs: list[str] = []
    with _server(ws, workers=2) as base:
        with _held(ws):
            # The kernel spreads new connections over the workers once both listen; on a busy
            # machine the second may still be starting, so keep going a while (each upload is
            # checked below all the same).
            for i in range(40):
                jobs.append(_post(base, {f"u{i}.txt": _text(i)}))
                if i >= 1 and len({_owner(ws, j) for j in jobs}) == 2:
                    break
                time.sleep(0.1)
            assert len({_owner(ws, j) for j in jobs}) == 2, "one worker took every upload"
            time.sleep(1.0)
            assert len(_waiting_jobs(base, jobs)) == len(jobs)
        with httpx.Client(base_url=base, timeout=300) as client:
            params = {"name": "delete_documents", "arguments": {"doc_ids": ["base0.txt"]}}
            deleted = _tool(mcp_call(client, "tools/call", params, AUTH))
        assert deleted["state"] == "done", deleted
        results = [_done(base, j) for j in jobs]
    uploads = {f"u{i}.txt" for i in range(len(jobs))}
    assert _documents(ws) == {*SMALL, *BASE_DOCS, *uploads} - {"base0.txt"}
    reported = [r["run_id"] for r in results] + [deleted["result"]["run_id"]]
    _assert_on_one_chain(ws, reported)
    chain = _chain(ws)
    order = [chain.index(r) for r in reported]
    assert order == sorted(order, reverse=True), "writes applied out of the order accepted"


def test_without_waiting_a_second_writer_is_refused_naming_the_first(
    ws: Path, tmp_path: Path
) -> None:
    """``runs.write_wait_s = 0``: the CLI exits 2 and HTTP answers 409, naming the writer in
    progress; nothing changes."""
    from typer.testing import CliRunner

    from graphgate.cli import build_app
    from tests.serving import running_server

    new = tmp_path / "n.txt"
    new.write_text(_text(9), encoding="utf-8")
    before = _documents(ws)
    with _held(ws), running_server(ws, TOKEN, runs={"write_wait_s": 0}) as (base, _):
        refused = CliRunner().invoke(
            build_app(), ["add", str(new), "-w", str(ws)], env={"GRAPHGATE_RUNS__WRITE_WAIT_S": "0"}
        )
        assert refused.exit_code == 2, refused.output
        assert "another write is in progress" in refused.stderr
        assert f"test holds the workspace by pid {os.getpid()}" in refused.stderr
        response = httpx.post(
            f"{base}/documents",
            json={"documents": [{"id": "n.txt", "text": _text(9)}]},
            headers=AUTH,
            timeout=30,
        )
        assert response.status_code == 409, response.text
        assert "test holds the workspace" in response.json()["detail"]
    assert _documents(ws) == before
