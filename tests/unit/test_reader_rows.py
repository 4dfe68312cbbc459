"""Dated rows of a list (query/reader_rows.py): the name and span each row shape gives, the
sentences and lists of several spans that are no row, and end to end through the reader, where
the row's name is the answer though the parser does not label it and the row shares no word
with the question. Names are invented; the row shapes are those encyclopaedic lists use."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphgate.core.dates import question_time
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.reader_rows import dated_row, same_years

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


def test_no_row_of_the_asked_time_is_no_answer_from_the_rows(reader_with: ReaderWith) -> None:
    """Asked of a time no row covers, the rows beside it are no answer."""
    short = _short(
        reader_with, "Who chaired the Coral Sea Rowing League from 1980 to 1985?", _CHAIRS
    )
    names = {"Peni Vakalalabure", "Maren des Vallées", "Ilisapeci Tuilagi", "Joram Kwaioloa"}
    assert short not in names
