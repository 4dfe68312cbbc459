"""One writer at a time per workspace, across threads, processes and hosts that share it.

Every change of a workspace's runs (index, add, delete, prune, baseline) holds an exclusive
``flock`` on ``WRITE.lock`` from before it reads the current run until the new run is current.
A second writer therefore starts from the first one's result instead of from the run both
saw at the start (the last to finish used to win and the other change vanished). The kernel
releases the lock when its holder dies, ``kill -9`` included, so no stale lock is left to
clear by hand; on NFS, Linux maps ``flock`` to the server's byte-range locks, so writers on
several hosts exclude each other too.

A waiting writer reads ``WRITER.json`` (host, pid, action, since, run) to say whom it waits
for; the file is written by the holder and is only a description, never the lock itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.errors import WriteConflictError
from graphgate.runs import owner, replace_text

LOCK_FILE = "WRITE.lock"
HOLDER_FILE = "WRITER.json"
_POLL_S = 0.05


@dataclass(frozen=True)
class WriterInfo:
    """Who holds the workspace's write lock, as the holder described itself."""

    action: str
    host: str
    pid: int | None
    since: str
    run_id: str | None = None

    def describe(self) -> str:
        run = f", run {self.run_id}" if self.run_id else ""
        return f"{self.action} by pid {self.pid} on {self.host} since {self.since}{run}"

    @classmethod
    def read(cls, path: Path) -> WriterInfo:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls("a write", "another process", None, "an unknown time")
        return cls(
            str(data.get("action", "a write")),
            str(data.get("host", "?")),
            data.get("pid") if isinstance(data.get("pid"), int) else None,
            str(data.get("since", "?")),
            str(data["run_id"]) if data.get("run_id") else None,
        )


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

    def holder(self) -> WriterInfo | None:
        """Who writes now (None: nobody); asks the kernel, takes nothing."""
        if self._fd is not None:
            return WriterInfo.read(self.holder_path)
        if not self.lock_path.exists():
            return None
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return WriterInfo.read(self.holder_path)
        finally:
            os.close(fd)  # closing releases a lock this probe took
        return None

    @contextlib.contextmanager
    def hold(
        self,
        action: str,
        wait_s: float | None,
        on_wait: Callable[[WriterInfo], None] | None = None,
    ) -> Iterator[None]:
        """The lock for ``action``: waits up to ``wait_s`` seconds (None: as long as it takes,
        0: not at all) for another writer, then :class:`WriteConflictError` naming it."""
        if self._fd is not None:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.workspace.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd, action, wait_s, on_wait)
        except BaseException:
            os.close(fd)
            raise
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
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        info = {"action": self._action, "host": me["host"], "pid": me["pid"], "since": since}
        replace_text(self.holder_path, json.dumps({**info, "run_id": run_id}))

    def _acquire(
        self,
        fd: int,
        action: str,
        wait_s: float | None,
        on_wait: Callable[[WriterInfo], None] | None,
    ) -> None:
        deadline = None if wait_s is None else time.monotonic() + wait_s
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            if deadline is not None and time.monotonic() >= deadline:
                holder = WriterInfo.read(self.holder_path)
                raise WriteConflictError(
                    f"cannot {action}: another write is in progress ({holder.describe()})",
                    "try again when it has finished, or let writers wait longer "
                    "(runs.write_wait_s, GRAPHGATE_RUNS__WRITE_WAIT_S); nothing changed",
                )
            if not told and on_wait is not None:
                on_wait(WriterInfo.read(self.holder_path))
                told = True
            time.sleep(_POLL_S)
