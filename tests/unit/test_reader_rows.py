"""Dated rows of a list (query/reader_rows.py): the name and span each row shape gives, the
sentences and lists of several spans that are no row, and end to end through the reader, where
the row's name is the answer though the parser does not label it and the row shares no word
with the question. Names are invented; the row shapes are those encyclopaedic lists use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.core.dates import question_time
from graphgate.core.text import normalise_name
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import ExpectedAnswer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.question import read_question
from graphgate.query.reader_decide import Candidate, Decider
from graphgate.query.reader_evidence import Sentence
from graphgate.query.reader_features import Occurrence
from graphgate.query.reader_rows import (
    MEETS_SPAN,
    SAME_SPAN,
    bracketed_row,
    dated_row,
    row_span,
    same_years,
)
from tests.unit.conftest import short_answer

ReaderWith = Callable[[dict[str, float]], ExtractiveAnswerer]


@pytest.mark.parametrize(
    ("row", "name", "first", "last"),
    [
        ("- 1966-1976 : Orla Brandvik ( FDP )", "Orla Brandvik", 1966, 1976),
        ("- Maren des Vallées ( Fiji ) 1994-1997", "Maren des Vallées", 1994, 1997),
        ("* 2011–2015: Teodor Ilvesaar", "Teodor Ilvesaar", 2011, 2015),
        ("- 1942-07-01 – 1952-03-31 : Pavo af Lindqvist", "Pavo af Lindqvist", 1942, 1952),
        ("Quessada ( 2017–2018 )", "Quessada", 2017, 2018),
        ("• XII Coastal Signal Wing ( 1945–46 )", "XII Coastal Signal Wing", 1945, 1946),
        ("- since 2016 : Lotte Harrandt ( CDU )", "Lotte Harrandt", 2016, None),
        ("- Ivo Sapunar ( acting ) ( Palau ) 2005-2006", "Ivo Sapunar", 2005, 2006),
        ("Jul 2018 – Nov 2018 : Benedek Orsós", "Benedek Orsós", 2018, 2018),
        ("Kettering Athletic 2001–2002", "Kettering Athletic", 2001, 2002),
        ("- 1945 : Alwin Rehberg", "Alwin Rehberg", 1945, 1945),
        ("- Vesna Radulović 2015—incumbent", "Vesna Radulović", 2015, None),
        ("- 2019–present : Ines Calloway", "Ines Calloway", 2019, None),
        ("1998 to 2003 – Union of Harbour Pilots", "Union of Harbour Pilots", 1998, 2003),
        # A start and an end written as two dates, the second ending what the first began.
        ("- Eva Lindqvist ( married 1968 , divorced 1972 ) ;", "Eva Lindqvist", 1968, 1972),
        ("- Hanne Rask ( Hansi ; married 1984 , divorced 1997 ) ;", "Hanne Rask", 1984, 1997),
        ("- Mira Holt ( m. 1950 ; div. 1961 )", "Mira Holt", 1950, 1961),
        ("* Tove Sand ( joined 1990 , resigned 1994 )", "Tove Sand", 1990, 1994),
        # A bracket adding another date: the span outside it is the row's.
        ("- 2004–2010 : Ola Brekke ( also 2003 )", "Ola Brekke", 2004, 2010),
        # Initials written apart from their full stops, or with them.
        (
            "1971–1974 : K . S . Varadan ( vice : Ivo Brandt , Lev Orlov )",
            "K . S . Varadan",
            1971,
            1974,
        ),
        ("- 1990–1995 : J. R. Tamm", "J. R. Tamm", 1990, 1995),
    ],
)
def test_a_row_gives_its_name_and_its_span(
    row: str, name: str, first: int, last: int | None
) -> None:
    found = dated_row(row)
    assert found is not None
    assert found.name == name and row[found.start : found.end] == name
    assert found.span.start is not None and found.span.start.year == first
    assert (found.span.end.year if found.span.end is not None else None) == last


@pytest.mark.parametrize(
    "text",
    [
        "From 2010 to 2011 , Maher worked at the Institute of Civic Design .",  # a sentence
        "Torvik plusz : 2011-2012 .",  # a lower-case word: no name
        "- Winners ( 8 ) : 1994–95 , 1997–98 , 2007–08",  # several spans: a record, no term
        "2019–20 season : Debut season .",
        "Chairmanship .",  # no span
        "- 1966-1976 : ( FDP )",  # no name
        "- 1990-1994 : Anna Berg , 1994-1999 : Lars Holm",  # two terms in one line
        "- Anna Berg ( born 1950 , died 1999 )",  # a lifespan: no term
        "- Anna Berg ( 1950 , 1999 )",  # two dates, neither ending the other
        "- Anna Berg ( divorced 1972 , married 1968 )",  # the end before the start
        "- 1990-1994 : K . Berg . Holm",  # a full stop after a word, no initial
    ],
)
def test_anything_else_is_no_row(text: str) -> None:
    assert dated_row(text) is None


def test_the_same_years_are_the_asked_span_exactly() -> None:
    asked = question_time("from 1997 to 2002")
    assert asked is not None
    rows = {t: dated_row(t) for t in ("- A Bee 1997-2002", "- A Bee 1996-2002", "- A Bee 1997")}
    assert [same_years(r.span, asked) for r in rows.values() if r is not None] == [
        True,
        False,
        False,
    ]


def _short(reader_with: ReaderWith, question: str, passage: str) -> str | None:
    chunk = RetrievedChunk("c0", "d0", passage, 0, len(passage), 1.0)
    return (
        reader_with({})
        .answer(RetrievalResult(question, "vector", [chunk], time=question_time(question)), "run")
        .short_answer
    )


# Lists as encyclopaedias write them, under a heading, after prose that names the body.
_CHAIRS = (
    "The Coral Sea Rowing League is a federation of island rowing clubs . It was founded in "
    "1988 in Suva .\nChairmanship .\n- Peni Vakalalabure ( Fiji ) 1991-1994\n- Maren des "
    "Vallées ( Tonga ) 1994-1997\n- Ilisapeci Tuilagi ( Samoa ) 1997-2002\n- Joram Kwaioloa "
    "( Solomon Islands ) 2002-2005\nHonours .\nThe league was awarded the Pacific Shield in 2010 ."
)
_MAYORS = (
    "Oberwiesel is a town in the district of Rems , east of Stuttgart .\nMayors .\n"
    "- 1948-1966 : Alwin Rehberg\n- 1966-1976 : Orla Brandvik ( FDP )\n- 1976-2000 : "
    "Friedhelm Saathoff ( FDP )\n- 2000-2016 : Cordula Wenzlaff ( CDU )\n- since 2016 : "
    "Lotte Harrandt ( CDU )\nThe Wieselhalle has been the town's congress centre since 1976 ."
)
_COACHES = (
    "Club Deportivo Arenales is a football club from Tenerife .\nHead coaches .\n"
    "- Quessada ( 2015–2017 )\n- Benedek Orsós ( 2017–2018 )\n- Teodor Ilvesaar ( 2018–2019 )\n"
    "In 2018 the club moved to the Estadio Insular ."
)


@pytest.mark.parametrize(
    ("question", "passage", "gold"),
    [
        ("Which person chaired the Coral Sea Rowing League from 1997 to 2002?", _CHAIRS,
         "Ilisapeci Tuilagi"),
        ("The Coral Sea Rowing League had which person chairing it from 1994 to 1997?",
         _CHAIRS, "Maren des Vallées"),
        ("Who led the federation Coral Sea Rowing League from 2002 to 2005?", _CHAIRS,
         "Joram Kwaioloa"),
        ("The town of Oberwiesel was governed by whom from 1976 to 2000?", _MAYORS,
         "Friedhelm Saathoff"),
        ("Who was the mayor of Oberwiesel between 2000 and 2016?", _MAYORS, "Cordula Wenzlaff"),
        ("Which person coached Club Deportivo Arenales from 2017 to 2018?", _COACHES,
         "Benedek Orsós"),
    ],
)  # fmt: skip
def test_the_row_of_the_asked_span_answers(
    reader_with: ReaderWith, question: str, passage: str, gold: str
) -> None:
    assert _short(reader_with, question, passage) == gold


_SPOUSES = (
    "Ivo Brandt ( born 1944 ) is a Norwegian politician who led the Centre Party .\n"
    "Personal life .\nBrandt has been married five times :\n"
    "- Eva Lindqvist ( married 1968 , divorced 1972 ) ;\n"
    "- Anne Solberg ( married 1972 , divorced 1984 ) ;\n"
    "- Hanne Rask ( Hansi ; married 1984 , divorced 1997 ) ;\n"
    "- Mira Holt ( married 1997 , divorced 2018 ) ;\n- Kim Soon-ja ( married 2018 ) .\n"
    "He lives in Bergen ."
)
_CHAIRED = (
    "The Union of Harbour Pilots elects a chair every four years .\nChairs .\n"
    "- 1963–1966 : Lev Orlov\n- 1967–1970 : T . R . Kallas ( vice : Ada Lund )\n"
    "- 1971–1974 : K . S . Varadan ( vice : Ivo Brandt , Ola Brekke )\n"
    "- 1975–1978 : Ada Lund\nThe union's seat is in Rotterdam ."
)

_LED = (
    "The Tidewater Board oversees the harbours of the Varn coast .\nChairs .\n"
    "- Tomas R . Vik – 1981 to July 1989\n- Ola Brekke – July 1989 to July 1991\n"
    "- Ada Lund – July 1991 to 1995\nThe board meets in Harlow ."
)


@pytest.mark.parametrize(
    ("question", "passage", "gold"),
    [
        ("Who was Ivo Brandt married to from 1972 to 1984?", _SPOUSES, "Anne Solberg"),
        ("What was the name of Brandt's first wife, to whom he was married from 1968 to "
         "1972?", _SPOUSES, "Eva Lindqvist"),
        ("From 1984 to 1997 the politician Ivo Brandt was the husband of which woman?",
         _SPOUSES, "Hanne Rask"),
        # A row ended in the asked first year ("divorced 2018") did not begin then.
        ("Ivo Brandt was married to whom from 2018 to 2019?", _SPOUSES, "Kim Soon-ja"),
        ("The Union of Harbour Pilots was chaired by which person from 1971 to 1974?",
         _CHAIRED, "K . S . Varadan"),
        ("Who chaired the Union of Harbour Pilots from 1967 to 1970?", _CHAIRED,
         "T . R . Kallas"),
        # The surname alone is the same answer as the full name beside it, not its rival.
        ("The Tidewater Board was led by who from 1981 to 1989?", _LED, "Tomas R . Vik"),
        ("Who was the head of the Tidewater Board from 1991 to 1995?", _LED, "Ada Lund"),
    ],
)  # fmt: skip
def test_a_row_of_two_dates_or_of_initials_answers(
    reader_with: ReaderWith, question: str, passage: str, gold: str
) -> None:
    """Before, a row of a start and an end as two dates, or a name of initials written apart,
    was no row; the names were no candidates (the parser splits or skips them)."""
    assert _short(reader_with, question, passage) == gold


def _candidate(text: str, score: float, sentence: Sentence) -> Candidate:
    return Candidate(text, score, sentence, 1.0, Occurrence({"similarity": score}))


@pytest.mark.parametrize(
    ("short", "full", "kind", "answer"),
    [
        ("Clark", "David D . Clark", "entity", "David D . Clark"),
        ("Vik", "Tomas Vik", "entity", "Tomas Vik"),
        # Not a fuller name: another ending, too many words, a rank of a post asked.
        ("Clark", "Clark Kent", "entity", None),
        ("Clark", "Anne Marie Louise Clark", "entity", None),
        ("General", "Lieutenant General", "category", None),
    ],
)
def test_a_surname_and_its_full_name_beside_it_are_one_answer(
    short: str, full: str, kind: str, answer: str | None
) -> None:
    """Two near-equal candidates are rivals, and the reader abstains; not a one-word name and
    its fuller form in one sentence ("- David D . Clark – 1981 to July 1989" gives both):
    the fuller name answers."""
    text = f"- {full} – 1981 to July 1989 , then {short} ."
    said = Sentence(0, "c0", "d0", 0, len(text), text)
    decider = Decider({"similarity": 1.0}, min_support=0.5, min_margin=0.03)
    ranked = [_candidate(short, 2.10, said), _candidate(full, 2.08, said)]
    decided = decider.decide(ranked, ExpectedAnswer(kind, frozenset()))  # type: ignore[arg-type]
    assert decided.text == answer


@pytest.mark.parametrize(
    ("question", "sentence", "letters", "answer"),
    [
        ("Which party did Ann Lee belong to?", "- 1966-1976 : Ann Lee ( FDP )", "FDP", "FDP"),
        ("Which party was Tom Reyes a member of?", "Tom Reyes ( PLD ) won the seat in 1994 .",
         "PLD", "PLD"),
        # A name sharing only some of the question's words is the letters' own.
        ("Which communist party did Bo Vik join in 1919?",
         "In 1919 Vik joined the Varnian Communist Party ( VKP ) .", "VKP",
         "Varnian Communist Party (VKP)"),
        ("Which party did Ann Lee belong to?",
         "Lee joined the Christian Employers Association ( NCW ) in 1990 .", "NCW",
         "Christian Employers Association (NCW)"),
    ],
)  # fmt: skip
def test_letters_are_given_with_their_name_unless_it_is_the_questions(
    question: str, sentence: str, letters: str, answer: str
) -> None:
    """ "Ann Lee ( FDP )" defines no letters: asked for Ann Lee's party, it answers "FDP",
    not "Ann Lee (FDP)"."""
    said = Sentence(0, "c0", "d0", 0, len(sentence), sentence)
    decider = Decider({"similarity": 1.0}, min_support=0.5, min_margin=0.03)
    expected = ExpectedAnswer("entity", frozenset({"ORG"}))
    asked = read_question(question).words
    decided = decider.decide([_candidate(letters, 2.0, said)], expected, asked=asked)
    assert decided.text == answer


def test_asked_of_the_rows_own_name_its_bracket_answers(reader_with: ReaderWith) -> None:
    """A row's bracket is no rival of its name, unless the question names the row's name."""
    question = "Which party did Orla Brandvik belong to from 1966 to 1976?"
    assert _short(reader_with, question, _MAYORS) == "FDP"


def test_the_row_writes_its_name_without_the_bullet(nlp: Any) -> None:
    """The parser's span of a row's name may hold the bullet ("- Doris Lee"): the candidate is
    written as the row's name."""
    text = "- Doris Lee ( married 1997 , divorced 2018 ) ;"
    doc = nlp(text)
    found = [("- Doris Lee", "PERSON", 0, 0, 3), ("Bo Vik", "PERSON", 5, 5, 7)]
    row = row_span(text, doc, question_time("from 1997 to 2018"), "entity", found)
    assert row is not None and row.value == SAME_SPAN
    assert [f[0] for f in found] == ["Doris Lee", "Bo Vik"]
    assert row.beside(text.index("married")) and not row.beside(text.index("Doris"))
    # Its span begins in 1997, the asked first year; the divorce in 2018 begins nothing.
    assert row.bounds(question_time("from 1997 to 2018")) == (True, False)
    assert row.bounds(question_time("from 2018 to 2019")) == (False, False)


