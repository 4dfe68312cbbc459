"""A run's manifest (``manifest.json``) as a typed record, validated when read back.

Every reader gets attributes mypy checks instead of ``.get(...)`` on a dict, and a manifest
that is not one (hand-edited, truncated by a full disk) is a clear error naming the run. One
writer, :meth:`graphgate.core.runs.Run.update_manifest`, takes the fields by name and refuses
a name the record does not declare. Keys a newer graphgate wrote are kept on rewrite.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow")


class OwnerRecord(_Record):
    """Who writes the run: a running run whose process is gone is interrupted."""

    host: str | None = None
    pid: int | None = None
    pid_started: str | None = None


class StageRecord(_Record):
    name: str
    seconds: float = 0.0
    rows: dict[str, int] = Field(default_factory=dict)
    info: dict[str, Any] = Field(default_factory=dict)
    # The indexing process's peak RSS (MB) when the stage ended; None in older manifests.
    peak_rss_mb: float | None = None


class EmbeddingRecord(_Record):
    """The embedder that made the run's vectors: a query must embed with the same one."""

    model: str
    dimension: int


class StoreRecord(_Record):
    """Where the run's graph lives: its backend, and for a server its graph and address."""

    backend: str
    graph: str | None = None
    url: str | None = None
    copied_from: str | None = None
    # The embedded store written by a process of its own: that process's peak RSS, MB.
    writer_peak_rss_mb: float | None = None


class RunManifest(_Record):
    run_id: str
    status: str
    started_at: str | None = None
    finished_at: str | None = None
    owner: OwnerRecord = Field(default_factory=OwnerRecord)
    versions: dict[str, str] = Field(default_factory=dict)
    # What the run builds and from what (written when it starts).
    pipeline: str | None = None
    corpus: str | None = None
    origin: str | None = None  # index, add, delete, serve, ...
    parent_run: str | None = None
    full: bool | None = None
    seed: int = 0
    settings: dict[str, Any] = Field(default_factory=dict)
    settings_sources: dict[str, str] = Field(default_factory=dict)
    stage_names: list[str] | None = None
    # The workspace's curation it was built with: the number of the last edit (None: none).
    curation: int | None = None
    store: StoreRecord | None = None
    # How it went (written as stages finish, and at the end).
    stages: list[StageRecord] = Field(default_factory=list)
    changes: dict[str, Any] | None = None  # added / changed / removed ids, unchanged count
    seconds: float | None = None
    load_problems: list[dict[str, str]] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    embedding: EmbeddingRecord | None = None
    llm: dict[str, Any] | None = None  # calls, tokens and cost of the run's model calls
    executor: dict[str, Any] | None = None  # where the per-chunk work ran (index.executor)
    error: str | None = None

    def stage(self, name: str) -> StageRecord | None:
        return next((s for s in self.stages if s.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_unset=True)


MANIFEST_FIELDS = frozenset(RunManifest.model_fields)
