"""What a run's graph holds on a FalkorDB server, read from its tables one label at a time.

Nodes and edges come in batches made from slices of the run's Arrow tables, so a writer holds
one batch of Python rows at a time, never the whole graph (issue 33: the graph stage's peak
grew by 144 MB per 1,000 passages when every node and edge was a Python row at once). An update
compares two runs' labels by digests kept in Arrow columns, and only the rows that differ are
made into Python rows again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import document_headers, in_context, normalise_name, page_keys
from graphgate.core.types import GRAPH_TABLE, NODE_LABELS, table_rows, vector_matrix
from graphgate.store.build import entity_search_text, node_table, report_search_texts

BATCH = 500
# Every label the server's graph holds: the graph tables' nodes, and the conflicts found.
LABELS = (*NODE_LABELS, "Conflict")
# (label, vector property, artifact): FalkorDB's own vector indexes, cosine.
VECTOR_INDEXES = (
    ("Chunk", "embedding", "chunk_vectors"),
    ("Entity", "embedding", "entity_vectors"),
    ("Entity", "name_embedding", "entity_name_vectors"),
    ("Community", "embedding", "community_vectors"),
)
Edge = tuple[str, str, dict[str, Any]]


class Vectors:
    """One artifact's vectors: its ids as an Arrow array and its matrix (a list of floats is
    made only for the rows sent to the server)."""

    def __init__(self, table: pa.Table) -> None:
        self.ids = table.column("id").combine_chunks().cast(pa.string())
        self.matrix = vector_matrix(table)

    @property
    def dimension(self) -> int:
        return int(self.matrix.shape[1])

    def rows_of(self, ids: Sequence[str]) -> list[int | None]:
        """Each id's row in the matrix (None: no vector)."""
        at = pc.index_in(pa.array(ids, pa.string()), value_set=self.ids)
        return list(at.to_pylist())

    def lists(self, ids: Sequence[str]) -> list[list[float] | None]:
        return [None if i is None else self.matrix[i].tolist() for i in self.rows_of(ids)]


def vectors_differing(ids: Sequence[str], new: Vectors | None, old: Vectors | None) -> list[str]:
    """Of ``ids``, those whose vector in ``new`` is not bit for bit the one in ``old`` (or
    that only one of the two has)."""
    mine = new.rows_of(ids) if new is not None else [None] * len(ids)
    theirs = old.rows_of(ids) if old is not None else [None] * len(ids)
    found = {
        i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if (a is None) != (b is None)
    }
    paired = [
        (i, a, b)
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
        if a is not None and b is not None
    ]
    if paired and new is not None and old is not None:
        here = new.matrix[[a for _, a, _ in paired]].view(np.uint32)
        there = old.matrix[[b for _, _, b in paired]].view(np.uint32)
        unequal = (here != there).any(axis=1)
        found.update(i for (i, _, _), differs in zip(paired, unequal, strict=True) if differs)
    return [ids[i] for i in sorted(found)]


def label_vectors(tables: Mapping[str, pa.Table], label: str) -> dict[str, Vectors]:
    """The label's vectors by property (an artifact missing or empty: none)."""
    found = {}
    for lab, prop, artifact in VECTOR_INDEXES:
        if lab != label:
            continue
        table = tables.get(artifact)
        if table is not None and table.num_rows:
            found[prop] = Vectors(table)
    return found


def vector_dimensions(tables: Mapping[str, pa.Table]) -> dict[tuple[str, str], int]:
    """(label, property) -> dimension, for each vector index the run has vectors for."""
    found = {}
    for label, prop, artifact in VECTOR_INDEXES:
        table = tables.get(artifact)
        if table is not None and table.num_rows:
            found[(label, prop)] = int(table.schema.field("vector").type.list_size)
    return found


