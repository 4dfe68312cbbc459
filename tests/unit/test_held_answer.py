"""Which end of a held fact answers the question: the one the question does not name, and
none when it names both (by a name, or by a word only one of them holds)."""

from __future__ import annotations

import pytest

from graphgate.core.text import content_word_set
from graphgate.query.base import RetrievedEdge
from graphgate.query.held import held_answer


def _edge(source: str, target: str, predicate: str = "coach_of") -> RetrievedEdge:
    return RetrievedEdge("e1", "s1", source, predicate, "t1", target, 1.0, ["c1"], 1.0)


def _answer(source: str, target: str, question: str) -> str | None:
    return held_answer(_edge(source, target), question, frozenset(content_word_set(question)))


@pytest.mark.parametrize(
    ("source", "target", "question", "answer"),
    [
        # The question names the post's organisation: the holder answers.
        ("Ada Lund", "Hamar", "Who was the mayor of Hamar in 2004?", "Ada Lund"),
        (
            "Piet Vos",
            "Dutch Rowing Union",
            "Who chaired the Dutch Rowing Union in 1988?",
            "Piet Vos",
        ),
        # The question names the holder whole: the organisation answers.
        ("Ada Lund", "Hamar", "Which town had Ada Lund as its mayor in 2004?", "Hamar"),
        # A family company lends its name to its owner: "Koch" is the organisation's word.
        ("Charles Koch", "Koch Industries", "Who ran Koch Industries in 1990?", "Charles Koch"),
    ],
)
def test_the_end_the_question_does_not_name_answers(
    source: str, target: str, question: str, answer: str
) -> None:
    assert _answer(source, target, question) == answer


@pytest.mark.parametrize(
    "question",
    [
        "Scotland's Alex McLeish had the job of coach for what team from Nov 2007 to Jun 2011?",
        "What club did McLeish manage after leaving Scotland in 2008?",
        "Which team did Scotland manager Sandy McLeish take over in 2008?",
        "In 2009, Alexander McLeish of Scotland coached what team?",
    ],
)
def test_a_holder_named_by_another_form_of_the_name_answers_nothing(question: str) -> None:
    """The holder "Alexander McLeish" of the Scotland post, asked about by his own name in
    another form: neither end is the team asked for, so the fact answers nothing."""
    assert _answer("Alexander McLeish", "Scotland", question) is None
