"""Conflicts at query time: when the retrieved passages hold statements that cannot both be
true (index/truth.py), the result carries both sides, each with its document, span and date,
and the passages of both, so the answer can cite both instead of silently picking one."""

from __future__ import annotations

from dataclasses import replace

from graphgate.core.text import content_word_set
from graphgate.core.types import Conflict
from graphgate.query.base import ConflictSide, RetrievalResult, RetrievedConflict
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question, read_question
from graphgate.query.temporal import TemporalRetriever
from graphgate.query.vector import chunk_hit
from graphgate.store.base import GraphStore

# Words by which a question asks about an attribute (a relation is asked about by the words
# of its predicate: "executive_of" by "executive").
_ASKED_BY = {
    "height": {"tall", "height", "high"},
    "length": {"long", "length"},
    "width": {"wide", "width"},
    "population": {"population", "inhabitant", "resident", "people"},
}


def asked_about(conflict: Conflict, question_words: frozenset[str]) -> bool:
    words = _ASKED_BY.get(conflict.about) or content_word_set(conflict.about.replace("_", " "))
    return not words.isdisjoint(question_words)


def surface_conflicts(
    result: RetrievalResult, store: GraphStore, question: Question
) -> RetrievalResult:
    """The conflicts about a retrieved entity, on what the question asks, of which a retrieved
    passage states one side; the other side's passage is added when missing."""
    conflicts = store.conflicts()
    if not conflicts:
        return result
    entities = {e.id for e in result.entities}
    chunk_ids = {c.id for c in result.chunks}
    words = question.words
    found: list[RetrievedConflict] = []
    chunks = list(result.chunks)
    for c in conflicts:
        if c.subject_id not in entities or not asked_about(c, words):
            continue
        if c.a_chunk_id not in chunk_ids and c.b_chunk_id not in chunk_ids:
            continue
        for missing in (c.a_chunk_id, c.b_chunk_id):
            if missing not in chunk_ids:
                chunks.append(chunk_hit(store, missing, 0.0))
                chunk_ids.add(missing)
        a = ConflictSide(
            c.a_value, c.a_chunk_id, c.a_doc_id, c.a_start, c.a_end, c.a_text, c.a_date
        )
        b = ConflictSide(
            c.b_value, c.b_chunk_id, c.b_doc_id, c.b_start, c.b_end, c.b_text, c.b_date
        )
        found.append(RetrievedConflict(c.id, c.subject, c.about, (a, b)))
    if not found:
        return result
    return replace(result, chunks=chunks, conflicts=found)


class ConflictRetriever:
    """A query mode's whole retrieval: the question read once (query/question.py), retrieved
    at the time it asks about, the result carrying the conflicts it touches and the question
    as read (for the answerer)."""

    def __init__(self, inner: TemporalRetriever, index: LoadedIndex) -> None:
        self.inner = inner
        self.mode = inner.mode
        self.index = index

    def read(
        self, question: str, as_of: str | None = None, default_as_of: str | None = None
    ) -> Question:
        """``as_of`` overrides the time the question names; ``default_as_of`` serves only a
        question that names none."""
        return read_question(question, self.index, as_of, default_as_of)

    def retrieve(
        self,
        question: str | Question,
        top_k: int | None = None,
        as_of: str | None = None,
        default_as_of: str | None = None,
    ) -> RetrievalResult:
        """``question`` as text is read here (``as_of``, ``default_as_of`` as in :meth:`read`);
        a :class:`Question` already read carries its time."""
        if isinstance(question, str):
            question = self.read(question, as_of, default_as_of)
        found = surface_conflicts(self.inner.retrieve(question, top_k), self.index.store, question)
        return replace(found, parsed=question)
