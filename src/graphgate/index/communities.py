"""Stage *communities*: hierarchical Leiden over the entity graph, with stability across seeds.

graspologic-native's ``hierarchical_leiden`` splits any cluster over ``max_cluster_size`` into
sub-clusters at the next level. Entities without edges (which it drops) each get a community of
their own, so every entity has one. Ids hash the level and members: the same partition gets the
same ids in every run, so runs can be compared.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphgate.core.config import CommunitySettings
from graphgate.core.types import Community, Relationship

Edge = tuple[str, str, float]


def community_id(level: int, members: Sequence[str]) -> str:
    digest = hashlib.sha256(("|".join(sorted(members))).encode()).hexdigest()[:12]
    return f"k{level}_{digest}"


def undirected_edges(
    sources: Sequence[str], targets: Sequence[str], weights: Sequence[float]
) -> list[Edge]:
    """One weighted edge per entity pair (relations in both directions and of every kind), from
    the relationships' columns."""
    pairs: dict[tuple[str, str], float] = defaultdict(float)
    for source, target, weight in zip(sources, targets, weights, strict=True):
        if source < target:
            pairs[(source, target)] += weight
        elif target < source:
            pairs[(target, source)] += weight
    return [(a, b, w) for (a, b), w in sorted(pairs.items())]


def relationship_edges(relationships: Iterable[Relationship]) -> list[Edge]:
    """:func:`undirected_edges` of relationship records (read once)."""
    sources: list[str] = []
    targets: list[str] = []
    weights: list[float] = []
    for r in relationships:
        sources.append(r.source_id)
        targets.append(r.target_id)
        weights.append(r.weight)
    return undirected_edges(sources, targets, weights)


@dataclass(frozen=True)
class _Cluster:
    level: int
    parent: int | None
    members: list[str]


def _leiden(edges: list[Edge], settings: CommunitySettings, seed: int) -> dict[int, _Cluster]:
    import graspologic_native as gn

    clusters: dict[int, _Cluster] = {}
    members: dict[int, list[str]] = defaultdict(list)
    rows = gn.hierarchical_leiden(
        edges,
        max_cluster_size=settings.max_cluster_size,
        resolution=settings.resolution,
        iterations=settings.iterations,
        seed=seed,
    )
    for row in rows:
        members[row.cluster].append(row.node)
        clusters[row.cluster] = _Cluster(row.level, row.parent_cluster, [])
    return {c: _Cluster(v.level, v.parent, sorted(members[c])) for c, v in clusters.items()}


def leaf_partition(communities: Sequence[Community]) -> dict[str, str]:
    """Entity id -> the id of the deepest community that holds it."""
    out: dict[str, tuple[int, str]] = {}
    for c in communities:
        for m in c.members:
            if m not in out or out[m][0] < c.level:
                out[m] = (c.level, c.id)
    return {m: cid for m, (_, cid) in out.items()}


def detect(
    entity_ids: Sequence[str], edges: list[Edge], settings: CommunitySettings, seed: int
) -> list[Community]:
    raw = _leiden(edges, settings, seed) if edges else {}
    ids = {c: community_id(v.level, v.members) for c, v in raw.items()}
    children: dict[str, list[str]] = defaultdict(list)
    for c, v in raw.items():
        if v.parent is not None and v.parent in ids:
            children[ids[v.parent]].append(ids[c])
    out = [
        Community(
            ids[c],
            v.level,
            ids.get(v.parent) if v.parent is not None else None,
            sorted(children[ids[c]]),
            v.members,
            len(v.members),
        )
        for c, v in raw.items()
    ]
    placed = {m for c in out if c.level == 0 for m in c.members}
    for eid in sorted(set(entity_ids) - placed):
        out.append(Community(community_id(0, [eid]), 0, None, [], [eid], 1))
    out.sort(key=lambda c: (c.level, c.id))
    return out


def stability(
    entity_ids: Sequence[str],
    edges: list[Edge],
    settings: CommunitySettings,
    seed: int,
    chosen: Sequence[Community],
) -> dict[str, Any]:
    """Modularity of the chosen partition and pairwise ARI / NMI of leaf partitions over seeds."""
    import graspologic_native as gn
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    nodes = sorted(entity_ids)
    partitions = [leaf_partition(chosen)]
    for extra in range(1, settings.stability_seeds):
        partitions.append(leaf_partition(detect(entity_ids, edges, settings, seed + extra)))
    labels = [[p[n] for n in nodes] for p in partitions]
    ari = [adjusted_rand_score(a, b) for a, b in itertools.combinations(labels, 2)]
    nmi = [normalized_mutual_info_score(a, b) for a, b in itertools.combinations(labels, 2)]

    def modularity(level: int | None) -> float | None:
        if not edges:
            return None
        if level is None:
            assignment = partitions[0]
        else:
            assignment = {m: c.id for c in chosen if c.level == level for m in c.members}
        index = {cid: i for i, cid in enumerate(sorted(set(assignment.values())))}
        in_edges = {n for e in edges for n in e[:2]}
        return float(
            gn.modularity(
                edges, {n: index[assignment[n]] for n in in_edges}, resolution=settings.resolution
            )
        )

    def stats(values: list[float]) -> dict[str, float | None]:
        if not values:
            return {"min": None, "mean": None}
        return {"min": float(np.min(values)), "mean": float(np.mean(values))}

    return {
        "seeds": [seed + i for i in range(settings.stability_seeds)],
        "communities_per_seed": [len(set(p.values())) for p in partitions],
        "modularity_level0": modularity(0),
        "modularity_leaves": modularity(None),
        "ari": stats(ari),
        "nmi": stats(nmi),
        "ari_pairs": ari,
        "nmi_pairs": nmi,
    }


def level_sizes(communities: Sequence[Community]) -> dict[str, dict[str, float]]:
    """Per level: how many communities, their mean and largest size (for `graphgate status`)."""
    by_level: dict[int, list[int]] = {}
    for c in communities:
        by_level.setdefault(c.level, []).append(c.size)
    return {
        str(level): {
            "count": len(sizes),
            "mean_size": round(sum(sizes) / len(sizes), 2),
            "max_size": max(sizes),
        }
        for level, sizes in sorted(by_level.items())
    }
