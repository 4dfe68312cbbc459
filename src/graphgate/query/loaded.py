"""A run opened for querying: store, search indexes, tables and graph projection, loaded once."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphgate.embed.base import Embedder
from graphgate.errors import EmbeddingMismatchError
from graphgate.query.projection import GraphProjection
from graphgate.runs import Run
from graphgate.store.build import build_search_indexes, open_store, search_indexes_present
from graphgate.store.ladybug_store import LadybugGraphStore
from graphgate.text import normalise_name
from graphgate.types import (
    ARTIFACTS,
    SCHEMAS,
    Chunk,
    Community,
    CommunityReport,
    Entity,
    Relationship,
    from_table,
    vectors_from_table,
)


@dataclass
class LoadedIndex:
    run: Run
    store: LadybugGraphStore
    embedder: Embedder
    chunks: dict[str, Chunk]
    chunk_ids: list[str]
    chunk_vectors: npt.NDArray[np.float32]
    entities: dict[str, Entity]
    relationships: list[Relationship]
    projection: GraphProjection
    chunk_entities: dict[str, list[str]]
    names: dict[str, list[str]]  # normalised name or alias -> entity ids
    relations_of: dict[str, list[int]]  # entity id -> positions in ``relationships``
    communities: dict[str, Community]
    reports: dict[str, CommunityReport]
    pages: dict[str, list[str]]  # normalised document title -> document ids ("entity pages")
    first_chunk: dict[str, str]  # document id -> its first chunk
    _chunk_row: dict[str, int] | None = None

    @property
    def chunk_row(self) -> dict[str, int]:
        """Chunk id -> row in ``chunk_vectors`` (built once)."""
        if self._chunk_row is None:
            self._chunk_row = {cid: i for i, cid in enumerate(self.chunk_ids)}
        return self._chunk_row

    def embed_question(self, question: str) -> npt.NDArray[np.float32]:
        vector: npt.NDArray[np.float32] = self.embedder.embed([question])[0]
        return vector

    def close(self) -> None:
        self.store.close()


def load_index(run: Run, embedder: Embedder, exact_below: int) -> LoadedIndex:
    manifest = run.manifest()
    recorded = manifest.get("embedding", {})
    if recorded and (
        recorded.get("model") != embedder.model
        or int(recorded.get("dimension", -1)) != embedder.dimension
    ):
        raise EmbeddingMismatchError(
            f"run {run.run_id} was embedded with {recorded.get('model')} "
            f"({recorded.get('dimension')} dimensions); configured embedder is "
            f"{embedder.model} ({embedder.dimension})",
            "configure the model the index was built with, or re-index with `graphgate index`",
        )
    tables = {
        name: run.read_artifact(name)
        if run.has_artifact(name)
        else SCHEMAS[ARTIFACTS[name]].empty_table()
        for name in ("chunks", "entities", "relationships", "communities", "community_reports")
    }
    for name in ("chunk_vectors", "entity_vectors", "community_vectors"):
        if run.has_artifact(name):
            tables[name] = run.read_artifact(name)
    if not search_indexes_present(run.store_dir):
        build_search_indexes(run.store_dir, tables, exact_below)
    store = open_store(run.store_dir)

    chunks = {c.id: c for c in from_table(tables["chunks"], Chunk)}
    chunk_ids, chunk_vectors = vectors_from_table(tables["chunk_vectors"])
    entities = {e.id: e for e in from_table(tables["entities"], Entity)}
    edges = store.all_edges()
    projection = GraphProjection(
        sorted(entities),
        edges["source_id"].to_pylist(),
        edges["target_id"].to_pylist(),
        edges["weight"].to_pylist(),
    )
    chunk_entities: dict[str, list[str]] = defaultdict(list)
    names: dict[str, list[str]] = defaultdict(list)
    for e in entities.values():
        for cid in e.chunk_ids:
            chunk_entities[cid].append(e.id)
        for surface in {e.name, *e.aliases}:
            key = normalise_name(surface)
            if key and e.id not in names[key]:
                names[key].append(e.id)
    relationships = from_table(tables["relationships"], Relationship)
    pages: dict[str, list[str]] = defaultdict(list)
    if run.has_artifact("documents"):
        titles = run.read_artifact("documents").select(["id", "title"]).to_pylist()
        for doc in sorted(titles, key=lambda d: d["id"]):
            key = normalise_name(doc["title"])
            if key:
                pages[key].append(doc["id"])
    first_chunk: dict[str, str] = {}
    for chunk in sorted(chunks.values(), key=lambda c: (c.doc_id, c.index)):
        first_chunk.setdefault(chunk.doc_id, chunk.id)
    relations_of: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(relationships):
        relations_of[r.source_id].append(i)
        relations_of[r.target_id].append(i)
    return LoadedIndex(
        run=run,
        store=store,
        embedder=embedder,
        chunks=chunks,
        chunk_ids=chunk_ids,
        chunk_vectors=chunk_vectors,
        entities=entities,
        relationships=relationships,
        projection=projection,
        communities={c.id: c for c in from_table(tables["communities"], Community)},
        reports={
            r.community_id: r for r in from_table(tables["community_reports"], CommunityReport)
        },
        chunk_entities=dict(chunk_entities),
        pages=dict(pages),
        first_chunk=first_chunk,
        names=dict(names),
        relations_of=dict(relations_of),
    )
