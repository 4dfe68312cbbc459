"""The offline reader on hand-made evidence: one test per answer type, phrased several ways,
with abstention where nothing supports an answer and questions that name the answer's rival."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphgate.core.config import Settings
from graphgate.core.dates import question_time
from graphgate.core.spacy_models import load_spacy
from graphgate.embed import Embedder, build_embedder
from graphgate.evaluate.judge import DeterministicJudge
from graphgate.evaluate.testset import TestCase
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import expected_answer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.question import read_question
from graphgate.query.reader import Reader
from graphgate.query.reader_features import bounds_met


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return build_embedder(Settings().embed)


@pytest.fixture(scope="module")
def answerer(embedder: Embedder) -> ExtractiveAnswerer:
    model = Settings().extract.spacy_model
    reader = Reader(
        lambda: load_spacy(model, "tests"),
        Settings().query.reader_min_support,
        Settings().query.reader_side_similarity,
        lambda: embedder,
        Settings().query.reader_min_margin,
    )
    return ExtractiveAnswerer(3, reader)


def _evidence(question: str, *passages: str) -> RetrievalResult:
    chunks = [
        RetrievedChunk(f"c{i}", f"d{i}", text, 0, len(text), 1.0 - i / 10)
        for i, text in enumerate(passages)
    ]
    return RetrievalResult(question, "vector", chunks)


def short(answerer: ExtractiveAnswerer, question: str, *passages: str) -> str | None:
    return answerer.answer(_evidence(question, *passages), "run").short_answer


FOUNDING = (
    "Acme Corp is a maker of garden tools. The company was founded in 1998 by Alice Smith in "
    "Lyon, and it employs 3,200 people today."
)


@pytest.mark.parametrize(
    "question",
    [
        "Who founded Acme Corp?",
        "Who was the founder of Acme Corp?",
        "Acme Corp was founded by whom?",
        "Which person founded Acme Corp?",
    ],
)
def test_who_answers_the_person(answerer: ExtractiveAnswerer, question: str) -> None:
    assert short(answerer, question, FOUNDING) == "Alice Smith"


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("When was Acme Corp founded?", "1998"),
        ("In what year was Acme Corp founded?", "1998"),
        ("Where was Acme Corp founded?", "Lyon"),
        ("In which city was Acme Corp founded?", "Lyon"),
        ("How many people does Acme Corp employ?", "3,200"),
        ("How many employees does Acme Corp have?", "3,200"),
    ],
)
def test_when_where_and_how_many_answer_a_date_a_place_a_number(
    answerer: ExtractiveAnswerer, question: str, gold: str
) -> None:
    assert short(answerer, question, FOUNDING) == gold


def test_the_answer_leads_the_text_cited_by_its_sentence(answerer: ExtractiveAnswerer) -> None:
    answer = answerer.answer(_evidence("Who founded Acme Corp?", FOUNDING), "run")
    first = answer.answer.splitlines()[1]
    assert first == "Answer: Alice Smith [1]"
    assert "Alice Smith" in answer.citations[0].text
    assert answer.to_dict()["short_answer"] == "Alice Smith"


def test_a_name_the_question_gives_is_never_its_answer(answerer: ExtractiveAnswerer) -> None:
    text = "Bo Vik met Alice Smith in Lyon. Alice Smith later married Bo Vik in 2001."
    assert short(answerer, "Who did Alice Smith marry?", text) == "Bo Vik"
    assert short(answerer, "Who did Bo Vik marry?", text) == "Alice Smith"


BIRTHS = (
    "Ada Lund (born 3 May 1931) was a Norwegian painter known for her coastal landscapes.",
    "Bo Vik (born 12 June 1945) is a Swedish painter and printmaker.",
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("Who was older, Ada Lund or Bo Vik?", "Ada Lund"),
        ("Who is older, Bo Vik or Ada Lund?", "Ada Lund"),
        ("Who was born first, Bo Vik or Ada Lund?", "Ada Lund"),
        ("Who is younger, Ada Lund or Bo Vik?", "Bo Vik"),
        ("Which painter was born later, Ada Lund or Bo Vik?", "Bo Vik"),
    ],
)
def test_a_comparison_answers_one_of_its_options(
    answerer: ExtractiveAnswerer, question: str, gold: str
) -> None:
    assert short(answerer, question, *BIRTHS) == gold


def test_options_are_read_with_and_without_a_comma() -> None:
    for text, options in [
        ("Who was older, Ada Lund or Bo Vik?", ("Ada Lund", "Bo Vik")),
        ("Which band formed first The Exies or Circus Diablo?", ("The Exies", "Circus Diablo")),
        ("Between Iain Banks and Irwin Shaw, who was born first?", ("Iain Banks", "Irwin Shaw")),
    ]:
        assert expected_answer(read_question(text)).options == options
    assert expected_answer(read_question("Is it red or blue?")).kind == "yes_no"


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("Are Ada Lund and Bo Vik both painters?", "yes"),
        ("Were Ada Lund and Bo Vik both painters?", "yes"),
        ("Are Ada Lund and Bo Vik of the same nationality?", "no"),
    ],
)
def test_yes_no_is_decided_from_each_side(
    answerer: ExtractiveAnswerer, question: str, gold: str
) -> None:
    assert short(answerer, question, *BIRTHS) == gold


def test_yes_no_says_no_when_one_side_is_not_stated(answerer: ExtractiveAnswerer) -> None:
    passages = (BIRTHS[0], "Bo Vik (born 12 June 1945) is a Swedish footballer and coach.")
    assert short(answerer, "Are Ada Lund and Bo Vik both painters?", *passages) == "no"


@pytest.mark.parametrize(
    "question",
    [
        "Who founded Zentrix Labs in Osaka?",
        "When did the Kettleby ferry disaster happen?",
        "How many moons does the planet Vorlon have?",
    ],
)
def test_abstains_when_no_candidate_is_supported(
    answerer: ExtractiveAnswerer, question: str
) -> None:
    weather = "The weather in the valley was mild that spring. Rain fell on most afternoons."
    answer = answerer.answer(_evidence(question, weather), "run")
    assert answer.short_answer is None
    assert not any(line.startswith("Answer:") for line in answer.answer.splitlines())


def test_the_judge_scores_the_short_answer_and_abstentions(answerer: ExtractiveAnswerer) -> None:
    judge = DeterministicJudge()
    case = TestCase(
        id="1", question="Who founded Acme Corp?", question_type="single_hop", answer="Alice Smith"
    )
    right = judge.judge(case, answerer.answer(_evidence(case.question, FOUNDING), "run"))
    assert (right.short_em, right.short_f1, right.answered, right.correct) == (1.0, 1.0, 1.0, True)
    wrong = TestCase(
        id="2", question="Who founded Acme Corp?", question_type="single_hop", answer="Bo Vik"
    )
    judged = judge.judge(wrong, answerer.answer(_evidence(case.question, FOUNDING), "run"))
    assert judged.short_em == 0.0 and judged.correct is False  # the passages do not rescue it
    null = TestCase(
        id="3",
        question="Who founded Zentrix Labs in Osaka?",
        question_type="unanswerable",
        answer=None,
    )
    weather = "The weather in the valley was mild that spring."
    abstained = judge.judge(null, answerer.answer(_evidence(null.question, weather), "run"))
    assert abstained.correct_abstention == 1.0 and abstained.answered == 0.0
    assert abstained.short_em is None


def test_without_an_embedder_the_reader_still_decides_by_words() -> None:
    """A reader given no embedder (an external pipeline's result, none configured) scores by
    the question's words alone: it still reads a yes/no question's sides, never fails."""
    model = Settings().extract.spacy_model
    reader = Reader(lambda: load_spacy(model, "tests"), 0.3)
    answerer = ExtractiveAnswerer(3, reader)
    text = "Acme Corp was founded by Alice Smith in Lyon in 1998."
    assert short(answerer, "Was Acme Corp founded by Alice Smith in Lyon?", text) == "yes"
    assert short(answerer, "Who founded Acme Corp in Lyon?", text) == "Alice Smith"


def _with_margin(embedder: Embedder) -> Callable[[float], ExtractiveAnswerer]:
    model = Settings().extract.spacy_model
    support = Settings().query.reader_min_support

    def reader(margin: float) -> ExtractiveAnswerer:
        found = Reader(lambda: load_spacy(model, "tests"), support, 0.4, lambda: embedder, margin)
        return ExtractiveAnswerer(3, found)

    return reader


@pytest.mark.parametrize(
    "question",
    ["Who founded Acme Corp?", "Acme Corp was founded by whom?", "Who was Acme Corp's founder?"],
)
@pytest.mark.parametrize("rival", ["John Miller", "Maria Garcia", "Peter Novak"])
def test_two_readings_of_near_equal_support_are_no_answer(
    embedder: Embedder, question: str, rival: str
) -> None:
    """Two documents name different founders alike: either would be a guess. The margin is a
    setting; a wide one here, as the cosine alone moves a few hundredths with the name."""
    reader = _with_margin(embedder)
    evidence = (
        f"Acme Corp was founded in 1998 by {rival}.",
        "Acme Corp was founded in 1998 by Alice Smith.",
    )
    assert short(reader(0.15), question, *evidence) is None
    assert short(reader(0.0), question, *evidence) in {rival, "Alice Smith"}
    # One founder, stated once: an answer at the same margin.
    assert short(reader(0.15), question, FOUNDING) == "Alice Smith"


CAREER = (
    "Tom Prys is a Welsh former footballer. A forward, he began his career at Kelso Rovers in "
    "1987 and spent four years at the club. He was sold on to Dunmore Athletic for £350,000 in "
    "December 1991, where he stayed until 1995. He joined Harlow Town in 1995 and moved to "
    "Bexley United in August 1997."
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("Tom Prys played for what football team from 1987 to 1991?", "Kelso Rovers"),
        ("From 1987 to 1991, which club did Tom Prys play for?", "Kelso Rovers"),
        ("Which team did the Welsh forward Tom Prys play for between 1991 and 1995?",
         "Dunmore Athletic"),
        ("What team was Tom Prys a player of from 1995 to 1997?", "Harlow Town"),
    ],
)  # fmt: skip
def test_a_stint_is_read_from_the_sentence_that_dates_its_start(
    answerer: ExtractiveAnswerer, question: str, gold: str
) -> None:
    """What held from A to B began with an event dated A; the event dated B is the change
    that ended it (sold on, moved), whose club is the next stint's."""
    assert short(answerer, question, CAREER) == gold


def test_the_time_features_hold_only_for_a_span_of_several_years_or_months() -> None:
    asked = question_time("from 1987 to 1991")
    assert bounds_met("He began at Kelso Rovers in 1987.", asked) == (True, False)
    assert bounds_met("He was sold on in December 1991.", asked) == (False, True)
    assert bounds_met("He played there from 1987 to 1991.", asked) == (True, False)
    assert bounds_met("He joined in 1989.", asked) == (False, False)
    assert bounds_met("He joined in 1987.", question_time("in 1987")) == (False, False)
    assert bounds_met("He joined in 1987.", None) == (False, False)
    # One year asked by its months: a date of a month or a day meets an end, the year none.
    months = question_time("from Feb 2009 to Oct 2009")
    assert bounds_met("He arrived as coach in October 2009.", months) == (False, True)
    assert bounds_met("He took over on 3 February 2009.", months) == (True, False)
    assert bounds_met("He took over in 2009.", months) == (False, False)
    assert bounds_met("He took over in June 2009.", months) == (False, False)
    assert bounds_met("He left in May 2009.", question_time("in May 2009")) == (False, False)


@pytest.mark.parametrize(
    ("sentence", "begins"),
    [
        # Asked from Nov 2007: a day or a month before it dates what came before.
        ("His first game in charge was on 24 March 2007 at Karsk .", False),
        ("He took over in May 2007 .", False),
        # A month's leeway (a date written a month off), and any later month of the year.
        ("He took over in October 2007 .", True),
        ("He resigned in November 2007 to join Harlow Town .", True),
        ("He joined Harlow Town in December 2007 .", True),
        # A year alone may be either.
        ("He joined Harlow Town in 2007 .", True),
    ],
)
def test_a_date_before_the_asked_month_begins_nothing(sentence: str, begins: bool) -> None:
    assert bounds_met(sentence, question_time("from Nov 2007 to Jun 2011"))[0] is begins
    # Asked by years, every date of the first year begins it, as before.
    assert bounds_met(sentence, question_time("from 2007 to 2011"))[0] is True


_ARRIVAL = (
    "Ivo Brandt coached the club from February 2009 . With the arrival of Tom Reyes as coach in "
    "October 2009 , Kelso saw a change of fortunes ."
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("Who was Kelso Rovers' coach from Feb 2009 to Oct 2009?", "Ivo Brandt"),  # Tom Reyes
        ("Who was Kelso Rovers' coach from Oct 2009 to 2011?", "Tom Reyes"),  # as before
    ],
)
def test_a_span_within_one_year_is_met_by_its_months(
    answerer: ExtractiveAnswerer, question: str, gold: str
) -> None:
    """Asked from February to October of one year, the coach dated February began it and the
    one who arrived in October ended it."""
    assert short(answerer, question, _ARRIVAL) == gold


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("Ravel Osterby was part of what team from 2009 to 2010?",
         "Osterby returned to Skagen Rovers in the 2010 summer , and appeared in 45 matches "
         "during the 2010–11 campaign .", "Skagen Rovers"),
        ("Which club did Ravel Osterby play for from 2009 to 2010?",
         "Osterby rejoined Skagen Rovers in the summer of 2010 and played 30 games in the "
         "2010–11 season .", "Skagen Rovers"),
        ("What team was coached by manager Teodor Vlask from 2010 to 2013?",
         "Vlask's first match in charge of Tatran Lipany was a 1–1 draw at home to Bath Town on "
         "16 October 2010 , and with results such as a 3–0 win over Brezno FC he was named "
         "manager of the month .", "Tatran Lipany"),
        ("Which team did Teodor Vlask manage from 2010 to 2013?",
         "In October 2010 Vlask took charge of Tatran Lipany , whose 3–0 win at Brezno followed "
         "a week later .", "Tatran Lipany"),
    ],
)  # fmt: skip
def test_a_season_or_a_score_labelled_a_name_is_no_name(
    answerer: ExtractiveAnswerer, question: str, evidence: str, gold: str
) -> None:
    """The small parser labels "2010–11" and "3–0" organisations: without a letter, a
    candidate is a season or a score, never the team asked for (nor its rival)."""
    assert short(answerer, question, evidence) == gold
