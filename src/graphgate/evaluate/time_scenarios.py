"""Scoring the generated successions and conflicts (graphgate.datasets.time_scenarios) on an
indexed workspace: what benchmarks/time_scenarios.py prints and the tests hold to.

- successions read as conflicts: conflicts the index lists between the two holders of one
  office (an orderly change shown as a disagreement);
- as-of top chunk valid: a succession question asked as of a time, whose first chunk comes
  from the document valid then;
- holder named: the answer's first statement names the holder valid then, and not the other
  (the later document names both, "B replaced A", so naming is not enough);
- conflicts surfaced: a conflict question whose retrieval carries a conflict with both
  values, each from its source.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence

from graphgate.core.types import Conflict
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import Answer

MEASURES = ("as-of top chunk valid", "holder named", "conflicts surfaced")
Ask = Callable[[TestCase], Answer]


def _norm(text: str) -> str:
    return re.sub(r"[\s,]+", " ", text.lower()).strip()


def first_claim(answer: str) -> str:
    """The answer's first statement (what a reader takes as the answer), normalised: the text
    before its first citation marker, an "Extractive answer …:" header line left out."""
    lines = [line for line in answer.splitlines() if line.strip()]
    if lines and lines[0].rstrip().endswith(":"):
        lines = lines[1:]
    return _norm(" ".join(lines).split("[", 1)[0])


def _office(case: TestCase) -> str:
    return case.id.rsplit("-", 1)[0]


def successions_as_conflicts(
    conflicts: Sequence[Conflict], cases: Sequence[TestCase]
) -> dict[str, int]:
    """Per role family: conflicts whose two values are the two holders of one office."""
    holders: dict[str, tuple[str, set[str]]] = {}
    for case in cases:
        if case.extras().get("scenario") == "succession" and case.answer:
            _, names = holders.setdefault(_office(case), (str(case.extras()["family"]), set()))
            names.add(case.answer)
    found: dict[str, int] = defaultdict(int)
    for conflict in conflicts:
        for family, names in holders.values():
            a = {n for n in names if _norm(n) in _norm(conflict.a_value)}
            b = {n for n in names if _norm(n) in _norm(conflict.b_value)}
            if a and b:
                found[family] += 1
    return found


def score_case(case: TestCase, answer: Answer, holders: set[str]) -> list[tuple[str, float]]:
    """(measure, 0 or 1) of one case's answer; ``holders``: everyone who held its office."""
    if case.extras()["scenario"] == "succession":
        top = answer.retrieval.chunks[0].doc_id if answer.retrieval.chunks else ""
        first = first_claim(answer.answer)
        others = holders - {case.answer or ""}
        named = _norm(case.answer or "") in first and not any(_norm(o) in first for o in others)
        return [("as-of top chunk valid", float(top in case.gold_docs)), ("holder named", named)]
    wanted = [_norm(v) for v in case.conflicting_answers]
    surfaced = any(
        {c.sides[0].doc_id, c.sides[1].doc_id} == set(case.gold_docs)
        and all(any(w in _norm(s.value) or _norm(s.value) in w for s in c.sides) for w in wanted)
        for c in answer.retrieval.conflicts
    )
    return [("conflicts surfaced", float(surfaced))]


def score(cases: Sequence[TestCase], ask: Ask) -> dict[str, dict[str, list[float]]]:
    """Per family and measure, each case's score, asking each case with ``ask``."""
    holders_of: dict[str, set[str]] = defaultdict(set)
    for case in cases:
        if case.answer:
            holders_of[_office(case)].add(case.answer)
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for case in cases:
        family = str(case.extras()["family"])
        for name, value in score_case(case, ask(case), holders_of[_office(case)]):
            rows[family][name].append(value)
    return rows


def overall(rows: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    """Each measure's share over every family."""
    totals: dict[str, list[float]] = defaultdict(list)
    for values in rows.values():
        for name, scores in values.items():
            totals[name].extend(scores)
    return {k: sum(v) / len(v) for k, v in totals.items() if v}