def test_no_row_of_the_asked_time_is_no_answer_from_the_rows(reader_with: ReaderWith) -> None:
    """Asked of a time no row covers, the rows beside it are no answer."""
    short = _short(
        reader_with, "Who chaired the Coral Sea Rowing League from 1980 to 1985?", _CHAIRS
    )
    names = {"Peni Vakalalabure", "Maren des Vallées", "Ilisapeci Tuilagi", "Joram Kwaioloa"}
    assert short not in names


# A list written as one line, each name with its own span in brackets, beside prose whose
# brackets hold figures of a year.
_LISTED = (
    "The Varn League is a regionalist party in the Varn valley . It split from the Coastal "
    "Union in 1997 .\nLeadership .\n- Party president : Ivo Marchetti ( 1997–1999 ) , Lia "
    "Bortolan ( 1999–2003 ) , Nils Aavik ( 2003–2008 ) , Tomas Greco ( since 2008 )\n"
    "- Party secretary : Edda Moro ( 1997–2001 ) , Pia Vesterdal ( 2001–2006 )\n"
    "Results .\nIn 2000 the party did best in Arvello ( 31.2% over 6.0% in 1999 ) , Cosmari "
    "( 21.6% over 5.9% in 1999 ) and Pelten ( 15.5% over 14.7% in 2000 ) ."
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        # A place beside "in 1999" read as near the asked time as the listed name.
        ("Who chaired the Varn League from 1999 to 2003?", "Lia Bortolan"),
        ("Who was at the head of the Varn League from 1999 to 2003?", "Lia Bortolan"),
        # Controls, answered before too: no figure of the asked first year beside them.
        ("Who was the Varn League's leader from 1997 to 1999?", "Ivo Marchetti"),
        ("Which person headed the Varn League from 2003 to 2008?", "Nils Aavik"),
        ("The Varn League had which person as its secretary from 2001 to 2006?",
         "Pia Vesterdal"),
    ],
)  # fmt: skip
def test_a_name_dated_by_its_own_bracket_in_a_listed_row_answers(
    reader_with: ReaderWith, question: str, gold: str
) -> None:
    """Before, a name's own bracket dated it only as the nearest date, as a place beside a
    figure of the asked year is dated ("Cosmari ( 21.6% over 5.9% in 1999 )"): a tie, and
    the reader abstained. A span alone in the name's bracket dates it as a row does."""
    assert _short(reader_with, question, _LISTED) == gold


