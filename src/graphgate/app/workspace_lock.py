"""One writer at a time per workspace, across threads, processes and hosts that share it, in
the order the writers came.

Every change of a workspace's runs (index, add, delete, prune, baseline) holds an exclusive
``flock`` on ``WRITE.lock`` from before it reads the current run until the new run is current.
A second writer therefore starts from the first one's result instead of from the run both
saw at the start (the last to finish used to win and the other change vanished). The kernel
releases the lock when its holder dies, ``kill -9`` included, so no stale lock is left to
clear by hand; on NFS, Linux maps ``flock`` to the server's byte-range locks, so writers on
several hosts exclude each other too.

Writers take the lock in the order of their tickets: a number drawn from ``WRITERS.json``
when a writer starts to wait (or, for a server, when it accepts the write), so writes sent to
two server processes apply in the order they were accepted. A ticket whose process is gone
(this host: by pid and start time; another host: no heartbeat for ``STALE_S``) no longer
holds anyone up. ``WRITER.json`` describes the holder (host, pid, action, since, run) to
whoever waits; neither file is the lock itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.core.errors import WriteConflictError
from graphgate.core.runs import owner, owner_alive, replace_text

LOCK_FILE = "WRITE.lock"
HOLDER_FILE = "WRITER.json"
QUEUE_FILE = "WRITERS.json"
QUEUE_LOCK_FILE = "WRITERS.lock"
_POLL_S = 0.05
_BEAT_S = 2.0  # a waiting ticket's heartbeat, for writers on other hosts
STALE_S = 30.0  # another host's ticket without a heartbeat this long no longer counts


@dataclass(frozen=True)
class WriterInfo:
    """Who holds the workspace's write lock (or waits first for it), as it described itself."""

    action: str
    host: str
    pid: int | None
    since: str
    run_id: str | None = None

    def describe(self) -> str:
        run = f", run {self.run_id}" if self.run_id else ""
        return f"{self.action} by pid {self.pid} on {self.host} since {self.since}{run}"

    @classmethod
    def of(cls, data: dict[str, Any]) -> WriterInfo:
        return cls(
            str(data.get("action", "a write")),
            str(data.get("host", "?")),
            data.get("pid") if isinstance(data.get("pid"), int) else None,
            str(data.get("since", "?")),
            str(data["run_id"]) if data.get("run_id") else None,
        )

    @classmethod
    def read(cls, path: Path) -> WriterInfo:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls("a write", "another process", None, "an unknown time")
        return cls.of(data)


