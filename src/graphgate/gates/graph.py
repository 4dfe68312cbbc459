"""Gate 4: graph health — orphans, duplicates, degree, hubs, components."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping

import numpy as np
import numpy.typing as npt
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext
from graphgate.gates.duplicates import blocking_key, likely_duplicates


class Neighbours(Mapping[str, set[str]]):
    """Each entity's neighbours (either direction, itself for a self-loop), made when asked
    from the edges' integer ends sorted by entity: a set per entity for the whole graph held
    more than the relationships themselves."""

    def __init__(
        self,
        ids: list[str],
        index: Mapping[str, int],
        sources: npt.NDArray[np.int64],
        targets: npt.NDArray[np.int64],
    ) -> None:
        ends = np.concatenate([sources, targets])
        order = np.argsort(ends, kind="stable")
        self._ids = ids
        self._index = index
        self._others = np.concatenate([targets, sources])[order]
        self._starts = np.searchsorted(ends[order], np.arange(len(ids) + 1))

    def __getitem__(self, entity_id: str) -> set[str]:
        i = self._index[entity_id]
        return {self._ids[j] for j in self._others[self._starts[i] : self._starts[i + 1]].tolist()}

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class GraphGate:
    name = "graph"

    def measure(self, ctx: GateContext) -> GateResult:
        ids = [e.id for e in ctx.entities]
        index = {eid: i for i, eid in enumerate(ids)}
        n = len(ids)
        rows = np.empty(len(ctx.relationships), dtype=np.int64)
        cols = np.empty(len(ctx.relationships), dtype=np.int64)
        for k, r in enumerate(ctx.relationships):
            rows[k], cols[k] = index[r.source_id], index[r.target_id]
        degree = (np.bincount(rows, minlength=n) + np.bincount(cols, minlength=n)).astype(float)
        keys = Counter(blocking_key(e.name) for e in ctx.entities)
        duplicates = sum(count - 1 for count in keys.values() if count > 1)
        near = likely_duplicates(
            ctx.entities,
            ctx.name_vectors,
            ctx.settings.near_duplicate_cosine,
            Neighbours(ids, index, rows, cols),
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
