"""A name the parser ends on a function word ("the Chicago Bulls of the" out of "the Chicago
Bulls of the NBA") is a candidate without it: no name ends on "of", "the" or "and". Nor does
one begin with a list's bullet ("- Wilhelm Busch Museum")."""

from __future__ import annotations

from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.query.answer_type import ExpectedAnswer
from graphgate.query.reader_evidence import spans
from tests.unit.conftest import name_tokens

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


BODY = ExpectedAnswer("phrase", frozenset({"ORG"}), "body", frozenset({"ORG"}))


@pytest.mark.parametrize(
    ("row", "name"),
    [
        ("- Varn Busch Museum , Chairman of the Board of Trustees ( since 2013 )",
         "Varn Busch Museum"),
        ("- Harlow Rowing Club , Member of the Advisory Council ( 2009 )", "Harlow Rowing Club"),
        ("– Oberwiesel Music Society , Patron", "Oberwiesel Music Society"),
        ("• Coral Sea Rowing League , President ( 1991–1994 )", "Coral Sea Rowing League"),
        ("* Tidewater Steel AG , Deputy Chairman of the Supervisory Board", "Tidewater Steel AG"),
    ],
)  # fmt: skip
def test_a_name_does_not_begin_with_a_bullet(nlp: Any, row: str, name: str) -> None:
    """Whether the parser labels the row's name or gives it only as a noun phrase (both
    happen), and whatever the bullet, the candidate is the name as written."""
    found = [text for text, *_ in spans(nlp(row), BODY)]
    assert name in found
    assert not [text for text in found if text[:1] in "-–•*"]


TITLE = ExpectedAnswer("phrase", frozenset({"ORG", "WORK_OF_ART"}), "title", frozenset({"ORG"}))


def test_a_name_of_a_kind_ruled_out_is_no_noun_phrase_either(nlp: Any) -> None:
    """Asked for a title, neither the person, the place nor the date of the sentence answers,
    whether as a labelled name or as the noun phrase the parse also gives; nor a common noun
    ("a famous game"): a title is written with a capital."""
    doc = nlp("In 1953 Lund won the title of Woman Grandmaster after a famous game in Karsk .")
    doc.ents = [
        Span(doc, *name_tokens(doc, "1953"), label="DATE"),
        Span(doc, *name_tokens(doc, "Lund"), label="PERSON"),
        Span(doc, *name_tokens(doc, "Karsk"), label="GPE"),
    ]
    found = [text for text, *_ in spans(doc, TITLE)]
    assert not {"1953", "Lund", "Karsk"} & set(found)
    assert not [text for text in found if "game" in text]
    assert "Woman Grandmaster" in found


def test_a_capital_only_at_the_sentence_start_or_on_a_pronoun_makes_no_title(nlp: Any) -> None:
    for sentence in (
        "Her biggest yearly ratings jump took place in 2011 .",
        "Career highlights include a win in 1962 .",
    ):
        assert spans(nlp(sentence), TITLE) == []
