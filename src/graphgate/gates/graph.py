"""Gate 4: graph health — orphans, duplicates, degree, hubs, components."""

from __future__ import annotations

from collections import Counter

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext
from graphgate.gates.duplicates import blocking_key, likely_duplicates


class GraphGate:
    name = "graph"

    def measure(self, ctx: GateContext) -> GateResult:
        ids = [e.id for e in ctx.entities]
        index = {eid: i for i, eid in enumerate(ids)}
        n = len(ids)
        degree = np.zeros(n)
        rows, cols = [], []
        for r in ctx.relationships:
            a, b = index[r.source_id], index[r.target_id]
            degree[a] += 1
            degree[b] += 1
            rows.append(a)
            cols.append(b)
        keys = Counter(blocking_key(e.name) for e in ctx.entities)
        duplicates = sum(count - 1 for count in keys.values() if count > 1)
        neighbours: dict[str, set[str]] = {eid: set() for eid in ids}
        for r in ctx.relationships:
            neighbours[r.source_id].add(r.target_id)
            neighbours[r.target_id].add(r.source_id)
        near = likely_duplicates(
            ctx.entities, ctx.name_vectors, ctx.settings.near_duplicate_cosine, neighbours
        )
        total_degree = float(degree.sum())
        components = None
        if n:
            adjacency = sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
            components = float(connected_components(adjacency, directed=False)[0])
        metrics: dict[str, float | None] = {
            # None for a vector-only run: it has no entities by design.
            "nodes": float(n) if ctx.extraction is not None else None,
            "edges": float(len(ctx.relationships)),
            "entities_per_document": n / len(ctx.documents)
            if ctx.documents and ctx.extraction is not None
            else None,
            "edges_per_document": len(ctx.relationships) / len(ctx.documents)
            if ctx.documents and ctx.extraction is not None
            else None,
            "orphan_rate": float((degree == 0).mean()) if n else None,
            "duplicate_rate": duplicates / n if n else None,
            # Pairs blocking misses (acronyms, aliases, short forms, near name vectors).
            "near_duplicate_rate": len(near) / n if n else None,
            "degree_median": float(np.median(degree)) if n else None,
            "degree_p95": float(np.percentile(degree, 95)) if n else None,
            "degree_max": float(degree.max()) if n else None,
            "hub_share": float(degree.max()) / total_degree if total_degree else None,
            "components": components,
            # Statements that cannot both hold (index/truth.py): surfaced, not judged.
            "conflicts": float(len(ctx.conflicts)) if ctx.extraction is not None else None,
        }
        details: dict[str, object] = {}
        if n and total_degree:
            hub = ids[int(np.argmax(degree))]
            details["hub"] = next(e.name for e in ctx.entities if e.id == hub)
        details["duplicate_groups"] = [k for k, c in keys.most_common(5) if c > 1]
        details["near_duplicates"] = [
            f"{p.names[0]} ~ {p.names[1]} ({p.reason})" for p in near[: ctx.settings.samples]
        ]
        return GateResult(self.name, metrics, details)
