from __future__ import annotations

from datetime import date

import pytest

from graphgate.dates import document_date, parse_time, question_time, spans_in


def test_dates_keep_their_precision() -> None:
    assert parse_time("2016").iso == "2016"
    assert parse_time("2016-03").iso == "2016-03"
    assert parse_time("March 5, 2016").iso == parse_time("5 March 2016").iso == "2016-03-05"
    year = parse_time("2016")
    assert (year.first, year.last) == (date(2016, 1, 1), date(2016, 12, 31))
    assert parse_time("February 2024").last == date(2024, 2, 29)


@pytest.mark.parametrize("bad", ["yesterday", "2016-13", "31 February 2016", "16", ""])
def test_unreadable_dates_name_the_accepted_formats(bad: str) -> None:
    with pytest.raises(ValueError, match="YYYY, YYYY-MM, YYYY-MM-DD"):
        parse_time(bad)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("Who was chief executive in 2016?", date(2016, 1, 1), date(2016, 12, 31)),
        ("Who led it as of March 2010?", date(2010, 3, 1), date(2010, 3, 31)),
        ("Where did she work from 2004 to 2005?", date(2004, 1, 1), date(2005, 12, 31)),
        ("What was built before 1990?", None, date(1989, 12, 31)),
        ("What changed after 2021?", date(2022, 1, 1), None),
        ("What happened after the merger in 2021?", date(2021, 1, 1), None),
        ("Who has run it since 2010?", date(2010, 1, 1), None),
    ],
)
def test_the_time_a_question_asks_about(question: str, start: date, end: date) -> None:
    asked = question_time(question)
    assert asked is not None and (asked.start, asked.end) == (start, end)


def test_questions_without_a_time() -> None:
    assert question_time("Who founded Nordvik Shipping?") is None


def test_spans_in_a_sentence() -> None:
    spans = spans_in("Holm was mayor from 1990 to 1994, again since 2001, and retired in 2010.")
    labels = sorted(s.label for s in spans)
    assert labels == ["1990 to 1994", "2010", "since 2001"]
    assert [s.point for s in spans if s.label == "2010"] == [True]


def test_a_document_date_from_its_metadata() -> None:
    assert document_date({"published_at": "2023-10-07T08:00:00+00:00"}).iso == "2023-10-07"
    assert document_date({"date": "not a date", "published": "2019"}).iso == "2019"
    assert document_date({"title": "x"}) is None
