"""Dated rows of a list: "- 1966-1976 : Guntram Palm ( FDP )", "- Paco Herrera ( 2018–2019 )".

Encyclopaedic text lists who held a post, or where someone played, as rows of a name and a
span, without a verb. The parser seldom labels a row's name (a row is no sentence), and a row
shares few words with the question (the list's heading names the post, once, above it). The
offline reader (query/reader.py) reads a row whose span meets the asked time as it reads a
sentence that says the same: the name is a candidate, dated by the row's span. A list written
as one line dates each name in its own bracket ("- President : Ann Lee ( 1998–1999 ) , Bo Vik
( 1999–2000 )"): each name is dated by its bracket alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from graphgate.core.dates import TimeSpan, dates_in, spans_in
from graphgate.core.text import content_word_set, normalise_name
from graphgate.query.reader_evidence import named_by
from graphgate.query.reader_features import begun_at_bounds

_BULLET = re.compile(r"^[\s\-–—*•·]+")
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# What a row writes around its dates: "since", "to", "present", "incumbent", a century left out
# ("1945–46").
_TIME_WORDS = re.compile(
    r"(?<![\w-])(?:since|from|to|until|till|present|now|onwards?|incumbent|today)(?![\w-])|\d+",
    re.I,
)
# A row's second date ends what its first began: "married 1968 , divorced 1972". A death
# ends a life, no term: "( born 1950 , died 1999 )" is no row's span.
_ENDED = re.compile(
    r"\b(?:divorced|div\.|until|till|left|resigned|retired|separated|annulled|widowed|"
    r"ended)(?!\w)",
    re.I,
)
_OPEN_END = re.compile(r"[-–—]\s*(?:present|incumbent|today|now)\b", re.I)
_WORD = re.compile(r"[^\s:;,.\-–—|/]+(?:[.\-'’][^\s:;,.\-–—|/]+)*\.?")
# Lower-case words inside a name ("Paulus af Uhr", "Annette des Iles", "Bank of America").
_NAME_JOINERS = frozenset(
    {"af", "al", "and", "bin", "da", "de", "del", "della", "den", "der", "des", "di", "do",
     "dos", "du", "el", "ibn", "la", "le", "of", "the", "van", "von", "y", "&"}
)  # fmt: skip
_MAX_WORDS = 6
# A listed name's term, in years at most; a longer span in its bracket is a life's.
_MOST_YEARS_LISTED = 30
# What a listed name follows, besides a list's punctuation ("Fellow of the Varnian Academy").
_LISTED_AFTER = frozenset({"and", "of"})
# What follows a listed name's bracket where the list goes on, or ends.
_LIST_GOES_ON = frozenset({",", ";", ".", "and", "\n"})
# The label of a row's name among the reader's candidates, and the answer kinds a row answers.
ROW = "ROW"
ROWED = frozenset({"entity", "phrase"})
# The reader's dated_row feature: the row's span is the asked one, or only meets it.
SAME_SPAN, MEETS_SPAN = 1.0, 0.5


@dataclass(frozen=True)
class DatedRow:
    name: str
    start: int  # the name's characters in the row
    end: int
    span: TimeSpan


def dated_row(text: str) -> DatedRow | None:
    """The name and the span a row gives ("- 1945 : Alfons Meyer": that year), or None for
    anything else: a sentence (a lower-case word outside a name), a row of several spans
    ("Winners: 1994–95, 1997–98"), or no name."""
    span = _row_span(text)
    if span is None:
        return None
    if span.point and _OPEN_END.search(text):  # "2015—incumbent": from then on
        span = TimeSpan(span.start, None, f"since {span.label}")
    blanked = _BRACKETED.sub(lambda m: " " * len(m.group(0)), _BULLET.sub(_blank, text))
    for _, start, end in dates_in(blanked):
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    blanked = _TIME_WORDS.sub(_blank, blanked)
    words = list(_WORD.finditer(blanked))
    if not 1 <= len(words) <= _MAX_WORDS:
        return None
    said = [w.group(0) for w in words]
    if not (said[0][:1].isupper() and said[-1][:1].isupper()):
        return None
    if not _written_as_name(said):
        return None
    start, end = words[0].start(), words[-1].end()
    if _gap(blanked, words):
        return None
    return DatedRow(text[start:end].rstrip("."), start, end - (text[end - 1] == "."), span)


def _row_span(text: str) -> TimeSpan | None:
    """The one span a row gives: its only one; the one outside brackets where a bracket adds
    another ("- 2004–2010 : Ann Lee ( also 2003 )"); or a start and an end given as two dates
    ("- Ann Lee ( married 1968 , divorced 1972 )")."""
    spans = spans_in(text)
    if len(spans) == 1:
        return spans[0]
    outside = spans_in(_BRACKETED.sub(_blank, text))
    if len(outside) == 1:
        return outside[0]
    if len(spans) != 2 or not all(s.point for s in spans):
        return None
    first, last = spans
    between = _between(text, first.label, last.label)
    if (
        between is None
        or not _ENDED.search(between)
        or first.start is None
        or last.end is None
        or last.end < first.start
    ):
        return None
    return TimeSpan(first.start, last.end, f"{first.label} to {last.label}", period=True)


def _between(text: str, first: str, last: str) -> str | None:
    """The text between two dates the row writes, in that order."""
    a = text.find(first)
    b = text.find(last, a + len(first)) if a >= 0 else -1
    return text[a + len(first) : b] if b >= 0 else None


def _written_as_name(words: list[str]) -> bool:
    """Every word capitalised, or a joiner inside a name ("Paulus af Uhr")."""
    return all(w[:1].isupper() or w.lower() in _NAME_JOINERS for w in words)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _gap(blanked: str, words: list[re.Match[str]]) -> bool:
    """The name's words are not one run (a date or a bracket stood between them)."""
    return any(
        blanked[a.end() : b.start()] != " "
        and not _initial(a.group(0), blanked[a.end() : b.start()])
        for a, b in pairwise(words)
    )


