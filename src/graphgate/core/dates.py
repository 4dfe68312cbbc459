"""Dates with their precision, time spans, and the time a question asks about.

A date keeps the precision it was written with: "2016" is the whole year, "March 2016" the
whole month, so "as of 2016" overlaps "from March 2016" and a year is never taken for a day.
Everything here is a pure function of its input; it imports nothing from graphgate.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

FIRST_YEAR, LAST_YEAR = 1000, 2099
ACCEPTED = (
    "YYYY, YYYY-MM, YYYY-MM-DD, 'March 2016', '5 March 2016' or 'March 5, 2016', "
    f"for years {FIRST_YEAR} to {LAST_YEAR}"
)

_MONTHS = (
    {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
    | {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
    | {"sept": 9}
)
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(1[0-9]{3}|20[0-9]{2})"  # FIRST_YEAR to LAST_YEAR: a bare number past it is no year
# One date as written in text: ISO, "5 March 2016", "March 5, 2016", "March 2016", "2016".
_DATE = (
    rf"(?:{_YEAR}-(\d{{2}})(?:-(\d{{2}}))?"
    rf"|(\d{{1,2}})\s+({_MONTH})\.?,?\s+{_YEAR}"
    rf"|({_MONTH})\.?\s+(\d{{1,2}}),?\s+{_YEAR}"
    rf"|({_MONTH})\.?,?\s+{_YEAR}"
    rf"|{_YEAR})"
)
_DATE_RE = re.compile(rf"(?<![\w-]){_DATE}(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class TimePoint:
    """A calendar date at the precision it was given: ``iso`` is YYYY, YYYY-MM or YYYY-MM-DD."""

    iso: str

    @property
    def first(self) -> date:
        parts = [int(p) for p in self.iso.split("-")]
        return date(parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1)

    @property
    def last(self) -> date:
        parts = [int(p) for p in self.iso.split("-")]
        if len(parts) == 1:
            return date(parts[0], 12, 31)
        if len(parts) == 2:
            return date(parts[0], parts[1], calendar.monthrange(parts[0], parts[1])[1])
        return date(parts[0], parts[1], parts[2])

    def __str__(self) -> str:
        return self.iso


def _point(groups: tuple[str | None, ...]) -> TimePoint | None:
    """The TimePoint of one _DATE match's groups, or None for an impossible date (day or
    month 0 included: "March 0 2016" is no date, not March 2016)."""
    iso_y, iso_m, iso_d, d1, m1, y1, m2, d2, y2, m3, y3, y4 = groups
    day: int | None = None
    month: int | None = None
    if iso_y:
        year = int(iso_y)
        month = int(iso_m) if iso_m else None
        day = int(iso_d) if iso_d else None
    elif y1:
        year, month, day = int(y1), _MONTHS[(m1 or "").lower()], int(d1 or 0)
    elif y2:
        year, month, day = int(y2), _MONTHS[(m2 or "").lower()], int(d2 or 0)
    elif y3:
        year, month = int(y3), _MONTHS[(m3 or "").lower()]
    else:
        year = int(y4 or 0)
    try:
        if day is not None:
            return TimePoint(date(year, month or 0, day).isoformat())
        if month is not None:
            date(year, month, 1)
            return TimePoint(f"{year:04d}-{month:02d}")
    except ValueError:
        return None
    return TimePoint(f"{year:04d}")


def parse_time(text: str) -> TimePoint:
    """One date, as a user gives it (``--as-of``, ``as_of``); a clear error otherwise."""
    match = _DATE_RE.fullmatch(text.strip())
    point = _point(match.groups()) if match else None
    if point is None:
        year = re.search(r"(?<!\d)\d{4}(?!\d)", text)
        if year is not None and not FIRST_YEAR <= int(year.group()) <= LAST_YEAR:
            raise ValueError(
                f"cannot read {text.strip()[:40]!r} as a date: year {year.group()} is outside "
                f"{FIRST_YEAR} to {LAST_YEAR}; accepted: {ACCEPTED}"
            )
        raise ValueError(f"cannot read {text.strip()[:40]!r} as a date; accepted: {ACCEPTED}")
    return point


@dataclass(frozen=True)
class TimeSpan:
    """Inclusive days; ``None`` is open. ``label`` says it as the question or the user did."""

    start: date | None
    end: date | None
    label: str
    point: bool = False  # one date as written (an event), not a range or an open span
    period: bool = False  # a range as written ("from 2005 to 2006"): what held over it

    def overlaps(self, other: TimeSpan) -> bool:
        return (self.end is None or other.start is None or other.start <= self.end) and (
            self.start is None or other.end is None or self.start <= other.end
        )

    def after(self, day: date) -> bool:
        """The whole span lies after ``day``."""
        return self.start is not None and self.start > day


def at(point: TimePoint, label: str | None = None) -> TimeSpan:
    return TimeSpan(point.first, point.last, label or f"as of {point}")


def span_of(valid_from: str | None, valid_to: str | None) -> TimeSpan | None:
    """A fact's validity from its stored bounds (None when neither is known)."""
    if not valid_from and not valid_to:
        return None
    start = parse_time(valid_from).first if valid_from else None
    end = parse_time(valid_to).last if valid_to else None
    return TimeSpan(start, end, f"{valid_from or '…'} to {valid_to or '…'}")


