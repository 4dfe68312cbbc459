"""The embedded backend's write side: the graph and its search indexes in the run's folder,
removed with the folder (nothing to drop on pruning)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run
from graphgate.core.workers import spawnable
from graphgate.store.base import BuiltAhead, GraphStore, StoreParent
from graphgate.store.embedded import open_embedded_store
from graphgate.store.embedded_write import write_embedded, write_embedded_apart


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
        Then the read model's tables, so the first query does not wait for them. A run of
        ``store.write_process_above`` chunks or more is written by a process of its own
        (store/embedded_write.py), from the run's artifacts, which ``tables`` are."""
        exact_below, fields = settings.vectors.exact_below, settings.chunk.context_fields
        chunks = run.artifact_rows("chunks") if run.has_artifact("chunks") else 0
        if chunks >= settings.store.write_process_above and spawnable():
            counts, peak = write_embedded_apart(run, exact_below, fields, built_ahead)
            run.update_manifest(store=record.model_copy(update={"writer_peak_rss_mb": peak}))
            return counts
        return write_embedded(run, tables, exact_below, fields, built_ahead)

    def open(self, run: Run, record: StoreRecord, settings: Settings) -> GraphStore:
        return open_embedded_store(
            run,
            settings.vectors.exact_below,
            settings.chunk.context_fields,
            settings.store.read_cache_mb,
        )

    def drop(self, records: Sequence[StoreRecord], settings: Settings) -> list[str]:
        return []
