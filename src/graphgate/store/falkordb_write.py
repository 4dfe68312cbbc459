"""Writing a run's tables into its own graph on a FalkorDB server.

The graph holds the same labels and properties as the embedded store (``types.GRAPH_TABLES``),
so read-only Cypher means the same on both, plus what the server answers searches and lookups
from: vectors (``embedding``, ``name_embedding``), keyword text (``search_text``), normalised
names (``name_keys``, ``page_keys``) and the record fields the embedded store reads from the
run's Parquet files instead. Everything is sent as UNWIND batches with parameters: no value
is ever spliced into Cypher text. Tables are read one label at a time and sent a batch at a
time (store/falkordb_content.py), so the writer's memory does not grow with the graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from graphgate.core.types import GRAPH_TABLE, NODE_LABELS, REL_TYPES
from graphgate.store.falkordb_client import FalkorDBServer
from graphgate.store.falkordb_content import (
    BATCH,
    LABELS,
    Edge,
    NodeChanges,
    Vectors,
    edge_keys,
    edge_rows,
    edge_table,
    edges_not_in,
    label_vectors,
    node_batches,
    node_digests,
    vector_dimensions,
    vectors_differing,
)

TEXT_LABELS = ("Chunk", "Entity", "Community")
# Wide enough that the approximate index returns what an exact search would on these sizes.
_HNSW = "M: 32, efConstruction: 256, efRuntime: 256"


def write_falkordb_graph(
    server: FalkorDBServer,
    graph: str,
    tables: Mapping[str, pa.Table],
    context_fields: Sequence[str] = (),
) -> dict[str, int]:
    """A complete graph named ``graph`` from a run's tables (replacing one left by a killed
    attempt); its counts, by label, as the embedded store reports them. ``tables`` may read
    each artifact when asked: each is asked for when its label is written."""
    server.drop(graph)
    writer = _Writer(server, graph)
    writer.create_indexes(vector_dimensions(tables))
    for label in LABELS:
        vectors = label_vectors(tables, label)
        for batch in node_batches(tables, label, context_fields):
            writer.create_nodes(label, batch, vectors)
        del vectors
    for rel in REL_TYPES:
        for edges in edge_rows(edge_table(tables, rel)):
            writer.create_edges(rel, edges)
    return graph_counts(server, graph)


def update_falkordb_graph(
    server: FalkorDBServer,
    parent_graph: str,
    graph: str,
    parent: Mapping[str, pa.Table],
    tables: Mapping[str, pa.Table],
    context_fields: Sequence[str] = (),
) -> dict[str, int]:
    """``graph`` as a copy of ``parent_graph`` (left untouched: it may be serving) changed
    from the parent run's tables into ``tables``: only nodes and edges that differ are
    written. The result holds exactly what :func:`write_falkordb_graph` would write
    (``tests/integration/test_falkordb.py``)."""
    server.drop(graph)
    server.copy_graph(parent_graph, graph)
    writer = _Writer(server, graph)
    for label in LABELS:
        changes = NodeChanges(
            node_digests(node_batches(parent, label, context_fields)),
            node_digests(node_batches(tables, label, context_fields)),
        )
        vectors = label_vectors(tables, label)
        writer.delete_nodes(label, changes.gone)
        # A second pass over the label's rows, keeping only those that differ: holding the
        # first pass's rows would hold the whole label.
        added: list[dict[str, Any]] = []
        replaced: list[dict[str, Any]] = []
        moved: list[dict[str, Any]] = []
        wanted = set(changes.added)
        for batch in node_batches(tables, label, context_fields):
            for row in batch:
                if row["id"] in changes.replaced:
                    replaced.append(row)
                elif row["id"] in changes.moved:
                    moved.append({"id": row["id"], "ordinal": row["ordinal"]})
            added.extend(row for row in batch if row["id"] in wanted)
        writer.create_nodes(label, sorted(added, key=_id), vectors)
        writer.replace_nodes(label, sorted(replaced, key=_id), vectors)
        writer.set_ordinals(label, sorted(moved, key=_id))
        # A node kept or only moved keeps its vectors unless they changed.
        unchanged = sorted({*changes.kept, *changes.moved})
        before = label_vectors(parent, label)
        for prop in sorted({*vectors, *before}):
            now = vectors.get(prop)
            differ = vectors_differing(unchanged, now, before.get(prop))
            writer.vectors(label, prop, differ, now)
        del vectors, before
    for rel in REL_TYPES:
        old, new = edge_table(parent, rel), edge_table(tables, rel)
        old_keys, new_keys = edge_keys(old, rel), edge_keys(new, rel)
        writer.delete_edges(rel, edges_not_in(old, old_keys, new_keys, rel))
        writer.create_edges(rel, edges_not_in(new, new_keys, old_keys, rel))
    return graph_counts(server, graph)


def _id(row: dict[str, Any]) -> str:
    return str(row["id"])


def graph_counts(server: FalkorDBServer, graph: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for label in NODE_LABELS:
        rows = server.query(graph, f"MATCH (x:{label}) RETURN count(x)").result_set
        out[label] = int(rows[0][0])
    for rel in REL_TYPES:
        rows = server.query(graph, f"MATCH ()-[x:{rel}]->() RETURN count(x)").result_set
        out[rel] = int(rows[0][0])
    return out


class _Writer:
    def __init__(self, server: FalkorDBServer, graph: str) -> None:
        self.server = server
        self.graph = graph

    def _write(self, cypher: str, rows: Sequence[Any]) -> None:
        for start in range(0, len(rows), BATCH):
            batch = list(rows[start : start + BATCH])
            self.server.query(self.graph, cypher, {"rows": batch}, False)

    def create_indexes(self, dimensions: dict[tuple[str, str], int]) -> None:
        """Before any data, so every index is complete when the last batch is written."""
        statements = [f"CREATE INDEX FOR (n:{label}) ON (n.id)" for label in NODE_LABELS]
        statements += ["CREATE INDEX FOR (n:Conflict) ON (n.id)"]
        statements += ["CREATE INDEX FOR (n:Chunk) ON (n.doc_id)"]
        for (label, prop), dim in dimensions.items():
            statements.append(
                f"CREATE VECTOR INDEX FOR (n:{label}) ON (n.{prop}) OPTIONS "
                f"{{dimension: {int(dim)}, similarityFunction: 'cosine', {_HNSW}}}"
            )
        for statement in statements:
            self.server.query(self.graph, statement, read_only=False)
        for label in TEXT_LABELS:
            self.server.query(
                self.graph,
                "CALL db.idx.fulltext.createNodeIndex({label: $label, language: 'english'}, "
                "'search_text')",
                {"label": label},
                read_only=False,
            )

    @staticmethod
    def _with_vectors(
        rows: list[dict[str, Any]], vectors: dict[str, Vectors]
    ) -> list[dict[str, Any]]:
        ids = [str(row["id"]) for row in rows]
        found = {prop: v.lists(ids) for prop, v in vectors.items()}
        return [
            {"p": row, "v": {prop: found[prop][i] for prop in vectors}}
            for i, row in enumerate(rows)
        ]

    @staticmethod
    def _set_vectors(vectors: dict[str, Vectors]) -> str:
        """``SET`` items for the label's vectors (a missing one stays absent: vecf32(null)
        is null, and setting null removes a property)."""
        return "".join(
            f", n.{p} = CASE WHEN row.v.{p} IS NULL THEN NULL ELSE vecf32(row.v.{p}) END"
            for p in vectors
        )

    def create_nodes(
        self, label: str, rows: list[dict[str, Any]], vectors: dict[str, Vectors]
    ) -> None:
        self._write(
            f"UNWIND $rows AS row CREATE (n:{label}) SET n = row.p" + self._set_vectors(vectors),
            self._with_vectors(rows, vectors),
        )

    def replace_nodes(
        self, label: str, rows: list[dict[str, Any]], vectors: dict[str, Vectors]
    ) -> None:
        """Every property replaced (``SET n = map`` drops the vectors: they are set again);
        the node and its edges stay."""
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.p.id}}) SET n = row.p"
            + self._set_vectors(vectors),
            self._with_vectors(rows, vectors),
        )

    def set_ordinals(self, label: str, rows: list[dict[str, Any]]) -> None:
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.id}}) SET n.ordinal = row.ordinal",
            rows,
        )

    def delete_nodes(self, label: str, ids: list[str]) -> None:
        self._write(
            f"UNWIND $rows AS id MATCH (n:{label} {{id: id}}) DETACH DELETE n",
            ids,
        )

    def vectors(self, label: str, prop: str, ids: list[str], vectors: Vectors | None) -> None:
        """``prop`` of these nodes set to their vector in ``vectors`` (removed where they
        have none). The old vector is removed first: FalkorDB (redis 8.2.3 build) skipped
        some assignments of a new vector over an old one, reporting no property set."""
        values = vectors.lists(ids) if vectors is not None else [None] * len(ids)
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.id}}) SET n.{prop} = NULL "
            f"WITH n, row SET n.{prop} = CASE WHEN row.v IS NULL THEN NULL ELSE vecf32(row.v) END",
            [{"id": i, "v": v} for i, v in zip(ids, values, strict=True)],
        )

    def _ends(self, rel: str) -> tuple[str, str]:
        ends = GRAPH_TABLE[rel].ends
        assert ends is not None
        return ends

    def create_edges(self, rel: str, edges: list[Edge]) -> None:
        src, dst = self._ends(rel)
        self._write(
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.a}}), (b:{dst} {{id: row.b}}) "
            f"CREATE (a)-[r:{rel}]->(b) SET r = row.p",
            [{"a": a, "b": b, "p": p} for a, b, p in edges],
        )

    def delete_edges(self, rel: str, edges: list[Edge]) -> None:
        src, dst = self._ends(rel)
        match = "{id: row.id}" if rel == "RELATED" else ""
        self._write(
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.a}})-[r:{rel} {match}]->"
            f"(b:{dst} {{id: row.b}}) DELETE r",
            [{"a": a, "b": b, "id": p.get("id")} for a, b, p in edges],
        )
