"""Choosing the graph store: a run is written to the configured backend and always read from
the one its manifest names (so changing ``store.backend`` never strands an existing index)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from graphgate.config import Settings, StoreSettings
from graphgate.errors import StoreUnavailableError
from graphgate.runs import COMPLETE, RUNNING, Run, RunRegistry
from graphgate.store.base import GraphStore
from graphgate.store.build import BuiltAhead, nothing_built_ahead, write_store
from graphgate.store.embedded import open_embedded_store

EMBEDDED = "embedded"
FALKORDB = "falkordb"
# The artifacts a run's store is written from (the graph stage's inputs): these always, ...
STORE_REQUIRED = ("documents", "chunks", "chunk_vectors")
# ... and these when the pipeline made them (a vector-only run has no entities).
STORE_OPTIONAL = (
    "entities",
    "relationships",
    "entity_vectors",
    "entity_name_vectors",
    "communities",
    "community_reports",
    "community_vectors",
    "conflicts",
)
STORE_ARTIFACTS = STORE_REQUIRED + STORE_OPTIONAL


def run_store(run: Run) -> dict[str, Any]:
    """What the run's manifest says about its store (runs before servers: embedded)."""
    recorded = run.manifest().get("store")
    return dict(recorded) if isinstance(recorded, dict) else {"backend": EMBEDDED}


def write_run_store(
    run: Run,
    settings: Settings,
    tables: dict[str, pa.Table],
    incremental: bool = True,
    built_ahead: BuiltAhead = nothing_built_ahead,
) -> dict[str, int]:
    """The graph stage's work: the run's tables into the configured store; its counts. On a
    server, an update (``incremental``, a parent run whose graph is there) copies the parent's
    graph and writes only what differs. The embedded store keeps the keyword indexes
    ``built_ahead`` reports built in its folder."""
    if settings.store.backend == FALKORDB:
        return _write_server_graph(run, settings, tables, incremental)
    run.update_manifest(store={"backend": EMBEDDED})
    return write_store(
        run.store_dir,
        tables,
        settings.vectors.exact_below,
        settings.chunk.context_fields,
        built_ahead,
    )


def _write_server_graph(
    run: Run, settings: Settings, tables: dict[str, pa.Table], incremental: bool
) -> dict[str, int]:
    from graphgate.store.falkordb_client import FalkorDBServer, run_graph_name
    from graphgate.store.falkordb_write import (
        graph_content,
        update_falkordb_graph,
        write_falkordb_graph,
    )

    graph = run_graph_name(settings.store.graph, run.run_id)
    server = FalkorDBServer(settings.store)
    parent = _parent_graph(run, server) if incremental else None
    # Recorded first: a killed run's graph is found (and dropped) by the next prune.
    run.update_manifest(
        store={
            "backend": FALKORDB,
            "graph": graph,
            "url": settings.store.public_url(),
            "copied_from": parent[0] if parent else None,
        }
    )
    try:
        fields = settings.chunk.context_fields
        if parent is None:
            return write_falkordb_graph(server, graph, tables, fields)
        before = graph_content(parent[1], fields)
        return update_falkordb_graph(
            server, parent[0], graph, before, graph_content(tables, fields)
        )
    except BaseException:
        # A half-written graph is never served; the current run's graph is another one.
        with contextlib.suppress(Exception):  # the write's own error is the one to report
            server.drop(graph)
        raise
    finally:
        server.close()


def _parent_graph(run: Run, server: Any) -> tuple[str, dict[str, pa.Table]] | None:
    """The parent run's graph (when it is on this server) and the tables it was written from."""
    parent_id = run.manifest().get("parent_run")
    if not parent_id:
        return None
    parent = Run(str(parent_id), run.path.parent / str(parent_id))
    recorded = run_store(parent) if parent.path.is_dir() else {}
    graph = recorded.get("graph")
    if recorded.get("backend") != FALKORDB or not graph or graph not in server.graphs():
        return None
    if parent.manifest().get("status") != COMPLETE:
        return None
    names = [n for n in STORE_ARTIFACTS if parent.has_artifact(n)]
    return str(graph), {n: parent.read_artifact(n) for n in names}


def open_run_store(run: Run, settings: Settings) -> GraphStore:
    """A run's store for querying, wherever the run was written."""
    recorded = run_store(run)
    if recorded.get("backend") == FALKORDB:
        from graphgate.store.falkordb_client import FalkorDBServer
        from graphgate.store.falkordb_store import FalkorDBGraphStore

        dimension = int(run.manifest().get("embedding", {}).get("dimension", 0))
        return FalkorDBGraphStore(
            FalkorDBServer(settings.store),
            str(recorded["graph"]),
            dimension,
            settings.store.keyword_search,
        )
    return open_embedded_store(run, settings.vectors.exact_below, settings.chunk.context_fields)


def prune_run_graphs(
    registry: RunRegistry, settings: StoreSettings, also: Iterable[str] = ()
) -> list[str]:
    """Drop the server graphs of this workspace's runs beyond the newest ``keep_graphs``
    complete ones (the current run always stays), of failed and interrupted runs, and ``also``
    (the graphs of runs just removed). Only graphs a run of this workspace names are touched:
    another workspace on the same server keeps its own."""
    current = registry.current_id()
    drop: list[str] = []
    kept = 0
    for run in reversed(registry.list()):
        recorded = run_store(run)
        if recorded.get("backend") != FALKORDB:
            continue
        state = registry.state(run)
        if run.run_id == current or state == RUNNING:
            kept += state == COMPLETE
            continue
        if state == COMPLETE and kept < settings.keep_graphs:
            kept += 1
            continue
        drop.append(str(recorded["graph"]))
    drop += list(also)
    if not drop:
        return []
    from graphgate.store.falkordb_client import FalkorDBServer

    server = FalkorDBServer(settings)
    try:
        present = set(server.graphs())
        dropped = sorted({g for g in drop if g in present})
        for graph in dropped:
            server.drop(graph)
        return dropped
    finally:
        server.close()


def drop_old_graphs(registry: RunRegistry, settings: StoreSettings) -> None:
    """After a run became current: housekeeping only, so a server that went away just now
    leaves the old graphs for the next prune instead of failing a finished index."""
    if settings.backend != FALKORDB:
        return
    with contextlib.suppress(StoreUnavailableError):
        prune_run_graphs(registry, settings)