@pytest.mark.parametrize(
    ("sentence", "name", "asked", "value"),
    [
        ("Presidents : Ivo Marchetti ( 1997–1999 ) , Lia Bortolan ( 1999–2003 ) .",
         "Lia Bortolan", "from 1999 to 2003", SAME_SPAN),
        ("Presidents : Ivo Marchetti ( 1997–1999 ) , Lia Bortolan ( 1999–2003 ) .",
         "Lia Bortolan", "from 2000 to 2001", MEETS_SPAN),
        ("Coaches : Ruud Falk ( Jul 2011 – Dec 2011 ) , Ada Lund ( since 2012 ) .",
         "Ruud Falk", "from Jul 2011 to Dec 2011", SAME_SPAN),
        ("Coaches : Ruud Falk ( Jul 2011 – Dec 2011 ) , Ada Lund ( 2012–2016 ) .",
         "Ada Lund", "from 2012 to 2016", SAME_SPAN),
        ("Members : Ada Lund ( 1975–1976 ) , Ivo Brandt ( 1976–1980 ) .", "Ada Lund",
         "in 1975", MEETS_SPAN),
        # A year alone, the asked one: a list of honours, each with its year.
        ("Lund is a Fellow of the Varnian Academy ( 2009 ) and of the Royal Society of Harlow "
         "( 2010 ) .", "the Royal Society of Harlow", "in 2010", SAME_SPAN),
        ("Films : Harbour Lights ( 1999 ) , Kelso Bay ( 2001 ) .", "Harbour Lights", "in 1999",
         SAME_SPAN),
        # A span only meeting the asked one, of a life's length.
        ("In 1918 he married the singer Hildur Arntzen ( 1888–1957 ) .", "Hildur Arntzen",
         "from 1918 to 1939", None),
        ("His parents were Ivo Brandt ( 1852–1906 ) and Ada Lund ( 1854–1939 ) .", "Ada Lund",
         "from 1880 to 1890", None),
        # A span outside the asked time, a figure's bracket, a life, a year inside a span
        # asked, a party.
        ("Presidents : Ivo Marchetti ( 1997–1999 ) , Lia Bortolan ( 1999–2003 ) .",
         "Lia Bortolan", "from 2005 to 2006", None),
        ("Results : Arvello ( 31.2% over 6.0% in 1999 ) .", "Arvello", "in 1999", None),
        ("Members : Ole Brun ( born 1950 ) .", "Ole Brun", "from 1950 to 1960", None),
        # The bracket after a title dates the title, not the name it ends with.
        ("He told of it in Judgment in Harlow ( 1995 ) , his third book .", "Harlow", "in 1995",
         None),
        ("Films : Harbour Lights ( 1999 ) .", "Harbour Lights", "from 1995 to 2005", None),
        ("Mayors : Ada Lund ( FDP ) , 1990–1994 .", "Ada Lund", "from 1990 to 1994", None),
        ("Ole Brun ( 1889–1968 ) was a Norwegian poet .", "Ole Brun", "from 1918 to 1939",
         None),
        ("Early parliamentary career ( 1989–1996 )", "Early parliamentary career",
         "from 1989 to 1996", None),
    ],
)  # fmt: skip
def test_a_bracket_of_a_span_alone_dates_the_name_before_it(
    nlp: Any, sentence: str, name: str, asked: str, value: float | None
) -> None:
    doc = nlp(sentence)
    start = len(nlp(sentence[: sentence.index(name)]))
    end = len(nlp(sentence[: sentence.index(name) + len(name)]))
    row = bracketed_row(doc, start, end, question_time(asked), normalise_name(name))
    assert (row.value if row is not None else None) == value


