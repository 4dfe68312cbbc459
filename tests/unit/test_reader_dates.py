"""Which date dates a candidate: the nearest one that states a time, a comma, semicolon or
"and" between them counting as a few tokens more, and two dates joined by "to" one range, so
that in a sentence listing several facts each with its own dates, each fact keeps its own. A
date an "until" governs ("hosted the show until 1987") ends the fact of its own clause instead
of beginning it: asked from that date on, the name left as the span began; asked up to it, the
name held to the span's end. A name whose date lies outside the asked time answers last. A
range of years the parser takes for a number ("Ann Lee ( 1998–1999 )") is a date too; a life
bracketed after a person's name ("Ann Lee ( 1888–1957 )") is none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.core.dates import span_of
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_features import dated_ends, nearest_date, written_dates
from tests.unit.conftest import name_tokens, short_answer

ASKED = span_of("1983", "1990")


@pytest.mark.parametrize(
    ("sentence", "name", "begins"),
    [
        # The post after the comma is dated by the span after it, not the one before.
        ("Rudd was Mayor of Lindvik from 1991 to 1996 , Chancellor of Elmsford from 1983 to "
         "1990 .", "Chancellor of Elmsford", True),
        ("Rudd was Mayor of Lindvik from 1991 to 1996 , Chancellor of Elmsford from 1983 to "
         "1990 .", "Mayor of Lindvik", False),
        ("Holm chaired the board from 1983 to 1990 ; Vik chaired it from 1991 .", "Holm", True),
        ("Holm chaired the board from 1983 to 1990 ; Vik chaired it from 1991 .", "Vik", False),
        # No comma between: the nearer date, whichever side.
        ("In 1983 Lund joined Hamar and left for Vik in 1995 .", "Hamar", True),
    ],
)  # fmt: skip
def test_a_candidate_is_dated_by_the_date_of_its_own_clause(
    nlp: Any, sentence: str, name: str, begins: bool
) -> None:
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, ASKED))[0] is begins


@pytest.mark.parametrize(
    ("sentence", "name", "begins", "ends"),
    [
        # A bracket's aside (a translation, letters) puts the date no further from its name:
        # the Workers Party was dated by 1987, across "and", before.
        ("With Bebel he founded the Saxon Party ( Sächsische Volkspartei ) in 1987 and the "
         "Workers Party of Hamar ( Arbeiterpartei Hamars , SDAP ) in 1990 .",
         "Workers Party of Hamar", False, True),
        ("With Bebel he founded the Saxon Party ( Sächsische Volkspartei ) in 1983 and the "
         "Workers Party of Hamar ( Arbeiterpartei Hamars , SDAP ) in 1990 .",
         "Saxon Party", True, False),
        # Controls: dated as before (the aside is short, or there is none).
        ("With Bebel he founded the Saxon Party in 1987 and the Workers Party of Hamar in "
         "1990 .", "Workers Party of Hamar", False, True),
        ("Lund joined Hamar Bank [ 12 ] in 1983 and left Vik Bank in 1990 .", "Hamar Bank",
         True, False),
    ],
)  # fmt: skip
def test_a_bracket_between_a_name_and_its_date_counts_for_nothing(
    nlp: Any, sentence: str, name: str, begins: bool, ends: bool
) -> None:
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, ASKED))[:2] == (begins, ends)


@pytest.mark.parametrize(
    "sentence",
    [
        "In November 1983 , it was said that Vik would return after 15 years .",
        "After two decades , Vik returned in November 1983 .",
        "In 1983 Vik came back for a few months .",
    ],
)
def test_a_duration_is_no_date(nlp: Any, sentence: str) -> None:
    """ "15 years" is labelled a date by the parser but states no time: the date nearest
    "Vik" is the one stating a time, whatever the duration's distance."""
    doc = nlp(sentence)
    ends = dated_ends(doc, ASKED)
    assert ends and all("1983" in doc[d.first : d.last + 1].text for d in ends)
    start, end = name_tokens(doc, "Vik")
    assert nearest_date(doc, start, end, ends)[:3] == (True, False, False)


