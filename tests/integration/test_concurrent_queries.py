"""Queries answered side by side over real loopback HTTP while a new run becomes current: every
answer is the single-threaded answer of the run it names, and no request fails."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from graphgate import Workspace
from tests.serving import running_server, wait_for_job

TOKEN = "concurrent-writer"
QUESTIONS = (
    "Who does Bob Cratchit work for?",
    "Who is Fred Holywell?",
    "Where does Bob Cratchit live?",
    "Who was the partner of Ebenezer Scrooge?",
    "Whom did Belle Fairfax marry?",
    "How much does Scrooge pay his clerk?",
)
MODES = ("vector", "local", "hybrid", "global")
ADDED = {
    "id": "belle.txt",
    "text": "Belle Fairfax was engaged to Ebenezer Scrooge. Belle Fairfax married a merchant "
    "of Bristol, and Bob Cratchit once carried her letters in London.",
}


def _answers(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Every (question, mode) of the current run, one at a time, as the server gives them."""
    found = {}
    with Workspace(path) as ws:
        for question in QUESTIONS:
            for mode in MODES:
                answer = ws.query(question, mode).to_dict()
                answer.pop("timings_ms")
                found[(question, mode)] = answer
    return found


def test_many_threads_while_a_new_run_becomes_current(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, path)
    expected = {(path / "CURRENT").read_text(): _answers(path)}
    answered: list[tuple[str, str, dict[str, Any]]] = []
    failed: list[str] = []
    stop = threading.Event()

    def ask(worker: int) -> None:
        with httpx.Client(timeout=120) as client:
            n = worker
            while not stop.is_set():
                question, mode = QUESTIONS[n % len(QUESTIONS)], MODES[(n // 3) % len(MODES)]
                reply = client.post(f"{base}/query", json={"question": question, "mode": mode})
                if reply.status_code == 200:
                    answered.append((question, mode, reply.json()))
                else:
                    failed.append(f"{reply.status_code} {reply.text[:200]}")
                n += 1

    with running_server(path, write_token=TOKEN) as (base, _):
        threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        try:
            while len(answered) < 12:
                time.sleep(0.05)
            job = httpx.post(
                f"{base}/documents",
                json={"documents": [ADDED]},
                headers={"Authorization": f"Bearer {TOKEN}"},
                timeout=60,
            ).json()
            second = wait_for_job(base, job["job"])["result"]["run_id"]
            deadline = time.time() + 120
            while sum(a["run_id"] == second for _, _, a in answered) < 12:
                assert time.time() < deadline, "no answers from the new run"
                time.sleep(0.05)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
    expected[second] = _answers(path)
    assert failed == []
    runs = {a["run_id"] for _, _, a in answered}
    assert runs == set(expected) and len(runs) == 2
    for question, mode, answer in answered:
        answer.pop("timings_ms")
        assert answer == expected[answer["run_id"]][(question, mode)], (question, mode)


def test_a_replaced_run_stays_open_until_its_last_query_ends(small_workspace: Workspace) -> None:
    closed: list[str] = []
    with small_workspace.holding() as first:
        first_close = first.store.close
        first.store.close = lambda: closed.append(first.run.run_id) or first_close()  # type: ignore[method-assign]
        with small_workspace.holding() as again:
            assert again is first and first.holders == 2
        with Workspace(small_workspace.path) as writer:
            writer.add_documents([ADDED])
        second = small_workspace.loaded()  # the new run: the held one is retired, not closed
        assert second is not first and second.run.run_id != first.run.run_id
        assert first.retired and closed == []
        assert first.store.counts()["Document"] == 3
    assert closed == [first.run.run_id] and first.holders == 0
    # A run nobody holds is closed as soon as it is replaced.
    with Workspace(small_workspace.path) as writer:
        writer.delete(["belle.txt"])
    second_close = second.store.close
    second.store.close = lambda: closed.append(second.run.run_id) or second_close()  # type: ignore[method-assign]
    third = small_workspace.loaded()
    assert third.run.run_id not in {first.run.run_id, second.run.run_id}
    assert closed == [first.run.run_id, second.run.run_id]


def test_the_servers_query_embedder_has_the_servers_threads(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    from graphgate.serve.service import Service

    path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, path)
    for overrides, threads in (({}, 1), ({"serve": {"embed_threads": 3}}, 3)):
        service = Service(path, embed={"threads": 2}, **overrides)
        try:
            assert service.ws.embedder.settings.threads == threads  # type: ignore[attr-defined]
        finally:
            service.close()
    with Workspace(path, embed={"threads": 2}) as ws:  # indexing keeps embed.threads
        assert ws.embedder.settings.threads == 2  # type: ignore[attr-defined]


def test_requests_past_the_serving_threads_wait_their_turn(small_workspace_path: Path) -> None:
    """``serve.threads`` answer at once; the rest wait without failing."""
    from concurrent.futures import ThreadPoolExecutor

    running, most = 0, 0
    counting = threading.Lock()
    with running_server(small_workspace_path, serve={"threads": 2}) as (base, service):
        answer = service.query

        def query(*args: Any, **kwargs: Any) -> Any:
            nonlocal running, most
            with counting:
                running += 1
                most = max(most, running)
            try:
                time.sleep(0.2)
                return answer(*args, **kwargs)
            finally:
                with counting:
                    running -= 1

        service.query = query  # type: ignore[method-assign]

        def ask(n: int) -> int:
            body = {"question": QUESTIONS[n % len(QUESTIONS)], "mode": "vector"}
            return httpx.post(f"{base}/query", json=body, timeout=60).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(ask, range(8)))
    assert codes == [200] * 8
    assert most == 2


def test_a_server_whose_model_writes_answers_keeps_many_threads(
    small_workspace_path: Path,
) -> None:
    """Its threads wait on the model, not on each other: the default follows the answerer."""
    from graphgate.serve.service import Service

    for overrides, threads in (
        ({}, 2),
        ({"query": {"answerer": "llm"}}, 32),
        ({"serve": {"threads": 5}}, 5),
    ):
        service = Service(small_workspace_path, **overrides)
        try:
            assert service.threads == threads
        finally:
            service.close()


def test_serve_starts_as_many_processes_as_serve_workers_says(small_workspace_path: Path) -> None:
    """Without --workers, `graphgate serve` runs serve.workers processes: by default two where
    it may use two or more cores (each answers beside the other)."""
    import os
    import subprocess
    import sys

    from graphgate.serve.workers import worker_count
    from tests.serving import free_port, wait_until_up

    for setting, expected in ((None, worker_count(None)), ("1", 1), ("3", 3)):
        env = {k: v for k, v in os.environ.items() if k != "GRAPHGATE_SERVE__WORKERS"}
        if setting is not None:
            env["GRAPHGATE_SERVE__WORKERS"] = setting
        port = free_port()
        command = [sys.executable, "-m", "graphgate.cli", "serve", "-w", str(small_workspace_path)]
        server = subprocess.Popen([*command, "--port", str(port)], env=env)
        try:
            wait_until_up(f"http://127.0.0.1:{port}")
            children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
            commands = [Path(f"/proc/{c}/cmdline").read_bytes() for c in children]
            serving = [c for c in commands if b"spawn_main" in c and b"resource_tracker" not in c]
            assert len(serving) == (expected if expected > 1 else 0)
            body = {"question": QUESTIONS[0], "mode": "vector"}
            assert httpx.post(f"http://127.0.0.1:{port}/query", json=body, timeout=60).is_success
        finally:
            server.terminate()
            server.wait(timeout=30)


def test_the_default_worker_count_follows_the_cores_this_process_may_use(
    monkeypatch: Any,
) -> None:
    import os

    from graphgate.serve.workers import worker_count

    assert worker_count(5) == 5
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0}, raising=False)
    assert worker_count(None) == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1, 2, 3}, raising=False)
    assert worker_count(None) == 2
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS: every core counts
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert worker_count(None) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert worker_count(None) == 2