_COMMANDERS = (
    "The Varn Air Fleet was an air fleet of the Varnian air force .",
    "Commanders .",
    "- Generaloberst Hans-Jürgen Stumpff , 10 May 1940 – 27 November 1943",
    "- Generaloberst Ivo Brandt , 27 November 1943 – 8 May 1945",
    "After eight war patrols under the command of Kapitänleutnant Claus Korth , command of the "
    "1st Varn Flotilla was passed to Topp on 5 June 1940 .",
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("The Varn Air Fleet was under the commandership of who from May 1940 to Nov 1943?",
         "Hans-Jürgen Stumpff"),
        ("Who commanded the Varn Air Fleet from Nov 1943 to May 1945?",
         "Generaloberst Ivo Brandt"),  # a control: the parser's name holds the rank
    ],
)  # fmt: skip
def test_a_row_dates_its_name_written_without_the_rank(
    reader_with: ReaderWith, question: str, gold: str
) -> None:
    """The parser's name may leave out the row's rank ("Hans-Jürgen Stumpff" of "- Generaloberst
    Hans-Jürgen Stumpff , 10 May 1940 – …"): the row dates it still. Before, it was dated only
    as near its dates, and "Topp", handed a flotilla in June 1940, read as well. The row's
    end day ("27 November 1943") was read as a year, too ("1940 – 27": to 2027)."""
    assert short_answer(reader_with({}), question, *_COMMANDERS) == gold


