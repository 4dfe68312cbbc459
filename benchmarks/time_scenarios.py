"""Successions and conflicts in many phrasings (graphgate.datasets.time_scenarios): what the
time and truth features get right on text they were not written against.

    .venv/bin/python benchmarks/time_scenarios.py [--out DIR] [--seed 0] [--modes hybrid,vector]

Indexes the generated set (ten role families, eight attribute families, five phrasings each)
and prints, per family and overall:

- successions read as conflicts: conflicts the index lists between the two holders of one
  office (an orderly change shown as a disagreement; issue 31's target: 0);
- as-of top chunk valid: a succession question asked as of a time, whose first chunk comes
  from the document valid then (target ≥ 0.9);
- holder named: the answer's first statement names the holder valid then, and not the other
  (target ≥ 0.95; the later document names both, "B replaced A", so naming is not enough);
- conflicts surfaced: a conflict question whose answer's retrieval carries a conflict with
  both values, each from its source (target ≥ 0.9).
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from graphgate import Workspace
from graphgate.core.types import Conflict, from_table
from graphgate.datasets.time_scenarios import write_time_scenarios
from graphgate.evaluate.testset import TestCase, load_testset


def _norm(text: str) -> str:
    return re.sub(r"[\s,]+", " ", text.lower()).strip()


def _names_in(value: str, names: set[str]) -> set[str]:
    return {n for n in names if _norm(n) in _norm(value)}


def _first_claim(answer: str) -> str:
    """The answer's first statement (what a reader takes as the answer), normalised: the text
    before its first citation marker, an "Extractive answer …:" header line left out."""
    lines = [line for line in answer.splitlines() if line.strip()]
    if lines and lines[0].rstrip().endswith(":"):
        lines = lines[1:]
    return _norm(" ".join(lines).split("[", 1)[0])


def successions_as_conflicts(conflicts: list[Conflict], cases: list[TestCase]) -> dict[str, int]:
    """Per role family: conflicts whose two values are the two holders of one office."""
    holders: dict[str, tuple[str, set[str]]] = {}
    for case in cases:
        if case.extras().get("scenario") == "succession" and case.answer:
            family, names = holders.setdefault(
                case.id.rsplit("-", 1)[0], (str(case.extras()["family"]), set())
            )
            names.add(case.answer)
    found: dict[str, int] = defaultdict(int)
    for conflict in conflicts:
        for family, names in holders.values():
            if _names_in(conflict.a_value, names) and _names_in(conflict.b_value, names):
                found[family] += 1
    return found


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
        if ws.runs.current_id() is None:
            ws.index(dataset.corpus)
        conflicts = from_table(ws.runs.current().read_artifact("conflicts"), Conflict)
        false = successions_as_conflicts(conflicts, cases)
        holders_of: dict[str, set[str]] = defaultdict(set)
        for case in cases:
            if case.answer:
                holders_of[case.id.rsplit("-", 1)[0]].add(case.answer)
        print(
            f"{dataset.documents} documents, {dataset.cases} cases, seed {args.seed}; the index "
            f"lists {len(conflicts)} conflicts\n"
        )
        for mode in args.modes.split(","):
            rows: dict[str, list[tuple[str, float]]] = defaultdict(list)
            for case in cases:
                family = str(case.extras()["family"])
                answer = ws.query(case.question, mode=mode, as_of=case.as_of)
                if case.extras()["scenario"] == "succession":
                    top = answer.retrieval.chunks[0].doc_id if answer.retrieval.chunks else ""
                    rows[family].append(("as-of top chunk valid", float(top in case.gold_docs)))
                    first = _first_claim(answer.answer)
                    others = holders_of[case.id.rsplit("-", 1)[0]] - {case.answer or ""}
                    named = _norm(case.answer or "") in first and not any(
                        _norm(o) in first for o in others
                    )
                    rows[family].append(("holder named", float(named)))
                else:
                    wanted = [_norm(v) for v in case.conflicting_answers]
                    surfaced = any(
                        {c.sides[0].doc_id, c.sides[1].doc_id} == set(case.gold_docs)
                        and all(
                            any(w in _norm(s.value) or _norm(s.value) in w for s in c.sides)
                            for w in wanted
                        )
                        for c in answer.retrieval.conflicts
                    )
                    rows[family].append(("conflicts surfaced", float(surfaced)))
            print(f"## {mode}\n")
            print(
                "| family | successions read as conflicts | as-of top chunk valid | holder named "
                "| conflicts surfaced |\n|---|---|---|---|---|"
            )
            totals: dict[str, list[float]] = defaultdict(list)
            for family in rows:
                values: dict[str, list[float]] = defaultdict(list)
                for name, value in rows[family]:
                    values[name].append(value)
                    totals[name].append(value)
                cells = [
                    f"{sum(values[k]) / len(values[k]):.2f} ({len(values[k])})"
                    if values[k]
                    else "—"
                    for k in ("as-of top chunk valid", "holder named", "conflicts surfaced")
                ]
                succession = str(false.get(family, 0)) if values["holder named"] else "—"
                print(f"| {family} | {succession} | " + " | ".join(cells) + " |")
            overall = [
                f"{sum(totals[k]) / len(totals[k]):.2f} ({len(totals[k])})"
                for k in ("as-of top chunk valid", "holder named", "conflicts surfaced")
            ]
            print(f"| all | {sum(false.values())} | " + " | ".join(overall) + " |\n")


if __name__ == "__main__":
    main()
