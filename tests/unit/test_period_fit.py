"""How a passage dates the period a question asks over (query/temporal.py): the very span
stated, another time inside it, or none; and the order that gives the passages."""

from __future__ import annotations

import pytest

from graphgate.core.dates import TimeSpan, question_time
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.temporal import constrain, period_fit


def _asked(question: str) -> TimeSpan:
    asked = question_time(question)
    assert asked is not None
    return asked


@pytest.mark.parametrize(
    "text",
    [
        "1952–1954 : Marshall Harvey Stone ( vice : Émile Borel )",
        "Stone was its president from 1952 to 1954 .",
        "Between 1952 and 1954 the union was led by Stone .",
        "He presided 1952-54 over the union .",
        "Stone ( 1952 – 1954 ) was its first president .",
    ],
)
def test_the_very_span_asked(text: str) -> None:
    assert period_fit(text, _asked("Who chaired the IMU from 1952 to 1954?")) == 2


@pytest.mark.parametrize(
    "text",
    [
        "1952–1955 : Marshall Harvey Stone",
        "In 1953 the union met in Amsterdam .",
        "Stone taught at Chicago from 1946 .",
        "1950–1952 : Someone Else",
    ],
)
def test_another_time_inside_it(text: str) -> None:
    assert period_fit(text, _asked("Who chaired the IMU from 1952 to 1954?")) == 1


def test_months_must_match_too() -> None:
    asked = _asked("Who headed the office from Jul 1994 to Sep 1998?")
    assert period_fit("From July 1994 to September 1998 it was led by Oldřich Černý .", asked) == 2
    assert period_fit("From June 1994 to September 1998 it was led by Černý .", asked) == 1


def test_no_period_asked() -> None:
    assert period_fit("1952–1954 : Stone", _asked("Who chaired the IMU in 1953?")) == 0


def _chunk(cid: str, doc: str, text: str) -> RetrievedChunk:
    return RetrievedChunk(cid, doc, text, 0, len(text), 1.0)


QUESTION = "Who chaired the union from 1952 to 1954?"
CHUNKS = [
    _chunk("a", "union", "The union was founded in 1920 ."),
    _chunk("b", "congress", "The congress of the union is held in Amsterdam ."),
    _chunk("c", "union", "In 1953 the union met in Amsterdam ."),
    _chunk("f", "league", "The 1952–1954 seasons were the league's first ."),
    _chunk("d", "union", "Presidents .\n\n1948–1952 : Ann Lee\n\n1952–1954 : Marshall Stone"),
    _chunk("e", "union", "The union has no office of its own ."),
]


def test_over_a_period_the_pages_dated_passages_take_its_places() -> None:
    result = constrain(RetrievalResult(QUESTION, "vector", CHUNKS), _asked(QUESTION), 6)
    # The page (the best passage's document) fills its own places: the row of the asked span,
    # then the passage dated inside it, then the rest. Another document's passages keep their
    # places, dated ("1952–1954 seasons", no row of this page's span) or not (a second hop's
    # page states no date).
    assert [c.id for c in result.chunks] == ["d", "b", "c", "f", "a", "e"]


def test_without_period_first_only_contradiction_moves_a_passage() -> None:
    asked = _asked(QUESTION)
    result = constrain(RetrievalResult(QUESTION, "vector", CHUNKS), asked, 6, period_first=False)
    # "founded in 1920", an event before the asked time, may still hold: nothing moves.
    assert [c.id for c in result.chunks] == ["a", "b", "c", "f", "d", "e"]


def test_a_point_in_time_promotes_nothing() -> None:
    question = "Who chaired the union in 1953?"
    result = constrain(RetrievalResult(question, "vector", CHUNKS), _asked(question), 6)
    assert [c.id for c in result.chunks] == ["a", "b", "c", "f", "d", "e"]


def test_top_k_cuts_after_the_order() -> None:
    result = constrain(RetrievalResult(QUESTION, "vector", CHUNKS), _asked(QUESTION), 2)
    assert [c.id for c in result.chunks] == ["d", "b"]
