"""Ground-truth context from an index: the gold documents' chunks and the gold subgraph."""

from __future__ import annotations

from collections import defaultdict

from graphgate.evaluate.testset import TestCase
from graphgate.query.base import RetrievalResult
from graphgate.query.loaded import LoadedIndex
from graphgate.query.vector import chunk_hit, retrieved_edge, retrieved_entity


class IndexGoldContext:
    def __init__(self, index: LoadedIndex) -> None:
        self.index = index
        self._chunks_of: dict[str, list[str]] = defaultdict(list)
        for chunk in sorted(index.store.chunks(), key=lambda c: (c.doc_id, c.index)):
            self._chunks_of[chunk.doc_id].append(chunk.id)

    def context(self, case: TestCase) -> RetrievalResult | None:
        store = self.index.store
        chunk_ids = [c for d in case.gold_docs for c in self._chunks_of.get(d, [])]
        entity_ids: list[str] = []
        for name in [
            *case.gold_entities,
            *(e[0] for e in case.gold_edges),
            *(e[2] for e in case.gold_edges),
        ]:
            for eid in store.entity_ids_named(name):
                if eid not in entity_ids:
                    entity_ids.append(eid)
        if not chunk_ids and not entity_ids:
            return None
        edges = [retrieved_edge(store, r, 1.0) for r in store.relations_among(entity_ids)]
        return RetrievalResult(
            case.question,
            "gold",
            [chunk_hit(store, c, 1.0) for c in chunk_ids],
            [retrieved_entity(store.entity(e), 1.0) for e in entity_ids],
            edges,
        )
