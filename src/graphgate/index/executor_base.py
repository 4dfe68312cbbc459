"""The executor interface: where indexing's per-chunk work runs (offline extraction, local
embeddings). Global stages (resolution, communities, reports) always run in this process.

An executor returns exactly what the extractor and embedder would return here, in the same
order, so a run's artifacts do not depend on where the work ran."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from graphgate.core.config import IndexSettings
from graphgate.core.types import Chunk
from graphgate.embed.base import Embedder, Matrix
from graphgate.index.extract_base import Extraction, Extractor, Progress


class Executor(Protocol):
    name: str

    def extract(
        self, extractor: Extractor, chunks: Sequence[Chunk], progress: Progress | None = None
    ) -> Extraction:
        """``extractor.extract(chunks)``, wherever it runs."""
        ...

    def embed(
        self,
        embedder: Embedder,
        groups: Sequence[Sequence[str]],
        max_tokens: int,
        progress: Progress | None = None,
    ) -> Iterator[Matrix]:
        """``embedder.embed(group)`` for each group, in order."""
        ...

    def describe(self) -> dict[str, object]:
        """What ran the work, for the run's manifest (never a secret)."""
        ...

    def close(self) -> None:
        """Ends what the executor keeps between runs (a cluster connection, its workers)."""
        ...


def build_executor(settings: IndexSettings) -> Executor:
    """The executor ``index.executor`` names; Ray is imported only when asked for."""
    if settings.executor == "local":
        from graphgate.index.executor_local import LocalExecutor

        return LocalExecutor()
    from graphgate.index.executor_ray import RayExecutor

    return RayExecutor(settings)
