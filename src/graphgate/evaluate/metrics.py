"""Retrieval-layer metrics, scored on what was retrieved before any answer exists.

Every metric returns ``None`` when the case lacks the ground truth it needs (no gold edges,
say): unmeasured is not zero, and averages skip it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphgate.core.text import normalise_name
from graphgate.core.types import COOCCURS
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import RetrievalResult, RetrievedEdge, RetrievedEntity

RECALL_KS = (2, 5, 10)


def normalise_predicate(text: str) -> str:
    return " ".join(re.sub(r"[_\-]", " ", text.casefold()).split())


def entity_keys(entity: RetrievedEntity) -> set[str]:
    """The names a retrieved entity answers to, normalised as the resolver does."""
    return {k for k in (normalise_name(n) for n in [entity.name, *entity.aliases]) if k}


def _retrieved_keys(entities: Iterable[RetrievedEntity]) -> set[str]:
    return {k for e in entities for k in entity_keys(e)}


def entity_recall(case: TestCase, result: RetrievalResult) -> float | None:
    if not case.gold_entities:
        return None
    keys = _retrieved_keys(result.entities)
    gold = {normalise_name(g) for g in case.gold_entities}
    return sum(1 for g in gold if g in keys) / len(gold)


def _edge_matches(
    gold: tuple[str, str, str],
    edge: RetrievedEdge,
    keys_of: dict[str, set[str]],
    predicates: PredicateMatcher | None = None,
) -> bool:
    source, relation, target = normalise_name(gold[0]), gold[1], normalise_name(gold[2])
    s_keys = keys_of.get(edge.source_id, {normalise_name(edge.source)})
    t_keys = keys_of.get(edge.target_id, {normalise_name(edge.target)})
    undirected = edge.predicate == COOCCURS
    forward = source in s_keys and target in t_keys
    backward = source in t_keys and target in s_keys
    if not (forward or (undirected and backward)):
        return False
    if relation == "*":
        return True
    # A co-occurrence says nothing about which relation holds: it only counts for "*".
    if undirected:
        return False
    if predicates is not None:
        return predicates.same(relation, edge.predicate)
    return normalise_predicate(relation) == normalise_predicate(edge.predicate)


def relationship_recall(
    case: TestCase, result: RetrievalResult, predicates: PredicateMatcher | None = None
) -> float | None:
    """A gold edge counts when both its ends were retrieved and a retrieved edge joins them in
    the gold direction (either way for co-occurrence) with the gold relation (``*``: any) —
    by meaning when a ``predicates`` matcher is given, else by spelling."""
    if not case.gold_edges:
        return None
    keys = _retrieved_keys(result.entities)
    keys_of = {e.id: entity_keys(e) for e in result.entities}
    found = 0
    for gold in case.gold_edges:
        if normalise_name(gold[0]) not in keys or normalise_name(gold[2]) not in keys:
            continue
        if any(_edge_matches(gold, edge, keys_of, predicates) for edge in result.edges):
            found += 1
    return found / len(case.gold_edges)


def ranked_docs(result: RetrievalResult) -> list[str]:
    """Document ids in the order their first chunk was retrieved."""
    out: list[str] = []
    for chunk in result.chunks:
        if chunk.doc_id not in out:
            out.append(chunk.doc_id)
    return out


def doc_recall_at(case: TestCase, docs: Sequence[str], k: int) -> float | None:
    if not case.gold_docs:
        return None
    gold = set(case.gold_docs)
    return len(gold & set(docs[:k])) / len(gold)


def doc_hit_at(case: TestCase, docs: Sequence[str], k: int) -> float | None:
    if not case.gold_docs:
        return None
    return 1.0 if set(case.gold_docs) & set(docs[:k]) else 0.0


def mrr(case: TestCase, docs: Sequence[str]) -> float | None:
    if not case.gold_docs:
        return None
    gold = set(case.gold_docs)
    return next((1.0 / rank for rank, d in enumerate(docs, start=1) if d in gold), 0.0)


def context_precision(case: TestCase, result: RetrievalResult) -> float | None:
    """Share of retrieved entities that are gold: retrieving more is penalised, not rewarded."""
    if not case.gold_entities:
        return None
    if not result.entities:
        return 0.0
    gold = {normalise_name(g) for g in case.gold_entities}
    return sum(1 for e in result.entities if entity_keys(e) & gold) / len(result.entities)


def context_relevancy(case: TestCase, result: RetrievalResult) -> float | None:
    """Share of retrieved chunks that come from a gold document."""
    if not case.gold_docs:
        return None
    if not result.chunks:
        return 0.0
    gold = set(case.gold_docs)
    return sum(1 for c in result.chunks if c.doc_id in gold) / len(result.chunks)


def retrieval_metrics(
    case: TestCase, result: RetrievalResult, predicates: PredicateMatcher | None = None
) -> dict[str, float | None]:
    docs = ranked_docs(result)
    out: dict[str, float | None] = {
        "entity_recall": entity_recall(case, result),
        "relationship_recall": relationship_recall(case, result, predicates),
        "mrr": mrr(case, docs),
        "context_precision": context_precision(case, result),
        "context_relevancy": context_relevancy(case, result),
    }
    for k in RECALL_KS:
        out[f"doc_recall@{k}"] = doc_recall_at(case, docs, k)
        out[f"doc_hit@{k}"] = doc_hit_at(case, docs, k)
    return out
