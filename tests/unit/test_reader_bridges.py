"""A multi-hop question describes a thing on its way to what it asks ("Which city was the band
which was formed in 1981 …"): a name the evidence calls by that noun is the bridge, not the
answer, whatever label the small parser gave it. Shown on the question's parse in several
phrasings (controls: the noun asked, a question asking the band itself), on candidate spans
with the parser's labels set by hand, and end to end through the reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import expected_answer
from graphgate.query.question import read_question
from graphgate.query.reader_bridges import bridge_nouns, candidate_spans
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("question", "bridges"),
    [
        ("Which city was the band which was formed in 1981 by Ivo Brandt from?", {"band"}),
        ("Ann Lee was the chief executive of a holding company headquartered in what city?",
         {"company"}),
        ("In what year was the company that makes Brisk Cola founded?", {"company"}),
        ("How many members does the party that Ann Lee founded have?", {"party"}),
        ("The Harbour Curse is a 2001 comedy film featuring an American actress who starred in "
         "what for seven years?", {"actress", "film"}),
        # Controls: the noun asked, a question that may ask the band itself, no clause.
        ("Which band, formed in 1981, recorded Harbour Lights?", set()),
        ("What is the name of the band which was formed in 1981?", set()),
        ("Which city is the band Korvath from?", set()),
        ("What position did the winner of the 2007 Golden Shoe play?", set()),
    ],
)  # fmt: skip
def test_the_nouns_a_question_describes_on_its_way(
    nlp: Any, question: str, bridges: set[str]
) -> None:
    doc = nlp(question)
    assert bridge_nouns(doc, expected_answer(read_question(question), doc)) == bridges


def test_a_name_called_the_bridge_is_no_candidate_in_any_sentence(nlp: Any) -> None:
    """ "Korvath" labelled a place (as the small parser labelled "Metallica") is called a band
    in one sentence: it is no city there, nor in the sentence that only names it."""
    question = "Which city was the band which was formed in 1981 by Ivo Brandt from?"
    docs = [
        nlp("Korvath is a heavy metal band formed in 1981 by Ivo Brandt ."),
        nlp("Korvath played its first concert in Karsk ."),
    ]
    for doc in docs:
        doc.ents = [
            Span(doc, *name_tokens(doc, name), label="GPE")
            for name in ("Korvath", "Karsk")
            if name in doc.text
        ]
    parsed = nlp(question)
    expected = expected_answer(read_question(question), parsed)
    found = candidate_spans(parsed, docs, expected)
    assert [[text for text, *_ in fs] for fs in found] == [[], ["Karsk"]]
    # Asked of the band itself ("Which band …"), nothing is a bridge: the name answers.
    asked = "Which band was formed in 1981 by Ivo Brandt?"
    parsed = nlp(asked)
    kept = candidate_spans(parsed, docs, expected_answer(read_question(asked), parsed))
    assert "Korvath" in [text for fs in kept for text, *_ in fs]


@pytest.mark.parametrize(
    ("question", "passages", "bridge"),
    [
        (  # was "Ada Lund": the actress the question describes
            "The Harbour Curse is a 2001 comedy film featuring an American actress who starred "
            "in what for seven years?",
            ("The Harbour Curse is a 2001 comedy film starring Ada Lund, an American actress.",
             "Ada Lund starred in the sitcom Harbour Lights for seven years."),
            "Ada Lund",
        ),
        (  # was "Denmark": a company named like a country
            "Which country is the company that makes Brisk Cola based in?",
            ("Denmark is a company that makes Brisk Cola.", "Denmark is based in Norway."),
            "Denmark",
        ),
    ],
)  # fmt: skip
def test_the_bridge_does_not_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    passages: tuple[str, str],
    bridge: str,
) -> None:
    assert short_answer(reader_with({}), question, *passages) != bridge


def test_a_bridge_named_apart_leaves_the_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    """A control: the company is a bridge, the country it is based in still answers."""
    question = "Which country is the company that makes Brisk Cola based in?"
    passages = (
        "Harlan Foods is a company that makes Brisk Cola.",
        "Harlan Foods is based in Norway.",
    )
    assert short_answer(reader_with({}), question, *passages) == "Norway"
