"""The background worker: kept warm past the thread that started it, gone with its process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from graphgate.core.workers import BackgroundProcess, WarmPool
from tests.processes import alive

_CHILD = """
import os, sys, time
from graphgate.core.workers import BackgroundProcess, WarmPool

if __name__ == "__main__":
    worker = BackgroundProcess()
    print(worker.submit(os.getpid).get(timeout=60), flush=True)
    time.sleep(120)
"""


def test_worker_outlives_the_thread_that_started_it() -> None:
    worker = BackgroundProcess()
    first: list[int] = []
    job = threading.Thread(target=lambda: first.append(worker.submit(os.getpid).get(timeout=60)))
    job.start()
    job.join()
    try:
        time.sleep(0.5)  # a kernel parent-death signal would have come with the thread's end
        assert first and first[0] != os.getpid()
        assert worker.submit(os.getpid).get(timeout=60) == first[0]  # the same warm process
    finally:
        worker.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_worker_ends_with_a_killed_process(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        worker_pid = int(child.stdout.readline())
        assert alive(worker_pid)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    deadline = time.time() + 10
    while time.time() < deadline and alive(worker_pid):
        time.sleep(0.1)
    assert not alive(worker_pid), "the worker outlived the process that started it"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_job_lost_with_its_worker_is_reported_not_waited_for() -> None:
    worker = BackgroundProcess()
    try:
        pid = worker.submit(os.getpid).get(timeout=60)
        assert worker.wait(worker.submit(os.getpid)) == pid
        lost = worker.submit(time.sleep, 60)
        time.sleep(0.5)  # the worker is sleeping in the job
        os.kill(pid, signal.SIGKILL)
        started = time.monotonic()
        assert worker.wait(lost) is None
        assert time.monotonic() - started < 10
        replacement = worker.wait(worker.submit(os.getpid))  # the pool started another
        assert replacement is not None and replacement != pid
    finally:
        worker.close()


def test_warm_pool_keeps_its_workers_between_calls() -> None:
    pool = WarmPool(2)
    try:
        assert not pool.warm and pool.pids() == []
        assert list(pool.map(abs, [-3, 1, -2, 5])) == [3, 1, 2, 5]  # in input order
        first = sorted(pool.pids())
        assert len(first) == 2 and os.getpid() not in first
        assert list(pool.map(abs, [-7])) == [7]
        assert sorted(pool.pids()) == first  # the same processes: set up once
    finally:
        pool.close()
    assert not pool.warm
    deadline = time.time() + 10
    while time.time() < deadline and any(alive(pid) for pid in first):
        time.sleep(0.1)
    assert not any(alive(pid) for pid in first)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_warm_pool_reports_a_worker_that_died_instead_of_waiting() -> None:
    from graphgate.core.errors import WorkerDiedError

    pool = WarmPool(2)
    try:
        assert list(pool.map(abs, [-1, -2])) == [1, 2]
        victim = pool.pids()[0]
        results = pool.map(time.sleep, [60, 60, 60])
        killer = threading.Timer(0.5, os.kill, (victim, signal.SIGKILL))
        killer.start()
        started = time.monotonic()
        with pytest.raises(WorkerDiedError, match="ended before finishing"):
            list(results)
        assert time.monotonic() - started < 10
        assert not pool.warm  # ended: the next call starts fresh workers
        assert list(pool.map(abs, [-3])) == [3]
    finally:
        pool.close()
