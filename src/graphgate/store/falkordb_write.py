"""Writing a run's tables into its own graph on a FalkorDB server.

The graph holds the same labels and properties as the embedded store (``types.GRAPH_TABLES``),
so read-only Cypher means the same on both, plus what the server answers searches and lookups
from: vectors (``embedding``, ``name_embedding``), keyword text (``search_text``), normalised
names (``name_keys``, ``page_keys``) and the record fields the embedded store reads from the
run's Parquet files instead. Everything is sent as UNWIND batches with parameters: no value
is ever spliced into Cypher text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from graphgate.core.text import normalise_name, page_keys
from graphgate.core.types import (
    GRAPH_TABLE,
    NODE_LABELS,
    REL_TYPES,
    column_values,
    table_rows,
    vectors_from_table,
)
from graphgate.store.build import (
    chunk_search_texts,
    entity_search_text,
    node_table,
    report_search_texts,
)
from graphgate.store.falkordb_client import FalkorDBServer

BATCH = 500
# (label, vector property, artifact): FalkorDB's own vector indexes, cosine.
VECTOR_INDEXES = (
    ("Chunk", "embedding", "chunk_vectors"),
    ("Entity", "embedding", "entity_vectors"),
    ("Entity", "name_embedding", "entity_name_vectors"),
    ("Community", "embedding", "community_vectors"),
)
TEXT_LABELS = ("Chunk", "Entity", "Community")
# Wide enough that the approximate index returns what an exact search would on these sizes.
_HNSW = "M: 32, efConstruction: 256, efRuntime: 256"


class Vectors:
    """One artifact's vectors by id, kept as the matrix (a list per vector is made only for
    the rows sent to the server: converting every one cost seconds per update)."""

    def __init__(self, ids: list[str], matrix: Any) -> None:
        self.row = {node_id: i for i, node_id in enumerate(ids)}
        self.matrix = matrix

    @property
    def dimension(self) -> int:
        return int(self.matrix.shape[1])

    def __contains__(self, node_id: str) -> bool:
        return node_id in self.row

    def get(self, node_id: str) -> list[float] | None:
        i = self.row.get(node_id)
        return None if i is None else [float(x) for x in self.matrix[i]]

    def same(self, node_id: str, other: Vectors) -> bool:
        mine, theirs = self.row.get(node_id), other.row.get(node_id)
        if mine is None or theirs is None:
            return mine is None and theirs is None
        return bool(self.matrix[mine].tobytes() == other.matrix[theirs].tobytes())


@dataclass
class GraphContent:
    """What a run's graph holds on the server, as plain data: nodes by label and id (their
    properties, no nulls), vectors by (label, property) and id, edges by type. Two runs'
    contents are diffed to update a copy of the parent's graph in place."""

    nodes: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    vectors: dict[tuple[str, str], Vectors] = field(default_factory=dict)
    edges: dict[str, list[tuple[str, str, dict[str, Any]]]] = field(default_factory=dict)

    def vector_props(self, label: str) -> list[str]:
        return [prop for (lab, prop) in self.vectors if lab == label]


def graph_content(tables: dict[str, pa.Table], context_fields: Sequence[str] = ()) -> GraphContent:
    content = GraphContent()
    documents = table_rows(node_table(tables["documents"], GRAPH_TABLE["Document"]))
    for doc, row in zip(documents, table_rows(tables["documents"]), strict=True):
        doc["metadata_json"] = row["metadata_json"]
        doc["page_keys"] = sorted(page_keys(row["title"]))
    content.nodes["Document"] = _by_id(documents)
    chunks = table_rows(node_table(tables["chunks"], GRAPH_TABLE["Chunk"]))
    # ``ordinal``: the artifact's row order, the order the embedded store lists them in.
    for i, (chunk, text) in enumerate(
        zip(chunks, chunk_search_texts(tables, context_fields), strict=True)
    ):
        chunk["search_text"] = text
        chunk["ordinal"] = i
    content.nodes["Chunk"] = _by_id(chunks)
    entities = tables["entities"]
    entity_rows = table_rows(node_table(entities, GRAPH_TABLE["Entity"]))
    texts = entity_search_text(
        column_values(entities["name"]),
        column_values(entities["aliases"]),
        column_values(entities["description"]),
    )
    for i, (entity, text) in enumerate(zip(entity_rows, texts, strict=True)):
        entity["search_text"] = text
        entity["ordinal"] = i
        keys = {normalise_name(s) for s in [entity["name"], *entity["aliases"]]}
        entity["name_keys"] = sorted(k for k in keys if k)
    content.nodes["Entity"] = _by_id(entity_rows)
    content.nodes["Community"] = _by_id(_community_rows(tables))
    conflicts = tables.get("conflicts")
    content.nodes["Conflict"] = _by_id(table_rows(conflicts) if conflicts is not None else [])
    for label, prop, artifact in VECTOR_INDEXES:
        found = _vectors(tables, artifact)
        if found:
            content.vectors[(label, prop)] = found
    chunk_table = tables["chunks"]
    content.edges["PART_OF"] = _pairs(chunk_table["id"], chunk_table["doc_id"])
    ids, chunk_lists = column_values(entities["id"]), column_values(entities["chunk_ids"])
    content.edges["MENTIONS"] = [
        (c, e, {}) for e, cs in zip(ids, chunk_lists, strict=True) for c in cs
    ]
    rels = tables["relationships"]
    props = table_rows(node_table(rels, GRAPH_TABLE["RELATED"]))
    content.edges["RELATED"] = [
        (a, b, _present(p))
        for a, b, p in zip(
            column_values(rels["source_id"]), column_values(rels["target_id"]), props, strict=True
        )
    ]
    communities = table_rows(tables["communities"])
    content.edges["IN_COMMUNITY"] = [(m, c["id"], {}) for c in communities for m in c["members"]]
    content.edges["PARENT_OF"] = [
        (c["parent"], c["id"], {}) for c in communities if c["parent"] is not None
    ]
    return content


