"""A workspace's parts can be handed in instead of built from the settings: the embedder, the
extractor, the model client and the summarizer given are the ones used, recorded in the run's
manifest, and left open when the workspace closes (their owner closes them)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphgate import Workspace
from graphgate.core.config import CommunitySettings, ExtractSettings, LLMSettings
from graphgate.core.types import Chunk, Community, CommunityReport, Entity, Relationship
from graphgate.index.extract_base import Extraction, Progress
from graphgate.index.extract_nlp import NlpExtractor
from graphgate.index.summarize import CommunitySummarizer
from graphgate.llm.base import Completion, Request, Usage
from graphgate.llm.client import LLMClient
from tests.unit.fakes import BagOfWordsEmbedder


class CountingExtractor:
    """The offline extractor, counting the chunks it is given."""

    def __init__(self) -> None:
        self.inner = NlpExtractor(ExtractSettings(processes=1))
        self.name, self.revision = "counting", "1"
        self.chunks = 0
        self.closed = False

    def extract(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> Extraction:
        self.chunks += len(chunks)
        return self.inner.extract(chunks, progress)

    def report(self) -> dict[str, Any]:
        return self.inner.report()

    def close(self) -> None:
        self.closed = True
        self.inner.close()


class RecordingSummarizer:
    name = "recording"

    def __init__(self) -> None:
        self.inner = CommunitySummarizer(CommunitySettings())
        self.failed = self.reused = 0
        self.communities = 0

    def summarize(
        self,
        communities: Sequence[Community],
        entities: Sequence[Entity],
        relationships: Sequence[Relationship],
        chunks: Sequence[Chunk],
    ) -> list[CommunityReport]:
        self.communities += len(communities)
        return self.inner.summarize(communities, entities, relationships, chunks)


class CannedModel:
    """A model that answers every request with one sentence citing the first passage."""

    provider, model = "canned", "canned-1"

    def __init__(self) -> None:
        self.requests: list[Request] = []

    def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return Completion("Scrooge employs Bob Cratchit [1].", Usage(10, 5), self.model)


def test_given_parts_are_used_recorded_and_left_open(small_corpus: Path, tmp_path: Path) -> None:
    embedder, extractor, summarizer = (
        BagOfWordsEmbedder(),
        CountingExtractor(),
        RecordingSummarizer(),
    )
    model = CannedModel()
    client = LLMClient(model, LLMSettings(provider="openai", model="canned-1"), None)
    with Workspace(
        tmp_path / "ws",
        embedder=embedder,
        extractor=extractor,
        llm_client=client,
        summarizer=summarizer,
        query={"answerer": "llm"},
    ) as ws:
        ws.index(small_corpus)
        manifest = ws.runs.current().manifest()
        assert manifest.embedding is not None
        assert (manifest.embedding.model, manifest.embedding.dimension) == ("bag-of-words-test", 64)
        summarize = manifest.stage("summarize")
        assert summarize is not None and summarize.info["summarizer"] == "recording"
        assert extractor.chunks == manifest.counts["Chunk"] and summarizer.communities > 0
        assert embedder.calls
        answer = ws.query("Who employs Bob Cratchit?", mode="vector")
        assert answer.answer == "Scrooge employs Bob Cratchit [1]."
        assert answer.generator == "llm:canned-1"
        assert model.requests and "Bob Cratchit" in model.requests[-1].user
        assert ws.llm_client() is client and ws.embedder is embedder
    assert not extractor.closed  # the caller's to close
    assert client.cache is None
