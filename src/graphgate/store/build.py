"""Writing a run's tables into the embedded store, and opening it again for queries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.memory import release_memory
from graphgate.core.text import document_headers, in_context
from graphgate.core.types import (
    GRAPH_TABLE,
    SCHEMAS,
    CommunityNode,
    GraphTable,
    vectors_from_table,
)
from graphgate.store.base import BuiltAhead, nothing_built_ahead
from graphgate.store.ladybug_store import LadybugGraphStore
from graphgate.store.text import build_text_index, open_text_index
from graphgate.store.vectors import build_vector_index, open_vector_index

# Keyword indexes a second process may build ahead of the graph stage, named by kind.
KEYWORD_AHEAD = {"chunk": ("chunks", "documents"), "entity": ("entities",)}


def entity_search_text(
    names: list[str], aliases: list[list[str]], descriptions: list[str]
) -> list[str]:
    # The name twice so a name match outranks a word in someone else's description.
    return [
        f"{n} {n} {' '.join(a)} {d}" for n, a, d in zip(names, aliases, descriptions, strict=True)
    ]


def node_table(table: pa.Table, spec: GraphTable) -> pa.Table:
    """An artifact's columns as the graph's node table declares them (kept, renamed)."""
    return table.select(spec.fields()).rename_columns([name for name, _ in spec.columns()])


def write_store(
    folder: Path,
    tables: Mapping[str, pa.Table],
    exact_below: int,
    context_fields: Sequence[str] = (),
    built_ahead: BuiltAhead = nothing_built_ahead,
) -> dict[str, int]:
    """The graph, then its search indexes: one after the other, each table read when its
    step needs it (``tables`` may read the run's artifacts on demand), so the peak is the
    larger step's, not their sum (in parallel they took a tenth less time and a fifth more
    memory)."""
    store = LadybugGraphStore(folder)
    try:
        _write_graph(store, tables)
        counts = store.counts()
    finally:
        store.close()
    release_memory()  # what the bulk load left in the C heap, before the indexes' turn
    build_search_indexes(folder, tables, exact_below, context_fields, built_ahead)
    return counts


def _write_graph(store: LadybugGraphStore, tables: Mapping[str, pa.Table]) -> None:
    store.upsert_nodes("Document", node_table(tables["documents"], GRAPH_TABLE["Document"]))
    chunks = tables["chunks"]
    store.upsert_nodes("Chunk", node_table(chunks, GRAPH_TABLE["Chunk"]))
    store.upsert_edges("PART_OF", pa.table({"from": chunks["id"], "to": chunks["doc_id"]}))
    del chunks
    entities = tables["entities"]
    store.upsert_nodes("Entity", node_table(entities, GRAPH_TABLE["Entity"]))
    if entities.num_rows:
        chunk_ids = entities["chunk_ids"]
        mentions = pa.table(
            {
                "from": pc.list_flatten(chunk_ids),
                "to": pc.take(entities["id"], pc.list_parent_indices(chunk_ids)),
            }
        )
        store.upsert_edges("MENTIONS", mentions)
    del entities
    related = GRAPH_TABLE["RELATED"]
    rels = tables["relationships"]
    edges = rels.select(["source_id", "target_id", *related.fields()])
    store.upsert_edges(
        "RELATED", edges.rename_columns(["from", "to", *(c for c, _ in related.columns())])
    )
    del rels, edges
    _write_communities(store, tables)


def community_nodes(communities: pa.Table, reports: pa.Table) -> pa.Table:
    """Each community with its report's fields (a community without a report: empty ones), as
    the graph's Community table; joined column by column in Arrow."""
    schema = SCHEMAS[CommunityNode]
    at = pc.index_in(communities["id"], value_set=reports["community_id"].combine_chunks())
    missing = {
        "title": pa.scalar("", pa.string()),
        "summary": pa.scalar("", pa.string()),
        "rating": pa.scalar(0.0, pa.float64()),
        "chunk_ids": pa.scalar([], schema.field("chunk_ids").type),
        "doc_ids": pa.scalar([], schema.field("doc_ids").type),
    }
    columns = {name: communities[name] for name in ("id", "level", "parent", "size")} | {
        name: pc.fill_null(pc.take(reports[name], at), empty) for name, empty in missing.items()
    }
    return pa.table(columns).cast(schema)


def _write_communities(store: LadybugGraphStore, tables: Mapping[str, pa.Table]) -> None:
    communities = tables["communities"]
    if not communities.num_rows:
        return
    store.upsert_nodes("Community", community_nodes(communities, tables["community_reports"]))
    members = communities["members"]
    store.upsert_edges(
        "IN_COMMUNITY",
        pa.table(
            {
                "from": pc.list_flatten(members),
                "to": pc.take(communities["id"], pc.list_parent_indices(members)),
            }
        ),
    )
    children = communities.filter(pc.invert(pc.is_null(communities["parent"])))
    store.upsert_edges("PARENT_OF", pa.table({"from": children["parent"], "to": children["id"]}))


