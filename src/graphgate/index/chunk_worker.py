"""What a distributed worker holds and does: a parser and an embedder, built on first use for
the settings its batches come with, kept for every later batch (a spaCy model takes seconds to
load). Plain Python: the Ray executor makes it an actor (index/executor_ray.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from graphgate.core.config import EmbedSettings, ExtractSettings
from graphgate.core.types import Chunk, Mention, RawRelation
from graphgate.embed import Embedder, build_embedder
from graphgate.embed.base import Matrix
from graphgate.index.extract_nlp import NlpExtractor


class ChunkWorker:
    def __init__(self, cpus: int) -> None:
        self.cpus = cpus
        self._extractors: dict[str, NlpExtractor] = {}
        self._embedders: dict[str, Embedder] = {}

    def pid(self) -> int:
        """This worker's process id (tests end it to see a batch given again)."""
        return os.getpid()

    def extract(
        self, settings: ExtractSettings, chunks: Sequence[Chunk]
    ) -> list[tuple[list[Mention], list[RawRelation]]]:
        """Mentions and relations per chunk, as the local extractor finds them."""
        key = settings.model_dump_json()
        if key not in self._extractors:
            self._extractors[key] = NlpExtractor(settings)
        return self._extractors[key].extract_each(chunks)

    def embed(
        self, settings: EmbedSettings, groups: Sequence[Sequence[str]], max_tokens: int
    ) -> list[Matrix]:
        """Each group embedded in one call, as the local embedder is called: the same texts
        in the same batches give the same vectors."""
        # As many runtime threads as the actor was given CPUs: its neighbours have the others.
        # The vectors do not depend on the thread count (tests: equal to the local index's).
        settings = settings.model_copy(update={"threads": self.cpus})
        key = settings.model_dump_json()
        if key not in self._embedders:
            self._embedders[key] = build_embedder(settings)
        embedder = self._embedders[key]
        return [embedder.embed(group, max_tokens=max_tokens) for group in groups]
