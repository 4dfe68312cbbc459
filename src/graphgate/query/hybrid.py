"""Hybrid mode: graph, dense and sparse retrieval fused, then what the question names.

Three rankings of chunks — local graph retrieval (entity seeds and the walk), dense similarity
and BM25 over the chunks in their context (title, source, date) — are fused by reciprocal rank:
lexical matches carry questions that name sources and dates, the graph carries the entities.
After the best fused chunk come, in order: the pages of the entities the question names (a
document whose title names an entity is its page); the pages of entities the top local
passages mention (the bridge of a multi-hop question); the best chunk of each source or
author the question names (``query.cover_fields``); then the best chunk of each of those
sources' other documents, ahead of the rest (a question that says where something was
reported is answered from there). Corpora without pages or such metadata simply get the
fused ranking. The nearest community reports come as context.
"""

from __future__ import annotations

import time

from graphgate.core.config import QuerySettings
from graphgate.query.base import RetrievalResult, RetrievedChunk, RetrievedCommunity
from graphgate.query.loaded import LoadedIndex
from graphgate.query.local import LocalRetriever
from graphgate.query.question import Question
from graphgate.query.vector import chunk_hit

# Links that name an entity (not a concept, not a paraphrase): their pages are named pages.
_NAMING_LINKS = {"name", "mention", "fuzzy"}

# Both rankings are fused over at least this many chunks, so a passage ranked just below k in
# one list can still rise (2k, at least 20: by hand; the README's HotpotQA numbers use it).
_MIN_FUSION_DEPTH = 20


def reciprocal_rank_fusion(rankings: list[list[str]], k: int) -> list[tuple[str, float]]:
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


class HybridRetriever:
    mode = "hybrid"

    def __init__(self, index: LoadedIndex, settings: QuerySettings) -> None:
        self.index = index
        self.settings = settings
        self.local = LocalRetriever(index, settings)

    def linked_pages(self, sources: list[str]) -> list[str]:
        """First chunks of the pages of entities the source chunks mention, in mention order."""
        store = self.index.store
        out: list[str] = []
        for cid in sources:
            home = store.chunk(cid).doc_id
            for eid in store.entities_in_chunk(cid):
                entity = store.entity(eid)
                for name in [entity.name, *entity.aliases]:
                    for doc in store.entity_pages(name):
                        first = store.first_chunk(doc)
                        if doc != home and first is not None and first not in out:
                            out.append(first)
        return out

    def named_pages(self, question: Question) -> list[str]:
        """First chunks of the pages the question names: documents whose title it contains
        (longest first), then the pages of the entities it names, even misspelt ("Which is
        older, X or Y?" names both pages)."""
        store = self.index.store
        docs = list(question.titled_pages)
        for eid in (link.entity_id for link in question.links if link.kind in _NAMING_LINKS):
            entity = store.entity(eid)
            for name in [entity.name, *entity.aliases]:
                docs += store.entity_pages(name)
        firsts = (store.first_chunk(doc) for doc in docs)
        return list(dict.fromkeys(c for c in firsts if c is not None))

    def second_hops(
        self,
        ranked: list[str],
        local: RetrievalResult,
        question: Question,
        placed: list[str],
    ) -> list[str]:
        """Local chunks, in local order, that mention an entity the walk reached beyond the
        linked ones (the bridge's passage names the company, not its founder)."""
        seeds = {link.entity_id for link in question.links}
        reached = {e.id for e in local.entities} - seeds
        store = self.index.store
        return [
            c
            for c in ranked
            if c not in placed and not reached.isdisjoint(store.entities_in_chunk(c))
        ]

    def covering(self, question: Question, fused: list[str]) -> list[str]:
        """The best fused chunk from each metadata value the question names
        (``query.cover_fields``), from that value's documents."""
        store = self.index.store
        out: list[str] = []
        for docs in question.values_named(self.settings.cover_fields):
            wanted = set(docs)
            best = next(
                (c for c in fused if store.chunk(c).doc_id in wanted and c not in out), None
            )
            if best is not None:
                out.append(best)
        return out

    def from_named_sources(self, question: Question, fused: list[str]) -> list[str]:
        """The best fused chunk of each document whose source or author
        (``query.cover_fields``) the question names, in fused order."""
        wanted = {doc for docs in question.values_named(self.settings.cover_fields) for doc in docs}
        if not wanted:
            return []
        store = self.index.store
        best: dict[str, str] = {}
        for c in fused:
            doc = store.chunk(c).doc_id
            if doc in wanted and doc not in best:
                best[doc] = c
        return list(best.values())

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        s = self.settings
        idx = self.index
        k = top_k or s.top_k_chunks
        t0 = time.perf_counter()
        vector = question.vector
        t1 = time.perf_counter()
        depth = max(2 * k, _MIN_FUSION_DEPTH)
        local = self.local.retrieve_with(question, vector, depth)
        ranked = [c.id for c in local.chunks]
        dense = [cid for cid, _ in idx.store.vector_search("chunk", vector, depth)]
        sparse = [cid for cid, _ in idx.store.text_search("chunk", question.text, depth)]
        fused = [cid for cid, _ in reciprocal_rank_fusion([ranked, dense, sparse], s.rrf_k)]
        links = self.linked_pages(ranked[: s.hybrid_link_sources])[: s.hybrid_links]
        covered = self.covering(question, fused) if s.cover_fields else []
        named = (
            self.from_named_sources(question, fused)
            if s.cover_fields and s.hybrid_named_sources_first
            else []
        )
        pages = self.named_pages(question)[: s.hybrid_links]
        head = fused[: s.hybrid_head]
        first = [*head, *pages, *links]
        walked = self.second_hops(ranked, local, question, first)[: s.hybrid_graph_slots]
        order = list(dict.fromkeys([*first, *walked, *covered, *named, *fused]))[:k]
        chunks: list[RetrievedChunk] = [
            chunk_hit(idx.store, cid, 1.0 / (rank + 1)) for rank, cid in enumerate(order)
        ]
        t2 = time.perf_counter()
        communities: list[RetrievedCommunity] = []
        if s.hybrid_communities and idx.store.has_vector_index("community"):
            for cid, score in idx.store.vector_search("community", vector, s.hybrid_communities):
                report = idx.store.report(cid)
                communities.append(RetrievedCommunity(cid, report.level, report.title, score))
        t3 = time.perf_counter()
        return RetrievalResult(
            question.text,
            self.mode,
            chunks,
            local.entities,
            local.edges,
            {
                "embed": (t1 - t0) * 1000,
                **{f"local.{n}": v for n, v in local.timings_ms.items()},
                "fuse": (t2 - t1) * 1000,
                "communities": (t3 - t2) * 1000,
            },
            communities,
        )
