"""Local mode: entity seeds, a personalised PageRank walk, then ranked facts and chunks.

Seeds are the entities the question links to (query/linking.py), else entity vectors and
keywords;
the walk spreads their weight along relations, as HippoRAG does; a chunk ranks by the walk
mass of the entities it mentions, with its similarity to the question as a tie-breaker.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from graphgate.core.config import QuerySettings
from graphgate.query.base import RetrievalResult, RetrievedEdge
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question
from graphgate.query.vector import chunk_hit, retrieved_edge, retrieved_entity
from graphgate.store.base import GraphStore

# Co-occurrence says less than a parsed verb relation; this keeps facts ahead of mere company.
_SVO_BOOST = 2.0
# Entity vectors below this cosine to the question are not seeds: MiniLM gives unrelated short
# names ~0.2 (set by hand on the demo, not swept).
_MIN_SEED_COSINE = 0.3
# Keyword seeds count half a named or vector seed: a word match is weaker evidence (by hand).
_KEYWORD_SEED_WEIGHT = 0.5
# Entities of the walk whose mass reaches chunks (by hand, not swept; the README's HotpotQA
# numbers were measured with it).
_WALK_ENTITIES = 50
# Graph mode: keyword matches only break near-ties of walk mass; 50 candidates, 0.1 weight.
_GRAPH_TEXT_CANDIDATES = 50
_GRAPH_TEXT_WEIGHT = 0.1


class LocalRetriever:
    """``use_vectors=False`` is graph mode: names and full text seed the walk, no embeddings."""

    def __init__(
        self, index: LoadedIndex, settings: QuerySettings, use_vectors: bool = True
    ) -> None:
        self.index = index
        self.settings = settings
        self.use_vectors = use_vectors
        self.mode = "local" if use_vectors else "graph"

    def seeds(self, question: Question) -> dict[str, float]:
        """The entities the question links to (names, near-miss names, paraphrases, concepts);
        only when it links to none, the nearest entity vectors and keyword matches (linking
        first is worth more than vectors first: README, Measured)."""
        links = question.links
        if links:
            return {link.entity_id: link.score for link in links}
        s = self.settings
        seeds: dict[str, float] = {}
        store = self.index.store
        if self.use_vectors and store.has_vector_index("entity"):
            for eid, score in store.vector_search("entity", question.vector, s.seed_entities):
                if score > _MIN_SEED_COSINE:
                    seeds[eid] = max(seeds.get(eid, 0.0), score)
        text_hits = store.text_search("entity", question.text, s.seed_entities)
        if text_hits:
            top = text_hits[0][1]
            for eid, score in text_hits:
                seeds[eid] = max(seeds.get(eid, 0.0), _KEYWORD_SEED_WEIGHT * score / top)
        return seeds

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        started = time.perf_counter()
        vector = question.vector if self.use_vectors else None
        result = self.retrieve_with(question, vector, top_k)
        result.timings_ms = {
            "embed": (time.perf_counter() - started) * 1000 - sum(result.timings_ms.values()),
            **result.timings_ms,
        }
        return result

    def retrieve_with(
        self,
        question: Question,
        vector: npt.NDArray[np.float32] | None,
        top_k: int | None = None,
    ) -> RetrievalResult:
        """Retrieval from an already embedded question (None: graph mode, no embedding);
        hybrid mode embeds and links once for all its rankings."""
        s = self.settings
        k = top_k or s.top_k_chunks
        idx = self.index
        t1 = time.perf_counter()
        seeds = self.seeds(question)
        t2 = time.perf_counter()
        ppr = idx.projection.personalised_pagerank(seeds, s.ppr_damping)
        node_ids = idx.projection.node_ids
        order = [i for i in np.argsort(-ppr, kind="stable") if ppr[i] > 0]
        top_entities = [node_ids[i] for i in order[: s.top_k_entities]]
        walk = {node_ids[i]: float(ppr[i]) for i in order[: max(_WALK_ENTITIES, s.top_k_entities)]}
        t3 = time.perf_counter()
        chunks = [
            chunk_hit(idx.store, cid, score)
            for score, cid in self._rank_chunks(question, vector, walk, k)[:k]
        ]
        t4 = time.perf_counter()
        entities = [retrieved_entity(idx.store.entity(eid), walk[eid]) for eid in top_entities]
        edges = walk_edges(idx.store, {e: walk[e] for e in top_entities}, s.top_k_edges)
        t5 = time.perf_counter()
        steps = walk_steps(t1, t2, t3, t4, t5)
        return RetrievalResult(question.text, self.mode, chunks, entities, edges, steps)

    def _rank_chunks(
        self,
        question: Question,
        vector: npt.NDArray[np.float32] | None,
        walk: dict[str, float],
        k: int,
    ) -> list[tuple[float, str]]:
        store, s = self.index.store, self.settings
        chunk_mass: dict[str, float] = {}
        for eid, mass in walk.items():
            entity = store.entity(eid)
            # Spread an entity's mass over its chunks so a hub does not flood the ranking.
            share = mass / math.sqrt(len(entity.chunk_ids) or 1)
            for cid in entity.chunk_ids:
                chunk_mass[cid] = chunk_mass.get(cid, 0.0) + share
        top_mass = max(chunk_mass.values(), default=0.0) or 1.0
        scored: list[tuple[float, str]] = []
        if vector is None:
            # Graph mode: walk mass decides; keyword overlap only breaks near-ties.
            hits = store.text_search("chunk", question.text, _GRAPH_TEXT_CANDIDATES)
            top_text = hits[0][1] if hits else 1.0
            text = {cid: score / top_text for cid, score in hits}
            scored = [
                (m / top_mass + _GRAPH_TEXT_WEIGHT * text.get(c, 0.0), c)
                for c, m in chunk_mass.items()
            ]
        else:
            # The nearest chunks always compete too, so a missed seed does not lose the passage.
            for cid, _ in store.vector_search("chunk", vector, k):
                chunk_mass.setdefault(cid, 0.0)
            cosine = store.chunk_similarities(list(chunk_mass), vector)
            for cid, mass in chunk_mass.items():
                scored.append((mass / top_mass + s.dense_weight * cosine.get(cid, 0.0), cid))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return scored


def walk_edges(store: GraphStore, walk: Mapping[str, float], top_k: int) -> list[RetrievedEdge]:
    """The relations among the walk's entities, by the mass at their ends times the log of
    their weight (a parsed verb relation counting double)."""
    scored: list[tuple[float, str, RetrievedEdge]] = []
    for r in store.relations_among(set(walk)):
        boost = _SVO_BOOST if r.kind == "svo" else 1.0
        score = (walk[r.source_id] + walk[r.target_id]) * math.log1p(r.weight) * boost
        scored.append((score, r.id, retrieved_edge(store, r, score)))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [e for _, _, e in scored[:top_k]]


def walk_steps(*stamps: float) -> dict[str, float]:
    """Milliseconds of a walk's steps, from the clock read before and after each."""
    names = ("seeds", "ppr", "chunks", "edges")
    return {name: (b - a) * 1000 for name, a, b in zip(names, stamps, stamps[1:], strict=False)}
