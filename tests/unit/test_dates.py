from __future__ import annotations

from datetime import date

import pytest

from graphgate.core.dates import dates_in, document_date, parse_time, question_time, spans_in


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


# -- issue 27, item 9: the range that is read is said, and what is no date is refused --------
@pytest.mark.parametrize(
    "bad",
    [
        "March 0 2016",
        "March 00, 2016",
        "0 March 2016",
        "2016-00",
        "2016-03-00",
        "2016-00-10",
        "Sept 0 1999",
    ],
)
def test_a_day_or_month_zero_is_no_date(bad: str) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        parse_time(bad)
    assert all(point.iso != "2016-03" for point, _, _ in dates_in(f"It opened {bad}."))


@pytest.mark.parametrize("outside", ["2150", "2150-01-01", "0999-12-31", "March 2100"])
def test_a_year_outside_the_range_read_is_named_with_the_range(outside: str) -> None:
    with pytest.raises(ValueError, match="1000 to 2099"):
        parse_time(outside)


@pytest.mark.parametrize(
    "question",
    [
        "Where did she work from 2005 to 2004?",
        "Who led it between March 2010 and January 2010?",
        "What happened 2019-2018?",
        "Who chaired it from 5 May 2001 to 4 May 2001?",
    ],
)
def test_a_range_that_ends_before_it_starts_is_refused(question: str) -> None:
    with pytest.raises(ValueError, match="ends before it starts"):
        question_time(question)
    # In a document it states no time at all: no span that ends before it starts.
    assert all(s.start is None or s.end is None or s.start <= s.end for s in spans_in(question))


def test_the_edges_of_the_range_are_read() -> None:
    assert parse_time("1000").iso == "1000" and parse_time("2099-12-31").iso == "2099-12-31"
    asked = question_time("Who led it from 2004 to 2004?")
    assert asked is not None and (asked.start, asked.end) == (date(2004, 1, 1), date(2004, 12, 31))


@pytest.mark.parametrize(
    ("sentence", "labels"),
    [
        ("He served 1998-2003.", ["1998 to 2003"]),
        ("He served 1998 – 2003.", ["1998 to 2003"]),
        ("The 1987-88 season.", ["1987 to 1988"]),
        ("It opened in 2016-03.", ["2016-03"]),  # an ISO month, not 2016 to 2103
        ("It opened on 2016-03-05.", ["2016-03-05"]),
        ("Back in 1999-00.", ["1999 to 2000"]),
        # Two digits before a month are the end's day, not a year ("1940 – 2027").
        ("- Ivo Brandt , 10 May 1940 – 27 November 1943", ["1940-05-10 to 1943-11-27"]),
        ("He reigned 3 March 1801 - 12 Jan. 1825 .", ["1801-03-03 to 1825-01-12"]),
        ("Chair from 1998–03 May 2001 .", ["1998 to 2001-05-03"]),  # read so before too
    ],
)
def test_hyphenated_years_are_ranges_and_iso_months_stay_months(
    sentence: str, labels: list[str]
) -> None:
    assert sorted(s.label for s in spans_in(sentence)) == labels
