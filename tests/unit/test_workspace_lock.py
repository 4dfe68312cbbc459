"""The workspace's write lock: one holder, waiters told whom they wait for, re-entrant within
one object, and freed by the kernel when its holder is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from graphgate.app.workspace_lock import WorkspaceWriteLock, WriterInfo
from graphgate.core.errors import WriteConflictError


def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    first, second = WorkspaceWriteLock(tmp_path), WorkspaceWriteLock(tmp_path)
    with first.hold("add", wait_s=0):
        first.started_run("20260101-000000000-abcdef")
        assert second.holder() is not None
        with pytest.raises(WriteConflictError) as refused, second.hold("delete", wait_s=0):
            pass
        message = str(refused.value)
        assert "cannot delete" in message and f"pid {os.getpid()}" in message
        assert "add by" in message and "run 20260101-000000000-abcdef" in message
        assert "nothing changed" in message
        with first.hold("prune runs", wait_s=0):  # the same object: re-entrant
            pass
        assert second.holder() is not None  # still held after the inner block
    assert second.holder() is None
    with second.hold("delete", wait_s=0):
        pass


def test_a_waiter_is_told_once_and_goes_on_when_the_holder_is_done(tmp_path: Path) -> None:
    holder, waiter = WorkspaceWriteLock(tmp_path), WorkspaceWriteLock(tmp_path)
    told: list[WriterInfo] = []
    order: list[str] = []
    held = threading.Event()

    def hold_briefly() -> None:
        with holder.hold("index", wait_s=0):
            held.set()
            time.sleep(0.4)
            order.append("first done")

    thread = threading.Thread(target=hold_briefly)
    thread.start()
    held.wait(5)
    with waiter.hold("add", wait_s=30, on_wait=told.append):
        order.append("second runs")
    thread.join()
    assert order == ["first done", "second runs"]
    assert len(told) == 1 and told[0].action == "index" and told[0].pid == os.getpid()


def test_a_killed_holder_leaves_no_lock_behind(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from graphgate.app.workspace_lock import WorkspaceWriteLock\n"
        "with WorkspaceWriteLock(Path(sys.argv[1])).hold('add', wait_s=0):\n"
        "    print('held', flush=True)\n"
        "    time.sleep(120)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    lock = WorkspaceWriteLock(tmp_path)
    seen = lock.holder()
    assert seen is not None and seen.pid == child.pid
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert lock.holder() is None
    with lock.hold("delete", wait_s=0):
        pass


def test_writers_go_in_the_order_of_their_tickets(tmp_path: Path) -> None:
    early, late = WorkspaceWriteLock(tmp_path), WorkspaceWriteLock(tmp_path)
    ticket = early.take_ticket("add accepted first")
    # Nobody holds the lock, but a ticket drawn earlier waits: a later writer does not pass it.
    with pytest.raises(WriteConflictError, match="add accepted first"), late.hold("delete", 0.2):
        pass
    order: list[str] = []

    def later() -> None:
        with late.hold("delete", wait_s=30):
            order.append("later")

    thread = threading.Thread(target=later)
    thread.start()
    time.sleep(0.3)
    with early.hold("add accepted first", wait_s=0, ticket=ticket):
        order.append("earlier")
    thread.join()
    assert order == ["earlier", "later"]
    assert late.holder() is None  # every ticket left the line


def test_a_ticket_whose_process_died_holds_nobody_up(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from graphgate.app.workspace_lock import WorkspaceWriteLock\n"
        "print(WorkspaceWriteLock(Path(sys.argv[1])).take_ticket('add'), flush=True)\n"
    )
    taken = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert taken.stdout.strip() == "1"  # its ticket is still in the line; its process is gone
    with WorkspaceWriteLock(tmp_path).hold("delete", wait_s=0):
        pass
