"""The extractor interface: chunks in, surface mentions and relations out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from graphgate.core.types import Chunk, Mention, RawRelation

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Extraction:
    mentions: list[Mention]
    relations: list[RawRelation]


class Extractor(Protocol):
    name: str
    revision: str  # changes when the same input would give a different output (cache key)

    def extract(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> Extraction: ...

    def report(self) -> dict[str, Any]:
        """What the last extraction cost and what went wrong (calls, failures), for the manifest."""
        ...

    def close(self) -> None:
        """Ends what the extractor keeps between runs (worker processes)."""
        ...