# (sentence, name, asked, flags): (began in the asked span's first year, began in its last,
# ended in its first). A date an "until" governs ends the fact of its own clause.
_UNTIL_CASES = [
    ("Frank Ell hosted the show until its 39th episode in 1987 .", "Frank Ell",
     ("1987", "1992"), (False, False, True)),
    ("Frank Ell hosted the show until its 39th episode in 1987 .", "Frank Ell",
     ("1981", "1987"), (True, False, False)),
    ("The Dutch shows were hosted by Jos Brand until 1993 , after which Rolf Wout took over .",
     "Jos Brand", ("1993", "1998"), (False, False, True)),
    # The name beside it in another clause came with the date: dated as by any date.
    ("The Dutch shows were hosted by Jos Brand until 1993 , after which Rolf Wout took over .",
     "Rolf Wout", ("1993", "1998"), (True, False, False)),
    ("Holm stayed in Rome till 1944 , then moved back to Berlin .", "Rome",
     ("1944", "1948"), (False, False, True)),
    ("Holm stayed in Rome till 1944 , then moved back to Berlin .", "Berlin",
     ("1944", "1948"), (True, False, False)),
    ("Vik remained chairman of Hamar Bank until his death in 1983 .", "Hamar Bank",
     ("1983", "1990"), (False, False, True)),
    ("Lund played for Ajax through the 1995 season .", "Ajax", ("1995", "1999"),
     (False, False, True)),
    # "through" a means, not a time: the date begins the fact.
    ("Lund came to Ajax through a transfer in 1995 .", "Ajax", ("1995", "1999"),
     (True, False, False)),
    # No "until": the date begins the fact, as before.
    ("Lund joined Ajax in 1995 .", "Ajax", ("1995", "1999"), (True, False, False)),
    ("Lund was sold by Ajax in 1999 .", "Ajax", ("1995", "1999"), (False, True, False)),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "name", "asked", "flags"), _UNTIL_CASES)
def test_a_date_until_which_a_fact_held_ends_it(
    nlp: Any, sentence: str, name: str, asked: tuple[str, str], flags: tuple[bool, ...]
) -> None:
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, span_of(*asked)))[:3] == flags


# (sentence, name, asked, outside): the date nearest the name dates a fact that held outside
# the asked time — begun after it, a range missing it, or ended ("until") before it. An event
# before it ("in 1955") may still hold in it, and is not outside.
_OUTSIDE_CASES = [
    ("Karl Holm worked in Oslo in 1955 , in Bergen from 1960 to 1965 , and in Stockholm from "
     "1970 .", "Stockholm", ("1962", "1964"), True),
    ("Karl Holm worked in Oslo in 1955 , in Bergen from 1960 to 1965 , and in Stockholm from "
     "1970 .", "Bergen", ("1962", "1964"), False),
    ("Karl Holm worked in Oslo in 1955 , in Bergen from 1960 to 1965 , and in Stockholm from "
     "1970 .", "Oslo", ("1962", "1964"), False),
    ("Ada Lund stayed in Rome from 1935 to 1938 and in Berlin from 1939 to 1944 .", "Rome",
     ("1940", "1943"), True),
    ("Ada Lund stayed in Rome from 1935 to 1938 and in Berlin from 1939 to 1944 .", "Berlin",
     ("1940", "1943"), False),
    ("Holm stayed in Rome till 1939 , then moved back to Berlin .", "Rome", ("1944", "1948"),
     True),
    ("Holm stayed in Rome till 1950 , then moved back to Berlin .", "Rome", ("1944", "1948"),
     False),
    ("Holm stayed in Rome till 1939 , then moved back to Berlin .", "Berlin", ("1944", "1948"),
     False),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "name", "asked", "outside"), _OUTSIDE_CASES)
