"""The graph's vote for a candidate (query/reader_evidence.py ``related_names``): an edge joining
it to a name the question gives. Asked at a time, an edge dated at another time votes for
nothing; an undated edge still says the candidate is the subject's, though not when (README:
leaving undated edges out too lowered short-answer F1 on TimeQA 601–987)."""

from __future__ import annotations

import pytest

from graphgate.core.dates import question_time
from graphgate.query.base import RetrievalResult, RetrievedEdge
from graphgate.query.reader_evidence import related_names


def _edge(target: str, predicate: str, since: str | None, until: str | None) -> RetrievedEdge:
    return RetrievedEdge(
        f"r-{target}", "e1", "Ada Lund", predicate, f"e-{target}", target, 1.0, ["c1"], 1.0,
        since, until,
    )  # fmt: skip


_EDGES = [
    _edge("Harlow Town", "play_for", None, None),  # undated
    _edge("Karsk FC", "play_for", "1985", "1989"),  # meets 1989-1991 in its last year
    _edge("Port Vale", "play_for", "1995", "1998"),  # after
    _edge("Tarn Rovers", "co_occurs_with", "1990", None),  # since 1990: meets it
]


def _votes(question: str) -> dict[str, float]:
    result = RetrievalResult(question, "vector", edges=_EDGES)
    words = frozenset(w.lower().strip("?") for w in question.split())
    return related_names(result, {"ada lund"}, words, question_time(question))


@pytest.mark.parametrize(
    ("question", "voted"),
    [
        # No time asked: every relation votes (as before).
        ("Which team did Ada Lund play for?",
         {"harlow town", "karsk fc", "port vale", "tarn rovers"}),
        # A time asked: the relations that held then, and those of no known time.
        ("Which team did Ada Lund play for from 1989 to 1991?",
         {"harlow town", "karsk fc", "tarn rovers"}),
        ("Which team did Ada Lund play for in 1996?", {"harlow town", "port vale", "tarn rovers"}),
        ("Which team did Ada Lund play for in 1970?", {"harlow town"}),
    ],
)  # fmt: skip
def test_asked_at_a_time_only_a_relation_of_that_time_votes(question: str, voted: set[str]) -> None:
    assert set(_votes(question)) == voted


def test_the_relation_asked_votes_more_than_a_meeting() -> None:
    votes = _votes("Which team did Ada Lund play for from 1989 to 1991?")
    assert votes["karsk fc"] > votes["tarn rovers"] > 0