_FIRST_COMMANDERS = (
    "The Varn Air Fleet was one of the air fleets of the Varnian air force .",
    "In 1940 , for the invasion , its main air asset was Fliegerkorps X , a formation of four"
    " bomber wings .",
    "Commanders .",
    "- Generalfeldmarschall Erwin Harl , 12 April 1940 – 9 May 1940",
    "- Generaloberst Lund Ivarsen , 10 May 1940 – 27 November 1943",
)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("The Varn Air Fleet was under the commandership of who in Apr 1940?",
         "Generalfeldmarschall Erwin Harl"),
        ("Who commanded the Varn Air Fleet in April 1940?", "Generalfeldmarschall Erwin Harl"),
        ("Who was the commander of the Varn Air Fleet from 1941 to 1942?",
         "Generaloberst Lund Ivarsen"),
    ],
)  # fmt: skip
def test_a_rows_name_no_entity_labels_is_a_person_asked(
    reader_with: ReaderWith, question: str, gold: str
) -> None:
    """A list of holders the parser labels nothing in ("- Generalfeldmarschall Erwin Harl ,
    12 April 1940 – …") names people: asked for one, the row's name is of the kind asked, as
    the formation the parser took for a person is too ("Fliegerkorps X", dated 1940)."""
    assert short_answer(reader_with({}), question, *_FIRST_COMMANDERS) == gold
