"""The local executor: the work runs in this process (and the extractor's parser workers)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from graphgate.core.types import Chunk
from graphgate.embed.base import Embedder, Matrix
from graphgate.index.extract_base import Extraction, Extractor, Progress


class LocalExecutor:
    name = "local"

    def extract(
        self, extractor: Extractor, chunks: Sequence[Chunk], progress: Progress | None = None
    ) -> Extraction:
        return extractor.extract(chunks, progress)

    def embed(
        self,
        embedder: Embedder,
        groups: Sequence[Sequence[str]],
        max_tokens: int,
        progress: Progress | None = None,
    ) -> Iterator[Matrix]:
        for group in groups:
            matrix = embedder.embed(group, max_tokens=max_tokens)
            if progress is not None:
                progress(len(group))
            yield matrix

    def describe(self) -> dict[str, object]:
        return {"executor": self.name}

    def close(self) -> None:
        pass