def is_month(word: str) -> bool:
    """A month's name as a date writes it: "May", "Sept.", "October" (not the verb "may")."""
    return word[:1].isupper() and word.lower().rstrip(".") in _MONTHS


def dates_in(text: str) -> list[tuple[TimePoint, int, int]]:
    """Every date the text writes, with its character span, in order."""
    found = []
    for match in _DATE_RE.finditer(text):
        point = _point(match.groups())
        if point is not None:
            found.append((point, match.start(), match.end()))
    return found


_D = r"(__D\d+__)"
_BETWEEN = re.compile(rf"\b(?:from|between|in)\s+{_D}\s*(?:to|and|until|till|-|–)\s*{_D}", re.I)
_RANGE = re.compile(rf"{_D}\s*(?:-|–|to)\s*{_D}")
_BEFORE = re.compile(rf"\b(?:before|until|till|prior to|up to)\s+{_D}", re.I)
_AFTER = re.compile(rf"\b(?:after|since|from|following)\s+{_D}", re.I)
_AT = re.compile(
    rf"\b(?:as of|in|during|on|at|by|around)\s+(?:the\s+(?:year|end of)\s+)?{_D}", re.I
)
# "after the merger in 2021": after an event the question dates, so from that date on.
_AFTER_EVENT = re.compile(rf"\bafter\b[^.?!;]{{0,60}}?\b(?:in|on|of)\s+{_D}", re.I)


def _marked(text: str) -> tuple[str, list[TimePoint]]:
    """The text with each date replaced by a numbered marker, and the dates."""
    points: list[TimePoint] = []
    out, last = [], 0
    for point, start, end in dates_in(text):
        out.append(text[last:start] + f"__D{len(points)}__")
        points.append(point)
        last = end
    return "".join(out) + text[last:], points


def _index(marker: str) -> int:
    return int(marker[3:-2])


# "1869-71", "1987–88", "1999-00", "1998-2003": a year range, its end's century often left out.
_SHORT_RANGE = re.compile(
    r"(?<![\w-])(1[0-9]{3}|20[0-9]{2})\s*[-–]\s*([0-9]{2}|1[0-9]{3}|20[0-9]{2})(?![\w-])"
)


def _expand_short_ranges(text: str) -> str:
    """Year ranges written with a hyphen or a dash as "START to END", which the range patterns
    read. "2016-03" stays an ISO month: as a range it would end before it starts. Two digits
    before a month are a day ("10 May 1940 – 27 November 1943"), no year."""

    def full(m: re.Match[str]) -> str:
        start, tail = m.group(1), m.group(2)
        if len(tail) == 4:
            return f"{start} to {tail}"
        following = m.string[m.end() :].split(maxsplit=1)
        if following and is_month(following[0].strip(",")):
            return m.group(0)
        end = int(start[:2] + tail)
        if end <= int(start):
            if 1 <= int(tail) <= 12:
                return m.group(0)  # YYYY-MM
            end += 100
        return f"{start} to {end}"

    return _SHORT_RANGE.sub(full, text)


