"""Graph mode: one walk over passages and entities (HippoRAG 2).

The walk (query/passage_graph.py) restarts at the entities the question links to and at the
passages dense retrieval finds, weighted by their similarity; passages are ranked by the walk's
mass. A passage that shares no word with the question is still reached when it names the bridge
entity that the first hop's passage names.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from graphgate.core.config import QuerySettings
from graphgate.core.text import normalise_name
from graphgate.query.base import RetrievalResult
from graphgate.query.loaded import LoadedIndex
from graphgate.query.local import LocalRetriever, walk_edges, walk_steps
from graphgate.query.question import Question
from graphgate.query.vector import chunk_hit, retrieved_entity

# Dense seeds weigh cosine**4: at cosine**1 the twentieth passage seeds nearly as much as the
# first (chosen beside 1 and 8 on HotpotQA and MultiHop-RAG: README).
_SEED_SHARPNESS = 4


class PassageWalkRetriever:
    """Graph mode: passages ranked by one walk over passages and entities."""

    mode = "graph"

    def __init__(self, index: LoadedIndex, settings: QuerySettings) -> None:
        self.index = index
        self.settings = settings
        # Without dense seeds the walk is the graph's alone: no embedding at all.
        self.local = LocalRetriever(index, settings, use_vectors=settings.walk_passage_seeds > 0)
        self._metadata_names: set[str] | None = None

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        started = time.perf_counter()
        vector = question.vector if self.settings.walk_passage_seeds else None
        result = self.retrieve_with(question, vector, top_k)
        result.timings_ms = {
            "embed": (time.perf_counter() - started) * 1000 - sum(result.timings_ms.values()),
            **result.timings_ms,
        }
        return result

    def entity_seeds(self, question: Question) -> dict[str, float]:
        """Local mode's seeds, less the entities named like a source or author the documents
        carry as metadata: "reported by TechCrunch" names the source of the passages wanted,
        and the passage that mentions TechCrunch is seldom one of them."""
        store = self.index.store
        if self._metadata_names is None:
            fields = self.settings.cover_fields
            self._metadata_names = {
                normalise_name(value) for f in fields for value in store.documents_by(f)
            }
        seeds = self.local.seeds(question)
        if not self._metadata_names:
            return seeds
        return {
            eid: weight
            for eid, weight in seeds.items()
            if normalise_name(store.entity(eid).name) not in self._metadata_names
        }

    def passage_seeds(self, vector: npt.NDArray[np.float32]) -> dict[str, float]:
        """The nearest passages, weighted by their cosine to the question raised to a power, so
        the nearest few carry most of the passages' share."""
        n = self.settings.walk_passage_seeds
        if not n:
            return {}
        hits = self.index.store.vector_search("chunk", vector, n)
        return {cid: max(score, 0.0) ** _SEED_SHARPNESS for cid, score in hits}

    def retrieve_with(
        self,
        question: Question,
        vector: npt.NDArray[np.float32] | None,
        top_k: int | None = None,
    ) -> RetrievalResult:
        """Retrieval from an already embedded question (None: no dense seeds)."""
        s = self.settings
        k = top_k or s.top_k_chunks
        idx = self.index
        t1 = time.perf_counter()
        graph = idx.passage_graph(s.walk_synonym_weight)
        entity_seeds = _share(self.entity_seeds(question), 1.0)
        dense = {} if vector is None else self.passage_seeds(vector)
        passage_seeds = _share(dense, s.walk_passage_weight)
        t2 = time.perf_counter()
        entity_mass, passage_mass = graph.scores(entity_seeds, passage_seeds, s.walk_damping)
        t3 = time.perf_counter()
        order = np.argsort(-passage_mass, kind="stable")[:k]
        chunks = [
            chunk_hit(idx.store, graph.chunk_ids[i], float(passage_mass[i]))
            for i in order.tolist()
            if passage_mass[i] > 0
        ]
        top = [
            i
            for i in np.argsort(-entity_mass, kind="stable")[: s.top_k_entities].tolist()
            if entity_mass[i] > 0
        ]
        walk = {graph.entity_ids[i]: float(entity_mass[i]) for i in top}
        entities = [retrieved_entity(idx.store.entity(eid), mass) for eid, mass in walk.items()]
        t4 = time.perf_counter()
        edges = walk_edges(idx.store, walk, s.top_k_edges)
        t5 = time.perf_counter()
        steps = walk_steps(t1, t2, t3, t4, t5)
        return RetrievalResult(question.text, self.mode, chunks, entities, edges, steps)


def _share(seeds: Mapping[str, float], total: float) -> dict[str, float]:
    """The seeds scaled to sum to ``total`` (their proportions kept)."""
    mass = sum(w for w in seeds.values() if w > 0)
    if mass <= 0 or total <= 0:
        return {}
    return {key: total * w / mass for key, w in seeds.items() if w > 0}
