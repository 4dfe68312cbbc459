"""The facade: open a workspace, index a corpus into a new run, answer questions, report status."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from graphgate.app.answering import QueryFlow
from graphgate.app.calibration import calibrate_gates
from graphgate.app.curation import Curation
from graphgate.app.current_run import CurrentRun
from graphgate.app.evaluation import evaluate_current_run
from graphgate.app.index_run import build_run
from graphgate.app.parts import WorkspaceParts
from graphgate.app.status import Status, workspace_status
from graphgate.app.workspace_lock import WorkspaceWriteLock, WriterInfo
from graphgate.core.config import Settings
from graphgate.core.config_sources import load_settings, setting_sources
from graphgate.core.errors import ConfigError, GraphgateError, RunStateError
from graphgate.core.family_match import family_matcher
from graphgate.core.inputs import check_question, check_top_k
from graphgate.core.modes import QUERY_MODES
from graphgate.core.runs import COMPLETE, INTERRUPTED, RUNNING, Run, RunRegistry
from graphgate.core.telemetry import Telemetry
from graphgate.core.types import Document
from graphgate.embed import Embedder
from graphgate.evaluate.harness import Generator
from graphgate.evaluate.judge import Judge
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.records import EvalRecord
from graphgate.evaluate.run import EvalOutcome
from graphgate.gates import runner as gating
from graphgate.gates.context import read_gold_triples
from graphgate.gates.runner import GatesReport
from graphgate.index.cache import ContentCache
from graphgate.index.extract_base import Extractor
from graphgate.index.load import CorpusLoader, LoadProblem, LoadResult
from graphgate.index.pipeline import (
    IndexReport,
    Pipeline,
    ProgressFactory,
    no_progress,
)
from graphgate.index.stages import PIPELINES
from graphgate.index.summarize import Summarizer
from graphgate.index.update import documents_of
from graphgate.llm.client import LLMClient
from graphgate.query.base import Answer, Turn
from graphgate.query.conflicts import ConflictRetriever
from graphgate.query.cypher import CypherResult, run_read_query
from graphgate.query.events import Answered, QueryEvents, Retrieval
from graphgate.query.loaded import LoadedIndex, check_embedding, open_index
from graphgate.query.modes import build_retriever
from graphgate.store.base import GraphStore
from graphgate.store.registry import StoreBackends, default_backends, readable_record

MODES = tuple(QUERY_MODES)
StoreOpener = Callable[[Run, Settings], GraphStore]


# The corpus a run records when its documents were given as records (an upload), not a path.
UPLOADED = "(uploaded documents)"


class Workspace:
    """Everything under one folder: ``graphgate.toml``, ``runs/<run_id>/`` and ``CURRENT``."""

    def __init__(
        self,
        path: Path | str = ".graphgate",
        settings: Settings | None = None,
        open_store: StoreOpener | None = None,
        on_write_wait: Callable[[WriterInfo], None] | None = None,
        write_ticket: int | None = None,
        *,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        llm_client: LLMClient | None = None,
        summarizer: Summarizer | None = None,
        answerer: Generator | None = None,
        store_backends: StoreBackends | None = None,
        pipelines: Mapping[str, Pipeline] | None = None,
        tracing: Telemetry | None = None,
        **overrides: Any,
    ) -> None:
        """``open_store`` opens a run's :class:`GraphStore` for querying (default: the store
        the run was written to, by its backend in ``store_backends``); ``on_write_wait`` is
        told whom a write waits for when another one holds the workspace; ``write_ticket`` is
        the first write's place in line, taken when it was accepted (a server's queue).

        ``embedder``, ``extractor``, ``llm_client``, ``summarizer`` and ``answerer`` replace
        the parts the settings configure (a test's fake, a team's own model client);
        ``store_backends`` the registry of store backends (default: embedded and FalkorDB),
        so a backend of one's own is found by ``store.backend``; ``pipelines`` add or replace
        pipelines by name (a stage of one's own); ``tracing`` where spans go (default:
        ``telemetry.otlp_endpoint``'s exporter, or none). ``overrides`` nest like the
        settings."""
        self.path = Path(path)
        self.stores = store_backends or default_backends()
        self.open_store = open_store or self.stores.open
        self.summarizer = summarizer
        self.pipelines: dict[str, Pipeline] = {**PIPELINES, **(pipelines or {})}
        self.on_write_wait = on_write_wait
        self._write_ticket = write_ticket
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(
                f"workspace {self.path} is a file, not a folder",
                "pass --workspace with a folder (new or existing)",
            )
        self.settings = settings if settings is not None else load_settings(self.path, **overrides)
        # Where each explicitly set key came from, for manifests and evaluation summaries.
        self.setting_sources = (
            {"(all)": "argument"}
            if settings is not None
            else setting_sources(self.path, dict(os.environ), **overrides)
        )
        self.runs = RunRegistry(self.path)
        self.write_lock = WorkspaceWriteLock(self.path)
        self.stores.get(self.settings.store.backend)  # an unknown backend fails here, named
        self.parts = WorkspaceParts(
            self.path, self.settings, embedder, extractor, llm_client, answerer, tracing
        )
        self.flow = QueryFlow(
            self.holding, self.retriever, self.answerer, lambda: self.parts.telemetry
        )
        self.current = CurrentRun(self.runs, self._open)
        # The user's edits to the graph (app/curation.py), applied by every run.
        self.curation = Curation(self)

    # -- components, built once per workspace object (graphgate/app/parts.py) -----------------
    @property
    def embedder(self) -> Embedder:
        return self.parts.embedder

    @property
    def extractor(self) -> Extractor:
        return self.parts.extractor

    def llm_client(self) -> LLMClient:
        return self.parts.llm_client()

    def content_cache(self) -> ContentCache:
        return self.parts.content_cache()

    def llm_usage(self) -> dict[str, Any] | None:
        return self.parts.llm_usage()

    def answerer(self) -> Generator:
        return self.parts.answerer()

    def judge(self) -> Judge:
        return self.parts.judge()

    def estimate(self, corpus: Path | str) -> dict[str, Any]:
        """Calls, tokens and cost of indexing ``corpus`` with the configured extractor, before
        any call (zero for the offline extractor)."""
        from graphgate.index.extract_llm import estimate_corpus

        return estimate_corpus(Path(corpus), self.settings)

    # -- indexing ----------------------------------------------------------------------------
    def _writing(self, action: str) -> AbstractContextManager[None]:
        """The workspace's write lock, held from reading the current run until the new run is
        current: a second writer waits (``runs.write_wait_s``) and starts from this one's run."""
        ticket, self._write_ticket = self._write_ticket, None
        wait_s = self.settings.runs.write_wait_s
        return self.write_lock.hold(action, wait_s, self.on_write_wait, ticket)

    def index(
        self,
        corpus: Path | str,
        pipeline: str = "graph",
        progress: ProgressFactory = no_progress,
        gold_triples: Path | str | None = None,
        full: bool = False,
    ) -> IndexReport:
        """Make the index equal to ``corpus``, in a new run that becomes current only once every
        stage has finished. Content indexed before (same text, same settings) is reused from
        the workspace's caches, so a sync costs what changed; ``full`` recomputes everything."""
        if pipeline not in self.pipelines:
            raise ConfigError(
                f"unknown pipeline {pipeline!r}", f"use one of {sorted(self.pipelines)}"
            )
        gold = read_gold_triples(Path(gold_triples)) if gold_triples is not None else None
        with self._writing("index"):
            return self._build(Path(corpus), None, pipeline, progress, gold, full, "index")

    def add(
        self, paths: Sequence[Path | str], progress: ProgressFactory = no_progress
    ) -> IndexReport:
        """The current run's documents plus those read from ``paths`` (files, folders, JSONL;
        a document with an id already indexed replaces it), as a new run; what could not be
        read is in the report's ``problems``. Adding only what is indexed already makes no
        run (the report names the current one, ``new_run`` false)."""
        from graphgate.index.update import read_new_documents

        new = read_new_documents([Path(p) for p in paths], self.settings.load)
        with self._writing("add"):
            return self._add_to(self._parent("add"), new, progress)

    def add_documents(
        self,
        records: Sequence[Mapping[str, object]],
        progress: ProgressFactory = no_progress,
    ) -> IndexReport:
        """Documents given as ``{id, text, title?, metadata?}`` records (an upload), checked as
        JSONL lines are; the first documents of an empty workspace become its index."""
        return self._add_loaded(CorpusLoader(self.settings.load).load_records(records), progress)

    def add_files(
        self, files: Sequence[tuple[str, bytes]], progress: ProgressFactory = no_progress
    ) -> IndexReport:
        """Uploaded files as (file name, bytes), read as a corpus folder's files are (PDF and
        Office files included, by the same limits); each is indexed under its file name."""
        from graphgate.index.update import read_uploaded_files

        return self._add_loaded(read_uploaded_files(files, self.settings.load), progress)

    def _add_loaded(self, new: LoadResult, progress: ProgressFactory) -> IndexReport:
        with self._writing("add"):
            if self.runs.current_id() is not None:
                return self._add_to(self.runs.current(), new, progress)
            return self._build(
                Path(UPLOADED), new.documents, "graph", progress, None, False, "add", new.problems
            )

    def delete(
        self, doc_ids: Sequence[str], progress: ProgressFactory = no_progress
    ) -> IndexReport:
        """The current run's documents less ``doc_ids``, as a new run."""
        from graphgate.index.update import require_ids, without_documents

        require_ids(doc_ids)  # before waiting for the lock
        with self._writing("delete"):
            parent = self._parent("delete")
            documents = without_documents(documents_of(parent), doc_ids)
            return self._update(parent, documents, progress, "delete", [])

    def _add_to(self, parent: Run, new: LoadResult, progress: ProgressFactory) -> IndexReport:
        from graphgate.index.update import unchanged_by, unchanged_report, with_documents

        current = documents_of(parent)
        documents = with_documents(current, new.documents)
        if unchanged_by(current, documents):
            return unchanged_report(parent, len(documents), new.problems)
        return self._update(parent, documents, progress, "add", new.problems)

    def _parent(self, action: str) -> Run:
        if self.runs.current_id() is None:
            raise GraphgateError(
                f"nothing to {action} to: the workspace has no index yet",
                "index a corpus first with `graphgate index CORPUS`",
            )
        return self.runs.current()

    def _update(
        self,
        parent: Run,
        documents: list[Document],
        progress: ProgressFactory,
        origin: str,
        problems: list[LoadProblem],
    ) -> IndexReport:
        manifest = parent.manifest()
        gold = (
            read_gold_triples(parent.gold_triples_path)
            if parent.gold_triples_path.exists()
            else None
        )
        corpus = Path(manifest.corpus or "")
        pipeline = manifest.pipeline or "graph"
        return self._build(
            corpus, documents, pipeline, progress, gold, False, origin, problems, parent
        )

    def _build(
        self,
        corpus: Path,
        documents: list[Document] | None,
        pipeline: str,
        progress: ProgressFactory,
        gold: Any,
        full: bool,
        origin: str,
        problems: Sequence[LoadProblem] = (),
        parent: Run | None = None,
    ) -> IndexReport:
        """``parent``: the run this one is built on (default: the current run)."""
        return build_run(
            self, corpus, documents, pipeline, progress, gold, full, origin, problems, parent
        )

    # -- quality gates -----------------------------------------------------------------------
    def gates(self, run_id: str | None = None, baseline_id: str | None = None) -> GatesReport:
        """All eight gates on a run (default: current) against a baseline (default: the set one)."""
        run = self.runs.get(run_id) if run_id else self.runs.current()
        state = self.runs.state(run)
        if state in {RUNNING, INTERRUPTED}:
            raise RunStateError(
                f"run {run.run_id} is {state}: gates judge finished runs only",
                "wait for it to finish"
                if state == RUNNING
                else "re-index; `graphgate runs prune` removes interrupted runs",
            )
        baseline = gating.chosen_baseline(self.runs, baseline_id)
        matcher = PredicateMatcher(
            self.settings.extract.spacy_model, self.settings.eval.predicate_synonyms
        )  # loads spaCy only if the run has gold triples to compare with
        return gating.run_gates(self.runs, run, self.settings.gates, baseline, matcher)

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(
        self,
        testset: Path | str,
        modes: Sequence[str] | str,
        out_dir: Path | str,
        resume: bool = False,
        progress: Callable[[EvalRecord], None] | None = None,
    ) -> EvalOutcome:
        """Evaluate the current run's retrieval and answers; the summary is also stored with the
        run, where the Gen gate reads it."""
        return evaluate_current_run(self, testset, modes, out_dir, resume, progress)

    def calibrate_gates(
        self, seeds: int = 3, progress: ProgressFactory = no_progress
    ) -> tuple[list[str], GatesReport]:
        """The baseline's documents (else the current run's) indexed again under ``seeds``
        other seeds with the same settings, so the gates judge by a history band; the current
        run stays current."""
        return calibrate_gates(self, seeds, progress)

    def set_baseline(self, run_id: str) -> None:
        with self._writing("set the baseline"):  # a prune under way keeps the new baseline
            state = self.runs.state(self.runs.get(run_id))
            if state != COMPLETE:
                raise RunStateError(
                    f"run {run_id} is {state}: only a complete run can be the baseline",
                    "pick a complete run from `graphgate runs`",
                )
            gating.set_baseline(self.runs, run_id)

    def prune_runs(self) -> list[str]:
        """Remove interrupted and failed runs and complete ones beyond ``runs.keep``."""
        with self._writing("prune runs"):
            protected = {r for r in (self.runs.current_id(), gating.baseline_id(self.runs)) if r}
            stores = {r.run_id: readable_record(r) for r in self.runs.list()}
            removed = self.runs.prune(self.settings.runs.keep, protected)
            # Their manifests went with their folders; the server graphs they named go too.
            gone = [record for r in removed if (record := stores[r]) is not None]
            self.stores.prune(self.runs, self.settings, gone)
            return removed

    # -- querying ----------------------------------------------------------------------------
    def _open(self, run: Run) -> LoadedIndex:
        check_embedding(run, self.embedder)
        return open_index(
            run,
            self.open_store(run, self.settings),
            self.embedder,
            self.settings.query,
            self.settings.extract.spacy_model,
            self.llm_client() if self.settings.llm.provider != "none" else None,
            family_matcher(self.settings.truth),
        )

    def loaded(self) -> LoadedIndex:
        """The current run, opened for querying once per run (app/current_run.py); safe to
        call from several threads."""
        return self.current.loaded()

    def holding(self) -> AbstractContextManager[LoadedIndex]:
        """The current run, kept open until the block ends even if another run becomes
        current meanwhile (a query answers from one run from start to end)."""
        return self.current.holding()

    def retriever(
        self, mode: str | None = None, loaded: LoadedIndex | None = None
    ) -> ConflictRetriever:
        """The retriever of ``mode`` over ``loaded`` (default: the current run, loaded now)."""
        index = loaded if loaded is not None else self.loaded()
        return build_retriever(mode or self.settings.query.mode, index, self.settings.query)

    def query(
        self,
        question: str,
        mode: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
        history: Sequence[Turn] = (),
    ) -> Answer:
        """``as_of`` (a date: 2016, 2016-03, 2016-03-31, "March 2016") answers for that time;
        without it, for the time the question names, if any. ``history``: the conversation's
        earlier turns, read by a model answerer (not by retrieval). One loaded run answers
        from start to end: an update that becomes current meanwhile is the next query's."""
        check_question(question, self.settings.query.max_question_chars)
        check_top_k(top_k)
        events = self.flow.events(question, mode, top_k, as_of, history, stream=False)
        return _answered(events)

    def query_stream(
        self,
        question: str,
        mode: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
        history: Sequence[Turn] = (),
    ) -> QueryEvents:
        """:meth:`query`, shown as it is made: :class:`Retrieved` (the retrieval, before any
        answer text), :class:`AnswerText` pieces as the answerer writes them, then
        :class:`Answered` (the whole answer; its text is the pieces joined). The question is
        checked now; the run is held until the iterator is exhausted or closed."""
        check_question(question, self.settings.query.max_question_chars)
        check_top_k(top_k)
        return self.flow.events(question, mode, top_k, as_of, history, stream=True)

    def retrieve(
        self,
        question: str,
        mode: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
    ) -> Retrieval:
        """Retrieval without an answer: the passages (text, document, span, page, section),
        entities and edges (what the LangChain and LlamaIndex retrievers return)."""
        check_question(question, self.settings.query.max_question_chars)
        check_top_k(top_k)
        return self.flow.retrieve(question, mode, top_k, as_of)

    def query_batch(
        self,
        questions: Iterable[str],
        mode: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
    ) -> Iterator[Answer]:
        for question in questions:
            yield self.query(question, mode, top_k, as_of)

    def cypher(self, query: str, params: dict[str, Any] | None = None) -> CypherResult:
        """A read-only Cypher query on the current run's graph (checked first, then run on a
        read-only connection), within ``query.cypher_max_rows``, ``cypher_max_bytes`` and
        ``cypher_timeout_s``."""
        s = self.settings.query
        with self.holding() as loaded:
            result = run_read_query(
                loaded.store, query, params, s.cypher_max_rows, s.cypher_timeout_s,
                s.cypher_max_bytes,
            )  # fmt: skip
            result.run_id = loaded.run.run_id
        return result

    # -- status ------------------------------------------------------------------------------
    def status(self) -> Status:
        return workspace_status(self.path, self.runs, self.holding)

    def list_runs(self) -> list[Run]:
        return self.runs.list()

    def _close_loaded(self) -> None:
        self.current.close()

    def close(self) -> None:
        self._close_loaded()
        self.parts.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answered(events: QueryEvents) -> Answer:
    for event in events:
        if isinstance(event, Answered):
            return event.answer
    raise AssertionError("a query's events end with its answer")
