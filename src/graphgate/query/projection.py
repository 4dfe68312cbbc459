"""In-memory projections of the graph for hot query paths (personalised PageRank).

The graph database stays the system of record; these are loaded from it once per process.
:class:`GraphProjection` walks entities only (local mode); :class:`PassageGraph` puts the
passages in the walk beside them (graph mode, query/passage_walk.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from scipy import sparse


class Walk:
    """A personalised PageRank over ``n`` nodes joined by undirected weighted edges (each
    followed from either end), given as index arrays."""

    def __init__(
        self,
        n: int,
        rows: npt.NDArray[np.int64],
        cols: npt.NDArray[np.int64],
        data: npt.NDArray[np.float64],
    ) -> None:
        adj = sparse.coo_matrix(
            (
                np.concatenate([data, data]),
                (np.concatenate([rows, cols]), np.concatenate([cols, rows])),
            ),
            shape=(n, n),
        ).tocsr()
        out_weight = np.asarray(adj.sum(axis=1)).ravel()
        self._dangling = out_weight == 0
        inv = np.divide(1.0, out_weight, out=np.zeros_like(out_weight), where=out_weight > 0)
        self._transition = (sparse.diags(inv) @ adj).T.tocsr()  # column-stochastic
        self.degree = np.diff(adj.indptr)
        self.size = n

    def run(
        self, restart: npt.NDArray[np.float64], damping: float, iterations: int, tol: float
    ) -> npt.NDArray[np.float64]:
        """Scores over the nodes for a walk that restarts by ``restart`` (any non-negative
        weights; all zero gives zeros)."""
        total = float(restart.sum())
        if self.size == 0 or total <= 0:
            return np.zeros(self.size)
        restart = restart / total
        scores = restart.copy()
        for _ in range(iterations):
            leaked = scores[self._dangling].sum()
            nxt = damping * (self._transition @ scores + leaked * restart) + (1 - damping) * restart
            converged = bool(np.abs(nxt - scores).sum() < tol)
            scores = nxt
            if converged:
                break
        return np.asarray(scores, dtype=np.float64)


class GraphProjection:
    """The entity graph: relations (log-damped weights) between entities."""

    def __init__(
        self,
        node_ids: Sequence[str],
        sources: Sequence[str],
        targets: Sequence[str],
        weights: Sequence[float],
    ) -> None:
        self.node_ids = list(node_ids)
        self.index = {nid: i for i, nid in enumerate(self.node_ids)}
        rows = np.array([self.index[s] for s in sources], dtype=np.int64)
        cols = np.array([self.index[t] for t in targets], dtype=np.int64)
        data = np.log1p(np.asarray(weights, dtype=np.float64))
        self._walk = Walk(len(self.node_ids), rows, cols, data)
        self.degree = self._walk.degree

    def __len__(self) -> int:
        return len(self.node_ids)

    def personalised_pagerank(
        self, seeds: Mapping[str, float], damping: float, iterations: int = 40, tol: float = 1e-8
    ) -> npt.NDArray[np.float64]:
        """Scores over ``node_ids`` for a random walk that restarts at the seeds."""
        restart = np.zeros(len(self.node_ids))
        for nid, w in seeds.items():
            if nid in self.index and w > 0:
                restart[self.index[nid]] += w
        return self._walk.run(restart, damping, iterations, tol)
