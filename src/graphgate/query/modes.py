"""Each query mode's retriever, under the names of :data:`graphgate.core.modes.QUERY_MODES`."""

from __future__ import annotations

from collections.abc import Callable

from graphgate.core.config import QuerySettings
from graphgate.core.errors import GraphgateError
from graphgate.core.modes import GRAPH_MODES, check_mode
from graphgate.query.base import ModeRetriever
from graphgate.query.conflicts import ConflictRetriever
from graphgate.query.global_ import GlobalRetriever
from graphgate.query.hybrid import HybridRetriever
from graphgate.query.loaded import LoadedIndex
from graphgate.query.local import LocalRetriever
from graphgate.query.passage_walk import PassageWalkRetriever
from graphgate.query.temporal import TemporalRetriever
from graphgate.query.text2cypher import CypherRetriever, RoutedRetriever
from graphgate.query.vector import VectorRetriever

RetrieverFactory = Callable[[LoadedIndex, QuerySettings], ModeRetriever]

RETRIEVERS: dict[str, RetrieverFactory] = {
    "vector": VectorRetriever,
    "local": LocalRetriever,
    "graph": lambda index, settings: (
        PassageWalkRetriever(index, settings)
        if settings.walk_passage_nodes
        else LocalRetriever(index, settings, use_vectors=False)
    ),
    "hybrid": HybridRetriever,
    "global": GlobalRetriever,
    "cypher": CypherRetriever,
}


def build_retriever(mode: str, index: LoadedIndex, settings: QuerySettings) -> ConflictRetriever:
    """The retriever of ``mode`` over ``index`` (time-aware, conflicts surfaced), or an error
    naming what the run lacks."""
    check_mode(mode)
    if mode in GRAPH_MODES and not len(index.projection):
        raise GraphgateError(
            f"run {index.run.run_id} has no entities, so {mode} mode has nothing to walk",
            "index with the graph pipeline, or query with --mode vector",
        )
    if mode == "global" and not index.store.reports():
        raise GraphgateError(
            f"run {index.run.run_id} has no community reports for global mode",
            "re-index with the graph pipeline (it builds communities and reports)",
        )
    inner: ModeRetriever = RETRIEVERS[mode](index, settings)
    if mode == "hybrid" and index.llm is not None and settings.hybrid_route_cypher:
        inner = RoutedRetriever(CypherRetriever(index, settings), inner)
    timed = TemporalRetriever(
        inner,
        settings.top_k_chunks,
        settings.temporal,
        index.held(),
        index.families,
        index.store if settings.temporal_period_passages else None,
    )
    return ConflictRetriever(timed, index)
