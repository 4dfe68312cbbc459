"""What a streamed query yields, and retrieval on its own (for frameworks that do their own
answering: the LangChain and LlamaIndex retrievers, ``POST /retrieve``)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field
from typing import Any

from graphgate.core.layout import Layout
from graphgate.query.base import Answer, RetrievalResult


@dataclass(frozen=True)
class Passage:
    """A retrieved chunk with its text and where it is: what a framework's document holds."""

    chunk_id: str
    doc_id: str
    text: str
    start: int
    end: int
    score: float
    rank: int
    page: int | None = None
    section: list[str] = field(default_factory=list)
    date: str | None = None


@dataclass(frozen=True)
class Retrieval:
    """The passages, entities and edges one retrieval found, in the run it read."""

    question: str
    mode: str
    run_id: str
    passages: list[Passage]
    result: RetrievalResult
    timings_ms: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        result: RetrievalResult,
        run_id: str,
        layout_of: Callable[[str], Layout | None],
        timings_ms: dict[str, float] | None = None,
    ) -> Retrieval:
        passages = []
        for rank, c in enumerate(result.chunks, start=1):
            layout = layout_of(c.doc_id)
            page = layout.page_at(c.start) if layout is not None else None
            section = layout.section_at(c.start) if layout is not None else []
            passages.append(
                Passage(c.id, c.doc_id, c.text, c.start, c.end, c.score, rank, page, section,
                        date=c.date)
            )  # fmt: skip
        return cls(result.question, result.mode, run_id, passages, result, timings_ms or {})

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "question": self.question,
            "mode": self.mode,
            "run_id": self.run_id,
            "passages": [asdict(p) for p in self.passages],
            "entities": [
                {"id": e.id, "name": e.name, "type": e.type, "score": round(e.score, 6)}
                for e in r.entities
            ],
            "edges": [
                {
                    "id": e.id,
                    "source": e.source,
                    "predicate": e.predicate,
                    "target": e.target,
                    "chunk_ids": list(e.chunk_ids),
                    "valid_from": e.valid_from,
                    "valid_to": e.valid_to,
                }
                for e in r.edges
            ],
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
        }


@dataclass(frozen=True)
class Retrieved:
    """First event of a streamed query: what was retrieved, before any answer text."""

    retrieval: Retrieval


@dataclass(frozen=True)
class AnswerText:
    """A piece of the answer's text, as the generator writes it."""

    text: str


@dataclass(frozen=True)
class Answered:
    """Last event: the whole answer, with its citations (its text is the pieces joined)."""

    answer: Answer


QueryEvent = Retrieved | AnswerText | Answered
# A query's events, read by one consumer; closing it early (a client gone) ends the query and
# lets its run go.
QueryEvents = Generator[QueryEvent, None, None]
