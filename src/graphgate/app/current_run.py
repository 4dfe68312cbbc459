"""The run queries answer from: opened once per run, followed through changes of ``CURRENT``,
and kept open for the queries still answering from it when another run replaces it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from graphgate.core.runs import CURRENT, Run, RunRegistry
from graphgate.query.loaded import LoadedIndex


class CurrentRun:
    """``open`` makes a run's :class:`LoadedIndex`; safe to use from several threads."""

    def __init__(self, runs: RunRegistry, open: Callable[[Run], LoadedIndex]) -> None:
        self.runs = runs
        self.open = open
        self._loaded: LoadedIndex | None = None
        self._lock = threading.RLock()
        self._signature: tuple[int, int, int] | None = None

    def loaded(self) -> LoadedIndex:
        """The current run, opened for querying (once per run: a change of ``CURRENT`` is
        noticed from its file's status, read again only when that changed). The run it
        replaces is closed now, or by the last query still answering from it (:meth:`holding`)."""
        with self._lock:
            signature = _file_signature(self.runs.workspace / CURRENT)
            if self._loaded is not None and signature == self._signature:
                return self._loaded
            run = self.runs.current()
            if self._loaded is None or self._loaded.run.run_id != run.run_id:
                opened = self.open(run)
                self._retire()
                self._loaded = opened
            self._signature = signature
            return self._loaded

    @contextmanager
    def holding(self) -> Iterator[LoadedIndex]:
        """The current run, kept open until the block ends even if another run becomes
        current meanwhile (a query answers from one run from start to end)."""
        with self._lock:
            loaded = self.loaded()
            loaded.holders += 1
        try:
            yield loaded
        finally:
            with self._lock:
                loaded.holders -= 1
                if loaded.retired and loaded.holders == 0:
                    loaded.close()

    def close(self) -> None:
        """Let the open run go (a new run became current, or the workspace closes)."""
        with self._lock:
            self._retire()
            self._signature = None

    def _retire(self) -> None:
        """Close the loaded run, or leave it to the last query holding it."""
        if self._loaded is not None:
            if self._loaded.holders:
                self._loaded.retired = True
            else:
                self._loaded.close()
            self._loaded = None


def _file_signature(path: Path) -> tuple[int, int, int] | None:
    """Inode, size and modification time: ``CURRENT`` is replaced by a rename, so a new run
    gives it a new inode."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return (found.st_ino, found.st_size, found.st_mtime_ns)
