from __future__ import annotations

import random

from sklearn.metrics import adjusted_rand_score

from graphgate.core.config import CommunitySettings
from graphgate.core.types import Relationship
from graphgate.index.communities import (
    community_id,
    detect,
    leaf_partition,
    relationship_edges,
    stability,
)


def planted(
    n_groups: int, size: int, p_in: float, inter: int, seed: int
) -> tuple[list[str], list[tuple[str, str, float]], dict[str, int]]:
    rng = random.Random(seed)
    nodes = [f"g{g}_{i}" for g in range(n_groups) for i in range(size)]
    truth = {n: int(n[1:].split("_")[0]) for n in nodes}
    edges = []
    for g in range(n_groups):
        members = [f"g{g}_{i}" for i in range(size)]
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if rng.random() < p_in:
                    edges.append((a, b, 1.0))
    for _ in range(inter):
        a, b = rng.sample(nodes, 2)
        if truth[a] != truth[b]:
            edges.append((min(a, b), max(a, b), 1.0))
    return nodes, edges, truth


def test_planted_communities_are_recovered() -> None:
    nodes, edges, truth = planted(20, 50, 0.2, 400, seed=7)  # 1000 nodes, ~5,300 edges
    settings = CommunitySettings(max_cluster_size=1000)
    found = leaf_partition(detect(nodes, edges, settings, seed=0))
    ari = adjusted_rand_score([truth[n] for n in nodes], [found[n] for n in nodes])
    assert ari >= 0.9


def test_hierarchy_splits_large_clusters_and_links_parents() -> None:
    nodes, edges, _ = planted(4, 40, 0.3, 20, seed=1)
    communities = detect(nodes, edges, CommunitySettings(max_cluster_size=15), seed=0)
    by_id = {c.id: c for c in communities}
    assert max(c.level for c in communities) >= 1
    for c in communities:
        if c.parent is not None:
            parent = by_id[c.parent]
            assert parent.level == c.level - 1 and c.id in parent.children
            assert set(c.members) <= set(parent.members)  # children contained in their parent
    assert sorted(m for c in communities if c.level == 0 for m in c.members) == sorted(nodes)


def test_isolated_entities_get_their_own_community() -> None:
    communities = detect(
        ["a", "b", "c", "lonely"], [("a", "b", 1.0), ("b", "c", 1.0)], CommunitySettings(), seed=0
    )
    lonely = [c for c in communities if "lonely" in c.members]
    assert len(lonely) == 1 and lonely[0].members == ["lonely"]
    assert lonely[0].id == community_id(0, ["lonely"])
    assert len(detect(["x"], [], CommunitySettings(), seed=0)) == 1


def test_same_seed_same_partition_and_stability_is_recorded() -> None:
    nodes, edges, _ = planted(8, 30, 0.25, 60, seed=3)
    settings = CommunitySettings(max_cluster_size=1000, stability_seeds=3)
    one, two = detect(nodes, edges, settings, 5), detect(nodes, edges, settings, 5)
    assert one == two
    report = stability(nodes, edges, settings, 5, one)
    assert report["seeds"] == [5, 6, 7] and len(report["ari_pairs"]) == 3
    assert 0.9 <= report["ari"]["min"] <= report["ari"]["mean"] <= 1.0
    assert 0.9 <= report["nmi"]["min"] <= 1.0
    assert 0.5 < report["modularity_level0"] < 1.0


def test_different_seeds_on_a_weak_structure_disagree_measurably() -> None:
    rng = random.Random(0)
    nodes = [f"n{i}" for i in range(200)]
    edges = sorted(
        {(min(a, b), max(a, b), 1.0) for a, b in (rng.sample(nodes, 2) for _ in range(600))}
    )
    report = stability(
        nodes,
        edges,
        CommunitySettings(max_cluster_size=1000),
        0,
        detect(nodes, edges, CommunitySettings(max_cluster_size=1000), 0),
    )
    assert report["ari"]["min"] < 0.9  # a random graph has no stable partition


def test_undirected_edges_sum_both_directions() -> None:
    rels = [
        Relationship("1", "a", "b", "p", "svo", 2.0, ""),
        Relationship("2", "b", "a", "q", "svo", 1.0, ""),
        Relationship("3", "a", "a", "p", "svo", 1.0, ""),
    ]
    assert relationship_edges(rels) == [("a", "b", 3.0)]


def test_a_large_max_cluster_size_keeps_one_level() -> None:
    nodes, edges, _ = planted(3, 30, 0.3, 10, seed=2)
    communities = detect(nodes, edges, CommunitySettings(max_cluster_size=1000), 0)
    assert {c.level for c in communities} == {0} and len(communities) == 3
