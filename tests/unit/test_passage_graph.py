"""The walk over passages and entities (query/passage_graph.py): a second hop reached only
through a passage, synonym edges carrying mass, and the same scores every time."""

from __future__ import annotations

import numpy as np

from graphgate.query.passage_graph import PassageGraph
from graphgate.query.projection import GraphProjection
from graphgate.store.base import ProjectionEdges

ENTITIES = ["alice", "bergen", "bob", "carol", "nordvik", "oslo", "tromso"]
# Passage a names Alice and her company; b names only the company (the second hop); c and d
# are distractors a dense search finds too. No relation joins Alice to the company: only
# passage a does.
MENTIONS = {
    "a": ["alice", "nordvik"],
    "b": ["nordvik", "oslo"],
    "c": ["bob", "bergen"],
    "d": ["carol", "tromso"],
}
RELATIONS = [("nordvik", "oslo", 1.0), ("bob", "bergen", 1.0), ("carol", "tromso", 1.0)]


def _edges() -> ProjectionEdges:
    pairs = [(e, c) for c, es in MENTIONS.items() for e in es]
    return ProjectionEdges(
        ENTITIES,
        [s for s, _, _ in RELATIONS],
        [t for _, t, _ in RELATIONS],
        [w for _, _, w in RELATIONS],
        sorted(MENTIONS),
        [e for e, _ in pairs],
        [c for _, c in pairs],
    )


def _ranked(graph: PassageGraph, passage_mass: np.ndarray) -> list[str]:
    order = np.argsort(-passage_mass, kind="stable")
    return [graph.chunk_ids[i] for i in order if passage_mass[i] > 0]


def test_the_second_hop_is_reached_only_through_a_passage_and_ranks_second() -> None:
    # Dense seeds as the walk gets them (each passage's cosine to the question, to the 4th),
    # at HippoRAG 2's balance: the passages a twentieth of the restart, the entity the rest.
    cosines = {"a": 0.64**4, "c": 0.50**4, "d": 0.48**4}
    dense = {c: 0.05 * w / sum(cosines.values()) for c, w in cosines.items()}
    graph = PassageGraph(_edges(), [], 1.0)
    _, passages = graph.scores({"alice": 1.0}, dense, damping=0.5)
    assert _ranked(graph, passages)[:2] == ["a", "b"]
    # With the passages half of the restart (graphgate's default), the distractors' own
    # similarity outweighs the hop: the balance is a setting (query.walk_passage_weight).
    even = {c: w / sum(cosines.values()) for c, w in cosines.items()}
    _, passages = graph.scores({"alice": 1.0}, even, damping=0.3)
    assert _ranked(graph, passages)[:2] == ["a", "c"] and passages[1] > 0
    # The entity graph alone never reaches the company from Alice: no relation joins them.
    entity_only = GraphProjection(
        ENTITIES, [s for s, _, _ in RELATIONS], [t for _, t, _ in RELATIONS], [1.0] * 3
    )
    reached = entity_only.personalised_pagerank({"alice": 1.0}, 0.5)
    assert reached[ENTITIES.index("nordvik")] == 0


def test_the_walk_from_entities_alone_ranks_passages_by_their_hops() -> None:
    graph = PassageGraph(_edges(), [], 1.0)
    entities, passages = graph.scores({"alice": 1.0}, {}, damping=0.5)
    assert _ranked(graph, passages) == ["a", "b"]  # distractors get nothing
    assert entities[ENTITIES.index("nordvik")] > entities[ENTITIES.index("oslo")] > 0
    assert np.isclose(entities.sum() + passages.sum(), 1.0)


def test_a_synonym_edge_carries_the_walk_to_the_other_name() -> None:
    edges = _edges()
    without = PassageGraph(edges, [], 1.0)
    with_synonym = PassageGraph(edges, [("alice", "carol", 0.9)], 1.0)
    assert with_synonym.synonym_count == 1
    d = sorted(MENTIONS).index("d")
    assert without.scores({"alice": 1.0}, {}, 0.5)[1][d] == 0
    assert with_synonym.scores({"alice": 1.0}, {}, 0.5)[1][d] > 0
    # Weight 0 is the ablation: the edge is not walked.
    assert PassageGraph(edges, [("alice", "carol", 0.9)], 0.0).synonym_count == 0


def test_the_walk_is_deterministic_and_ignores_unknown_seeds() -> None:
    seeds = {"alice": 1.0, "nobody": 3.0}
    dense = {"a": 0.2, "c": 0.1, "zzz": 0.5}
    runs = [PassageGraph(_edges(), [], 1.0).scores(seeds, dense, 0.3) for _ in range(2)]
    assert all(np.array_equal(x, y) for x, y in zip(runs[0], runs[1], strict=True))
    graph = PassageGraph(_edges(), [], 1.0)
    assert not any(m.any() for m in graph.scores({"nobody": 1.0}, {"zzz": 1.0}, 0.3))
