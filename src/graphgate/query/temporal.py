"""Time at query time, for every mode: the time a question asks about (or ``as_of``) ranks
what was retrieved — facts not valid then are dropped, passages whose dates contradict it go
last — and the answer says which time it answers for.

A sentence's own dates decide how it fits (dates.spans_in): a date or range inside the asked
time fits; a dated event before it may still hold ("became chief executive in 2012" answers
"as of 2014"), the latest such event first, so a later change supersedes an earlier one; a
range that ended before, or anything after, contradicts it. Before the sentences, the
index's dated facts about what the question names decide (query/held.py): who held a post
then is known from the successions the index closed, whatever the document's date.

A question asking over a period ("from 1952 to 1954") is answered by what a sentence dates
inside it (the reader reads only such sentences, query/reader.py), and a page lists its
subject's times through its length ("1952–1954 : Marshall Harvey Stone" far down the union's
page) in passages whose words seldom match the question's ("chaired"). So the page (the best
passage's document) is read whole for its passages dated inside the period, and they take the
page's places first, one stating the very span before one with another date inside it; other
documents' passages keep their places (a multi-hop question's second page states no date).
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
from graphgate.query.vector import chunk_hit
from graphgate.store.base import GraphStore

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
    period_first: bool = True,
) -> RetrievalResult:
    """The result at the asked time: contradicted facts dropped; a passage stating a fact
    about what the question names that held then, from a stated start, first; one whose
    every such fact begins after it (and no sentence is dated inside it), or whose every dated
    sentence contradicts it, last (a passage is never promoted for merely naming the year:
    that is for relevance to decide), except over a period (with ``period_first``): there the
    page's passages dated inside it take the page's places first, within their class, one
    stating the very span first. ``holders``: who held the post asked about then."""
    edges = [e for e in result.edges if _edge_holds(e.valid_from, e.valid_to, asked)]
    page = result.chunks[0].doc_id if result.chunks else None

    def fit(chunk: RetrievedChunk) -> tuple[int, int]:
        held = facts.fit(chunk.id, result.question, asked) if facts is not None else None
        by_sentences = chunk_fit(chunk, asked)
        inside = 0
        if period_first and chunk.doc_id == page and by_sentences == FITS:
            inside = period_fit(chunk.text, asked)
        if held is not None and (held != NOT_HELD or by_sentences != FITS):
            return held, inside  # a sentence dated inside the time still speaks for it
        return (HELD if by_sentences != CONTRADICTS else NOT_HELD), inside

    fits = [fit(c) for c in result.chunks]
    ranked = sorted(range(len(fits)), key=lambda i: (-fits[i][0], i))
    # Over a period, the page's passages dated inside it take the page's places first; the
    # other documents' passages keep theirs (a second hop's page states no date).
    slots = [place for place, i in enumerate(ranked) if result.chunks[i].doc_id == page]
    mine = sorted((ranked[place] for place in slots), key=lambda i: (-fits[i][0], -fits[i][1], i))
    for place, i in zip(slots, mine, strict=True):
        ranked[place] = i
    chunks = [result.chunks[i] for i in ranked][:top_k]
    holders = (
        facts.holders((c.id for c in chunks), result.question, asked, families)
        if facts is not None and families is not None
        else []
    )
    return replace(result, chunks=chunks, edges=edges, time=asked, holders=holders)


def period_fit(text: str, asked: TimeSpan) -> int:
    """How a passage dated inside the asked time (chunk_fit) dates the asked period: 2 when it
    states the very span ("1952–1954" for "from 1952 to 1954": a list row or a term), 1
    otherwise; 0 when the question asks no period."""
    if not asked.period:
        return 0
    same = any(s.start == asked.start and s.end == asked.end for s in spans_in(text))
    return 2 if same else 1


def dated_passages(
    store: GraphStore, result: RetrievalResult, asked: TimeSpan, question: Question, k: int
) -> RetrievalResult:
    """The result with, after its own passages, up to ``k`` more from its best passage's
    document that date a time inside the asked one: those stating the asked span first, then
    the most similar to the question."""
    if not result.chunks:
        return result
    have = {c.id for c in result.chunks}
    dated: list[RetrievedChunk] = []
    for cid in store.document_chunks(result.chunks[0].doc_id):
        if cid not in have:
            hit = chunk_hit(store, cid, 0.0)
            if chunk_fit(hit, asked) == FITS:
                dated.append(hit)
    if not dated:
        return result
    similar = store.chunk_similarities([c.id for c in dated], question.vector)
    best = sorted(dated, key=lambda c: (-period_fit(c.text, asked), -similar.get(c.id, 0.0)))[:k]
    n = len(result.chunks)
    added = [replace(c, score=1.0 / (n + i + 1)) for i, c in enumerate(best)]
    return replace(result, chunks=[*result.chunks, *added])


def _edge_holds(valid_from: str | None, valid_to: str | None, asked: TimeSpan) -> bool:
    try:
        validity = span_of(valid_from, valid_to)
    except ValueError:
        return True
    return validity is None or validity.overlaps(asked)


class TemporalRetriever:
    """Any mode's retriever, made time-aware: it fetches twice the passages (over a period,
    with ``store``, also the best document's passages dated inside it), then ranks them at
    the asked time and keeps ``top_k``. Without a time in the question or ``as_of`` it is the
    inner retriever; with ``enabled`` False (``query.temporal``) it is the inner one too (the
    question's time is still read, and checked), for measuring what time-awareness adds."""

    def __init__(
        self,
        inner: ModeRetriever,
        default_k: int,
        enabled: bool = True,
        facts: HeldFacts | None = None,
        families: FamilyMatcher | None = None,
        store: GraphStore | None = None,
    ) -> None:
        self.inner = inner
        self.mode = inner.mode
        self.default_k = default_k
        self.enabled = enabled
        self.facts = facts
        self.families = families
        self.store = store

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        asked = question.time
        k = top_k or self.default_k
        if asked is None:
            return self.inner.retrieve(question, k)
        if not self.enabled:
            return self.inner.retrieve(question, k)
        result = self.inner.retrieve(question, 2 * k)
        if asked.period and self.store is not None:
            result = dated_passages(self.store, result, asked, question, k)
        period_first = self.store is not None
        return constrain(result, asked, k, self.facts, self.families, period_first)
