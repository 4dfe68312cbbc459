"""The FalkorDB backend's write side: one graph per run on a server, an update copied from
its parent's graph with only the difference written, old graphs dropped by pruning."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import ArtifactTables, Run
from graphgate.store.base import STORE_ARTIFACTS, BuiltAhead, GraphStore, StoreParent


class FalkorDBBackend:
    name = "falkordb"
    external = True
    keyword_ahead = False

    def place(self, run: Run, settings: Settings, parent: StoreParent | None) -> StoreRecord:
        from graphgate.store.falkordb_client import FalkorDBServer, run_graph_name

        copied_from = None
        if parent is not None and parent.record.backend == self.name and parent.record.graph:
            server = FalkorDBServer(settings.store)
            try:
                if parent.record.graph in server.graphs():
                    copied_from = parent.record.graph
            finally:
                server.close()
        return StoreRecord(
            backend=self.name,
            graph=run_graph_name(settings.store.graph, run.run_id),
            url=settings.store.public_url(),
            copied_from=copied_from,
        )

    def write(
        self,
        run: Run,
        record: StoreRecord,
        settings: Settings,
        tables: Mapping[str, pa.Table],
        parent: StoreParent | None,
        built_ahead: BuiltAhead,
    ) -> dict[str, int]:
        """A copy of the parent's graph with the difference written when ``place`` found it
        on this server; else every table. A failed write drops its half-written graph."""
        from graphgate.store.falkordb_client import FalkorDBServer
        from graphgate.store.falkordb_write import update_falkordb_graph, write_falkordb_graph

        graph = str(record.graph)
        fields = settings.chunk.context_fields
        server = FalkorDBServer(settings.store)
        try:
            if record.copied_from is None or parent is None:
                return write_falkordb_graph(server, graph, tables, fields)
            return update_falkordb_graph(
                server, record.copied_from, graph, _parent_tables(parent.run), tables, fields
            )
        except BaseException:
            # A half-written graph is never served; the current run's graph is another one.
            with contextlib.suppress(Exception):  # the write's own error is the one to report
                server.drop(graph)
            raise
        finally:
            server.close()

    def open(self, run: Run, record: StoreRecord, settings: Settings) -> GraphStore:
        from graphgate.store.falkordb_client import FalkorDBServer
        from graphgate.store.falkordb_store import FalkorDBGraphStore

        dimension = run.manifest().embedding
        return FalkorDBGraphStore(
            FalkorDBServer(settings.store),
            str(record.graph),
            dimension.dimension if dimension is not None else 0,
            settings.store.keyword_search,
        )

    def drop(self, records: Sequence[StoreRecord], settings: Settings) -> list[str]:
        from graphgate.store.falkordb_client import FalkorDBServer

        wanted = {str(r.graph) for r in records if r.graph}
        if not wanted:
            return []
        server = FalkorDBServer(settings.store)
        try:
            dropped = sorted(wanted & set(server.graphs()))
            for graph in dropped:
                server.drop(graph)
            return dropped
        finally:
            server.close()


def _parent_tables(run: Run) -> ArtifactTables:
    """The tables the parent's graph was written from (what an update's difference is taken
    against), each read from the parent run's artifacts when asked for and kept by no one
    here, so an update holds one label's tables at a time."""
    return ArtifactTables(run, [name for name in STORE_ARTIFACTS if run.has_artifact(name)])
