"""Worker processes that end with the process that started them, even on ``kill -9``.

A killed indexer must not leave parser processes behind (each holds a spaCy model, ~170 MB).
Each worker watches its parent id and exits within half a second of it changing. A worker that
never outlives the thread that started it (a serving process) also asks the kernel for SIGKILL
when its parent dies (Linux ``PR_SET_PDEATHSIG``); the pools here are kept between a server's
jobs, whose threads end, and the kernel's signal comes with the starting *thread*'s end.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import AsyncResult, Pool
from typing import Any, TypeVar

from graphgate.core.errors import WorkerDiedError

T = TypeVar("T")
R = TypeVar("R")

_PR_SET_PDEATHSIG = 1
_WATCH_EVERY_S = 0.5


def die_with_parent(parent: int, signal_on_thread_exit: bool = True) -> None:
    """Called first in each worker: tie its life to ``parent``. The kernel's signal comes when
    the *thread* that started the worker ends, so a worker that outlives that thread (a
    server's job thread) only watches the parent id (``signal_on_thread_exit=False``)."""
    if signal_on_thread_exit and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_EVERY_S)
        os._exit(1)

    threading.Thread(target=watch, name="graphgate-parent-watch", daemon=True).start()


def _start_worker(parent: int, setup: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    die_with_parent(parent, signal_on_thread_exit=False)  # a pool outlives its starting thread
    if setup is not None:
        setup(*args)


def _live_workers(pool: Pool | None) -> list[Any]:
    """The pool's worker processes that are alive now (multiprocessing keeps them in
    ``_pool``). A pool never answers a job lost with its worker, so a caller keeps the workers
    its job may run on and stops waiting when one of them has died."""
    return [p for p in getattr(pool, "_pool", []) if p.exitcode is None]


def _any_died(workers: list[Any]) -> bool:
    return any(p.exitcode is not None for p in workers)


def spawnable() -> bool:
    """Whether a spawned worker can start here: it re-imports the parent's ``__main__`` from
    its file, and a script read from stdin (``python - < script.py``) has none (its
    ``__file__`` is ``<stdin>``), so every worker would die on start. Interactive sessions and
    ``python -c`` have no ``__file__`` and spawn fine. Where this is False the work runs in
    the calling process."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return path is None or os.path.exists(path)


class WarmPool:
    """``processes`` workers, each set up once (a spaCy model takes two seconds to import and
    load) and kept between calls of :meth:`map`, so an update of an open workspace (a
    server's next ``POST /documents``) parses its few new chunks at once. Ended by
    :meth:`close`, and within a second of the process that started them, ``kill -9`` included.

    ``fn`` and ``setup`` must be module-level functions (they travel to the workers by name).
    Workers are spawned, never forked: a forked child inherits the parent's threads' locks and
    native objects (an ONNX session's thread pool, say) and deadlocks when it touches them —
    seen here as a parser stuck in a garbage-collected onnxruntime destructor. They outlive
    the thread that started them (the kernel's parent-death signal would end them with a
    server's job thread), so they watch their parent's pid instead.
    """

    def __init__(
        self,
        processes: int,
        setup: Callable[..., None] | None = None,
        setup_args: tuple[Any, ...] = (),
    ) -> None:
        self.processes = processes
        self.setup = setup
        self.setup_args = setup_args
        self._pool: Pool | None = None

    @property
    def warm(self) -> bool:
        return self._pool is not None

    def map(self, fn: Callable[[T], R], items: Iterable[T], poll_s: float = 0.5) -> Iterator[R]:
        """``map(fn, items)`` over the workers, results in input order. A worker that dies
        meanwhile (killed, out of memory) takes its job with it and a pool never answers a
        lost job: the pool is ended and :class:`WorkerDiedError` raised instead of waiting."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = context.Pool(
                self.processes,
                initializer=_start_worker,
                initargs=(os.getpid(), self.setup, self.setup_args),
            )
        workers = _live_workers(self._pool)
        results = self._pool.imap(fn, items)
        while True:
            try:
                yield results.next(timeout=poll_s)
            except StopIteration:
                return
            except multiprocessing.TimeoutError:
                # None alive when the work was handed out (each died on start): watch those
                # the pool started since.
                workers = workers or _live_workers(self._pool)
                if _any_died(workers):
                    self.close()
                    raise WorkerDiedError(
                        "a worker process ended before finishing its share (killed, or out of "
                        "memory); nothing was changed",
                        "run it again; with little memory, set extract.processes = 1",
                    ) from None

    def pids(self) -> list[int]:
        """The workers' process ids (none before the first :meth:`map`)."""
        return [p.pid for p in _live_workers(self._pool)]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class BackgroundProcess:
    """One spawned worker for work that overlaps the caller's own: started ahead of need (its
    imports take seconds), kept for later work, ended by :meth:`close`. It outlives the thread
    that started it (kept warm between a server's jobs) and ends within a second of the
    process that started it, ``kill -9`` included."""

    def __init__(self, setup: Callable[..., None] | None = None) -> None:
        self.setup = setup
        self._pool: Pool | None = None
        self._workers: list[Any] = []  # the worker the jobs submitted last may run on

    def start(self) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = context.Pool(
                1, initializer=_start_worker, initargs=(os.getpid(), self.setup, ())
            )

    def submit(self, fn: Callable[..., R], *args: Any) -> AsyncResult[R]:
        """``fn(*args)`` in the worker; ``fn`` is a module-level function."""
        self.start()
        assert self._pool is not None
        self._workers = _live_workers(self._pool) or self._workers
        return self._pool.apply_async(fn, args)

    def wait(self, result: AsyncResult[R], poll_s: float = 0.5) -> R | None:
        """The job's result (its error re-raised), or None when the worker died before
        answering (killed, out of memory): a pool never answers a lost job, so the caller
        does the work itself instead of waiting for ever."""
        while not result.ready():
            result.wait(poll_s)
            # None alive when the job was submitted (each died on start): watch those the
            # pool started since, so a pool whose workers cannot start is not waited on for ever.
            self._workers = self._workers or _live_workers(self._pool)
            if not result.ready() and _any_died(self._workers):
                self._workers = []  # the pool's replacement is taken at the next submit
                return None
        return result.get()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
            self._workers = []
