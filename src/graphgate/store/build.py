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
        build_search_indexes(folder, tables, exact_below)
        return store.counts()
    finally:
        store.close()


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
    if (folder / "vectors" / "entity" / "ids.json").exists():
        store.attach_vector_index("entity", open_vector_index(folder / "vectors" / "entity"))
    store.attach_text_index("chunk", open_text_index(folder / "text" / "chunk"))
    store.attach_text_index("entity", open_text_index(folder / "text" / "entity"))
    return store
