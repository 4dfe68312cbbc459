"""Text whose apostrophes were stripped (TimeQA's pages, many scraped corpora) writes a name's
possessive as one word: "Benficas manager", "Taiwans economy". The reader answers with the name,
where the evidence names it on its own too; a surname ending in "s" ("Williams said") is left as
written. Shown on invented names in several phrasings, and end to end through the reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_evidence import unpossessed
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("sentence", "name", "evidence", "answer"),
    [
        # Before a noun, an adjective or a number it owns, with the name given elsewhere.
        ("He joined Vardalas senior staff in 2015 .", "Vardalas", "Vardala won.", "Vardala"),
        ("It helped Korvias early growth .", "Korvias", "born in Korvia", "Korvia"),
        ("He led Maccabi Lodas 1998 squad .", "Maccabi Lodas", "at Maccabi Loda", "Maccabi Loda"),
        ("It was Norlands second title .", "Norlands", "Norland ( 1911 )", "Norland"),
        # The name is never given on its own: the word may be the name ("Harlands").
        ("He joined Harlands senior staff .", "Harlands", "Harlands won.", "Harlands"),
        # Before a verb or a comma the word is a name ending in "s".
        ("Then Vardalas said no .", "Vardalas", "Vardala won.", "Vardalas"),
        ("He met Vardalas , then left .", "Vardalas", "Vardala won.", "Vardalas"),
        ("He met Vardalas .", "Vardalas", "Vardala won.", "Vardalas"),
        # "ss" and short words are no possessive.
        ("He joined Kross senior staff .", "Kross", "Kros won.", "Kross"),
        ("The Ubs staff left .", "Ubs", "Ub won.", "Ubs"),
    ],
)  # fmt: skip
def test_a_possessive_without_its_apostrophe_is_the_name(
    nlp: Any, sentence: str, name: str, evidence: str, answer: str
) -> None:
    doc = nlp(sentence)
    _, end = name_tokens(doc, name)
    assert unpossessed(name, doc, end, f"{sentence} {evidence}") == answer


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Portuguese coach Rui Lemos was employed where from 2015 to 2019?",
            [
                "In June 2015 , Lemos was appointed as Vardalas new head coach on a "
                "four-year contract .",
                "Vardala is a football club based in Lisbon .",
            ],
            "Vardala",
        ),
        (
            "Which club did Ana Lind coach from 2010 to 2012?",
            [
                "In 2010 , Ana Lind was named Harlows head coach , and she left the club in 2012 .",
                "Harlow is a football club founded in 1901 .",
            ],
            "Harlow",
        ),
    ],
)
def test_the_reader_answers_the_name_not_its_possessive(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: list[str],
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, *evidence) == answer