def test_a_date_outside_the_asked_time_dates_a_name_beside_it(
    nlp: Any, sentence: str, name: str, asked: tuple[str, str], outside: bool
) -> None:
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, span_of(*asked)))[3] is outside


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Where did Ada Lund live from 1940 to 1943?",
         "After stays in Rome from 1935 to 1938 and Berlin from 1939 to 1944 , Ada Lund settled "
         "in Paris in 1950 .", "Berlin"),
        ("Which company employed Tom Reyes from 1991 to 1993?",
         "Tom Reyes worked for IBM from 1980 to 1989 , for Microsoft from 1990 to 1995 and for "
         "Google from 2001 .", "Microsoft"),
        ("Which company employed Tom Reyes from 2002 to 2004?",
         "Tom Reyes worked for IBM from 1980 to 1989 , for Microsoft from 1990 to 1995 and for "
         "Google from 2001 to 2005 .", "Google"),
        ("Which party did Ivo Brandt belong to from 1982 to 1988?",
         "Ivo Brandt was a member of the Labour Party from 1970 to 1979 and of the Green Party "
         "from 1980 to 1990 .", "the Green Party"),
        ("Which club did Per Vik coach from 2006 to 2007?",
         "Per Vik coached Ajax from 1998 to 2001 , Feyenoord from 2005 to 2008 and Celtic from "
         "2010 .", "Feyenoord"),
    ],
)  # fmt: skip
def test_a_list_entry_dated_outside_the_asked_time_does_not_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    """Each entry of the list is dated by its own range; the asked time falls inside one and
    begins none. Without the entries' dates weighed, the reader abstains or names another."""
    assert short_answer(reader_with({}), question, evidence) == answer
    assert short_answer(reader_with({"date_outside": 0.0}), question, evidence) != answer


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Who hosted Wander Weekly from 1987 to 1992?",
         "Frank Ell hosted Wander Weekly until its 39th episode in 1987 , when Tom Gott took "
         "over as host .", "Tom Gott"),
        ("Who hosted Wander Weekly from 1981 to 1987?",
         "Frank Ell hosted Wander Weekly until its 39th episode in 1987 , when Tom Gott took "
         "over as host .", "Frank Ell"),
        ("Where did Lotte Brandt live from 1944 to 1948?",
         "Lotte Brandt stayed with friends in Rome until 1944 , then moved back to Berlin .",
         "Berlin"),
        ("Which club did Per Lund play for from 1995 to 1999?",
         "Per Lund played for Ajax through the 1995 season and joined PSV in 1995 .", "PSV"),
    ],
)  # fmt: skip
def test_the_reader_answers_with_what_held_after_an_until(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, evidence) == answer


@pytest.mark.parametrize(
    ("sentence", "ranges"),
    [
        ("- Presidents : Ann Lee ( 1998–1999 ) , Bo Vik ( 1999–2004 ) , Ivo Brandt ( 2004–present"
         " )", ["1998–1999", "1999–2004", "2004–present"]),
        ("The hosts were Tom Gott ( 1988–1990 ) , Kate Vale ( 1991–1995 ) and Per Lund ( "
         "1996-97 ) .", ["1988–1990", "1991–1995", "1996-97"]),
        # A life bracketed after a person's name dates no fact; a state's years do.
        ("In 1918 he married the singer Ada Lund ( 1888–1957 ) .", ["1918"]),
        ("He married the journalist Kate Vale Brandt ( 1913–1978 ) in June 1945 .", ["June 1945"]),
        ("It was the capital of the Electorate of Lindvik ( 1692–1814 ) and the Kingdom of "
         "Lindvik ( 1814–1866 ) .", ["1692–1814", "1814–1866"]),
        # Controls: numbers that are no range of years, a score, a lone count.
        ("He led 1500 soldiers and won 3–0 in the final .", []),
    ],
)  # fmt: skip
def test_a_range_of_years_is_a_date_whatever_the_parser_labels_it(
    nlp: Any, sentence: str, ranges: list[str]
) -> None:
    found = [e.text for e in written_dates(nlp(sentence))]
    assert [r for r in ranges if not any(r in f for f in found)] == []
    assert not any(y in f for f in found for y in ("1500", "3–0", "1888", "1913"))


_TERMS = (
    "- Chairmen : Ada Lund ( 1998–1999 ) , Tom Reyes ( 1999–2000 ) , Kate Vale ( 2000–2004 ) "
    ", Per Vik ( 2004–2007 ) , Ivo Brandt ( 2009–2018 ) , Bo Holm ( 2018–present )"
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("The Lindvik League had who chairing it from 1999 to 2000?", "Tom Reyes"),
        ("Who chaired the Lindvik League from 2000 to 2004?", "Kate Vale"),
        ("From 2009 to 2018, who was the chairman of the Lindvik League?", "Ivo Brandt"),
    ],
)
def test_each_name_of_a_list_is_dated_by_its_own_bracket(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, answer: str
) -> None:
    """A list of who held a post writes each term in a bracket after the name, as ranges of
    years the parser labels numbers; each name is dated by its own."""
    assert short_answer(reader_with({}), question, _TERMS) == answer


@pytest.mark.parametrize(
    ("sentence", "name", "asked"),
    [
        ("In 1918 Brandt married the singer Ada Lund ( 1888–1957 ) .", "Ada Lund",
         ("1918", "1939")),
        ("In June 1945 Reyes married the journalist Kate Vale Brandt ( 1913–1978 ) .",
         "Kate Vale Brandt", ("1945", "1978")),
    ],
)  # fmt: skip
def test_a_life_bracketed_after_a_name_does_not_date_the_fact(
    nlp: Any, sentence: str, name: str, asked: tuple[str, str]
) -> None:
    """The marriage began in the asked span's first year; the bride's life is no date of it."""
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, span_of(*asked)))[0] is True