# -- nodes ------------------------------------------------------------------------------------
def node_batches(
    tables: Mapping[str, pa.Table], label: str, context_fields: Sequence[str] = ()
) -> Iterator[list[dict[str, Any]]]:
    """The label's nodes, their properties without nulls (the server stores no null), in the
    artifact's row order, :data:`BATCH` at a time."""
    if label == "Document":
        yield from _batches(tables["documents"], _document_rows)
    elif label == "Chunk":
        headers = document_headers(
            table_rows(tables["documents"].select(["id", "title", "metadata_json"])),
            context_fields,
        )
        yield from _batches(tables["chunks"], lambda s, at: _chunk_rows(s, at, headers))
    elif label == "Entity":
        yield from _batches(tables["entities"], _entity_rows)
    elif label == "Community":
        reports = tables["community_reports"]
        yield from _batches(tables["communities"], lambda s, _: _community_rows(s, reports))
    elif label == "Conflict":
        conflicts = tables.get("conflicts")
        if conflicts is not None:
            yield from _batches(conflicts, lambda s, _: table_rows(s))
    else:
        raise ValueError(f"the graph has no label {label!r}")


def _batches(table: pa.Table, rows: Any) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, table.num_rows, BATCH):
        yield [_present(row) for row in rows(table.slice(start, BATCH), start)]


def _document_rows(docs: pa.Table, _: int) -> list[dict[str, Any]]:
    rows = table_rows(node_table(docs, GRAPH_TABLE["Document"]))
    raw = table_rows(docs.select(["title", "metadata_json"]))
    for doc, row in zip(rows, raw, strict=True):
        doc["metadata_json"] = row["metadata_json"]
        doc["page_keys"] = sorted(page_keys(row["title"]))
    return rows


def _chunk_rows(chunks: pa.Table, start: int, headers: dict[str, str]) -> list[dict[str, Any]]:
    rows = table_rows(node_table(chunks, GRAPH_TABLE["Chunk"]))
    raw = table_rows(chunks.select(["doc_id", "text"]))
    # ``ordinal``: the artifact's row order, the order the embedded store lists them in;
    # ``search_text``: the chunk in its context, as it was embedded and keyword-indexed.
    for i, (chunk, row) in enumerate(zip(rows, raw, strict=True)):
        chunk["search_text"] = in_context(headers.get(row["doc_id"], ""), row["text"])
        chunk["ordinal"] = start + i
    return rows


def _entity_rows(entities: pa.Table, start: int) -> list[dict[str, Any]]:
    rows = table_rows(node_table(entities, GRAPH_TABLE["Entity"]))
    raw = table_rows(entities.select(["name", "aliases", "description"]))
    texts = entity_search_text(
        [r["name"] for r in raw], [r["aliases"] for r in raw], [r["description"] for r in raw]
    )
    for i, (entity, text) in enumerate(zip(rows, texts, strict=True)):
        entity["search_text"] = text
        entity["ordinal"] = start + i
        keys = {normalise_name(s) for s in [entity["name"], *entity["aliases"]]}
        entity["name_keys"] = sorted(k for k in keys if k)
    return rows


def _community_rows(communities: pa.Table, reports: pa.Table) -> list[dict[str, Any]]:
    """The community node (the embedded store's columns) with its report's other fields."""
    at = pc.index_in(communities["id"], value_set=reports["community_id"].combine_chunks())
    found = pc.drop_null(at)
    taken = reports.take(found) if len(found) else reports.slice(0, 0)
    report_rows = iter(zip(table_rows(taken), report_search_texts(taken), strict=True))
    rows = []
    for c, index in zip(table_rows(communities), at.to_pylist(), strict=True):
        report, text = next(report_rows) if index is not None else ({}, "")
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


def _present(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if v is not None}


# -- edges ------------------------------------------------------------------------------------
def edge_table(tables: Mapping[str, pa.Table], rel: str) -> pa.Table:
    """The relationship's edges as columns ``a`` (source id) and ``b`` (target id), and for
    RELATED its properties, in the order the artifacts list them."""
    if rel == "PART_OF":
        chunks = tables["chunks"]
        return pa.table({"a": chunks["id"], "b": chunks["doc_id"]})
    if rel == "MENTIONS":
        return _flattened(tables["entities"], "chunk_ids")
    if rel == "RELATED":
        rels = tables["relationships"]
        props = node_table(rels, GRAPH_TABLE["RELATED"])
        columns = {"a": rels["source_id"], "b": rels["target_id"]}
        return pa.table(columns | {name: props[name] for name in props.column_names})
    communities = tables["communities"]
    if rel == "IN_COMMUNITY":
        return _flattened(communities, "members")
    if rel == "PARENT_OF":
        children = communities.filter(pc.invert(pc.is_null(communities["parent"])))
        return pa.table({"a": children["parent"], "b": children["id"]})
    raise ValueError(f"the graph has no relationship {rel!r}")


