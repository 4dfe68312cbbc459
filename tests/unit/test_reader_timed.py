"""A question asking what held over a period is answered by a sentence that dates it.

A page's lead says what holds now ("X is a footballer who plays for Y"); asked which team X
played for from 2006 to 2009, that sentence is no evidence, however many of the question's
words it shares. Names, clubs and companies are invented.
"""

from __future__ import annotations

import pytest

from graphgate.core.config import Settings
from graphgate.core.dates import question_time
from graphgate.core.spacy_models import load_spacy
from graphgate.embed import Embedder, build_embedder
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.reader import Reader


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return build_embedder(Settings().embed)


def _answerer(embedder: Embedder, timed_evidence: bool) -> ExtractiveAnswerer:
    settings = Settings().query
    model = Settings().extract.spacy_model
    reader = Reader(
        lambda: load_spacy(model, "tests"),
        settings.reader_min_support,
        settings.reader_side_similarity,
        lambda: embedder,
        settings.reader_min_margin,
        timed_evidence=timed_evidence,
    )
    return ExtractiveAnswerer(3, reader)


@pytest.fixture(scope="module")
def timed(embedder: Embedder) -> ExtractiveAnswerer:
    return _answerer(embedder, True)


@pytest.fixture(scope="module")
def untimed(embedder: Embedder) -> ExtractiveAnswerer:
    return _answerer(embedder, False)


def short(answerer: ExtractiveAnswerer, question: str, *passages: str) -> str | None:
    chunks = [
        RetrievedChunk(f"c{i}", f"d{i}", text, 0, len(text), 1.0 - i / 10)
        for i, text in enumerate(passages)
    ]
    result = RetrievalResult(question, "vector", chunks, time=question_time(question))
    return answerer.answer(result, "run").short_answer


FOOTBALLER = (
    "Ravel Osterby ( born 3 May 1988 ) is a Danish professional footballer who plays for "
    "Nordvik United and the Denmark national team.",
    "By 2008 Osterby was a regular in the side of Skagen Rovers. He scored 14 goals for Halden "
    "City in the 2012 season.",
)
OWNER = (
    "Corvane Foods is an American snack maker owned by Belmont Holdings.",
    "In 1999 the company, then a subsidiary of Ashgrove Capital, opened a plant in Ohio.",
)
COACH = (
    "Teodor Vlask is a Slovak football manager who manages Brezno FC.",
    "Under Vlask, Tatran Lipany won the regional cup in 2004.",
)


@pytest.mark.parametrize(
    ("evidence", "question", "gold"),
    [
        (FOOTBALLER, "What team was Danish footballer Ravel Osterby part of from 2006 to 2009?",
         "Skagen Rovers"),
        (FOOTBALLER, "From 2006 to 2009, which club did the Danish footballer Ravel Osterby "
         "play for?", "Skagen Rovers"),
        (FOOTBALLER, "Ravel Osterby played for which football team from 2011 to 2013?",
         "Halden City"),
        (OWNER, "Who owned the American snack maker Corvane Foods from 1994 to 2010?",
         "Ashgrove Capital"),
        (OWNER, "Corvane Foods was owned by which company between 1994 and 2010?",
         "Ashgrove Capital"),
        (COACH, "Which team was coached by Slovak manager Teodor Vlask from 2003 to 2005?",
         "Tatran Lipany"),
        (COACH, "Slovak football manager Teodor Vlask managed which club from 2003 to 2005?",
         "Tatran Lipany"),
    ],
)  # fmt: skip
def test_a_period_is_answered_by_the_sentence_that_dates_it(
    timed: ExtractiveAnswerer, evidence: tuple[str, str], question: str, gold: str
) -> None:
    assert short(timed, question, *evidence) == gold


@pytest.mark.parametrize(
    ("lead", "question"),
    [
        (FOOTBALLER[0], "What team was Danish footballer Ravel Osterby part of from 2006 to 2009?"),
        (OWNER[0], "Who owned the American snack maker Corvane Foods from 1994 to 2010?"),
        (COACH[0], "Which team was coached by Slovak manager Teodor Vlask from 2003 to 2005?"),
    ],
)  # fmt: skip
def test_an_undated_present_is_no_answer_for_a_period(
    timed: ExtractiveAnswerer, untimed: ExtractiveAnswerer, lead: str, question: str
) -> None:
    """The lead alone: no sentence speaks of the period, so the reader abstains; with the
    setting off, the lead's name is read as the answer (the guess the rule prevents)."""
    assert short(timed, question, lead) is None
    assert short(untimed, question, lead) is not None


def test_a_question_without_a_period_reads_every_sentence(
    timed: ExtractiveAnswerer, untimed: ExtractiveAnswerer
) -> None:
    """No time asked, or one year (which often names an event rather than the answer's
    time: "the film shot in 1986"): the undated lead is evidence like any other sentence."""
    assert short(timed, "Which team does Ravel Osterby play for?", *FOOTBALLER) == (
        "Nordvik United"
    )
    for question in (
        "Which club did Ravel Osterby play for in 2008?",
        "Who owned Corvane Foods in 1999?",
        "Which club did Teodor Vlask coach in 2004?",
    ):
        for evidence in (FOOTBALLER, OWNER, COACH):
            assert short(timed, question, *evidence) == short(untimed, question, *evidence)


def test_only_a_range_as_written_is_a_period() -> None:
    assert question_time("Who coached Lipany from 2003 to 2005?").period
    assert question_time("Who coached Lipany between 2003 and 2005?").period
    assert not question_time("Who coached Lipany in 2003?").period
    assert not question_time("Who coached Lipany after 2003?").period
    assert not question_time("Who coached Lipany as of March 2004?").period
