"""A run opened for querying: its graph store, the embedder, and the walk projection."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from graphgate.core.config import QuerySettings, TruthSettings
from graphgate.core.errors import EmbeddingMismatchError, IndexMissingError
from graphgate.core.family_match import FamilyMatcher, family_matcher
from graphgate.core.layout import Layout, parse_layout
from graphgate.core.runs import Run
from graphgate.embed.base import Embedder
from graphgate.llm.client import LLMClient
from graphgate.query.held import HeldFacts
from graphgate.query.linking import EntityLinker
from graphgate.query.passage_graph import PassageGraph, run_synonyms
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
    families: FamilyMatcher = field(default_factory=lambda: family_matcher(TruthSettings()))
    _layouts: dict[str, Layout] | None = field(default=None, init=False, repr=False)
    _held: HeldFacts | None = field(default=None, init=False, repr=False)
    _passage_graphs: dict[float, PassageGraph] = field(default_factory=dict, init=False, repr=False)
    _passage_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    # Queries answering from it now, and whether another run replaced it: the last of them
    # closes it (app/workspace.py holds these under its lock).
    holders: int = field(default=0, init=False, repr=False)
    retired: bool = field(default=False, init=False, repr=False)

    def close(self) -> None:
        self.store.close()

    def layout(self, doc_id: str) -> Layout | None:
        """Where the document's pages and sections begin (None for a document without either,
        or a run indexed before documents kept their layout); read once per loaded run."""
        if self._layouts is None:
            self._layouts = _read_layouts(self.run)
        return self._layouts.get(doc_id)

    def held(self) -> HeldFacts:
        """The run's dated one-valued facts by chunk (query/held.py); read once."""
        if self._held is None:
            self._held = HeldFacts.read(self.run, self.families)
        return self._held

    def passage_graph(self, synonym_weight: float) -> PassageGraph:
        """The walk over passages and entities (query/passage_graph.py), built on first use by
        one query while others wait for it."""
        with self._passage_lock:
            if synonym_weight not in self._passage_graphs:
                graph = PassageGraph(
                    self.store.projection(), run_synonyms(self.run), synonym_weight
                )
                self._passage_graphs[synonym_weight] = graph
            return self._passage_graphs[synonym_weight]


def _read_layouts(run: Run) -> dict[str, Layout]:
    try:
        table = run.read_artifact("documents", ["id", "layout_json"])
    except (IndexMissingError, KeyError, ValueError, OSError):  # a run before layouts
        return {}
    ids = table.column("id").to_pylist()
    layouts = table.column("layout_json").to_pylist()
    return {i: parse_layout(text) for i, text in zip(ids, layouts, strict=True) if text != "{}"}


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
    families: FamilyMatcher | None = None,
) -> LoadedIndex:
    """``store`` already opened on ``run`` by the caller (the composition root chooses it);
    ``spacy_model`` finds the mentions entity linking matches."""
    edges = store.projection()
    projection = GraphProjection(edges.node_ids, edges.source_ids, edges.target_ids, edges.weights)
    linker = EntityLinker(store, embedder, settings, spacy_model)
    loaded = LoadedIndex(run, store, embedder, projection, linker, llm)
    if families is not None:
        loaded.families = families
    return loaded
