"""Time at query time, for every mode: the time a question asks about (or ``as_of``) ranks
what was retrieved — facts not valid then are dropped, passages whose dates contradict it go
last — and the answer says which time it answers for.

A sentence's own dates decide how it fits (dates.spans_in): a date or range inside the asked
time fits; a dated event before it may still hold ("became chief executive in 2012" answers
"as of 2014"), the latest such event first, so a later change supersedes an earlier one; a
range that ended before, or anything after, contradicts it. Before the sentences, the
index's dated facts about what the question names decide (query/held.py): who held a post
then is known from the successions the index closed, whatever the document's date.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from graphgate.core.dates import TimeSpan, at, parse_time, span_of, spans_in
from graphgate.core.family_match import FamilyMatcher
from graphgate.core.text import sentence_spans
from graphgate.query.base import ModeRetriever, RetrievalResult, RetrievedChunk
from graphgate.query.held import HELD, NOT_HELD, HeldFacts
from graphgate.query.question import Question

# Fit classes of a sentence or passage to the asked time.
FITS, UNDATED, CONTRADICTS = 2, 1, 0


def sentence_fit(text: str, asked: TimeSpan, dated: str | None = None) -> tuple[int, date | None]:
    """(fit class, date of the latest earlier event) of one sentence to the asked time. A
    sentence that states no time speaks as of its document's date (``dated``), which counts
    for it (inside the asked time, or an earlier report), never against it."""
    spans = spans_in(text)
    if not spans:
        if dated is None:
            return UNDATED, None
        try:
            written = at(parse_time(dated))
        except ValueError:
            return UNDATED, None
        if written.overlaps(asked):
            return FITS, None
        if asked.start is not None and written.end is not None and written.end < asked.start:
            return UNDATED, written.end
        return UNDATED, None
    if any(s.overlaps(asked) for s in spans):
        return FITS, None
    if asked.start is None:
        return CONTRADICTS, None
    # A single date (an event) before the asked time: its outcome may still hold.
    events = [s.end for s in spans if s.point and s.end is not None and s.end < asked.start]
    if events:
        return UNDATED, max(events)
    return CONTRADICTS, None


def chunk_fit(chunk: RetrievedChunk, asked: TimeSpan) -> int:
    """The best fit of any of the passage's sentences (an undated one speaks as of the
    document's date, which never counts against it: on encyclopaedic text the answer is often
    an undated sentence beside dated ones; the stated facts' times rank first, query/held.py)."""
    best = CONTRADICTS
    for start, end in sentence_spans(chunk.text):
        best = max(best, sentence_fit(chunk.text[start:end], asked, chunk.date)[0])
        if best == FITS:
            break
    return best


def constrain(
    result: RetrievalResult,
    asked: TimeSpan,
    top_k: int,
    facts: HeldFacts | None = None,
    families: FamilyMatcher | None = None,
) -> RetrievalResult:
    """The result at the asked time: contradicted facts dropped; a passage stating a fact
    about what the question names that held then, from a stated start, first; one whose
    every such fact begins after it (and no sentence is dated inside it), or whose every dated
    sentence contradicts it, last (a passage is never promoted for merely naming the year:
    that is for relevance to decide). ``holders``: who held the post asked about then."""
    edges = [e for e in result.edges if _edge_holds(e.valid_from, e.valid_to, asked)]

    def fit(chunk: RetrievedChunk) -> int:
        held = facts.fit(chunk.id, result.question, asked) if facts is not None else None
        by_sentences = chunk_fit(chunk, asked)
        if held is not None and (held != NOT_HELD or by_sentences != FITS):
            return held  # a sentence dated inside the time still speaks for it
        return HELD if by_sentences != CONTRADICTS else NOT_HELD

    ranked = sorted(enumerate(result.chunks), key=lambda ic: (-fit(ic[1]), ic[0]))
    chunks = [c for _, c in ranked][:top_k]
    holders = (
        facts.holders((c.id for c in chunks), result.question, asked, families)
        if facts is not None and families is not None
        else []
    )
    return replace(result, chunks=chunks, edges=edges, time=asked, holders=holders)


def _edge_holds(valid_from: str | None, valid_to: str | None, asked: TimeSpan) -> bool:
    try:
        validity = span_of(valid_from, valid_to)
    except ValueError:
        return True
    return validity is None or validity.overlaps(asked)


class TemporalRetriever:
    """Any mode's retriever, made time-aware: it fetches twice the passages, then ranks them
    at the asked time and keeps ``top_k``. Without a time in the question or ``as_of`` it is
    the inner retriever; with ``enabled`` False (``query.temporal``) it is the inner one too
    (the question's time is still read, and checked), for measuring what time-awareness
    adds."""

    def __init__(
        self,
        inner: ModeRetriever,
        default_k: int,
        enabled: bool = True,
        facts: HeldFacts | None = None,
        families: FamilyMatcher | None = None,
    ) -> None:
        self.inner = inner
        self.mode = inner.mode
        self.default_k = default_k
        self.enabled = enabled
        self.facts = facts
        self.families = families

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        asked = question.time
        k = top_k or self.default_k
        if asked is None:
            return self.inner.retrieve(question, k)
        if not self.enabled:
            return self.inner.retrieve(question, k)
        return constrain(self.inner.retrieve(question, 2 * k), asked, k, self.facts, self.families)
