"""Load on a local graphgate server: N concurrent clients, a bounded number of queries per mode.

    .venv/bin/python benchmarks/serve_load.py WORKSPACE QUESTIONS [--clients 32] [--queries 5000]

Starts `graphgate serve` on a free loopback port in its own process, sends the questions (one
a line, or test-set JSONL) round-robin from client threads, and prints throughput, latency
p50/p95/p99 and errors per mode.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import numpy as np

from graphgate.inputs import read_questions


@dataclass
class Load:
    base: str
    mode: str
    questions: list[str]
    total: int
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
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
                    ok = http.post("/query", json=body).status_code == 200
                except httpx.HTTPError:
                    ok = False
                with self.lock:
                    self.latencies.append((time.perf_counter() - started) * 1000)
                    self.errors += not ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--modes", default="vector,local")
    args = parser.parse_args()
    questions = [q for _, q in read_questions(args.questions.read_text().splitlines())]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "graphgate.cli",
            "serve",
            "-w",
            str(args.workspace),
            "--port",
            str(port),
        ]
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        httpx.post(base + "/query", json={"question": questions[0]}, timeout=60)  # warm up
        print(
            "| mode | clients | queries | seconds | queries/s | p50 ms | p95 ms | p99 ms | errors |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for mode in args.modes.split(","):
            load = Load(base, mode, questions, args.queries)
            threads = [threading.Thread(target=load.client) for _ in range(args.clients)]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            seconds = time.perf_counter() - started
            p50, p95, p99 = np.percentile(load.latencies, [50, 95, 99])
            print(
                f"| {mode} | {args.clients} | {len(load.latencies)} | {seconds:.1f} | "
                f"{len(load.latencies) / seconds:.1f} | {p50:.1f} | {p95:.1f} | {p99:.1f} | "
                f"{load.errors} |"
            )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