def _conflict(action: str, in_the_way: WriterInfo) -> WriteConflictError:
    return WriteConflictError(
        f"cannot {action}: another write is in progress ({in_the_way.describe()})",
        "try again when it has finished, or let writers wait longer "
        "(runs.write_wait_s, GRAPHGATE_RUNS__WRITE_WAIT_S); nothing changed",
    )


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class WorkspaceWriteLock:
    """The workspace's write lock; :meth:`hold` is re-entrant within one object (an index
    prunes old runs under the lock it already holds)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self._fd: int | None = None
        self._depth = 0
        self._action = ""

    @property
    def lock_path(self) -> Path:
        return self.workspace / LOCK_FILE

    @property
    def holder_path(self) -> Path:
        return self.workspace / HOLDER_FILE

    # -- who writes, who waits --------------------------------------------------------------
    def holder(self) -> WriterInfo | None:
        """Who writes now, or else who waits first (None: nobody); takes nothing."""
        if self._fd is not None:
            return WriterInfo.read(self.holder_path)
        if self.lock_path.exists():
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return WriterInfo.read(self.holder_path)
            finally:
                os.close(fd)  # closing releases a lock this probe took
        waiting = self._live(self._queue()["waiting"])
        return WriterInfo.of(waiting[0]) if waiting else None

    def refuse_if_busy(self, action: str) -> None:
        """For a write that may not wait (``runs.write_wait_s = 0``, checked when a server
        accepts it): :class:`WriteConflictError` naming whoever writes or waits first."""
        holder = self.holder()
        if holder is not None:
            raise _conflict(action, holder)

    def take_ticket(self, action: str) -> int:
        """A place in line, for a write accepted now and applied later (a server's queue):
        :meth:`hold` with it waits for every earlier ticket. Give it back with
        :meth:`leave_line` if the write never comes to :meth:`hold`."""
        with self._queue_locked() as queue:
            number = int(queue["next"])
            me = owner()
            queue["next"] = number + 1
            queue["waiting"].append(
                {
                    "ticket": number,
                    "action": action,
                    "host": me["host"],
                    "pid": me["pid"],
                    "pid_started": me["pid_started"],
                    "since": _stamp(),
                    "beat": time.time(),
                }
            )
        return number

    def leave_line(self, ticket: int) -> None:
        """The ticket no longer waits (taken the lock, refused, or given up); idempotent."""
        with self._queue_locked() as queue:
            queue["waiting"] = [e for e in queue["waiting"] if e.get("ticket") != ticket]

    # -- holding ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def hold(
        self,
        action: str,
        wait_s: float | None,
        on_wait: Callable[[WriterInfo], None] | None = None,
        ticket: int | None = None,
    ) -> Iterator[None]:
        """The lock for ``action``, after every earlier ticket (``ticket``: one taken before;
        default: one taken now): waits up to ``wait_s`` seconds (None: as long as it takes, 0:
        not at all), then :class:`WriteConflictError` naming the writer in the way."""
        if self._fd is not None:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.workspace.mkdir(parents=True, exist_ok=True)
        number = ticket if ticket is not None else self.take_ticket(action)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd, number, action, wait_s, on_wait)
        except BaseException:
            os.close(fd)
            raise
        finally:
            self.leave_line(number)
        self._fd, self._action = fd, action
        self._describe(None)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                self.holder_path.unlink()
            self._fd = None
            os.close(fd)  # releases the lock

    def started_run(self, run_id: str) -> None:
        """Named in the holder's description, so that a waiter can say which run it waits for."""
        if self._fd is not None:
            self._describe(run_id)

    def _describe(self, run_id: str | None) -> None:
        me = owner()
        info = {"action": self._action, "host": me["host"], "pid": me["pid"], "since": _stamp()}
        replace_text(self.holder_path, json.dumps({**info, "run_id": run_id}))

    def _acquire(
        self,
        fd: int,
        ticket: int,
        action: str,
        wait_s: float | None,
        on_wait: Callable[[WriterInfo], None] | None,
    ) -> None:
        deadline = None if wait_s is None else time.monotonic() + wait_s
        told, beat = False, time.monotonic()
        while True:
            ahead = [e for e in self._live(self._queue()["waiting"]) if e["ticket"] < ticket]
            if not ahead:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    pass
            in_the_way = WriterInfo.of(ahead[0]) if ahead else WriterInfo.read(self.holder_path)
            if deadline is not None and time.monotonic() >= deadline:
                raise _conflict(action, in_the_way)
            if not told and on_wait is not None:
                on_wait(in_the_way)
                told = True
            if time.monotonic() - beat > _BEAT_S:
                self._heartbeat(ticket)
                beat = time.monotonic()
            time.sleep(_POLL_S)

    # -- the line of tickets ----------------------------------------------------------------
    @property
    def _queue_path(self) -> Path:
        return self.workspace / QUEUE_FILE

    def _queue(self) -> dict[str, Any]:
        """The line as last written (replaced whole, so never half-read)."""
        try:
            data: dict[str, Any] = json.loads(self._queue_path.read_text())
        except (OSError, ValueError):
            return {"next": 1, "waiting": []}
        data.setdefault("next", 1)
        data.setdefault("waiting", [])
        return data

    @contextlib.contextmanager
    def _queue_locked(self) -> Iterator[dict[str, Any]]:
        """The line, to change under a short lock of its own (never held while waiting);
        tickets whose writers are gone are dropped on the way."""
        self.workspace.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.workspace / QUEUE_LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            queue = self._queue()
            queue["waiting"] = self._live(queue["waiting"])
            yield queue
            replace_text(self._queue_path, json.dumps(queue))
        finally:
            os.close(fd)

    def _heartbeat(self, ticket: int) -> None:
        with self._queue_locked() as queue:
            for entry in queue["waiting"]:
                if entry.get("ticket") == ticket:
                    entry["beat"] = time.time()

    @staticmethod
    def _live(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Tickets whose writers may still come, oldest first."""
        here = socket.gethostname()

        def alive(entry: dict[str, Any]) -> bool:
            if entry.get("host") == here:
                return owner_alive(entry)
            return time.time() - float(entry.get("beat", 0)) < STALE_S

        found = [e for e in entries if isinstance(e.get("ticket"), int) and alive(e)]
        return sorted(found, key=lambda e: int(e["ticket"]))
