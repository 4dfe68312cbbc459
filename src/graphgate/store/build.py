"""Writing a run's tables into the embedded store, and opening it again for queries."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from graphgate.store.ladybug_store import LadybugGraphStore
from graphgate.store.text import build_text_index, open_text_index
from graphgate.store.vectors import build_vector_index, open_vector_index
from graphgate.types import vectors_from_table


def entity_search_text(
    names: list[str], aliases: list[list[str]], descriptions: list[str]
) -> list[str]:
    # The name twice so a name match outranks a word in someone else's description.
    return [
        f"{n} {n} {' '.join(a)} {d}" for n, a, d in zip(names, aliases, descriptions, strict=True)
    ]


def write_store(folder: Path, tables: dict[str, pa.Table], exact_below: int) -> dict[str, int]:
    store = LadybugGraphStore(folder)
    try:
        docs = tables["documents"].select(
            ["id", "title", "sha256", "version", "byte_size", "source_path"]
        )
        store.upsert_nodes("Document", docs)
        chunks = tables["chunks"]
        # `index`, `start` and `end` are Cypher words, so the graph spells them out.
        store.upsert_nodes(
            "Chunk",
            chunks.select(
                ["id", "doc_id", "index", "text", "start", "end", "n_tokens"]
            ).rename_columns(
                ["id", "doc_id", "position", "text", "start_char", "end_char", "n_tokens"]
            ),
        )
        store.upsert_edges("PART_OF", pa.table({"from": chunks["id"], "to": chunks["doc_id"]}))
        entities = tables["entities"]
        store.upsert_nodes("Entity", entities)
        if entities.num_rows:
            chunk_ids = entities["chunk_ids"]
            mentions = pa.table(
                {
                    "from": pc.list_flatten(chunk_ids),
                    "to": pc.take(entities["id"], pc.list_parent_indices(chunk_ids)),
                }
            )
            store.upsert_edges("MENTIONS", mentions)
        rels = tables["relationships"]
        edge_columns = [c for c in rels.column_names if c not in {"source_id", "target_id"}]
        related = rels.select(["source_id", "target_id", *edge_columns])
        store.upsert_edges("RELATED", related.rename_columns(["from", "to", *edge_columns]))
        _write_communities(store, tables)
        build_search_indexes(folder, tables, exact_below)
        return store.counts()
    finally:
        store.close()


def _write_communities(store: LadybugGraphStore, tables: dict[str, pa.Table]) -> None:
    communities = tables["communities"]
    if not communities.num_rows:
        return
    reports = {r["community_id"]: r for r in tables["community_reports"].to_pylist()}
    rows = []
    for c in communities.to_pylist():
        r = reports.get(c["id"], {})
        rows.append(
            {
                "id": c["id"],
                "level": c["level"],
                "parent": c["parent"],
                "size": c["size"],
                "title": r.get("title", ""),
                "summary": r.get("summary", ""),
                "rating": float(r.get("rating", 0.0)),
                "chunk_ids": r.get("chunk_ids", []),
                "doc_ids": r.get("doc_ids", []),
            }
        )
    store.upsert_nodes("Community", pa.Table.from_pylist(rows, schema=_COMMUNITY_NODE))
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


_COMMUNITY_NODE = pa.schema(
    [
        ("id", pa.string()),
        ("level", pa.int64()),
        ("parent", pa.string()),
        ("size", pa.int64()),
        ("title", pa.string()),
        ("summary", pa.string()),
        ("rating", pa.float64()),
        ("chunk_ids", pa.list_(pa.string())),
        ("doc_ids", pa.list_(pa.string())),
    ]
)


def build_search_indexes(folder: Path, tables: dict[str, pa.Table], exact_below: int) -> None:
    """Vector and keyword indexes beside the graph; also used to rebuild them when missing."""
    ids, matrix = vectors_from_table(tables["chunk_vectors"])
    build_vector_index(ids, matrix, folder / "vectors" / "chunk", exact_below)
    chunks = tables["chunks"]
    build_text_index(
        chunks["id"].to_pylist(), chunks["text"].to_pylist(), folder / "text" / "chunk"
    )
    entities = tables["entities"]
    if "entity_vectors" in tables and tables["entity_vectors"].num_rows:
        ids, matrix = vectors_from_table(tables["entity_vectors"])
        build_vector_index(ids, matrix, folder / "vectors" / "entity", exact_below)
    texts = entity_search_text(
        entities["name"].to_pylist(),
        entities["aliases"].to_pylist(),
        entities["description"].to_pylist(),
    )
    build_text_index(entities["id"].to_pylist(), texts, folder / "text" / "entity")
    if "community_vectors" in tables and tables["community_vectors"].num_rows:
        ids, matrix = vectors_from_table(tables["community_vectors"])
        build_vector_index(ids, matrix, folder / "vectors" / "community", exact_below)
        reports = tables["community_reports"]
        report_texts = [
            f"{t}. {s}"
            for t, s in zip(
                reports["title"].to_pylist(), reports["summary"].to_pylist(), strict=True
            )
        ]
        build_text_index(
            reports["community_id"].to_pylist(), report_texts, folder / "text" / "community"
        )


def search_indexes_present(folder: Path) -> bool:
    return all(
        (folder / sub / "ids.json").exists()
        for sub in ("vectors/chunk", "text/chunk", "text/entity")
    )


def open_store(folder: Path) -> LadybugGraphStore:
    """A read-only store with its search indexes attached."""
    store = LadybugGraphStore(folder, read_only=True)
    store.connection()
    store.attach_vector_index("chunk", open_vector_index(folder / "vectors" / "chunk"))
    for kind in ("entity", "community"):
        if (folder / "vectors" / kind / "ids.json").exists():
            store.attach_vector_index(kind, open_vector_index(folder / "vectors" / kind))
    if (folder / "text" / "community" / "ids.json").exists():
        store.attach_text_index("community", open_text_index(folder / "text" / "community"))
    store.attach_text_index("chunk", open_text_index(folder / "text" / "chunk"))
    store.attach_text_index("entity", open_text_index(folder / "text" / "entity"))
    return store
