"""The graph that graph mode walks: passages as nodes beside entities (HippoRAG 2).

A passage is joined to the entities it mentions (an edge weighted by how specific the entity
is: one over the number of passages it is in, so "United States" does not join every passage to
every other), entities to each other by their relations (log-damped weights, as local mode walks
them) and by synonym edges (query/synonyms.py). Built once per loaded run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from graphgate.core.runs import Run
from graphgate.query.projection import Walk
from graphgate.store.base import ProjectionEdges

# Two entities joined by a synonym edge, and the cosine of their names.
Synonym = tuple[str, str, float]


class PassageGraph:
    """Entities ``[0, E)`` then passages ``[E, E + C)`` as the nodes of one :class:`Walk`."""

    def __init__(
        self, edges: ProjectionEdges, synonyms: Sequence[Synonym], synonym_weight: float
    ) -> None:
        self.entity_ids = list(edges.node_ids)
        self.chunk_ids = list(edges.chunk_ids)
        entity = {eid: i for i, eid in enumerate(self.entity_ids)}
        first_chunk = len(self.entity_ids)
        self.chunk_node = {cid: first_chunk + i for i, cid in enumerate(self.chunk_ids)}
        rel_rows = [entity[s] for s in edges.source_ids]
        rel_cols = [entity[t] for t in edges.target_ids]
        rel_data = np.log1p(np.asarray(edges.weights, dtype=np.float64))
        pairs = [
            (entity[e], self.chunk_node[c])
            for e, c in zip(edges.mention_entity_ids, edges.mention_chunk_ids, strict=True)
            if e in entity and c in self.chunk_node
        ]
        mention_rows = np.array([e for e, _ in pairs], dtype=np.int64)
        mention_cols = np.array([c for _, c in pairs], dtype=np.int64)
        # How many passages each entity is in: its specificity is one over that.
        self.passage_count = np.bincount(mention_rows, minlength=len(self.entity_ids))
        mention_data = 1.0 / np.maximum(self.passage_count[mention_rows], 1).astype(np.float64)
        kept = synonyms if synonym_weight > 0 else []
        syn = [(entity[a], entity[b], c) for a, b, c in kept if a in entity and b in entity]
        syn_rows = np.array([a for a, _, _ in syn], dtype=np.int64)
        syn_cols = np.array([b for _, b, _ in syn], dtype=np.int64)
        syn_data = synonym_weight * np.array([c for _, _, c in syn], dtype=np.float64)
        rows = np.concatenate([np.array(rel_rows, dtype=np.int64), mention_rows, syn_rows])
        cols = np.concatenate([np.array(rel_cols, dtype=np.int64), mention_cols, syn_cols])
        data = np.concatenate([rel_data, mention_data, syn_data])
        self.walk = Walk(first_chunk + len(self.chunk_ids), rows, cols, data)
        self.entity_index = entity
        self.synonym_count = len(syn)

    def scores(
        self,
        entity_seeds: Mapping[str, float],
        passage_seeds: Mapping[str, float],
        damping: float,
        iterations: int = 40,
        tol: float = 1e-8,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The walk's mass on each entity and on each passage (in ``entity_ids`` and
        ``chunk_ids`` order), restarting at both kinds of seed."""
        restart = np.zeros(self.walk.size)
        for eid, weight in entity_seeds.items():
            row = self.entity_index.get(eid)
            if row is not None and weight > 0:
                restart[row] += weight
        for cid, weight in passage_seeds.items():
            node = self.chunk_node.get(cid)
            if node is not None and weight > 0:
                restart[node] += weight
        mass = self.walk.run(restart, damping, iterations, tol)
        first_chunk = len(self.entity_ids)
        return mass[:first_chunk], mass[first_chunk:]


def run_synonyms(run: Run) -> list[Synonym]:
    """The run's synonym edges (index/synonyms.py); none for a run indexed before them."""
    if not run.has_artifact("entity_synonyms"):
        return []
    table = run.read_artifact("entity_synonyms", ["a", "b", "cosine"])
    columns = (table.column(name).to_pylist() for name in ("a", "b", "cosine"))
    return list(zip(*columns, strict=True))
