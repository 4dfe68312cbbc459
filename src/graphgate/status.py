"""What `graphgate status` reports about a workspace."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
