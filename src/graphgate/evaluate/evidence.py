"""The subgraph a reader actually sees: what the retrieved chunks state.

Modes differ in what they return besides passages (vector returns no edges at all; an external
pipeline may return only text), so graph recall measured on what each returned compares unlike
things. The evidenced subgraph is derived the same way for every mode from its chunks alone:
the entities they mention, and the relationships whose evidence lies in them with both ends
mentioned there (direction kept). Attribution uses it; what a mode returned is reported too.
"""

from __future__ import annotations

from dataclasses import replace

from graphgate.query.base import RetrievalResult
from graphgate.query.loaded import LoadedIndex
from graphgate.query.vector import retrieved_edge, retrieved_entity


class IndexEvidence:
    def __init__(self, index: LoadedIndex) -> None:
        self.store = index.store

    def subgraph(self, result: RetrievalResult) -> RetrievalResult:
        """``result`` with the entities and edges its chunks evidence in place of its own."""
        store = self.store
        chunk_ids = [c.id for c in result.chunks]
        entity_ids: list[str] = []
        for chunk_id in chunk_ids:
            for entity_id in store.entities_in_chunk(chunk_id):  # [] for a chunk not indexed
                if entity_id not in entity_ids:
                    entity_ids.append(entity_id)
        shown = set(chunk_ids)
        edges = [r for r in store.relations_among(entity_ids) if shown & set(r.chunk_ids)]
        return replace(
            result,
            entities=[retrieved_entity(store.entity(e), 1.0) for e in entity_ids],
            edges=[retrieved_edge(store, r, r.weight) for r in edges],
        )