def _flattened(table: pa.Table, column: str) -> pa.Table:
    """Each (list item, row id) pair: a member or chunk of each row, to the row."""
    lists = table[column]
    if not table.num_rows:
        return pa.table({"a": pa.array([], pa.string()), "b": pa.array([], pa.string())})
    return pa.table(
        {"a": pc.list_flatten(lists), "b": pc.take(table["id"], pc.list_parent_indices(lists))}
    )


def edge_rows(edges: pa.Table) -> Iterator[list[Edge]]:
    """An :func:`edge_table`'s rows, :data:`BATCH` at a time."""
    for start in range(0, edges.num_rows, BATCH):
        rows = table_rows(edges.slice(start, BATCH))
        yield [(row.pop("a"), row.pop("b"), _present(row)) for row in rows]


# -- differences ------------------------------------------------------------------------------
def _digest(value: Any) -> bytes:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def node_digests(batches: Iterator[list[dict[str, Any]]]) -> pa.Table:
    """Per node: its id, a digest of its properties, and one of them without ``ordinal``
    (a node only moved in the artifact's order gets its ordinal set, not rewritten)."""
    ids: list[str] = []
    whole: list[bytes] = []
    bare: list[bytes] = []
    parts = []
    for batch in batches:
        for row in batch:
            ids.append(str(row["id"]))
            whole.append(_digest(row))
            bare.append(_digest({**row, "ordinal": None}))
        parts.append(pa.table({"id": ids, "whole": whole, "bare": bare}))
        ids, whole, bare = [], [], []
    schema = pa.schema([("id", pa.string()), ("whole", pa.binary()), ("bare", pa.binary())])
    return pa.concat_tables(parts).cast(schema) if parts else schema.empty_table()


class NodeChanges:
    """How a label's nodes differ between a parent run and a new one (ids sorted)."""

    def __init__(self, before: pa.Table, after: pa.Table) -> None:
        self.gone = _sorted(pc.filter(before["id"], _absent(before["id"], after["id"])))
        self.added = _sorted(pc.filter(after["id"], _absent(after["id"], before["id"])))
        both = after.join(before, "id", join_type="inner", right_suffix="_before")
        differ = pc.not_equal(both["whole"], both["whole_before"])
        moved = pc.and_(differ, pc.equal(both["bare"], both["bare_before"]))
        self.moved = set(pc.filter(both["id"], moved).to_pylist())
        self.replaced = set(pc.filter(both["id"], pc.and_(differ, pc.invert(moved))).to_pylist())
        self.kept = _sorted(pc.filter(both["id"], pc.invert(differ)))


def _absent(values: pa.ChunkedArray, others: pa.ChunkedArray) -> pa.ChunkedArray:
    return pc.invert(pc.is_in(values, value_set=others.combine_chunks()))


def _sorted(ids: pa.ChunkedArray | pa.Array) -> list[str]:
    return sorted(str(i) for i in ids.to_pylist())


def edge_keys(edges: pa.Table, rel: str) -> pa.ChunkedArray:
    """What identifies an edge when two runs are compared: for RELATED (edges with ids) a
    digest of the whole edge, for the others its two ends."""
    if rel != "RELATED":
        return pc.binary_join_element_wise(edges["a"], edges["b"], "\x00")
    keys: list[bytes] = []
    for batch in edge_rows(edges):
        keys.extend(_digest([a, b, p]) for a, b, p in batch)
    return pa.chunked_array([pa.array(keys, pa.binary())])


def edges_not_in(
    edges: pa.Table, keys: pa.ChunkedArray, others: pa.ChunkedArray, rel: str
) -> list[Edge]:
    """The edges whose key ``others`` lacks, sorted by their ends (once each for edges
    without properties, as a set of pairs)."""
    missing = edges.filter(_absent(keys, others))
    rows = [edge for batch in edge_rows(missing) for edge in batch]
    if rel != "RELATED":
        rows = [(a, b, {}) for a, b in sorted({(a, b) for a, b, _ in rows})]
    else:
        rows.sort(key=lambda edge: str(edge[2].get("id")))
    return rows
