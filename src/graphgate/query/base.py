"""What every retrieval mode returns, so the evaluation harness scores them all alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from graphgate.core.dates import TimeSpan
from graphgate.core.layout import Layout
from graphgate.query.question import Question


@dataclass(frozen=True)
class RetrievedChunk:
    id: str
    doc_id: str
    text: str
    start: int
    end: int
    score: float
    date: str | None = None  # its document's date


@dataclass(frozen=True)
class RetrievedEntity:
    id: str
    name: str
    type: str
    score: float
    aliases: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RetrievedEdge:
    id: str
    source_id: str
    source: str
    predicate: str
    target_id: str
    target: str
    weight: float
    chunk_ids: list[str]
    score: float
    valid_from: str | None = None
    valid_to: str | None = None
    observed_at: str | None = None


@dataclass(frozen=True)
class CommunityPoint:
    """A claim of a community report, with the chunk it rests on."""

    text: str
    kind: str  # entity | edge | chunk
    ref: str
    chunk_id: str | None
    score: float


@dataclass(frozen=True)
class RetrievedCommunity:
    id: str
    level: int
    title: str
    score: float
    points: list[CommunityPoint] = field(default_factory=list)


@dataclass(frozen=True)
class ConflictSide:
    value: str
    chunk_id: str
    doc_id: str
    start: int  # the sentence's character span in the document
    end: int
    text: str
    date: str | None


@dataclass(frozen=True)
class RetrievedConflict:
    """Sources that disagree about what the question asks: both sides, never one picked."""

    id: str
    subject: str
    about: str
    sides: tuple[ConflictSide, ConflictSide]


@dataclass
class RetrievalResult:
    question: str
    mode: str
    chunks: list[RetrievedChunk] = field(default_factory=list)
    entities: list[RetrievedEntity] = field(default_factory=list)
    edges: list[RetrievedEdge] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    communities: list[RetrievedCommunity] = field(default_factory=list)
    time: TimeSpan | None = None  # the time the question asks about, when it names one
    conflicts: list[RetrievedConflict] = field(default_factory=list)
    # Cypher mode: the model's queries (and why any failed) and the rows of the one that ran.
    cypher: dict[str, Any] | None = None
    # Hybrid with a model: "cypher" (answered by a graph query), "cypher->hybrid" (the query
    # found nothing), or "hybrid" (not a counting or listing question); None otherwise.
    route: str | None = None
    # The question as query/ read it (the answerer's words and kind); None from a retriever
    # outside graphgate, whose results carry the text only.
    parsed: Question | None = field(default=None, repr=False, compare=False)
    # Who held the post the question asks about at the asked time (query/held.py).
    holders: list[RetrievedEdge] = field(default_factory=list)


@dataclass(frozen=True)
class Citation:
    marker: int
    chunk_id: str
    doc_id: str
    start: int  # character offsets into the document
    end: int
    text: str
    community_id: str | None = None
    page: int | None = None  # 1-based page (PDF page, slide) the cited text starts on
    section: list[str] = field(default_factory=list)  # heading path of the cited passage

    def place(self) -> str:
        """Where it is, as a reader says it: "report.pdf p. 3 — Section 3: People"."""
        where = self.doc_id + (f" p. {self.page}" if self.page else "")
        return where + (f" — {' › '.join(self.section)}" if self.section else "")


def placed(citations: list[Citation], layout_of: Callable[[str], Layout | None]) -> list[Citation]:
    """The citations with the page their text starts on and the heading path of the section
    it lies in, from their document's layout (a document without one leaves them as they are)."""
    out: list[Citation] = []
    for citation in citations:
        layout = layout_of(citation.doc_id)
        if layout is None:
            out.append(citation)
            continue
        page = layout.page_at(citation.start)
        out.append(replace(citation, page=page, section=layout.section_at(citation.start)))
    return out


@dataclass
class Answer:
    question: str
    mode: str
    answer: str
    citations: list[Citation]
    retrieval: RetrievalResult
    generator: str
    run_id: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    # The answer in a few words (a name, a date, a number, yes or no), scored as readers are
    # scored; None where the evidence supports none (an abstention) or no reader gave one.
    short_answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        r = self.retrieval
        return {
            "question": self.question,
            "mode": self.mode,
            "short_answer": self.short_answer,
            "answer": self.answer,
            "generator": self.generator,
            "run_id": self.run_id,
            "citations": [asdict(c) for c in self.citations],
            "entities": [
                {"id": e.id, "name": e.name, "type": e.type, "score": round(e.score, 6)}
                for e in r.entities
            ],
            "edges": [_edge_dict(e) for e in r.edges],
            "holders": [_edge_dict(e) for e in r.holders],
            "communities": [
                {"id": c.id, "level": c.level, "title": c.title, "score": round(c.score, 6)}
                for c in r.communities
            ],
            "chunks": [
                {"id": c.id, "doc_id": c.doc_id, "score": round(c.score, 6)} for c in r.chunks
            ],
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "time": None if r.time is None else _time_dict(r.time),
            "conflicts": [asdict(c) for c in r.conflicts],
            **({"cypher": r.cypher} if r.cypher is not None else {}),
            **({"route": r.route} if r.route is not None else {}),
        }


def _edge_dict(e: RetrievedEdge) -> dict[str, Any]:
    fields = ("id", "source_id", "source", "predicate", "target_id", "target", "weight")
    times = ("chunk_ids", "valid_from", "valid_to", "observed_at")
    return {k: getattr(e, k) for k in (*fields, *times)}


def _time_dict(span: TimeSpan) -> dict[str, str | None]:
    return {
        "label": span.label,
        "start": None if span.start is None else span.start.isoformat(),
        "end": None if span.end is None else span.end.isoformat(),
    }


class Retriever(Protocol):
    """Question in, retrieved context out; external pipelines implement the same shape (the
    evaluation harness gives them the text)."""

    mode: str

    def retrieve(self, question: str, top_k: int | None = None) -> RetrievalResult: ...


class ModeRetriever(Protocol):
    """One query mode's retrieval, from the question already read (query/question.py)."""

    mode: str

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult: ...


@dataclass(frozen=True)
class Turn:
    """An earlier message of a conversation (``role``: user or assistant), given to a model
    that answers so it can tell what the question refers to; retrieval reads the question."""

    role: str
    content: str


@runtime_checkable
class StreamingGenerator(Protocol):
    """A generator that can show its answer as it is written: ``stream`` yields pieces of the
    answer's text, then the whole :class:`Answer` (whose text is the pieces joined)."""

    name: str

    def answer(
        self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()
    ) -> Answer: ...

    def stream(
        self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()
    ) -> Iterator[str | Answer]: ...