def _initial(word: str, gap: str) -> bool:
    """An initial's full stop, written apart ("K . S . Chandrasekharan"), joins a name."""
    return len(word) == 1 and word.isupper() and gap.strip() == "."


def same_years(stated: TimeSpan, asked: TimeSpan) -> bool:
    """The row's span is the asked one, year for year ("1997-2002" for "from 1997 to 2002")."""
    return (
        stated.start is not None
        and stated.end is not None
        and asked.start is not None
        and asked.end is not None
        and (stated.start.year, stated.end.year) == (asked.start.year, asked.end.year)
    )


@dataclass(frozen=True)
class RowName:
    key: str  # the name, normalised as the reader keys its candidates
    value: float  # SAME_SPAN or MEETS_SPAN
    span: TimeSpan  # the row's
    # Characters of the row's brackets: a party, a country, a nickname, a deputy, said of the
    # name ("- Ann Lee ( Hansi ; vice : Bo Vik )"); none is what the row dates.
    aside: tuple[tuple[int, int], ...] = ()

    def bounds(self, asked: TimeSpan | None) -> tuple[bool, bool]:
        """Whether the row's span begins in the asked span's first year, and whether in its
        last (``reader_features.bounds_met`` of the row's span alone: "( married 1997 ,
        divorced 2018 )" begins in 1997, not in 2018)."""
        return begun_at_bounds([self.span], asked)

    def beside(self, at: int) -> bool:
        """The character ``at`` lies inside one of the row's brackets."""
        return any(a <= at < b for a, b in self.aside)