def write_falkordb_graph(
    server: FalkorDBServer,
    graph: str,
    tables: dict[str, pa.Table],
    context_fields: Sequence[str] = (),
) -> dict[str, int]:
    """A complete graph named ``graph`` from a run's tables (replacing one left by a killed
    attempt); its counts, by label, as the embedded store reports them."""
    server.drop(graph)
    content = graph_content(tables, context_fields)
    writer = _Writer(server, graph)
    writer.create_indexes(content)
    for label, nodes in content.nodes.items():
        writer.create_nodes(label, list(nodes.values()), content)
    for rel, edges in content.edges.items():
        writer.create_edges(rel, edges)
    return graph_counts(server, graph)


def update_falkordb_graph(
    server: FalkorDBServer,
    parent_graph: str,
    graph: str,
    parent: GraphContent,
    content: GraphContent,
) -> dict[str, int]:
    """``graph`` as a copy of ``parent_graph`` (left untouched: it may be serving) changed
    into ``content``: only nodes and edges that differ are written. The result holds exactly
    what :func:`write_falkordb_graph` would write (``tests/integration/test_falkordb.py``)."""
    server.drop(graph)
    server.call(
        f"copy graph {parent_graph}",
        lambda client: client.connection.execute_command("GRAPH.COPY", parent_graph, graph),
    )
    writer = _Writer(server, graph)
    for label, nodes in content.nodes.items():
        before = parent.nodes.get(label, {})
        writer.delete_nodes(label, sorted(before.keys() - nodes.keys()))
        writer.create_nodes(
            label, [nodes[i] for i in sorted(nodes.keys() - before.keys())], content
        )
        changed, moved = [], []
        for node_id in sorted(nodes.keys() & before.keys()):
            old, new = before[node_id], nodes[node_id]
            if old == new:
                continue
            if {**old, "ordinal": None} == {**new, "ordinal": None}:
                moved.append({"id": node_id, "ordinal": new["ordinal"]})
            else:
                changed.append(new)
        writer.replace_nodes(label, changed, content)
        writer.set_ordinals(label, moved)
        rewritten = {n["id"] for n in changed}
        for prop in content.vector_props(label):
            old_vectors = parent.vectors.get((label, prop), Vectors([], None))
            new_vectors = content.vectors[(label, prop)]
            kept = sorted((nodes.keys() & before.keys()) - rewritten)
            differ = [i for i in kept if i in new_vectors and not new_vectors.same(i, old_vectors)]
            writer.vectors(label, prop, {i: new_vectors.get(i) or [] for i in differ})
    for rel, edges in content.edges.items():
        old_edges = parent.edges.get(rel, [])
        if rel == "RELATED":  # edges with ids: by id
            old_by = {p["id"]: (a, b, p) for a, b, p in old_edges}
            new_by = {p["id"]: (a, b, p) for a, b, p in edges}
            gone = [old_by[i] for i in sorted(old_by) if new_by.get(i) != old_by[i]]
            writer.delete_edges(rel, gone)
            writer.create_edges(
                rel, [new_by[i] for i in sorted(new_by) if old_by.get(i) != new_by[i]]
            )
        else:  # edges without properties: by their ends
            old_pairs = {(a, b) for a, b, _ in old_edges}
            new_pairs = {(a, b) for a, b, _ in edges}
            writer.delete_edges(rel, [(a, b, {}) for a, b in sorted(old_pairs - new_pairs)])
            writer.create_edges(rel, [(a, b, {}) for a, b in sorted(new_pairs - old_pairs)])
    return graph_counts(server, graph)


def graph_counts(server: FalkorDBServer, graph: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for label in NODE_LABELS:
        rows = server.query(graph, f"MATCH (x:{label}) RETURN count(x)").result_set
        out[label] = int(rows[0][0])
    for rel in REL_TYPES:
        rows = server.query(graph, f"MATCH ()-[x:{rel}]->() RETURN count(x)").result_set
        out[rel] = int(rows[0][0])
    return out


def _vectors(tables: dict[str, pa.Table], name: str) -> Vectors | None:
    if name not in tables or not tables[name].num_rows:
        return None
    ids, matrix = vectors_from_table(tables[name])
    return Vectors(ids, matrix)


def _present(row: dict[str, Any]) -> dict[str, Any]:
    """A row without its nulls: the server stores no null property."""
    return {k: v for k, v in row.items() if v is not None}


def _by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(row["id"]): _present(row) for row in rows}