def spans_in(text: str) -> list[TimeSpan]:
    """The times a sentence speaks of: ranges ("from 2004 to 2005", "1998–2003", "1869-71"),
    open spans ("since 2010", "until 1990"), and single dates (as the span of their
    precision)."""
    marked, points = _marked(_expand_short_ranges(text))
    used: set[int] = set()
    spans: list[TimeSpan] = []
    for pattern in (_BETWEEN, _RANGE):
        for m in pattern.finditer(marked):
            a, b = _index(m.group(1)), _index(m.group(2))
            if a in used or b in used:
                continue
            used |= {a, b}
            if points[b].last < points[a].first:
                continue  # "from 2005 to 2004": a range that ends before it starts says no time
            spans.append(
                TimeSpan(
                    points[a].first, points[b].last, f"{points[a]} to {points[b]}", period=True
                )
            )
    for pattern, opened in ((_BEFORE, "end"), (_AFTER, "start")):
        for m in pattern.finditer(marked):
            i = _index(m.group(1))
            if i in used:
                continue
            used.add(i)
            p = points[i]
            if opened == "end":
                spans.append(TimeSpan(None, p.last, f"until {p}"))
            else:
                spans.append(TimeSpan(p.first, None, f"since {p}"))
    for i, p in enumerate(points):
        if i not in used:
            spans.append(TimeSpan(p.first, p.last, str(p), point=True))
    return spans


def question_time(question: str) -> TimeSpan | None:
    """The time a question asks about, when it names one: "in 2016", "as of 2010", "from 2004
    to 2005", "before 1990" (up to the day before), "after 2021" (from the day after). A range
    that ends before it starts ("from 2005 to 2004") is a ValueError: no time answers it."""
    marked, points = _marked(_expand_short_ranges(question))
    if not points:
        return None
    m = _BETWEEN.search(marked) or _RANGE.search(marked)
    if m:
        a, b = points[_index(m.group(1))], points[_index(m.group(2))]
        if b.last < a.first:
            raise ValueError(
                f"the question asks from {a} to {b}: a range that ends before it starts"
            )
        return TimeSpan(a.first, b.last, f"from {a} to {b}", period=True)
    m = _BEFORE.search(marked)
    if m:
        p = points[_index(m.group(1))]
        return TimeSpan(None, p.first - timedelta(days=1), f"before {p}")
    m = _AFTER_EVENT.search(marked)
    if m and not _AFTER.search(marked):
        p = points[_index(m.group(1))]
        return TimeSpan(p.first, None, f"from {p} on")
    m = _AFTER.search(marked)
    if m and m.group(0).lower().startswith("after"):
        p = points[_index(m.group(1))]
        return TimeSpan(p.last + timedelta(days=1), None, f"after {p}")
    if m:
        p = points[_index(m.group(1))]
        return TimeSpan(p.first, None, f"since {p}")
    m = _AT.search(marked)
    if m:
        p = points[_index(m.group(1))]
        return at(p, f"in {p}" if not m.group(0).lower().startswith("as of") else f"as of {p}")
    return None


# Metadata keys that carry a document's own date (JSONL metadata, front matter, HTML meta; a
# PDF's or Office file's creation date last, as the weakest claim).
DATE_KEYS = ("date", "published_at", "publication_date", "published", "pubdate", "created")


def document_date(metadata: Mapping[str, object]) -> TimePoint | None:
    """The first readable date among ``DATE_KEYS`` (an ISO timestamp counts by its day)."""
    for key in DATE_KEYS:
        value = metadata.get(key)
        if not isinstance(value, str | int) or isinstance(value, bool):
            continue
        text = str(value).strip()
        if re.match(r"^\d{4}-\d{2}-\d{2}[T ]", text):
            text = text[:10]
        try:
            return parse_time(text)
        except ValueError:
            continue
    return None
