"""Global mode: map-reduce over community reports at one level of the hierarchy.

Map scores each report's relevance to the question (its embedding and its keywords) and pulls
its most relevant points; reduce keeps the best points across reports, each citing its
community and the chunk it rests on. Offline, both steps are extractive.
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import numpy.typing as npt

from graphgate.core.config import QuerySettings
from graphgate.core.text import content_word_set
from graphgate.core.types import CommunityReport, claims_from_json
from graphgate.query.base import CommunityPoint, RetrievalResult, RetrievedCommunity
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question
from graphgate.query.vector import chunk_hit, retrieved_entity
from graphgate.store.base import GraphStore

# Map step weights, set by hand on the GraphRAG-Bench slice (README, Measured): keyword matches
# count half of vector similarity; a report's 0-10 rating adds up to 0.3, so broad questions
# reach central themes; within a report, earlier claims (the central ones) win ties.
_KEYWORD_WEIGHT = 0.5
_RATING_WEIGHT = 0.03
_ORDER_PENALTY = 0.001


def choose_level(reports: list[CommunityReport], budget: int, level: int | None) -> int:
    """The configured level, else the deepest level whose reports fit the budget (else 0)."""
    counts = Counter(r.level for r in reports)
    if level is not None:
        return level
    fitting = [lvl for lvl, n in counts.items() if n <= budget]
    return max(fitting) if fitting else min(counts, default=0)


class GlobalRetriever:
    mode = "global"

    def __init__(self, index: LoadedIndex, settings: QuerySettings) -> None:
        self.index = index
        self.settings = settings

    def _relevance(
        self, question: Question, vector: npt.NDArray[np.float32], level: int
    ) -> dict[str, float]:
        store = self.index.store
        reports = store.reports()
        scores = {r.community_id: 0.0 for r in reports if r.level == level}
        if store.has_vector_index("community"):
            for cid, score in store.vector_search("community", vector, len(reports)):
                if cid in scores:
                    scores[cid] += score
        hits = store.text_search("community", question.text, len(reports))
        top = max((s for c, s in hits if c in scores), default=0.0) or 1.0
        for cid, score in hits:
            if cid in scores:
                scores[cid] += _KEYWORD_WEIGHT * score / top
        # A report's importance (0-10) counts a little, so broad questions reach central themes.
        return {cid: v + _RATING_WEIGHT * store.report(cid).rating for cid, v in scores.items()}

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        s = self.settings
        idx = self.index
        t0 = time.perf_counter()
        vector = question.vector
        t1 = time.perf_counter()
        store = idx.store
        level = choose_level(store.reports(), s.global_budget, s.global_level)
        relevance = self._relevance(question, vector, level)
        ranked = sorted(relevance.items(), key=lambda kv: (-kv[1], kv[0]))[: s.global_communities]
        words = question.words
        communities: list[RetrievedCommunity] = []
        for cid, score in ranked:
            report = store.report(cid)
            points = []
            for order, claim in enumerate(claims_from_json(report.claims_json)):
                overlap = len(words & content_word_set(claim.text))
                points.append(
                    CommunityPoint(
                        claim.text,
                        claim.kind,
                        claim.ref,
                        claim.chunk_id,
                        score * (1 + overlap) - _ORDER_PENALTY * order,
                    )
                )
            points.sort(key=lambda p: -p.score)
            communities.append(
                RetrievedCommunity(
                    cid, report.level, report.title, score, points[: s.global_points]
                )
            )
        t2 = time.perf_counter()
        # Reduce: the best points across reports, with the chunks and entities they rest on.
        points = sorted((p for c in communities for p in c.points), key=lambda p: -p.score)
        points = list({p.text: p for p in reversed(points)}.values())[::-1]  # first of each text
        chunk_ids = list(
            dict.fromkeys(
                p.chunk_id for p in points if p.chunk_id and _has_chunk(store, p.chunk_id)
            )
        )
        k = top_k or s.top_k_chunks
        chunks = [chunk_hit(store, cid, 1.0 / (rank + 1)) for rank, cid in enumerate(chunk_ids[:k])]
        entity_ids = list(dict.fromkeys(p.ref for p in points if p.kind == "entity"))
        for c in communities:
            entity_ids += [m for m in store.community(c.id).members if m not in entity_ids]
        entities = [retrieved_entity(store.entity(e), 1.0) for e in entity_ids[: s.top_k_entities]]
        t3 = time.perf_counter()
        return RetrievalResult(
            question.text,
            self.mode,
            chunks,
            entities,
            [],
            {"embed": (t1 - t0) * 1000, "map": (t2 - t1) * 1000, "reduce": (t3 - t2) * 1000},
            communities,
        )


def _has_chunk(store: GraphStore, chunk_id: str) -> bool:
    try:
        store.chunk(chunk_id)
    except KeyError:
        return False
    return True
