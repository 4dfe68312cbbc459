"""The embedded backend of :class:`~graphgate.store.base.GraphStore`: one run's LadybugDB graph,
its vector and keyword indexes, and a read model for the hot lookups.

The read model answers from the run's tables (the record the graph was written from), mapped
from Arrow files (store/read_tables.py): it keeps lookups from ids to rows and the adjacency
of entities, chunks and relationships, and makes a record from its row when a query asks for
it, so its memory is not a Python object per row; it is what makes a local query take
milliseconds on a laptop. A server backend answers the same calls with queries instead.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

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
from graphgate.store.arrow_rows import ArrowRows, single_array
from graphgate.store.base import CypherRows, Hit, ProjectionEdges, SearchKind
from graphgate.store.build import build_search_indexes, open_store, search_indexes_present
from graphgate.store.ladybug_store import LadybugGraphStore
from graphgate.store.read_tables import read_tables

# What the search indexes are built from, when a run's are missing.
_SEARCH_TABLES = ("chunks", "documents", "entities", "community_reports")
# Records of each kind kept once made (the most recently used): a query asks for tens of
# chunks and a few hundred entities and relationships, many of them again in later queries.
_CACHED = 4096
_VECTORS = ("chunk_vectors", "entity_vectors", "entity_name_vectors", "community_vectors")


class EmbeddedGraphStore:
    """``tables`` as :func:`~graphgate.store.read_tables.read_tables` gives them: records are
    made from their rows when asked for; what is kept besides is the lookups from ids to rows
    and the entity-to-chunk and entity-to-relationship adjacency, as NumPy arrays."""

    def __init__(
        self, graph: LadybugGraphStore, tables: Mapping[str, pa.Table], conflicts: list[Conflict]
    ) -> None:
        self.graph = graph
        self._chunks = ArrowRows(tables["chunks"], Chunk, _CACHED)
        self._chunk_row = _rows_by_id(tables["chunks"])
        self._vector_row, self._chunk_vectors = _vector_rows(tables["chunk_vectors"])
        self._entities = ArrowRows(tables["entities"], Entity, _CACHED)
        self._entity_ids = self._entities.column("id")
        self._entity_row = {eid: row for row, eid in enumerate(self._entity_ids)}
        self._relationships = ArrowRows(tables["relationships"], Relationship, _CACHED)
        self._communities = ArrowRows(tables["communities"], Community)
        self._community_row = _rows_by_id(tables["communities"])
        self._reports = ArrowRows(tables["community_reports"], CommunityReport)
        self._report_row = {
            cid: row for row, cid in enumerate(self._reports.column("community_id"))
        }
        self._all_reports: list[CommunityReport] | None = None
        self._conflicts = conflicts
        chunk_ids = single_array(tables["entities"].column("chunk_ids"))
        self._mention_chunks = pc.list_flatten(chunk_ids).to_pylist()
        self._mention_rows = pc.list_parent_indices(chunk_ids).to_numpy()
        self._in_chunk = Adjacency(self._mention_chunks, self._mention_rows)
        self._named: dict[str, list[str]] = defaultdict(list)
        aliases = self._entities.column("aliases")
        for eid, name, others in zip(
            self._entity_ids, self._entities.column("name"), aliases, strict=True
        ):
            for surface in {name, *others}:
                key = normalise_name(surface)
                if key and eid not in self._named[key]:
                    self._named[key].append(eid)
        relationships = tables["relationships"]
        ends = [*self._relationships.column("source_id"), *self._relationships.column("target_id")]
        count = relationships.num_rows
        self._touching = Adjacency(ends, np.tile(np.arange(count, dtype=np.int64), 2))
        self._ends = self._touching.key_codes.reshape(2, count)
        documents = tables["documents"]
        self._pages: dict[str, list[str]] = defaultdict(list)
        for doc in sorted(documents.select(["id", "title"]).to_pylist(), key=_by_id):
            for key in page_keys(doc["title"]):
                self._pages[key].append(doc["id"])
        self._documents = documents.select(["id", "metadata_json"])
        self._by_field: dict[str, dict[str, list[str]]] = {}
        self._doc_chunks: dict[str, list[str]] = defaultdict(list)
        positions = zip(
            self._chunks.column("doc_id"),
            self._chunks.column("index"),
            self._chunks.column("id"),
            strict=True,
        )
        for doc_id, _, chunk_id in sorted(positions):
            self._doc_chunks[doc_id].append(chunk_id)

    # -- entities and relationships --------------------------------------------------------
    def entity(self, entity_id: str) -> Entity:
        return self._entities.record(self._entity_row[entity_id])

    def entities(self) -> list[Entity]:
        return self._entities.all()

    def entity_ids_named(self, name: str) -> list[str]:
        return list(self._named.get(normalise_name(name), []))

    def entity_names(self) -> dict[str, list[str]]:
        return {key: list(ids) for key, ids in self._named.items()}

    def conflicts(self) -> list[Conflict]:
        return list(self._conflicts)

    def relationships(self) -> list[Relationship]:
        return self._relationships.all()

    def relations_among(self, entity_ids: Collection[str]) -> list[Relationship]:
        keep = self._touching.codes_of(entity_ids)
        if not keep.size:
            return []
        positions = np.unique(np.concatenate([self._touching.rows(code) for code in keep]))
        kept = np.zeros(self._touching.key_count, dtype=bool)
        kept[keep] = True
        both = kept[self._ends[0][positions]] & kept[self._ends[1][positions]]
        return self._relationships.records(positions[both].tolist())

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1) -> list[str]:
        return self.graph.neighbours(entity_ids, hops)

    def projection(self) -> ProjectionEdges:
        """From the graph database's own edges (the walk follows what the graph holds)."""
        edges = self.graph.all_edges()
        return ProjectionEdges(
            sorted(self._entity_ids),
            edges["source_id"].to_pylist(),
            edges["target_id"].to_pylist(),
            edges["weight"].to_pylist(),
            sorted(self._chunk_row),
            [self._entity_ids[row] for row in self._mention_rows.tolist()],
            list(self._mention_chunks),
        )

    # -- text --------------------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunks.record(self._chunk_row[chunk_id])

    def chunks(self) -> list[Chunk]:
        return self._chunks.all()

    def chunk_vector(self, chunk_id: str) -> npt.NDArray[np.float32] | None:
        row = self._vector_row.get(chunk_id)
        return None if row is None else np.array(self._chunk_vectors[row])

    def chunk_similarities(
        self, chunk_ids: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> dict[str, float]:
        rows = [(cid, self._vector_row[cid]) for cid in chunk_ids if cid in self._vector_row]
        if not rows:
            return {}
        scores = self._chunk_vectors[[r for _, r in rows]] @ vector.astype(np.float32)
        return {cid: float(score) for (cid, _), score in zip(rows, scores, strict=True)}

    def entities_in_chunk(self, chunk_id: str) -> list[str]:
        code = self._in_chunk.code(chunk_id)
        if code is None:
            return []
        return [self._entity_ids[row] for row in self._in_chunk.rows(code).tolist()]

    def entity_pages(self, name: str) -> list[str]:
        return list(self._pages.get(normalise_name(name), []))

    def first_chunk(self, doc_id: str) -> str | None:
        found = self._doc_chunks.get(doc_id)
        return found[0] if found else None

    def document_chunks(self, doc_id: str) -> list[str]:
        return list(self._doc_chunks.get(doc_id, []))

    def documents_by(self, field: str) -> dict[str, list[str]]:
        if field not in self._by_field:
            found: dict[str, list[str]] = defaultdict(list)
            for doc in sorted(self._documents.to_pylist(), key=_by_id):
                value = json.loads(doc["metadata_json"] or "{}").get(field)
                if isinstance(value, str) and value.strip():
                    found[value.strip()].append(doc["id"])
            self._by_field[field] = dict(found)
        return self._by_field[field]

    # -- communities ---------------------------------------------------------------------------
    def community(self, community_id: str) -> Community:
        return self._communities.record(self._community_row[community_id])

    def communities(self) -> list[Community]:
        return self._communities.all()

    def report(self, community_id: str) -> CommunityReport:
        row = self._report_row[community_id]
        if self._all_reports is not None:
            return self._all_reports[row]
        return self._reports.record(row)

    def reports(self) -> list[CommunityReport]:
        """Made on the first call and kept: a global query reads every report's level."""
        if self._all_reports is None:
            self._all_reports = self._reports.all()
        return list(self._all_reports)

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


def _rows_by_id(table: pa.Table) -> dict[str, int]:
    return {key: row for row, key in enumerate(single_array(table.column("id")).to_pylist())}


def _vector_rows(table: pa.Table) -> tuple[dict[str, int], npt.NDArray[np.float32]]:
    """Ids to rows, and the vectors as one matrix over the table's own buffer (no copy of a
    memory-mapped file: its pages are read as similarities touch them)."""
    column = single_array(table.column("vector"))
    if column.null_count or not pa.types.is_float32(column.type.value_type):
        ids, matrix = vectors_from_table(table)
        return {key: row for row, key in enumerate(ids)}, matrix
    values = column.flatten().to_numpy(zero_copy_only=True)
    matrix = values.reshape(len(column), column.type.list_size)
    return _rows_by_id(table), matrix


class Adjacency:
    """Rows listed under string keys (CSR arrays): the rows of a key in the order given."""

    def __init__(self, keys: Sequence[str], rows: npt.NDArray[np.int64]) -> None:
        self._codes: dict[str, int] = {}
        codes = np.fromiter(
            (self._codes.setdefault(key, len(self._codes)) for key in keys),
            dtype=np.int64,
            count=len(keys),
        )
        order = np.argsort(codes, kind="stable")
        self._rows = np.asarray(rows, dtype=np.int64)[order]
        self._starts = np.searchsorted(codes[order], np.arange(len(self._codes) + 1))
        self.key_codes = codes

    @property
    def key_count(self) -> int:
        return len(self._codes)

    def code(self, key: str) -> int | None:
        return self._codes.get(key)

    def codes_of(self, keys: Collection[str]) -> npt.NDArray[np.int64]:
        found = {code for key in keys if (code := self._codes.get(key)) is not None}
        return np.array(sorted(found), dtype=np.int64)

    def rows(self, code: int) -> npt.NDArray[np.int64]:
        return self._rows[self._starts[code] : self._starts[code + 1]]


def open_embedded_store(
    run: Run, exact_below: int, context_fields: Sequence[str] = (), read_cache_mb: int = 0
) -> EmbeddedGraphStore:
    """A run's store for querying (search indexes rebuilt from the artifacts when missing)."""
    folder: Path = run.store_dir
    if not search_indexes_present(folder):
        tables = {name: run.read_or_empty(name) for name in _SEARCH_TABLES}
        for name in _VECTORS:
            if run.has_artifact(name):
                tables[name] = run.read_artifact(name)
        build_search_indexes(folder, tables, exact_below, context_fields)
        del tables
    conflicts = from_table(run.read_or_empty("conflicts"), Conflict)
    return EmbeddedGraphStore(open_store(folder, read_cache_mb), read_tables(run), conflicts)
