"""What the offline reader weighs a candidate answer by, and the weights it weighs them with.

Each candidate's occurrence in an evidence sentence is described by the same few numbers: how
close its sentence is to the question (embedding cosine, share of the question's words, the
rank of its passage, a second hop's lift, its fit to the asked time), where it stands in the
sentence (next to the question's words, next to a date inside the asked time), what the graph
says of it, whether it is of the preferred type or holds the noun the question asks for, what the
sentence's parse says of it (query/reader_syntax.py), and how often the evidence repeats it. A
candidate's score is the weighted sum over its best occurrence.

The weights are set by hand and measured, feature by feature, with
``benchmarks/reader_weights.py`` on cases that did not choose them (README). Weights fitted
by its pairwise logistic model did not transfer: fitted on TimeQA they lifted TimeQA and lost
on HotpotQA and MultiHop-RAG, fitted on a mix they lost on the mix's other halves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from graphgate.core.dates import TimeSpan, spans_in
from graphgate.query.reader_syntax import VERBS, clause_verb
from graphgate.query.temporal import CONTRADICTS, UNDATED, sentence_fit

FEATURES: tuple[str, ...] = (
    "similarity",  # cosine of the sentence to the question
    "question_words",  # share of the question's words in the sentence (or with its predecessor)
    "chunk_rank",  # 1 / (1 + the passage's rank)
    "second_hop",  # the sentence names a bridge another document's best sentence gave
    "fits_time",  # the sentence states a time inside the asked one
    "contradicts_time",  # the sentence states only times outside the asked one
    "time_start",  # the date nearest it begins in the asked span's first year (of several)
    "time_end_only",  # the date nearest it begins in the asked span's last year
    "wrong_side",  # it left where that date begins the span, or came where it ends it
    "date_outside",  # that date lies outside the asked time (a list's other entry's date)
    "near_question",  # 1 / (1 + tokens to the nearest question word / 4)
    "near_date",  # 1 / (1 + tokens to the nearest date inside the asked time / 4)
    "graph",  # an edge joins it to an entity the question names (1: the relation asked)
    "preferred",  # of the type the question prefers (a person for "who")
    "head_noun",  # holds the noun the question asks for ("which university" -> "University of …")
    "described",  # the sentence calls it what is asked ("X is a Canadian actress", "5 goals")
    "named_as",  # asked what the subject was called, a verb of naming gives it ("renamed X")
    "asked_by",  # the word governing the question's wh-word governs it ("founded by X")
    "prominence",  # 1 / (1 + arcs from the sentence's root to it): an argument, not a modifier
    "life_end",  # a lifespan's or a run's date: 1 the end asked ("born", "premiered" -> its
    # first), -1 the other end
    "pool_rank",  # 1 / (1 + the sentence's rank among the reader's sentences)
    "length",  # words in the candidate, up to 6, over 6
    "dated_row",  # a list row's name, its span the asked one (1) or meeting it (0.5): reader_rows
    "support",  # log of the number of sentences that state it
)

# Chosen on TimeQA cases 301-600 (the time features), earlier sessions' sweeps (the rest),
# asked_by over 0.15 / 0.3 / 0.5 and prominence over 0.05-0.5 on all three test sets, checked
# on TimeQA 601-900 (README); wrong_side did alike at -0.15, -0.3 and -0.6 on TimeQA 301-600,
# and date_outside too in F1 (-0.3 abstaining on the most unanswerable cases there).
WEIGHTS: dict[str, float] = {
    "similarity": 1.0,
    "question_words": 0.5,
    "chunk_rank": 0.1,
    "second_hop": 0.2,
    "fits_time": 0.3,
    "contradicts_time": 0.0,
    "time_start": 0.6,
    "time_end_only": -0.6,
    "wrong_side": -0.3,
    "date_outside": -0.3,
    "near_question": 0.1,
    "near_date": 0.0,
    "graph": 0.15,
    "preferred": 0.3,
    "head_noun": 0.0,
    "described": 0.3,
    "named_as": 0.3,
    "asked_by": 0.15,
    "prominence": 0.2,
    "life_end": 0.3,
    "pool_rank": 0.0,
    "length": 0.0,
    "dated_row": 0.3,
    "support": 0.05,
}


@dataclass
class Occurrence:
    """One candidate's features in one sentence (support is the candidate's, set later)."""

    values: dict[str, float]

    def score(self, weights: dict[str, float], support: int) -> float:
        total = sum(weights.get(name, 0.0) * v for name, v in self.values.items())
        return total + weights.get("support", 0.0) * math.log(support)

    def vector(self, support: int) -> list[float]:
        """In FEATURES order, for fitting the weights."""
        full = {**self.values, "support": math.log(support)}
        return [full.get(name, 0.0) for name in FEATURES]


def nearness(tokens: int | None) -> float:
    """1 next to it, falling with distance; 0 when there is nothing to be near (None)."""
    return 0.0 if tokens is None else 1.0 / (1.0 + tokens / 4.0)


def bounds_met(text: str, asked: TimeSpan | None) -> tuple[bool, bool]:
    """Whether a time the text states begins in the first year of an asked span of several
    years, and whether one begins in its last. What held from A to B usually began with an
    event dated A ("joined X in 1987"); an event dated B is often the change that ended it
    ("sold to Y in 1991")."""
    return begun_at_bounds(spans_in(text), asked)


def begun_at_bounds(spans: Sequence[TimeSpan], asked: TimeSpan | None) -> tuple[bool, bool]:
    """``bounds_met`` of the given spans (a list row's own span, where its text states more)."""
    if asked is None or asked.start is None or asked.end is None:
        return False, False
    first, last = asked.start.year, asked.end.year
    if last == first:  # "from Feb 2009 to Oct 2009": a date of a month meets either end
        return _begun_in_months(spans, asked.start, asked.end)
    if last < first:
        return False, False
    begun = {span.start.year for span in spans if span.start is not None}
    return any(_begins_with(span, asked.start) for span in spans), last in begun


def _begins_with(span: TimeSpan, start: date) -> bool:
    """``span`` begins in the year of the asked ``start``, and not on a day or in a month
    before it: asked from Nov 2007, "on 24 March 2007" dates what came before (a month's
    leeway, for a date written a month off); "in 2007" may be either."""
    if span.start is None or span.start.year != start.year:
        return False
    precise = span.end is not None and (span.end - span.start).days < _MONTH_DAYS
    return not (precise and span.start.month < start.month - 1)


_MONTH_DAYS = 31


def _begun_in_months(spans: Sequence[TimeSpan], start: date, end: date) -> tuple[bool, bool]:
    """``begun_at_bounds`` of a span asked within one year: a date of a month or a day ("in
    October 2009") begins in the asked first month or in its last; a whole year says neither."""
    if (start.year, start.month) == (end.year, end.month):
        return False, False
    begun = {
        (span.start.year, span.start.month)
        for span in spans
        if span.start is not None
        and span.end is not None
        and (span.end - span.start).days < _MONTH_DAYS
    }
    return (start.year, start.month) in begun, (end.year, end.month) in begun


# A date that ends what its clause tells ("hosted the show until 1987", "till his death in
# 1983"); "through" only with the date its own object ("through the 1995 season", not "through
# a transfer in 1995").
_UNTIL = frozenset({"until", "till", "til"})
_THROUGH = frozenset({"through", "thru"})


@dataclass(frozen=True)
class DatedEnd:
    """One date of a sentence: its first and last token, ``bounds_met`` of it, where it
    ends a fact ("until 1987") the verb of the clause whose fact it ends (else -1), and whether
    what it dates held outside the asked time, read as a start or an event (``outside``) or as
    the end of its clause's fact (``ended_before``)."""

    first: int
    last: int
    met: tuple[bool, bool]
    ends_verb: int = -1
    outside: bool = False
    ended_before: bool = False


# Words joining two dates into one range ("from 1935 to 1938", "1935 – 1938").
_RANGE_JOINERS = frozenset({"to", "-", "–", "—", "until", "till", "through"})


# A range of years the parser may label a number or nothing: "( 1998–1999 )", "1991-95".
_YEAR_RANGE = re.compile(
    r"(?<![\w-])(?:1\d{3}|20\d{2})\s*[–-]\s*(?:1\d{3}|20\d{2}|\d{2}|present)(?![\w-])", re.I
)


def written_dates(doc: Any) -> list[Any]:
    """The sentence's dates as spans, in order: those the parser labels dates, and the ranges
    of years it takes for numbers ("Donato Manfroi ( 1999–2000 ) , Fabrizio Comencini (
    2000–2004 )": CARDINAL) or leaves unlabelled; not one inside a name ("the 2004–05 Champions
    League"). A lone number stays a number: "1500 soldiers"."""
    dated = [e for e in doc.ents if e.label_ == "DATE"]
    names = [e for e in doc.ents if e.label_ not in {"DATE", "CARDINAL"}]
    for found in _YEAR_RANGE.finditer(str(doc.text)):
        span = doc.char_span(found.start(), found.end(), alignment_mode="expand")
        if span is None or any(
            e.start < span.end
            and span.start < e.end
            and not (span.start <= e.start and e.end <= span.end)
            for e in dated + names
        ):
            continue  # a wider date of the parser's holds it, or a name ("the 2004–05 Cup")
        # The range in place of its first year alone ("2004" of "2004–present").
        dated = [e for e in dated if not span.start <= e.start < span.end] + [span]
    return sorted((e for e in dated if not _lifespan(doc, e)), key=lambda e: int(e.start))


# Years a bracket after a person's name must cover to be a life, not a term: few terms last
# so long, few lives so short.
_LIFE_YEARS = 30


def _lifespan(doc: Any, date: Any) -> bool:
    """The date is a person's life, bracketed after the name ("the singer Hildur Arntzen (
    1888–1957 )"): it dates no fact the sentence tells of her."""
    before = date.start - 1
    if before < 1 or doc[before].text != "(":
        return False
    name = before - 1  # the name's words back from the bracket: one of them a person's
    while name > 0 and doc[name].pos_ == "PROPN" and doc[name].ent_type_ != "PERSON":
        name -= 1
    if doc[name].ent_type_ != "PERSON":
        return False
    if date.end < len(doc) and doc[date.end].text != ")":
        return False
    years = [int(y) for y in re.findall(r"\b(1\d{3}|20\d{2})\b", str(date.text))]
    return len(years) == 2 and years[1] - years[0] >= _LIFE_YEARS


def dated_ends(doc: Any, asked: TimeSpan) -> list[DatedEnd]:
    """The sentence's dates (``written_dates``) with ``bounds_met`` of each; a duration the
    parser labels a date ("after 15 years") states no time and is none. Two dates one joining
    word apart ("1935 to 1938", which the parser may label as two) are one range."""
    dated = written_dates(doc)
    ranges: list[tuple[Any, int]] = []  # (first entity, last token)
    for e in dated:
        if ranges and e.start == ranges[-1][1] + 2 and doc[e.start - 1].lower_ in _RANGE_JOINERS:
            ranges[-1] = (ranges[-1][0], e.end - 1)
        else:
            ranges.append((e, e.end - 1))
    dates = []
    for e, last in ranges:
        text = doc[e.start : last + 1].text
        spans = spans_in(text)
        if spans:
            dates.append(
                DatedEnd(
                    e.start, last, bounds_met(text, asked), _ended_verb(e.root),
                    # Begun after the asked time or a range missing it; an event before
                    # it ("joined in 1990") may still hold in it (query/temporal.py).
                    asked.start is not None and sentence_fit(text, asked)[0] == CONTRADICTS,
                    _ended_before(spans, asked),
                )
            )  # fmt: skip
    return dates


def _ended_before(spans: Sequence[TimeSpan], asked: TimeSpan) -> bool:
    """A date that ends its fact ("until 1987") ended it before the asked time."""
    if asked.start is None or any(s.overlaps(asked) for s in spans):
        return False
    return all(s.end is not None and s.end < asked.start for s in spans)


def _ended_verb(token: Any) -> int:
    """The verb whose fact the date ends, where an "until" governs the date ("until 1993",
    "until its 39th episode in 1987"): -1 where none does."""
    for step in range(4):
        if token.head.i == token.i or token.pos_ in VERBS:
            return -1
        until = token.lower_ in _UNTIL or (token.lower_ in _THROUGH and step == 1)
        if until and token.dep_ == "prep":
            return int(clause_verb(token).i)
        token = token.head
    return -1


# A clause break between a candidate and a date counts as this many tokens more: in "Governor
# of X from 1991 to 1996 , Chancellor of Y from 1983 to 1990" each post's date is its own, as
# in "Rome from 1935 to 1938 and Berlin from 1939 to 1944".
_CLAUSE_BREAK = 3
_BREAKS = frozenset({",", ";", "and", "or", "but"})


_OPENING, _CLOSING = frozenset({"(", "["}), frozenset({")", "]"})


def _outside_brackets(doc: Any, between: range) -> list[int]:
    """The tokens between a candidate and a date that the sentence says outright: a bracket's
    aside ("the Workers Party ( SDAP , in German Sozialdemokratische Arbeiterpartei ) in
    1869") puts the date no further from the name it follows."""
    depth, said = 0, []
    for i in between:
        text = doc[i].text
        if text in _OPENING:
            depth += 1
        elif text in _CLOSING:
            depth = max(0, depth - 1)
        elif depth == 0:
            said.append(i)
    return said


def nearest_date(
    doc: Any, start: int, end: int, dates: Sequence[DatedEnd]
) -> tuple[bool, bool, bool, bool]:
    """Of the date nearest the candidate's tokens [start, end) (a comma, semicolon or
    conjunction between them counting as a few tokens more): whether its fact began in the
    asked span's first year and whether in its last (``bounds_met``), whether it ended in the
    first, and whether it held outside the asked time (a list's other entry: "Rome in 1935 ,
    Berlin in 1944").

    A date that ends the candidate's own clause ("Elstner hosted the show until 1987") turns
    them round: asked from 1987 to 1992, Elstner left as the span began; asked from 1983 to
    1987, he held it to the span's end, as good as having begun with it. A name in another
    clause beside it ("…, after which Rolf Wouters took over") is dated as by any date."""
    if not dates:
        return False, False, False, False

    def gap(date: DatedEnd) -> int:
        first, last = date.first, date.last
        if first >= end:
            between = range(end, first)
        elif last < start:
            between = range(last + 1, start)
        else:
            return 0
        said = _outside_brackets(doc, between)
        return len(said) + _CLAUSE_BREAK * sum(doc[i].lower_ in _BREAKS for i in said)

    date = min(dates, key=gap)
    begins, ends = date.met
    if date.ends_verb >= 0 and clause_verb(doc[start:end].root).i == date.ends_verb:
        return ends, False, begins, date.ended_before
    return begins, ends, False, date.outside


# A sentence dating itself by the one before it: "He scored 5 goals for FC Lyra that year."
_SAME_TIME = re.compile(
    r"\b(?:that|the same) (?:year|season|month|day|week|summer|winter|spring|autumn)\b", re.I
)


def time_fit(text: str, before: str | None, asked: TimeSpan, dated: str | None) -> int:
    """``sentence_fit`` of a sentence to the asked time; one stating no date but "that year"
    or "the same season" takes the date of the sentence before it in its passage."""
    fit = sentence_fit(text, asked, dated)[0]
    if fit == UNDATED and before is not None and dated_elsewhere(text):
        return sentence_fit(before, asked, dated)[0]
    return fit


def dated_elsewhere(text: str) -> bool:
    """The sentence speaks of a time another states ("that year"): no page's present."""
    return _SAME_TIME.search(text) is not None
