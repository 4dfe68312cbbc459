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
from typing import Any

import pyarrow as pa

from graphgate.store.build import (
    chunk_search_texts,
    entity_search_text,
    node_table,
    report_search_texts,
)
from graphgate.store.falkordb_client import FalkorDBServer
from graphgate.text import normalise_name, page_keys
from graphgate.types import GRAPH_TABLE, GRAPH_TABLES, vectors_from_table

BATCH = 500
NODE_LABELS = tuple(t.label for t in GRAPH_TABLES if t.ends is None)
REL_TYPES = tuple(t.label for t in GRAPH_TABLES if t.ends is not None)
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


def write_falkordb_graph(
    server: FalkorDBServer,
    graph: str,
    tables: dict[str, pa.Table],
    context_fields: Sequence[str] = (),
) -> dict[str, int]:
    """A complete graph named ``graph`` from a run's tables (replacing one left by a killed
    attempt); its counts, by label, as the embedded store reports them."""
    server.drop(graph)
    writer = _Writer(server, graph)
    writer.create_indexes(tables)
    documents = node_table(tables["documents"], GRAPH_TABLE["Document"]).to_pylist()
    for doc, row in zip(documents, tables["documents"].to_pylist(), strict=True):
        doc["metadata_json"] = row["metadata_json"]
        doc["page_keys"] = sorted(page_keys(row["title"]))
    writer.nodes("Document", documents)
    chunks = node_table(tables["chunks"], GRAPH_TABLE["Chunk"]).to_pylist()
    # ``ordinal``: the artifact's row order, the order the embedded store lists them in.
    for i, (chunk, text) in enumerate(
        zip(chunks, chunk_search_texts(tables, context_fields), strict=True)
    ):
        chunk["search_text"] = text
        chunk["ordinal"] = i
    writer.nodes("Chunk", chunks, _vectors(tables, "chunk_vectors"))
    entities = tables["entities"]
    entity_rows = node_table(entities, GRAPH_TABLE["Entity"]).to_pylist()
    texts = entity_search_text(
        entities["name"].to_pylist(),
        entities["aliases"].to_pylist(),
        entities["description"].to_pylist(),
    )
    for i, (entity, text) in enumerate(zip(entity_rows, texts, strict=True)):
        entity["search_text"] = text
        entity["ordinal"] = i
        keys = {normalise_name(s) for s in [entity["name"], *entity["aliases"]]}
        entity["name_keys"] = sorted(k for k in keys if k)
    writer.nodes("Entity", entity_rows, _vectors(tables, "entity_vectors"))
    writer.vectors("Entity", "name_embedding", _vectors(tables, "entity_name_vectors"))
    writer.nodes("Community", _community_rows(tables), _vectors(tables, "community_vectors"))
    if "conflicts" in tables:
        writer.nodes("Conflict", tables["conflicts"].to_pylist())
    chunk_table = tables["chunks"]
    writer.edges("PART_OF", chunk_table["id"].to_pylist(), chunk_table["doc_id"].to_pylist())
    ids, chunk_lists = entities["id"].to_pylist(), entities["chunk_ids"].to_pylist()
    pairs = [(c, e) for e, cs in zip(ids, chunk_lists, strict=True) for c in cs]
    writer.edges("MENTIONS", [c for c, _ in pairs], [e for _, e in pairs])
    related = GRAPH_TABLE["RELATED"]
    rels = tables["relationships"]
    props = node_table(rels, related).to_pylist()
    writer.edges("RELATED", rels["source_id"].to_pylist(), rels["target_id"].to_pylist(), props)
    communities = tables["communities"].to_pylist()
    members = [(m, c["id"]) for c in communities for m in c["members"]]
    writer.edges("IN_COMMUNITY", [m for m, _ in members], [c for _, c in members])
    children = [c for c in communities if c["parent"] is not None]
    writer.edges("PARENT_OF", [c["parent"] for c in children], [c["id"] for c in children])
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


def _vectors(tables: dict[str, pa.Table], name: str) -> dict[str, list[float]]:
    if name not in tables or not tables[name].num_rows:
        return {}
    ids, matrix = vectors_from_table(tables[name])
    return dict(zip(ids, matrix.tolist(), strict=True))


def _community_rows(tables: dict[str, pa.Table]) -> list[dict[str, Any]]:
    """The community node (the embedded store's columns) with its report's other fields."""
    reports = tables["community_reports"]
    by_id = dict(
        zip(
            reports["community_id"].to_pylist(),
            zip(reports.to_pylist(), report_search_texts(reports), strict=True),
            strict=True,
        )
    )
    rows = []
    for c in tables["communities"].to_pylist():
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

    def _write(self, cypher: str, rows: list[dict[str, Any]]) -> None:
        for start in range(0, len(rows), BATCH):
            self.server.query(self.graph, cypher, {"rows": rows[start : start + BATCH]}, False)

    def create_indexes(self, tables: dict[str, pa.Table]) -> None:
        """Before any data, so every index is complete when the last batch is written."""
        statements = [f"CREATE INDEX FOR (n:{label}) ON (n.id)" for label in NODE_LABELS]
        statements += ["CREATE INDEX FOR (n:Conflict) ON (n.id)"]
        statements += ["CREATE INDEX FOR (n:Chunk) ON (n.doc_id)"]
        for label, prop, artifact in VECTOR_INDEXES:
            if artifact in tables and tables[artifact].num_rows:
                dim = tables[artifact].schema.field("vector").type.list_size
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

    def nodes(
        self,
        label: str,
        rows: list[dict[str, Any]],
        vectors: dict[str, list[float]] | None = None,
    ) -> None:
        vectors = vectors or {}
        props = [{k: v for k, v in row.items() if v is not None} for row in rows]
        with_vector = [{"p": p, "v": vectors[p["id"]]} for p in props if p["id"] in vectors]
        without = [{"p": p} for p in props if p["id"] not in vectors]
        self._write(
            f"UNWIND $rows AS row CREATE (n:{label}) SET n = row.p, n.embedding = vecf32(row.v)",
            with_vector,
        )
        self._write(f"UNWIND $rows AS row CREATE (n:{label}) SET n = row.p", without)

    def vectors(self, label: str, prop: str, vectors: dict[str, list[float]]) -> None:
        rows = [{"id": k, "v": v} for k, v in vectors.items()]
        self._write(
            f"UNWIND $rows AS row MATCH (n:{label} {{id: row.id}}) SET n.{prop} = vecf32(row.v)",
            rows,
        )

    def edges(
        self,
        rel: str,
        sources: list[str],
        targets: list[str],
        props: list[dict[str, Any]] | None = None,
    ) -> None:
        src, dst = GRAPH_TABLE[rel].ends or ("", "")
        given = props if props is not None else [{} for _ in sources]
        rows = [
            {"a": a, "b": b, "p": {k: v for k, v in p.items() if v is not None}}
            for a, b, p in zip(sources, targets, given, strict=True)
        ]
        self._write(
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.a}}), (b:{dst} {{id: row.b}}) "
            f"CREATE (a)-[r:{rel}]->(b) SET r = row.p",
            rows,
        )
