"""A question asking what held over a period, or at a time its main verb asks of, is
answered by a sentence that dates it.

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
from graphgate.query.answer_type import expected_answer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.question import read_question
from graphgate.query.reader import Reader
from graphgate.query.reader_features import time_fit
from graphgate.query.reader_syntax import dates_the_asked
from graphgate.query.temporal import FITS, UNDATED


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


CHESS = (
    "Ada Lund ( born 3 May 1998 ) is a Varnian chess player who holds the title of Grandmaster "
    "( GM ) .",
    "In 2011 she moved to Karsk to train at the Polar Chess School .",
)


def test_a_question_without_a_time_reads_every_sentence(timed: ExtractiveAnswerer) -> None:
    assert short(timed, "Which team does Ravel Osterby play for?", *FOOTBALLER) == (
        "Nordvik United"
    )


@pytest.mark.parametrize(
    ("evidence", "question", "gold", "guess"),
    [
        (FOOTBALLER, "Which club did Ravel Osterby play for in 2008?", "Skagen Rovers",
         "Nordvik United"),
        (FOOTBALLER, "In 2008 , which club did Ravel Osterby play for?", "Skagen Rovers",
         "Nordvik United"),
        (OWNER, "Who owned Corvane Foods in 1999?", "Ashgrove Capital", "Belmont Holdings"),
        # No sentence dates a title: the one held now is no answer for 2011.
        (CHESS, "The Varnian chess player Ada Lund earned what title in 2011?", None,
         "Grandmaster"),
    ],
)  # fmt: skip
def test_a_time_the_main_verb_asks_of_is_answered_by_the_sentence_that_dates_it(
    timed: ExtractiveAnswerer,
    untimed: ExtractiveAnswerer,
    evidence: tuple[str, str],
    question: str,
    gold: str | None,
    guess: str,
) -> None:
    """One year asked of what the question asks: the page's present says nothing of it (with
    the setting off, the present is the answer given)."""
    assert short(timed, question, *evidence) == gold
    assert short(untimed, question, *evidence) == guess


@pytest.mark.parametrize(
    ("evidence", "question"),
    [
        (FOOTBALLER, "Which club does the footballer born on 3 May 1988 play for?"),
        (FOOTBALLER, "Which club does the Danish footballer born in 1988 play for?"),
        (OWNER, "Who owns the snack maker that opened a plant in Ohio in 1999?"),
    ],
)
def test_a_date_describing_a_thing_filters_nothing(
    timed: ExtractiveAnswerer,
    untimed: ExtractiveAnswerer,
    evidence: tuple[str, str],
    question: str,
) -> None:
    """ "The footballer born in 1988": the date names another event than the one asked, and
    the undated lead is evidence like any other sentence."""
    assert short(timed, question, *evidence) == short(untimed, question, *evidence)


@pytest.mark.parametrize(
    ("question", "dated"),
    [
        ("Polugaevsky got what title in 1962?", True),
        ("In 2005 , which team did Tom Reyes play for?", True),
        ("The Fifth Air Fleet was under the command of who in Apr 1940?", True),
        ("Who was the owner of the painting in 1920?", True),
        ("The keyboardist Tom Reyes joined what organization in 1968?", True),
        ("Who was the commander of the Varnian submarine U-54 in Oct 1942?", True),
        ("Who directed the 1986 film Harbour Gate?", False),
        # The clause describes the very thing asked: its date is the answer's.
        ("Name the band that Tom Reyes joined in 1973?", True),
        ("What was the name of the musical group that Tom Reyes joined in 1969?", True),
        ("Who directed the film released in 1986?", False),
        ("Who produced the single that the singer born in 1952 was best known for?", False),
        ("Which company published the game that came out in 1998?", False),
        # No date the parse labels: a time the question states is taken as asked.
        ("Which team did Tom Reyes play for at the time?", True),
    ],
)
def test_a_date_dates_what_is_asked_unless_it_describes_a_thing(question: str, dated: bool) -> None:
    nlp = load_spacy(Settings().extract.spacy_model, "tests")
    doc = nlp(question)
    head = expected_answer(read_question(question), doc).head
    assert dates_the_asked(doc, head) is dated


def test_only_a_range_as_written_is_a_period() -> None:
    assert question_time("Who coached Lipany from 2003 to 2005?").period
    assert question_time("Who coached Lipany between 2003 and 2005?").period
    assert not question_time("Who coached Lipany in 2003?").period
    assert not question_time("Who coached Lipany after 2003?").period
    assert not question_time("Who coached Lipany as of March 2004?").period


def test_a_sentence_dated_by_that_year_is_no_page_present(timed: ExtractiveAnswerer) -> None:
    """ "That year" speaks of a time another sentence states: it may answer a dated question,
    and it takes its predecessor's date where the passage gives one."""
    lead = FOOTBALLER[0]
    question = "Which club did Ravel Osterby play for in 2008?"
    assert short(timed, question, lead, "Osterby played for Skagen Rovers that year .") == (
        "Skagen Rovers"
    )
    asked = question_time("in 2008")
    before = "In 2008 Osterby left Denmark ."
    assert time_fit("He played for Skagen Rovers that year .", before, asked, None) == FITS
    assert time_fit("He played for Skagen Rovers that year .", None, asked, None) == UNDATED
    assert time_fit("He plays for Nordvik United .", before, asked, None) == UNDATED
