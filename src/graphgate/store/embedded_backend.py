"""The embedded backend's write side: the graph and its search indexes in the run's folder,
removed with the folder (nothing to drop on pruning)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run
from graphgate.store.base import BuiltAhead, GraphStore, StoreParent
from graphgate.store.build import write_store
from graphgate.store.embedded import open_embedded_store
from graphgate.store.read_tables import write_read_tables


class EmbeddedBackend:
    name = "embedded"
    external = False
    keyword_ahead = True

    def place(self, run: Run, settings: Settings, parent: StoreParent | None) -> StoreRecord:
        return StoreRecord(backend=self.name)

    def write(
        self,
        run: Run,
        record: StoreRecord,
        settings: Settings,
        tables: Mapping[str, pa.Table],
        parent: StoreParent | None,
        built_ahead: BuiltAhead,
    ) -> dict[str, int]:
        """Always the whole graph: a LadybugDB folder is written faster than it is copied.
        Then the read model's tables, so the first query does not wait for them."""
        counts = write_store(
            run.store_dir,
            tables,
            settings.vectors.exact_below,
            settings.chunk.context_fields,
            built_ahead,
        )
        write_read_tables(run)
        return counts

    def open(self, run: Run, record: StoreRecord, settings: Settings) -> GraphStore:
        return open_embedded_store(run, settings.vectors.exact_below, settings.chunk.context_fields)

    def drop(self, records: Sequence[StoreRecord], settings: Settings) -> list[str]:
        return []