def _pairs(sources: Any, targets: Any) -> list[tuple[str, str, dict[str, Any]]]:
    return [(a, b, {}) for a, b in zip(column_values(sources), column_values(targets), strict=True)]


def _community_rows(tables: dict[str, pa.Table]) -> list[dict[str, Any]]:
    """The community node (the embedded store's columns) with its report's other fields."""
    reports = tables["community_reports"]
    by_id = dict(
        zip(
            column_values(reports["community_id"]),
            zip(table_rows(reports), report_search_texts(reports), strict=True),
            strict=True,
        )
    )
    rows = []
    for c in table_rows(tables["communities"]):
        report, text = by_id.get(c["id"], ({}, ""))
        rows.append(
            {
                **c,
                "title": report.get("title", ""),
                "summary": report.get("summary", ""),
                "rating": float(report.get("rating", 0.0)),
                "chunk_ids": report.get("chunk_ids", []),
                "doc_ids": report.get("doc_ids", []),
                "has_report": bool(report),
                "report_level": report.get("level", c["level"]),
                "key_entities": report.get("key_entities", []),
                "key_relationships": report.get("key_relationships", []),
                "claims_json": report.get("claims_json", "[]"),
                "search_text": text,
            }
        )
    return rows


class _Writer:
    def __init__(self, server: FalkorDBServer, graph: str) -> None:
        self.server = server
        self.graph = graph

    def _write(self, cypher: str, rows: Sequence[Any]) -> None:
        for start in range(0, len(rows), BATCH):
            batch = list(rows[start : start + BATCH])
            self.server.query(self.graph, cypher, {"rows": batch}, False)

    def create_indexes(self, content: GraphContent) -> None:
        """Before any data, so every index is complete when the last batch is written."""
        statements = [f"CREATE INDEX FOR (n:{label}) ON (n.id)" for label in NODE_LABELS]
        statements += ["CREATE INDEX FOR (n:Conflict) ON (n.id)"]
        statements += ["CREATE INDEX FOR (n:Chunk) ON (n.doc_id)"]
        for (label, prop), vectors in content.vectors.items():
            dim = vectors.dimension
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

    def _with_vectors(
        self, label: str, rows: list[dict[str, Any]], content: GraphContent
    ) -> list[dict[str, Any]]:
        props = content.vector_props(label)
        return [
            {"p": row, "v": {p: content.vectors[(label, p)].get(row["id"]) for p in props}}
            for row in rows
        ]

    def _set_vectors(self, label: str, content: GraphContent) -> str:
        """``SET`` items for the label's vectors (a missing one stays absent: vecf32(null)
        is null, and setting null removes a property)."""
        return "".join(
            f", n.{p} = CASE WHEN row.v.{p} IS NULL THEN NULL ELSE vecf32(row.v.{p}) END"
            for p in content.vector_props(label)
        )

    def create_nodes(self, label: str, rows: list[dict[str, Any]], content: GraphContent) -> None:
        self._write(
            f"UNWIND $rows AS row CREATE (n:{label}) SET n = row.p"
            + self._set_vectors(label, content),
            self._with_vectors(label, rows, content),
        )

    def replace_nodes(self, label: str, rows: list[dict[str, Any]], content: GraphContent) -> None:
        """Every property replaced (``SET n = map`` drops the vectors: they are set again);
        the node and its edges stay."""
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.p.id}}) SET n = row.p"
            + self._set_vectors(label, content),
            self._with_vectors(label, rows, content),
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

    def vectors(self, label: str, prop: str, vectors: dict[str, list[float]]) -> None:
        rows = [{"id": k, "v": v} for k, v in sorted(vectors.items())]
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.id}}) SET n.{prop} = vecf32(row.v)",
            rows,
        )

    def _ends(self, rel: str) -> tuple[str, str]:
        ends = GRAPH_TABLE[rel].ends
        assert ends is not None
        return ends

    def create_edges(self, rel: str, edges: list[tuple[str, str, dict[str, Any]]]) -> None:
        src, dst = self._ends(rel)
        self._write(
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.a}}), (b:{dst} {{id: row.b}}) "
            f"CREATE (a)-[r:{rel}]->(b) SET r = row.p",
            [{"a": a, "b": b, "p": p} for a, b, p in edges],
        )

    def delete_edges(self, rel: str, edges: list[tuple[str, str, dict[str, Any]]]) -> None:
        src, dst = self._ends(rel)
        match = "{id: row.id}" if rel == "RELATED" else ""
        self._write(
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.a}})-[r:{rel} {match}]->"
            f"(b:{dst} {{id: row.b}}) DELETE r",
            [{"a": a, "b": b, "id": p.get("id")} for a, b, p in edges],
        )