def build_search_indexes(
    folder: Path,
    tables: Mapping[str, pa.Table],
    exact_below: int,
    context_fields: Sequence[str] = (),
    built_ahead: BuiltAhead = nothing_built_ahead,
) -> None:
    """Vector and keyword indexes beside the graph; also used to rebuild them when missing.
    A keyword index of :data:`KEYWORD_AHEAD` that ``built_ahead`` reports built is kept."""
    _vector_index(tables, "chunk_vectors", folder / "vectors" / "chunk", exact_below)
    if not built_ahead("chunk"):
        build_keyword_index(folder, "chunk", tables, context_fields)
    _vector_index(tables, "entity_vectors", folder / "vectors" / "entity", exact_below)
    _vector_index(tables, "entity_name_vectors", folder / "vectors" / "entity_name", exact_below)
    if not built_ahead("entity"):
        build_keyword_index(folder, "entity", tables, context_fields)
    if _vector_index(tables, "community_vectors", folder / "vectors" / "community", exact_below):
        reports = tables["community_reports"]
        build_text_index(
            reports["community_id"].to_pylist(),
            report_search_texts(reports),
            folder / "text" / "community",
        )


def _vector_index(
    tables: Mapping[str, pa.Table], name: str, folder: Path, exact_below: int
) -> bool:
    """The vector index of artifact ``name`` when the run has rows of it (False: none). In a
    function of its own: its matrix and index are gone before the next index is built."""
    if name not in tables:
        return False
    table = tables[name]
    if not table.num_rows and name != "chunk_vectors":
        return False
    ids, matrix = vectors_from_table(table)
    del table
    build_vector_index(ids, matrix, folder, exact_below)
    del ids, matrix
    release_memory()
    return True


def build_keyword_index(
    folder: Path, kind: str, tables: Mapping[str, pa.Table], context_fields: Sequence[str] = ()
) -> None:
    """The keyword index of chunks (from ``chunks`` and ``documents``: chunks are indexed in
    their context, as they were embedded) or of entities (from ``entities``): the two that
    can be built before the graph stage, as soon as those artifacts are written."""
    if kind == "chunk":
        ids = tables["chunks"]["id"].to_pylist()
        texts = chunk_search_texts(tables, context_fields)
    elif kind == "entity":
        entities = tables["entities"]
        ids = entities["id"].to_pylist()
        texts = entity_search_text(
            entities["name"].to_pylist(),
            entities["aliases"].to_pylist(),
            entities["description"].to_pylist(),
        )
    else:
        raise ValueError(f"no keyword index of {kind!r} is built ahead")
    build_text_index(ids, texts, folder / "text" / kind)


def chunk_search_texts(tables: Mapping[str, pa.Table], context_fields: Sequence[str]) -> list[str]:
    """Chunks are keyword-indexed in their context (title, headers), as they were embedded."""
    chunks = tables["chunks"]
    headers = document_headers(
        tables["documents"].select(["id", "title", "metadata_json"]).to_pylist(), context_fields
    )
    return [
        in_context(headers.get(doc, ""), text)
        for doc, text in zip(chunks["doc_id"].to_pylist(), chunks["text"].to_pylist(), strict=True)
    ]


def report_search_texts(reports: pa.Table) -> list[str]:
    return [
        f"{t}. {s}"
        for t, s in zip(reports["title"].to_pylist(), reports["summary"].to_pylist(), strict=True)
    ]


def search_indexes_present(folder: Path) -> bool:
    return all(
        (folder / sub / "ids.json").exists()
        for sub in ("vectors/chunk", "text/chunk", "text/entity")
    )


def open_store(folder: Path, read_cache_mb: int = 0) -> LadybugGraphStore:
    """A read-only store with its search indexes attached (``read_cache_mb``: its page
    cache, 0 for LadybugDB's default)."""
    store = LadybugGraphStore(folder, read_only=True, cache_mb=read_cache_mb)
    store.connection()
    store.attach_vector_index("chunk", open_vector_index(folder / "vectors" / "chunk"))
    for kind in ("entity", "entity_name", "community"):
        if (folder / "vectors" / kind / "ids.json").exists():
            store.attach_vector_index(kind, open_vector_index(folder / "vectors" / kind))
    if (folder / "text" / "community" / "ids.json").exists():
        store.attach_text_index("community", open_text_index(folder / "text" / "community"))
    store.attach_text_index("chunk", open_text_index(folder / "text" / "chunk"))
    store.attach_text_index("entity", open_text_index(folder / "text" / "entity"))
    return store
