"""A name the parser ends on a function word ("the Chicago Bulls of the" out of "the Chicago
Bulls of the NBA") is a candidate without it: no name ends on "of", "the" or "and"."""

from __future__ import annotations

from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.query.answer_type import ExpectedAnswer
from graphgate.query.reader_evidence import spans

TEAM = ExpectedAnswer("entity", frozenset({"ORG"}), "team", frozenset({"ORG"}))


@pytest.mark.parametrize(
    ("sentence", "first", "last", "name"),
    [
        ("It hosted the Chicago Bulls of the NBA from 1967 .", 2, 7, "the Chicago Bulls"),
        ("She joined Ajax and the national side in 2001 .", 2, 5, "Ajax"),
        ("He left Real Madrid for Sevilla in 2013 .", 2, 5, "Real Madrid"),
        ("The Bank of England raised rates .", 0, 4, "The Bank of England"),  # "of" inside
        ("They signed for Hibernian in 1998 .", 3, 4, "Hibernian"),  # nothing to cut
        ("They were promoted to Serie A in 2010 .", 4, 6, "Serie A"),  # a letter, no article
    ],
)
def test_a_name_does_not_end_on_a_function_word(
    nlp: Any, sentence: str, first: int, last: int, name: str
) -> None:
    doc = nlp(sentence)
    doc.ents = [Span(doc, first, last, label="ORG")]
    assert spans(doc, TEAM)[0][0] == name
