"""A name the parser ends on a function word ("the Chicago Bulls of the" out of "the Chicago
Bulls of the NBA") is a candidate without it: no name ends on "of", "the" or "and". Nor does
one begin with a list's bullet ("- Wilhelm Busch Museum")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import ExpectedAnswer
from graphgate.query.reader_evidence import spans
from tests.unit.conftest import name_tokens, short_answer

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


PLACE = ExpectedAnswer("place", frozenset({"GPE", "LOC", "FAC", "ORG"}), None, frozenset({"GPE"}))


@pytest.mark.parametrize(
    ("sentence", "names", "found"),
    [
        # The small parser cuts "Port of Spain" in two places: one name, of the first's label.
        ("Osterby moved to Port of Spain in 1945 .", [("Port", "GPE"), ("Spain", "GPE")],
         ["Port of Spain"]),
        ("He joined the Socialist Workers Party of Germany .",
         [("the Socialist Workers Party", "ORG"), ("Germany", "GPE")],
         ["the Socialist Workers Party of Germany"]),
        ("The Bay of Plenty lies east of Waikato .", [("Bay", "LOC"), ("Plenty", "LOC"),
         ("Waikato", "GPE")], ["Bay of Plenty", "Waikato"]),
        # Controls: "of the", a person's "of", a body after "of", two names apart.
        ("It hosted the Chicago Bulls of the NBA .", [("the Chicago Bulls", "ORG"),
         ("NBA", "ORG")], ["the Chicago Bulls", "NBA"]),
        ("Ann Lee of Norway won .", [("Ann Lee", "PERSON"), ("Norway", "GPE")], ["Norway"]),
        ("He taught at Paris of the Sorbonne .", [("Paris", "GPE"), ("Sorbonne", "ORG")],
         ["Paris", "Sorbonne"]),
        ("He moved from France to Paris .", [("France", "GPE"), ("Paris", "GPE")],
         ["France", "Paris"]),
    ],
)  # fmt: skip
def test_two_names_joined_by_a_bare_of_are_one(
    nlp: Any, sentence: str, names: list[tuple[str, str]], found: list[str]
) -> None:
    doc = nlp(sentence)
    doc.ents = [Span(doc, *name_tokens(doc, name), label=label) for name, label in names]
    assert [text for text, *_ in spans(doc, PLACE)] == found


@pytest.mark.parametrize(
    ("question", "passage", "answer"),
    [
        ("Where did Ravel Osterby live from 1945 to 1950?",
         "From 1945 to 1950 Ravel Osterby lived in Port of Spain, where he wrote for the "
         "Trinidad Guardian.", "Port of Spain"),  # was "Port"
        ("Where did Ravel Osterby live from 1945 to 1950?",
         "Ravel Osterby moved to Port of Spain in 1945 and lived there until 1950.",
         "Port of Spain"),  # was no answer: "Port" and "Spain" were rivals
        ("Which party did Ivo Brandt join in 1875?",
         "Ivo Brandt became a member of the Socialist Workers Party of Germany in 1875.",
         "the Socialist Workers Party of Germany"),
        ("Where did Ravel Osterby live from 1945 to 1950?",  # a control: a comma parts them
         "From 1945 to 1950 Ravel Osterby lived in Brest, France, and wrote for a paper.",
         "Brest"),
    ],
)  # fmt: skip
def test_a_name_cut_at_its_of_answers_whole(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    passage: str,
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, passage) == answer
