"""The embedded backend of :class:`~graphgate.store.base.GraphStore`: one run's LadybugDB graph,
its vector and keyword indexes, and an in-memory read model for the hot lookups.

The read model is built once per open store from the run's tables (the record the graph was
written from) and the graph's own edges; it is what makes a local query take milliseconds
on a laptop. A server backend answers the same calls with queries instead.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.runs import Run
from graphgate.core.text import normalise_name, page_keys
from graphgate.core.types import (
    Chunk,
    Community,
    CommunityReport,
    Conflict,
    Entity,
    Relationship,
    from_table,
    vectors_from_table,
)
from graphgate.store.base import CypherRows, Hit, ProjectionEdges, SearchKind
from graphgate.store.build import build_search_indexes, open_store, search_indexes_present
from graphgate.store.ladybug_store import LadybugGraphStore

_TABLES = (
    "chunks",
    "entities",
    "relationships",
    "communities",
    "community_reports",
    "conflicts",
)
_VECTORS = ("chunk_vectors", "entity_vectors", "entity_name_vectors", "community_vectors")


class EmbeddedGraphStore:
    def __init__(self, graph: LadybugGraphStore, tables: dict[str, pa.Table]) -> None:
        self.graph = graph
        self._chunks = {c.id: c for c in from_table(tables["chunks"], Chunk)}
        self._chunk_ids, self._chunk_vectors = vectors_from_table(tables["chunk_vectors"])
        self._chunk_row = {cid: i for i, cid in enumerate(self._chunk_ids)}
        self._entities = {e.id: e for e in from_table(tables["entities"], Entity)}
        self._relationships = from_table(tables["relationships"], Relationship)
        self._communities = {c.id: c for c in from_table(tables["communities"], Community)}
        self._reports = {
            r.community_id: r for r in from_table(tables["community_reports"], CommunityReport)
        }
        self._conflicts = from_table(tables["conflicts"], Conflict)
        self._in_chunk: dict[str, list[str]] = defaultdict(list)
        self._named: dict[str, list[str]] = defaultdict(list)
        for e in self._entities.values():
            for cid in e.chunk_ids:
                self._in_chunk[cid].append(e.id)
            for surface in {e.name, *e.aliases}:
                key = normalise_name(surface)
                if key and e.id not in self._named[key]:
                    self._named[key].append(e.id)
        self._touching: dict[str, list[int]] = defaultdict(list)
        for i, r in enumerate(self._relationships):
            self._touching[r.source_id].append(i)
            self._touching[r.target_id].append(i)
        self._pages: dict[str, list[str]] = defaultdict(list)
        for doc in sorted(tables["documents"].select(["id", "title"]).to_pylist(), key=_by_id):
            for key in page_keys(doc["title"]):
                self._pages[key].append(doc["id"])
        self._metadata = {
            doc["id"]: json.loads(doc["metadata_json"] or "{}")
            for doc in tables["documents"].select(["id", "metadata_json"]).to_pylist()
        }
        self._by_field: dict[str, dict[str, list[str]]] = {}
        self._first_chunk: dict[str, str] = {}
        for chunk in sorted(self._chunks.values(), key=lambda c: (c.doc_id, c.index)):
            self._first_chunk.setdefault(chunk.doc_id, chunk.id)

    # -- entities and relationships --------------------------------------------------------
    def entity(self, entity_id: str) -> Entity:
        return self._entities[entity_id]

    def entities(self) -> list[Entity]:
        return list(self._entities.values())

    def entity_ids_named(self, name: str) -> list[str]:
        return list(self._named.get(normalise_name(name), []))

    def entity_names(self) -> dict[str, list[str]]:
        return {key: list(ids) for key, ids in self._named.items()}

    def conflicts(self) -> list[Conflict]:
        return list(self._conflicts)

    def relationships(self) -> list[Relationship]:
        return list(self._relationships)

    def relations_among(self, entity_ids: Collection[str]) -> list[Relationship]:
        keep = set(entity_ids)
        positions = sorted({i for e in keep for i in self._touching.get(e, [])})
        found = (self._relationships[i] for i in positions)
        return [r for r in found if r.source_id in keep and r.target_id in keep]

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1) -> list[str]:
        return self.graph.neighbours(entity_ids, hops)

    def projection(self) -> ProjectionEdges:
        """From the graph database's own edges (the walk follows what the graph holds)."""
        edges = self.graph.all_edges()
        return ProjectionEdges(
            sorted(self._entities),
            edges["source_id"].to_pylist(),
            edges["target_id"].to_pylist(),
            edges["weight"].to_pylist(),
        )

    # -- text --------------------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunks[chunk_id]

    def chunks(self) -> list[Chunk]:
        return list(self._chunks.values())

    def chunk_vector(self, chunk_id: str) -> npt.NDArray[np.float32] | None:
        row = self._chunk_row.get(chunk_id)
        return None if row is None else self._chunk_vectors[row]

    def chunk_similarities(
        self, chunk_ids: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> dict[str, float]:
        rows = [(cid, self._chunk_row[cid]) for cid in chunk_ids if cid in self._chunk_row]
        if not rows:
            return {}
        scores = self._chunk_vectors[[r for _, r in rows]] @ vector.astype(np.float32)
        return {cid: float(score) for (cid, _), score in zip(rows, scores, strict=True)}

    def entities_in_chunk(self, chunk_id: str) -> list[str]:
        return list(self._in_chunk.get(chunk_id, []))

    def entity_pages(self, name: str) -> list[str]:
        return list(self._pages.get(normalise_name(name), []))

    def first_chunk(self, doc_id: str) -> str | None:
        return self._first_chunk.get(doc_id)

    def documents_by(self, field: str) -> dict[str, list[str]]:
        if field not in self._by_field:
            found: dict[str, list[str]] = defaultdict(list)
            for doc_id in sorted(self._metadata):
                value = self._metadata[doc_id].get(field)
                if isinstance(value, str) and value.strip():
                    found[value.strip()].append(doc_id)
            self._by_field[field] = dict(found)
        return self._by_field[field]

    # -- communities ---------------------------------------------------------------------------
    def community(self, community_id: str) -> Community:
        return self._communities[community_id]

    def communities(self) -> list[Community]:
        return list(self._communities.values())

    def report(self, community_id: str) -> CommunityReport:
        return self._reports[community_id]

    def reports(self) -> list[CommunityReport]:
        return list(self._reports.values())

    # -- search --------------------------------------------------------------------------------
    def has_vector_index(self, kind: SearchKind) -> bool:
        return self.graph.has_vector_index(kind)

    def vector_search(self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        return self.graph.vector_search(kind, vector, k)

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]:
        return self.graph.text_search(kind, query, k)

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> pa.Table:
        return self.graph.cypher(query, params, timeout_s)

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        return self.graph.cypher_rows(query, params, timeout_s)

    def counts(self) -> dict[str, int]:
        return self.graph.counts()

    def describe(self) -> dict[str, str]:
        return {"backend": "embedded", "path": str(self.graph.path)}

    def close(self) -> None:
        self.graph.close()


def _by_id(row: dict[str, str]) -> str:
    return row["id"]


def open_embedded_store(
    run: Run, exact_below: int, context_fields: Sequence[str] = ()
) -> EmbeddedGraphStore:
    """A run's store for querying (search indexes rebuilt from the artifacts when missing)."""
    tables = {name: run.read_or_empty(name) for name in (*_TABLES, "documents")}
    for name in _VECTORS:
        if run.has_artifact(name):
            tables[name] = run.read_artifact(name)
    folder: Path = run.store_dir
    if not search_indexes_present(folder):
        build_search_indexes(folder, tables, exact_below, context_fields)
    return EmbeddedGraphStore(open_store(folder), tables)
