"""``graphgate serve --workers N``: N server processes answering on one listening socket.

The socket is bound once here and handed to each worker (spawned, never forked: a fork would
copy loaded models and native thread pools). Each worker opens the workspace itself and
follows its CURRENT run, so a run indexed by any process is answered by all of them; with
``store.backend = "falkordb"`` they share one graph on the server instead of each reading
files. Jobs started over HTTP run in the worker that took the request; every worker reports
them (their state is kept in the workspace, ``serve/jobs.py``).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from pathlib import Path

from graphgate.core.workers import die_with_parent


def limit_blas(threads: int | None) -> None:
    """``serve.blas_threads`` for this server process (process-wide by nature: BLAS keeps one
    thread pool per process), set once where the process starts serving."""
    if threads is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(threads, user_api="blas")


def worker_count(setting: int | None) -> int:
    """``serve.workers``, or by default 2 where this process may run on two or more cores: two
    processes answered more queries a second than one process's threads (the interpreter lock
    is per process; benchmarks/serve_load.py)."""
    if setting is not None:
        return setting
    return 2 if _usable_cores() >= 2 else 1


def _usable_cores() -> int:
    """The cores this process may run on (its affinity on Linux; elsewhere all of them)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker(
    parent: int,
    workspace: str,
    sock: socket.socket,
    host: str,
    port: int,
    write_token: str | None,
    read_token: str | None,
) -> None:
    import uvicorn

    from graphgate.serve.http import create_app, server_config
    from graphgate.serve.service import Service

    die_with_parent(parent)
    service = Service(Path(workspace), write_token, read_token)
    limit_blas(service.settings.blas_threads)
    try:
        app = create_app(service, host=host)
        uvicorn.Server(server_config(app, service, host, port)).run(sockets=[sock])
    finally:
        service.close()


def serve_workers(
    workspace: Path,
    host: str,
    port: int,
    workers: int,
    write_token: str | None,
    read_token: str | None,
) -> None:
    """Run ``workers`` server processes until interrupted (Ctrl-C stops them all)."""
    sock = bind(host, port)
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(
            target=_worker,
            args=(os.getpid(), str(workspace), sock, host, port, write_token, read_token),
            name=f"graphgate-serve-{i}",
        )
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    try:
        for process in processes:
            process.join()
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
        sock.close()
