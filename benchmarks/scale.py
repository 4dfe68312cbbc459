"""Indexing time and peak memory against corpus size, locally and on a two-node Ray cluster.

    .venv/bin/python benchmarks/scale.py [--sizes 1500,6000] [--executors local,ray]
        [--corpora benchmarks/out/hq-data/corpus.jsonl,...] [--out DIR]

The passages are real paragraphs (over 20 words) of the converted corpora given (by default
HotpotQA, RAMDocs and TimeQA, made by ``graphgate testset convert``: about 9,800 distinct
passages of ~90 words), shuffled with a fixed seed. A size past the distinct pool repeats it
with fresh ids and each repeated passage's sentences shuffled (a different text, so no content
cache serves it; its names are the same, so the graph grows less than a real corpus's would).

Each (size, executor) is indexed in a fresh process into a fresh workspace; the table gives
wall time, the indexing process's peak RSS, the largest peak of its child processes (the local
parser workers, the gate worker; Ray's workers belong to the cluster and are not counted), the
per-chunk stages' seconds (extract, embed chunks) and the rest, then the slopes: MB of driver
RSS per 1,000 passages and the log-log slope of time. ``ray`` starts a local cluster (head +
one worker node, one CPU each: tests/ray_cluster.py) and joins it as a driver; on one machine
it shows the executor's overhead and what leaves the indexing process, not a speed-up.
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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def index_once(corpus: Path, workspace: Path, executor: str) -> None:
    """In this (fresh) process: index, print one JSON line of measurements."""
    from graphgate import Workspace

    started = time.perf_counter()
    with Workspace(workspace, index={"executor": executor}) as ws:
        report = ws.index(corpus)
    seconds = time.perf_counter() - started
    stages = {s.name: s.seconds for s in report.stages}
    print(
        json.dumps(
            {
                "seconds": seconds,
                "driver_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "child_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                "per_chunk_s": sum(stages.get(n, 0.0) for n in PER_CHUNK_STAGES),
                "stages": stages,
                "chunks": next(s.rows["chunks"] for s in report.stages if "chunks" in s.rows),
                "counts": report.counts,
            }
        )
    )


def measure(corpus: Path, workspace: Path, executor: str, env: dict[str, str]) -> dict[str, object]:
    shutil.rmtree(workspace, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, __file__, "_one", str(corpus), str(workspace), executor],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"indexing {corpus} with {executor} failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1500,6000")
    parser.add_argument("--executors", default="local,ray")
    parser.add_argument("--corpora", default=",".join(str(p) for p in DEFAULT_CORPORA))
    parser.add_argument("--out", type=Path)
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
    print(f"{len(pool)} distinct passages from {len(corpora)} corpora; out: {out}")
    rows: dict[str, list[tuple[int, dict[str, object]]]] = {e: [] for e in executors}
    cluster = None
    env = dict(os.environ)
    try:
        if "ray" in executors:
            sys.path.insert(0, str(REPO))
            from tests.ray_cluster import two_node_cluster

            cluster = two_node_cluster()
            env["RAY_ADDRESS"] = cluster.__enter__().gcs
        print(
            "| passages | repeats | executor | chunks | seconds | per-chunk stages s | rest s "
            "| driver peak RSS MB | its child processes' peak RSS MB |"
        )
        print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
        for size in sizes:
            corpus = out / f"corpus-{size}.jsonl"
            repeats = build_corpus(pool, size, corpus)
            for executor in executors:
                m = measure(corpus, out / f"ws-{size}-{executor}", executor, env)
                rows[executor].append((size, m))
                seconds, per_chunk = float(m["seconds"]), float(m["per_chunk_s"])  # type: ignore[arg-type]
                print(
                    f"| {size} | {repeats} | {executor} | {m['chunks']} | {seconds:.1f} "
                    f"| {per_chunk:.1f} | {seconds - per_chunk:.1f} "
                    f"| {float(m['driver_rss_mb']):.0f} | {float(m['child_rss_mb']):.0f} |",  # type: ignore[arg-type]
                    flush=True,
                )
    finally:
        if cluster is not None:
            cluster.__exit__(None, None, None)
    print()
    for executor, found in rows.items():
        if len(found) < 2:
            continue
        sizes_k = [s / 1000 for s, _ in found]
        rss = [float(m["driver_rss_mb"]) for _, m in found]  # type: ignore[arg-type]
        secs = [float(m["seconds"]) for _, m in found]  # type: ignore[arg-type]
        per_chunk = [float(m["per_chunk_s"]) / int(m["chunks"]) for _, m in found]  # type: ignore[arg-type,call-overload]
        rest = [
            (float(m["seconds"]) - float(m["per_chunk_s"])) / int(m["chunks"])  # type: ignore[arg-type,call-overload]
            for _, m in found
        ]
        time_slope = slope([math.log(s) for s in sizes_k], [math.log(t) for t in secs])
        print(
            f"{executor}: driver RSS {slope(sizes_k, rss):.1f} MB per 1,000 passages; time "
            f"log-log slope {time_slope:.2f}; "
            f"per chunk at the largest size: {per_chunk[-1] * 1000:.1f} ms in extraction and "
            f"embeddings, {rest[-1] * 1000:.1f} ms in the other stages"
        )


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "_one":
        index_once(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
    else:
        main()
