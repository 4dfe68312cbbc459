"""A run opened for querying: its graph store, the embedder, and the walk projection."""

from __future__ import annotations

from dataclasses import dataclass

from graphgate.core.config import QuerySettings
from graphgate.core.errors import EmbeddingMismatchError
from graphgate.core.runs import Run
from graphgate.core.types import Chunk
from graphgate.embed.base import Embedder
from graphgate.llm.client import LLMClient
from graphgate.query.linking import EntityLinker
from graphgate.query.projection import GraphProjection
from graphgate.store.base import GraphStore


@dataclass
class LoadedIndex:
    run: Run
    store: GraphStore
    embedder: Embedder
    projection: GraphProjection
    linker: EntityLinker
    llm: LLMClient | None = None  # the configured model, for cypher mode; None when offline

    def close(self) -> None:
        self.store.close()

    def chunk_or_none(self, chunk_id: str) -> Chunk | None:
        try:
            return self.store.chunk(chunk_id)
        except KeyError:
            return None


def check_embedding(run: Run, embedder: Embedder) -> None:
    """The run's vectors were made by this embedder (model and dimension), or a clear error."""
    recorded = run.manifest().embedding
    if recorded is not None and (
        recorded.model != embedder.model or recorded.dimension != embedder.dimension
    ):
        raise EmbeddingMismatchError(
            f"run {run.run_id} was embedded with {recorded.model} "
            f"({recorded.dimension} dimensions); configured embedder is "
            f"{embedder.model} ({embedder.dimension})",
            "configure the model the index was built with, or re-index with `graphgate index`",
        )


def open_index(
    run: Run,
    store: GraphStore,
    embedder: Embedder,
    settings: QuerySettings,
    spacy_model: str,
    llm: LLMClient | None = None,
) -> LoadedIndex:
    """``store`` already opened on ``run`` by the caller (the composition root chooses it);
    ``spacy_model`` finds the mentions entity linking matches."""
    edges = store.projection()
    projection = GraphProjection(edges.node_ids, edges.source_ids, edges.target_ids, edges.weights)
    linker = EntityLinker(store, embedder, settings, spacy_model)
    return LoadedIndex(run, store, embedder, projection, linker, llm)
