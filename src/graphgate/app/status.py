"""What `graphgate status` reports about a workspace."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphgate.core.errors import GraphgateError
from graphgate.core.runs import RunRegistry
from graphgate.index.communities import level_sizes

if TYPE_CHECKING:
    from graphgate.query.loaded import LoadedIndex


@dataclass(frozen=True)
class Status:
    workspace: str
    current_run: str | None
    pipeline: str | None
    counts: dict[str, int]
    embedding: dict[str, Any]
    healthy: bool
    problems: list[str] = field(default_factory=list)
    runs: int = 0
    communities: dict[str, dict[str, float]] = field(default_factory=dict)  # per level
    llm: dict[str, Any] | None = None  # calls, tokens and cost the current run's index spent
    store: dict[str, str] = field(default_factory=dict)  # backend and where (GraphStore.describe)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def workspace_status(
    workspace: Path,
    registry: RunRegistry,
    holding: Callable[[], AbstractContextManager[LoadedIndex]],
) -> Status:
    """The current run's counts from its store (``holding`` opens it and keeps it open while
    it is read), checked against what its manifest recorded when it was indexed."""
    run_id = registry.current_id()
    n_runs = len(registry.list())
    if run_id is None:
        return Status(str(workspace), None, None, {}, {}, False, ["no index yet"], n_runs)
    manifest = registry.get(run_id).manifest()
    problems: list[str] = []
    counts: dict[str, int] = {}
    store: dict[str, str] = {}
    levels: dict[str, dict[str, float]] = {}
    try:
        with holding() as index:
            counts = index.store.counts()
            store = index.store.describe()
            levels = level_sizes(index.store.communities())
    except GraphgateError as exc:
        problems.append(str(exc))
    recorded = manifest.counts
    if counts and recorded and counts != recorded:
        problems.append(f"store counts {counts} differ from the run manifest {recorded}")
    return Status(
        llm=manifest.llm,
        communities=levels,
        workspace=str(workspace),
        current_run=run_id,
        pipeline=manifest.pipeline,
        counts=counts,
        embedding=dict(sorted(manifest.embedding.model_dump().items()))
        if manifest.embedding
        else {},
        healthy=not problems,
        problems=problems,
        runs=n_runs,
        store=store,
    )
