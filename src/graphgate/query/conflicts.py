"""Conflicts at query time: when the retrieved passages hold statements that cannot both be
true (index/truth.py), the result carries both sides, each with its document, span and date,
and the passages of both, so the answer can cite both instead of silently picking one."""

from __future__ import annotations

import re
from dataclasses import replace

from graphgate.core.family_match import FamilyMatcher, stem
from graphgate.core.text import content_word_set
from graphgate.core.types import Conflict
from graphgate.query.base import ConflictSide, RetrievalResult, RetrievedConflict
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question, read_question
from graphgate.query.temporal import TemporalRetriever
from graphgate.query.vector import chunk_hit
from graphgate.store.base import GraphStore


def asked_about(
    conflict: Conflict, question_words: frozenset[str], families: FamilyMatcher
) -> bool:
    """Whether the question asks about what the conflict is about: by its family's words
    (truth.attributes' asked_by, a role's terms), else by the words of its name."""
    words = families.asked_words(conflict.about) or content_word_set(
        conflict.about.replace("_", " ")
    )
    return not words.isdisjoint({stem(w) for w in question_words} | question_words)


def surface_conflicts(
    result: RetrievalResult, store: GraphStore, question: Question, families: FamilyMatcher
) -> RetrievalResult:
    """The conflicts about what the question names (by name or alias), on what it asks, of
    which a retrieved passage states one side; the other side's passage is added when
    missing. A retrieved entity the question does not name is not what it asks about."""
    conflicts = store.conflicts()
    if not conflicts:
        return result
    chunk_ids = {c.id for c in result.chunks}
    words = question.words
    found: list[RetrievedConflict] = []
    chunks = list(result.chunks)
    for c in conflicts:
        if not asked_about(c, words, families) or not _named(question.text, c, store):
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


def _named(text: str, conflict: Conflict, store: GraphStore) -> bool:
    """The question writes the subject's name or one of its aliases."""
    try:
        aliases = store.entity(conflict.subject_id).aliases
    except (KeyError, LookupError, ValueError):
        aliases = []
    names = {conflict.subject, *aliases}
    return any(len(n) > 2 and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I) for n in names)


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
        found = surface_conflicts(
            self.inner.retrieve(question, top_k), self.index.store, question, self.index.families
        )
        return replace(found, parsed=question)
