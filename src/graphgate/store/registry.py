"""Which graph store a run uses: written to the configured backend, always read from the one
its manifest names (so changing ``store.backend`` never strands an existing index), pruned by
the rule below for every backend that keeps graphs outside the run's folder.

A backend is an implementation of :class:`~graphgate.store.base.StoreBackend`, found by name in
a :class:`StoreBackends` registry the composition root holds (no process-wide table): a
third backend is its own module and one entry in :func:`default_backends`, or one
``with_backend`` call by whoever builds the workspace.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.errors import ConfigError, GraphgateError, StoreUnavailableError
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import COMPLETE, RUNNING, Run, RunRegistry
from graphgate.store.base import (
    BuiltAhead,
    GraphStore,
    StoreBackend,
    StoreParent,
    nothing_built_ahead,
)

# Runs indexed before a server backend existed record no store: they are embedded.
_UNRECORDED = StoreRecord(backend="embedded")


@dataclass(frozen=True)
class StoreBackends:
    """Backends by name. Immutable: ``with_backend`` returns a registry with one more."""

    backends: Mapping[str, StoreBackend] = field(default_factory=dict)

    def with_backend(self, backend: StoreBackend) -> StoreBackends:
        return StoreBackends({**self.backends, backend.name: backend})

    @property
    def names(self) -> list[str]:
        return sorted(self.backends)

    def get(self, name: str) -> StoreBackend:
        try:
            return self.backends[name]
        except KeyError:
            raise ConfigError(
                f"unknown store backend {name!r}",
                f"set store.backend to one of: {', '.join(self.names)}",
            ) from None

    # -- a run's store ----------------------------------------------------------------------
    def write(
        self,
        run: Run,
        settings: Settings,
        tables: Mapping[str, pa.Table],
        incremental: bool = True,
        built_ahead: BuiltAhead = nothing_built_ahead,
    ) -> dict[str, int]:
        """The graph stage's work: the run's tables into the configured backend; its counts.
        Where the graph goes is recorded in the manifest first: a killed write's graph is
        found (and dropped) by the next prune. ``incremental`` lets the backend build on the
        parent run's graph."""
        backend = self.get(settings.store.backend)
        parent = complete_parent(run) if incremental else None
        record = backend.place(run, settings, parent)
        run.update_manifest(store=record)
        return backend.write(run, record, settings, tables, parent, built_ahead)

    def open(self, run: Run, settings: Settings) -> GraphStore:
        """A run's store for querying, wherever the run was written."""
        record = record_of(run)
        return self.get(record.backend).open(run, record, settings)

    def prune(
        self, registry: RunRegistry, settings: Settings, also: Iterable[StoreRecord] = ()
    ) -> list[str]:
        """Drop the external graphs of this workspace's runs beyond the newest
        ``store.keep_graphs`` complete ones (the current run always stays), of failed and
        interrupted runs, and ``also`` (the graphs of runs just removed). Only graphs a run of
        this workspace names are touched: another workspace on the same server keeps its
        own."""
        current = registry.current_id()
        drop: list[StoreRecord] = []
        kept = 0
        for run in reversed(registry.list()):
            record = readable_record(run)
            if record is None or not self._external(record.backend):
                continue
            state = registry.state(run)
            if run.run_id == current or state == RUNNING:
                kept += state == COMPLETE
                continue
            if state == COMPLETE and kept < settings.store.keep_graphs:
                kept += 1
                continue
            drop.append(record)
        drop += [r for r in also if self._external(r.backend)]
        dropped: list[str] = []
        for name in sorted({r.backend for r in drop}):
            dropped += self.get(name).drop([r for r in drop if r.backend == name], settings)
        return sorted(dropped)

    def drop_old(self, registry: RunRegistry, settings: Settings) -> None:
        """After a run became current: housekeeping only, so a server that went away just
        now leaves the old graphs for the next prune instead of failing a finished index."""
        if not self._external(settings.store.backend):
            return
        with contextlib.suppress(StoreUnavailableError):
            self.prune(registry, settings)

    def _external(self, name: str) -> bool:
        backend = self.backends.get(name)
        return backend is not None and backend.external


def default_backends() -> StoreBackends:
    """The backends graphgate ships: LadybugDB embedded, and FalkorDB on a server."""
    from graphgate.store.embedded_backend import EmbeddedBackend
    from graphgate.store.falkordb_backend import FalkorDBBackend

    return StoreBackends().with_backend(EmbeddedBackend()).with_backend(FalkorDBBackend())


def record_of(run: Run) -> StoreRecord:
    """What the run's manifest says about its store."""
    return run.manifest().store or _UNRECORDED


def readable_record(run: Run) -> StoreRecord | None:
    """The store record, or None when the manifest cannot be read (such a run is pruned as
    interrupted, and what it wrote elsewhere cannot be known)."""
    try:
        return record_of(run)
    except GraphgateError:
        return None


def complete_parent(run: Run) -> StoreParent | None:
    """The run's parent with its store record, when it finished (an update may build on it)."""
    parent_id = run.manifest().parent_run
    if not parent_id:
        return None
    parent = Run(parent_id, run.path.parent / parent_id)
    if not parent.path.is_dir() or parent.manifest().status != COMPLETE:
        return None
    return StoreParent(parent, record_of(parent))
