"""Vector mode: chunk kNN, the baseline every graph mode is compared with."""

from __future__ import annotations

import time

from graphgate.core.config import QuerySettings
from graphgate.core.types import Entity, Relationship
from graphgate.query.base import (
    RetrievalResult,
    RetrievedChunk,
    RetrievedEdge,
    RetrievedEntity,
)
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question
from graphgate.store.base import GraphStore


def chunk_hit(store: GraphStore, chunk_id: str, score: float) -> RetrievedChunk:
    c = store.chunk(chunk_id)
    return RetrievedChunk(c.id, c.doc_id, c.text, c.start, c.end, score, c.date)


def retrieved_edge(store: GraphStore, r: Relationship, score: float) -> RetrievedEdge:
    return RetrievedEdge(
        r.id,
        r.source_id,
        store.entity(r.source_id).name,
        r.predicate,
        r.target_id,
        store.entity(r.target_id).name,
        r.weight,
        r.chunk_ids,
        score,
        r.valid_from,
        r.valid_to,
        r.observed_at,
    )


def retrieved_entity(entity: Entity, score: float) -> RetrievedEntity:
    return RetrievedEntity(entity.id, entity.name, entity.type, score, list(entity.aliases))


class VectorRetriever:
    mode = "vector"

    def __init__(self, index: LoadedIndex, settings: QuerySettings) -> None:
        self.index = index
        self.settings = settings

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        k = top_k or self.settings.top_k_chunks
        t0 = time.perf_counter()
        vector = question.vector
        t1 = time.perf_counter()
        hits = self.index.store.vector_search("chunk", vector, k)
        t2 = time.perf_counter()
        store = self.index.store
        chunks = [chunk_hit(store, cid, score) for cid, score in hits]
        # Entities are those the retrieved text mentions: no graph walk in this mode.
        entities: dict[str, RetrievedEntity] = {}
        for chunk in chunks:
            for eid in store.entities_in_chunk(chunk.id):
                if eid not in entities:
                    entities[eid] = retrieved_entity(store.entity(eid), chunk.score)
        return RetrievalResult(
            question.text,
            self.mode,
            chunks,
            list(entities.values())[: self.settings.top_k_entities],
            [],
            {"embed": (t1 - t0) * 1000, "search": (t2 - t1) * 1000},
        )
