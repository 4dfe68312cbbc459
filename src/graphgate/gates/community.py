"""Gates 5 and 6: community quality (against a null model, across seeds, against the baseline)
and the hierarchy (depth balance, leakage across boundaries, containment)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from graphgate.core.config import CommunitySettings
from graphgate.core.types import Community
from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext
from graphgate.index.communities import Edge, leaf_partition, relationship_edges
from graphgate.index.communities import stability as seed_stability


def null_model_modularity(degrees: list[int], seed: int) -> float | None:
    """Modularity Louvain reaches on a configuration-model graph with the same degrees (self
    loops and multi-edges removed): what community structure looks like by chance."""
    import igraph as ig

    if sum(degrees) < 2:
        return None
    if sum(degrees) % 2:
        degrees = [*degrees[:-1], degrees[-1] + 1]
    previous = ig.set_random_number_generator(random.Random(seed))
    try:
        graph = ig.Graph.Degree_Sequence(degrees, method="configuration")
        graph.simplify(multiple=True, loops=True)
        if graph.ecount() == 0:
            return None
        return float(graph.modularity(graph.community_multilevel().membership))
    finally:
        ig.set_random_number_generator(previous or random)


def measure_stability(
    entity_ids: Sequence[str],
    edges: Sequence[Edge],
    communities: Sequence[Community],
    settings: CommunitySettings,
    seed: int,
) -> dict[str, Any]:
    """Leiden rerun under ``stability_seeds`` seeds with the run's own settings, compared with
    the run's partition (the inputs the communities stage detected it from: the entity ids and
    :func:`~graphgate.index.communities.undirected_edges`). Every entity of a run is in its
    partition; a context assembled otherwise (a test's, a hand-edited run's) is measured on the
    entities the partition places."""
    placed = {m for c in communities for m in c.members}
    ids = [e for e in entity_ids if e in placed]
    kept = [e for e in edges if e[0] in placed and e[1] in placed]
    return seed_stability(ids, kept, settings, seed, communities)


class CommunityGate:
    name = "community"

    def measure(self, ctx: GateContext) -> GateResult:
        stability: dict[str, Any] = ctx.stability or self._stability(ctx) or {}
        seed_ari = (stability.get("ari") or {}).get("min")
        baseline_ari = self._ari_vs_baseline(ctx)
        index = {e.id: i for i, e in enumerate(ctx.entities)}
        degrees = [0] * len(index)
        for r in ctx.relationships:
            if r.source_id != r.target_id:
                degrees[index[r.source_id]] += 1
                degrees[index[r.target_id]] += 1
        metrics: dict[str, float | None] = {
            "communities": float(len(ctx.communities)),
            # Per document, so a corpus that grows is compared like for like.
            "communities_per_document": len(ctx.communities) / len(ctx.documents)
            if ctx.documents and ctx.communities
            else None,
            "modularity": stability.get("modularity_level0"),
            "null_modularity": null_model_modularity([d for d in degrees if d], 0),
            "ari_min": (stability.get("ari") or {}).get("min"),
            "ari_mean": (stability.get("ari") or {}).get("mean"),
            "nmi_min": (stability.get("nmi") or {}).get("min"),
            "ari_vs_baseline": baseline_ari,
            # The same documents, index settings and seed as the baseline: the partition must
            # be the baseline's again (below 1, the seed does not decide it any more).
            "repeated_partition_ari": baseline_ari if ctx.repeats_baseline else None,
            # Seed to seed the partition moves this little (ari_min); beyond it, the graph
            # changed (resolution, extraction), not the chance of Leiden.
            "baseline_ari_gap": max(0.0, seed_ari - baseline_ari)
            if seed_ari is not None and baseline_ari is not None
            else None,
        }
        details = {"communities_per_seed": stability.get("communities_per_seed")}
        return GateResult(self.name, metrics, details)

    @staticmethod
    def _stability(ctx: GateContext) -> dict[str, Any] | None:
        if not ctx.communities or ctx.community_settings is None:
            return None
        return measure_stability(
            [e.id for e in ctx.entities],
            relationship_edges(ctx.relationships),
            ctx.communities,
            ctx.community_settings,
            ctx.seed,
        )

    @staticmethod
    def _ari_vs_baseline(ctx: GateContext) -> float | None:
        if ctx.baseline is None or not ctx.baseline.communities or not ctx.communities:
            return None
        from sklearn.metrics import adjusted_rand_score

        now, before = leaf_partition(ctx.communities), leaf_partition(ctx.baseline.communities)
        common = sorted(set(now) & set(before))
        if len(common) < 2:
            return None
        return float(adjusted_rand_score([before[e] for e in common], [now[e] for e in common]))


class HierarchyGate:
    name = "hierarchy"

    def measure(self, ctx: GateContext) -> GateResult:
        by_id = {c.id: c for c in ctx.communities}
        leaves = [c for c in ctx.communities if not c.children]
        depths = [c.level for c in leaves]
        not_contained = [
            c.id
            for c in ctx.communities
            if c.parent in by_id and not set(c.members) <= set(by_id[c.parent].members)
        ]
        top = {m: c.id for c in ctx.communities if c.level == 0 for m in c.members}
        total = crossing = 0.0
        pairs: dict[tuple[str, str], float] = defaultdict(float)
        for r in ctx.relationships:
            a, b = top.get(r.source_id), top.get(r.target_id)
            if a is None or b is None:
                continue
            total += r.weight
            if a != b:
                crossing += r.weight
                pairs[(min(a, b), max(a, b))] += r.weight
        worst = max(pairs.items(), key=lambda kv: (kv[1], kv[0]), default=None)
        metrics: dict[str, float | None] = {
            "levels": float(len({c.level for c in ctx.communities})) if ctx.communities else None,
            "leaf_depth_min": float(min(depths)) if depths else None,
            "leaf_depth_max": float(max(depths)) if depths else None,
            "depth_spread": float(max(depths) - min(depths)) if depths else None,
            "leakage": crossing / total if total else None,
            "children_not_contained": float(len(not_contained)) if ctx.communities else None,
        }
        details: dict[str, Any] = {"not_contained": not_contained[:10]}
        if worst is not None:
            details["worst_pair"] = {"communities": list(worst[0]), "weight": worst[1]}
        return GateResult(self.name, metrics, details)