def row_span(
    text: str,
    doc: Any,
    asked: TimeSpan | None,
    kind: str,
    found: list[tuple[str, str, int, int, int]],
    asked_words: frozenset[str] = frozenset(),
    person: bool = False,
) -> RowName | None:
    """The name of a row whose span meets the asked time, for the reader; added to the
    sentence's candidate spans (``found``, changed in place) where the parser did not find
    it. ``asked_words``: the question's words (a row of the question's own name). ``person``:
    a person is asked, and a row's name the parser labelled nothing inside is read as one
    ("- Generalfeldmarschall Erhard Milch , 12 April 1940 – 9 May 1940": a list of holders)."""
    if asked is None or kind not in ROWED:
        return None
    row = dated_row(text)
    if row is None or not row.span.overlaps(asked):
        return None
    key = normalise_name(row.name)
    named = doc.char_span(row.start, row.end, alignment_mode="expand")
    if named is None:
        return None
    # The parser's span of the name may hold the bullet ("- Doris Lee"): the row's name is
    # written as the row writes it.
    found[:] = [(row.name, *f[1:]) if normalise_name(f[0]) == key else f for f in found]
    if all(normalise_name(f[0]) != key for f in found):
        inside = any(named.start <= f[3] and f[4] <= named.end for f in found)
        label = "PERSON" if person and not inside else ROW
        found.append((row.name, label, int(named.start), int(named.start), int(named.end)))
    # Asked of the row's own name ("Ann Lee's party"), its brackets may answer.
    aside = () if named_by(content_word_set(row.name), asked_words) else _brackets(text)
    return RowName(key, SAME_SPAN if same_years(row.span, asked) else MEETS_SPAN, row.span, aside)


def dating_row(
    row: RowName | None, key: str, doc: Any, start: int, end: int, asked: TimeSpan | None
) -> RowName | None:
    """The row that dates the name ``key`` at tokens [start, end): the sentence's own row
    (``row_span``) where it names it, whole or the end of it without a rank ("Hans-Jürgen
    Stumpff" of "- Generaloberst Hans-Jürgen Stumpff , 10 May 1940 – 27 November 1943"),
    else the name's bracket (``bracketed_row``)."""
    if row is not None and (key == row.key or row.key.endswith(" " + key)):
        return row
    return bracketed_row(doc, start, end, asked, key)


def bracketed_row(
    doc: Any, start: int, end: int, asked: TimeSpan | None, key: str
) -> RowName | None:
    """A name that a list written as one line dates in its own bracket ("- National
    president : Mariangelo Foggiato ( 1998–1999 ) , Donato Manfroi ( 1999–2000 )"; "Fellow of
    the Varnian Academy ( 2010 ) , …"), read as a row reads its name. The name is written as
    one, after a list's punctuation, "and" or "of" ("Judgment in Moscow ( 1995 )" dates a
    title); its bracket holds a span and nothing else ("( 44.1% in 1999 )" is a figure's,
    "( born 1950 )" a life's); the list goes on after it (a verb after it dates a life: "Ole
    Brun ( 1889–1968 ) was a poet"). The asked span, year for year, is SAME_SPAN; a span only
    meeting it MEETS_SPAN, but no year alone, nor a span longer than a list's terms run (a
    life's: "married the singer Hildur Arntzen ( 1888–1957 ) .")."""
    if asked is None or end >= len(doc) or doc[end].text != "(":
        return None
    if not _written_as_name([str(t.text) for t in doc[start:end]]):
        return None
    if start > 0 and not (doc[start - 1].is_punct or doc[start - 1].lower_ in _LISTED_AFTER):
        return None  # "Judgment in Moscow ( 1995 )": the bracket dates a longer title
    close = next((t.i for t in doc[end + 1 : end + 12] if t.text == ")"), None)
    if close is None or (close + 1 < len(doc) and doc[close + 1].text not in _LIST_GOES_ON):
        return None
    inside = str(doc[end + 1 : close].text)
    spans = spans_in(inside)
    span = spans[0] if len(spans) == 1 else None
    if span is None or not span.overlaps(asked):
        return None
    for _, first, last in reversed(dates_in(inside)):
        inside = inside[:first] + inside[last:]
    if _TIME_WORDS.sub("", inside).strip(" -–—,."):
        return None
    if same_years(span, asked):
        return RowName(key, SAME_SPAN, span)
    if span.point:
        return None
    lasted = span.end.year - span.start.year if span.start and span.end else 0
    return RowName(key, MEETS_SPAN, span) if lasted <= _MOST_YEARS_LISTED else None


def _brackets(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _BRACKETED.finditer(text))
