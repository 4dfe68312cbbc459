"""The parts a workspace builds once and shares between its runs and queries: the embedder,
the extractor, the model client with its response cache, the content cache, the gate worker,
the answerer and the judge. Each is built on first use (a spaCy model or an ONNX session takes
seconds, and most commands need only some) and all are closed together."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from graphgate.app.background import BackgroundWork
from graphgate.core.config import Settings
from graphgate.core.spacy_models import load_spacy
from graphgate.core.telemetry import Telemetry
from graphgate.core.workers import BackgroundProcess
from graphgate.embed import Embedder, build_embedder
from graphgate.evaluate.harness import Generator
from graphgate.evaluate.judge import DeterministicJudge, Judge
from graphgate.index.cache import ContentCache
from graphgate.index.executor_base import Executor, build_executor
from graphgate.index.extract_base import Extractor
from graphgate.llm.client import LLMClient, ResponseCache, build_llm
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader import Reader

LLM_CACHE = "llm_cache.sqlite"
CONTENT_CACHE = "content_cache.sqlite"


class WorkspaceParts:
    """The components of the workspace at ``path``, as ``settings`` configure them."""

    def __init__(
        self,
        path: Path,
        settings: Settings,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        llm_client: LLMClient | None = None,
        answerer: Generator | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        """A part given here is used as it is, instead of the one ``settings`` configure (the
        caller keeps it: :meth:`close` leaves it open)."""
        self.path = path
        self.settings = settings
        self._embedder: Embedder | None = embedder
        self._extractor: Extractor | None = extractor
        self._llm: LLMClient | None = llm_client
        self._answerer = answerer
        self._telemetry = telemetry
        self._own_telemetry = False
        self._reader: Reader | None = None  # built once: its caches serve every query
        self._given = {id(p) for p in (embedder, extractor, llm_client) if p is not None}
        self._cache: ContentCache | None = None
        self._gates_process: BackgroundProcess | None = None
        self._executor: Executor | None = None
        # Queries on several threads ask for the parts they use at once: one of each is made.
        self._making = threading.RLock()

    @property
    def embedder(self) -> Embedder:
        with self._making:
            if self._embedder is None:
                self._embedder = build_embedder(self.settings.embed)
            return self._embedder

    @property
    def telemetry(self) -> Telemetry:
        """Spans of index stages and query steps (``telemetry.otlp_endpoint``; none unset)."""
        with self._making:
            if self._telemetry is None:
                self._telemetry = Telemetry.from_settings(self.settings.telemetry)
                self._own_telemetry = True
            return self._telemetry

    @property
    def extractor(self) -> Extractor:
        if self._extractor is None and self.settings.extract.extractor == "import":
            from graphgate.index.extract_import import ImportExtractor

            self._extractor = ImportExtractor(self.settings.extract)
        if self._extractor is None:
            from graphgate.index.extract_nlp import NlpExtractor

            nlp = NlpExtractor(self.settings.extract)
            if self.settings.extract.extractor == "llm":
                from graphgate.index.extract_llm import LlmExtractor

                self._extractor = LlmExtractor(self.settings.extract, self.llm_client(), nlp)
            else:
                self._extractor = nlp
        return self._extractor

    @property
    def executor(self) -> Executor:
        """Where indexing's per-chunk work runs: a Ray cluster's connection and actors are
        kept for the workspace's later runs (a server's updates find them warm)."""
        if self._executor is None:
            self._executor = build_executor(self.settings.index)
        return self._executor

    def llm_client(self) -> LLMClient:
        """The configured model with this workspace's response cache (``llm.cache``)."""
        with self._making:
            if self._llm is None:
                self._llm = LLMClient(
                    build_llm(self.settings.llm),
                    self.settings.llm,
                    ResponseCache(self.path / LLM_CACHE),
                )
            return self._llm

    def content_cache(self) -> ContentCache:
        """Embeddings and offline extractions by content, shared by this workspace's runs."""
        if self._cache is None:
            self._cache = ContentCache(self.path / CONTENT_CACHE)
        return self._cache

    def gate_worker(self) -> BackgroundProcess:
        if self._gates_process is None:
            self._gates_process = BackgroundWork.worker()
        return self._gates_process

    def llm_usage(self) -> dict[str, Any] | None:
        """Calls, tokens and cost of the model use so far (None: none): totals for a
        long-lived process; runs and evaluations record their own."""
        return self._llm.accounting.as_dict() if self._llm is not None else None

    def uses_llm_for_answers(self) -> bool:
        return self.settings.query.answerer == "llm" or self.settings.eval.judge == "llm"

    def answerer(self) -> Generator:
        """The configured generator: extractive offline, or the LLM from retrieved context
        (or the one given)."""
        if self._answerer is not None:
            return self._answerer
        if self.settings.query.answerer == "llm":
            from graphgate.query.answer_llm import LLMAnswerer

            return LLMAnswerer(self.llm_client())
        with self._making:
            if self.settings.query.short_answers and self._reader is None:
                model = self.settings.extract.spacy_model
                self._reader = Reader(
                    lambda: load_spacy(model, "the offline reader"),
                    self.settings.query.reader_min_support,
                    self.settings.query.reader_side_similarity,
                    lambda: self.embedder,
                    self.settings.query.reader_min_margin,
                    timed_evidence=self.settings.query.reader_timed_evidence,
                )
        return ExtractiveAnswerer(self.settings.query.answer_sentences, self._reader)

    def judge(self) -> Judge:
        if self.settings.eval.judge == "llm":
            from graphgate.evaluate.judge_llm import LLMJudge

            return LLMJudge(self.llm_client(), self.settings.eval.judge_trials)
        return DeterministicJudge()

    def close(self) -> None:
        if self._llm is not None and id(self._llm) not in self._given and self._llm.cache:
            self._llm.cache.close()
        if self._cache is not None:
            self._cache.close()
        if self._gates_process is not None:
            self._gates_process.close()
            self._gates_process = None
        if self._extractor is not None and id(self._extractor) not in self._given:
            self._extractor.close()
        if self._executor is not None:
            self._executor.close()
            self._executor = None
        if self._own_telemetry and self._telemetry is not None:
            self._telemetry.shutdown()  # exports the spans still batched
            self._telemetry = None
