"""Successions and conflicts in many phrasings (graphgate.datasets.time_scenarios): what the
time and truth features get right on text they were not written against.

    .venv/bin/python benchmarks/time_scenarios.py [--out DIR] [--seed 0] [--modes hybrid,vector]

Indexes the generated set (ten role families, eight attribute families, five phrasings each)
and prints, per family and overall (graphgate.evaluate.time_scenarios says what each means):
successions read as conflicts (issue 31's target: 0), as-of top chunk valid (≥ 0.9), holder
named (≥ 0.95), conflicts surfaced (≥ 0.9); and the time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from graphgate import Workspace
from graphgate.core.types import Conflict, from_table
from graphgate.datasets.time_scenarios import write_time_scenarios
from graphgate.evaluate.testset import load_testset
from graphgate.evaluate.time_scenarios import MEASURES, overall, score, successions_as_conflicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--modes", default="hybrid,vector")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="gg-time-scenarios-"))
    dataset = write_time_scenarios(out / "data", seed=args.seed)
    cases = load_testset(dataset.questions)
    with Workspace(out / "ws") as ws:
        started = time.perf_counter()
        if ws.runs.current_id() is None:
            ws.index(dataset.corpus)
        indexed = time.perf_counter() - started
        conflicts = from_table(ws.runs.current().read_artifact("conflicts"), Conflict)
        false = successions_as_conflicts(conflicts, cases)
        print(
            f"{dataset.documents} documents, {dataset.cases} cases, seed {args.seed}; the index "
            f"lists {len(conflicts)} conflicts; indexed in {indexed:.1f} s\n"
        )
        for mode in args.modes.split(","):
            started = time.perf_counter()
            rows = score(cases, lambda c, m=mode: ws.query(c.question, mode=m, as_of=c.as_of))
            took = time.perf_counter() - started
            print(f"## {mode} ({took / len(cases) * 1000:.0f} ms a question)\n")
            print(
                "| family | successions read as conflicts | "
                + " | ".join(MEASURES)
                + " |\n|---|---|---|---|---|"
            )
            for family, values in rows.items():
                cells = [
                    f"{sum(values[k]) / len(values[k]):.2f} ({len(values[k])})"
                    if values.get(k)
                    else "—"
                    for k in MEASURES
                ]
                succession = str(false.get(family, 0)) if values.get("holder named") else "—"
                print(f"| {family} | {succession} | " + " | ".join(cells) + " |")
            shares = overall(rows)
            cells = [f"{shares[k]:.2f}" if k in shares else "—" for k in MEASURES]
            print(f"| all | {sum(false.values())} | " + " | ".join(cells) + " |\n")


if __name__ == "__main__":
    main()
