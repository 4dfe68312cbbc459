"""The state a server shares between requests: one workspace, one writer, background jobs.

Queries run side by side, each on the run that was current when it started (the workspace
keeps a replaced run open until its last query ends; the graph database gives each thread its
own connection); the rarer reads that build whole views (gates, the browse views, metrics,
evaluations) take turns on one lock. Writes (add, delete, re-index) are applied by one
background thread in the order they were accepted, each into a new run under the workspace's
write lock (so a CLI writer or another server process sharing the workspace is waited for,
never overwritten), and queries keep answering from the current run until the new one is
complete and becomes current.

Every transport calls the operations here after :meth:`Service.authorize`; paths a client names
are checked against ``serve.allowed_paths`` here, once, for HTTP and MCP alike.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, Field

from graphgate.app.curation import check_against
from graphgate.app.explore import Explorer
from graphgate.app.workspace import Workspace
from graphgate.app.workspace_lock import WriterInfo
from graphgate.core.config import LoadSettings
from graphgate.core.errors import InputError
from graphgate.core.inputs import (
    MAX_DOCUMENT_ID_CHARS,
    check_document_id,
    check_question,
    check_top_k,
    check_unicode,
    check_unicode_tree,
)
from graphgate.core.modes import check_mode, parse_modes
from graphgate.core.types import Document, from_table
from graphgate.evaluate.records import EvalRecord
from graphgate.index.curation import CurationEdit, check_edit
from graphgate.index.pipeline import IndexReport
from graphgate.query.base import Turn
from graphgate.query.events import QueryEvents
from graphgate.query.question import time_of
from graphgate.serve.auth import AccessDenied, Authenticator, Caller
from graphgate.serve.jobs import Job, JobBoard

T = TypeVar("T")

# serve.threads by default: the extractive answer is Python work under the interpreter lock;
# a model's answer is mostly a wait on the network.
_THREADS = 2
_LLM_THREADS = 32

# A write job's work: given the job, and the workspace object to write through.
WriteWork = Callable[[Job, Workspace], dict[str, Any]]


def _clean_tree(value: dict[str, Any]) -> dict[str, Any]:
    """str fields are checked by pydantic; values under ``Any`` are not (lone surrogates)."""
    try:
        check_unicode_tree(value, "metadata")
    except InputError as exc:
        raise ValueError(exc.problem) from exc
    return value


def _clean_id(value: str) -> str:
    try:
        return check_document_id(value)
    except InputError as exc:
        raise ValueError(f"{exc.problem} ({exc.fix})") from exc


class DocumentIn(BaseModel):
    id: Annotated[str, AfterValidator(_clean_id)] = Field(
        min_length=1, max_length=MAX_DOCUMENT_ID_CHARS
    )
    title: str | None = None
    text: str = Field(min_length=1)
    metadata: Annotated[dict[str, Any], AfterValidator(_clean_tree)] = Field(default_factory=dict)


class Service:
    def __init__(
        self,
        workspace: Path,
        write_token: str | None = None,
        read_token: str | None = None,
        **overrides: Any,
    ) -> None:
        self.workspace = workspace
        self.ws = Workspace(workspace, **overrides)
        serve = self.ws.settings.serve
        # This workspace only answers (writes go through a workspace of their own): its
        # embedder is built on the first query, with the server's thread count.
        self.ws.settings.embed.threads = serve.embed_threads
        self.settings = serve
        llm = self.ws.settings.query.answerer == "llm"
        self.threads = serve.threads or (_LLM_THREADS if llm else _THREADS)
        self.auth = Authenticator(
            write_token or (serve.write_token.get_secret_value() if serve.write_token else None),
            read_token or (serve.read_token.get_secret_value() if serve.read_token else None),
            serve.metrics_public,
        )
        # Gates, browse views, metrics and evaluations: whole-run reads, one at a time.
        self.views_lock = threading.Lock()
        # Writes accepted and not yet finished, with their tickets, applied in order by one
        # thread (the tickets order them with other processes' writes).
        self._writes: queue.Queue[tuple[Job, int, WriteWork]] = queue.Queue()
        self._pending = 0
        self._pending_lock = threading.Lock()
        self._writer: threading.Thread | None = None
        self.jobs = JobBoard(workspace / "jobs")
        self._explorer: Explorer | None = None

    @property
    def write_token(self) -> str | None:
        return self.auth.write_token

    @property
    def read_token(self) -> str | None:
        return self.auth.read_token

    def close(self) -> None:
        self.ws.close()

    def authorize(self, operation: str, caller: Caller) -> None:
        self.auth.decide(operation, caller)

    # -- reads -------------------------------------------------------------------------------
    def query(
        self, question: str, mode: str | None, top_k: int | None, as_of: str | None = None
    ) -> dict[str, Any]:
        # The workspace checks these too; here a bad request is refused before it queues.
        check_question(question, self.ws.settings.query.max_question_chars)
        check_mode(mode)
        check_top_k(top_k)
        time_of(question, as_of)
        return self.ws.query(question, mode, top_k, as_of).to_dict()

    def query_stream(
        self,
        question: str,
        mode: str | None,
        top_k: int | None,
        as_of: str | None = None,
        history: Sequence[Turn] = (),
    ) -> QueryEvents:
        """The query's events (:meth:`Workspace.query_stream`), checked before the first."""
        check_question(question, self.ws.settings.query.max_question_chars)
        check_mode(mode)
        check_top_k(top_k)
        time_of(question, as_of)
        for turn in history:
            check_unicode(turn.content, "a message")
        return self.ws.query_stream(question, mode, top_k, as_of, history)

    def retrieve(
        self, question: str, mode: str | None, top_k: int | None, as_of: str | None = None
    ) -> dict[str, Any]:
        check_question(question, self.ws.settings.query.max_question_chars)
        check_mode(mode)
        check_top_k(top_k)
        time_of(question, as_of)
        return self.ws.retrieve(question, mode, top_k, as_of).to_dict()

    def explore(self, view: Callable[[Explorer], T]) -> T:
        """One view of the current run (the explorer's lists are kept until the run changes)."""
        with self.views_lock, self.ws.holding() as loaded:
            if self._explorer is None or self._explorer.loaded is not loaded:
                self._explorer = Explorer(loaded)
            return view(self._explorer)

    def cypher(self, query: str, params: dict[str, Any]) -> dict[str, Any]:
        if not self.settings.cypher:
            raise AccessDenied(
                403,
                "read-only Cypher over HTTP is off on this server",
                "set serve.cypher = true in graphgate.toml (it needs the write token)",
            )
        check_unicode(query, "the query")
        return self.ws.cypher(query, params).to_dict()

    def status(self) -> dict[str, Any]:
        """The workspace status without the server's file-system layout."""
        status = self.ws.status().to_dict()
        status["workspace"] = self.workspace.name
        # Where the files and the database server are is the operator's business, not a client's.
        status["store"] = {k: v for k, v in status["store"].items() if k not in {"path", "url"}}
        return status

    # -- paths a client names ----------------------------------------------------------------
    def allowed_path(self, path: str) -> Path:
        """``path`` resolved (symlinks, ``..``) and found below one of ``serve.allowed_paths``."""
        roots = [Path(os.path.realpath(r)) for r in self.settings.allowed_paths]
        if not roots:
            raise AccessDenied(
                403,
                "reading files on the server is off",
                "list the folders clients may read in serve.allowed_paths (graphgate.toml)",
            )
        check_unicode(path, "the path")
        resolved = Path(os.path.realpath(path))
        if not any(resolved == root or resolved.is_relative_to(root) for root in roots):
            raise AccessDenied(
                403,
                f"{path} is outside the folders this server may read",
                "name a file below one of serve.allowed_paths",
            )
        if not resolved.exists():
            raise InputError(f"{path} does not exist on the server", "check the path")
        return resolved

    # -- background jobs ---------------------------------------------------------------------
    def _run_job(self, job: Job, work: Callable[[Job], dict[str, Any]]) -> None:
        job.state = "running"
        self.jobs.save(job, force=True)
        try:
            job.result = work(job)
            job.state = "done"
        except Exception as exc:  # a job reports its failure instead of dying silently
            job.state, job.error = "failed", f"{type(exc).__name__}: {exc}"
        job.progress.pop("waiting for", None)
        self.jobs.save(job, force=True)

    def _start(self, kind: str, work: Callable[[Job], dict[str, Any]]) -> Job:
        """A job that changes no run (an evaluation): its own thread, at once."""
        job = Job(uuid.uuid4().hex[:12], kind)
        self.jobs.add(job)
        name = f"graphgate-{kind}-{job.id}"
        threading.Thread(target=self._run_job, args=(job, work), name=name, daemon=True).start()
        return job

    def _start_write(self, action: str, work: WriteWork) -> Job:
        """A write, in line behind every write accepted before it, by this server or another
        process sharing the workspace; with ``runs.write_wait_s = 0`` refused at once (409)
        while another write holds the workspace or waits for it."""
        lock = self.ws.write_lock
        if self.ws.settings.runs.write_wait_s == 0:
            lock.refuse_if_busy(action)  # this server's queued writes hold tickets too
        job = Job(uuid.uuid4().hex[:12], "index")
        with self._pending_lock:
            ticket = lock.take_ticket(action)
            self._pending += 1
            self.jobs.add(job)
            self._writes.put((job, ticket, work))
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._apply_writes, name="graphgate-writer", daemon=True
                )
                self._writer.start()
        return job

    def _apply_writes(self) -> None:
        while True:
            job, ticket, work = self._writes.get()
            try:
                self._run_job(job, functools.partial(self._write, ticket=ticket, work=work))
            finally:
                self.ws.write_lock.leave_line(ticket)  # a write refused before it waited
                with self._pending_lock:
                    self._pending -= 1

    def _write(self, job: Job, *, ticket: int, work: WriteWork) -> dict[str, Any]:
        """One write through its own workspace object, which waits for its ticket's turn and
        says in the job whom it waits for."""

        def waiting(holder: WriterInfo) -> None:
            job.progress["waiting for"] = holder.describe()
            self.jobs.save(job, force=True)

        with Workspace(self.workspace, on_write_wait=waiting, write_ticket=ticket) as writer:
            return work(job, writer)

    def _progress(self, job: Job) -> Callable[[str, int], Callable[[int], None]]:
        def progress(description: str, total: int) -> Callable[[int], None]:
            job.progress.pop("waiting for", None)
            job.progress[description] = {"done": 0, "total": total}
            self.jobs.save(job)

            def advance(n: int) -> None:
                job.progress[description]["done"] += n
                self.jobs.save(job)

            return advance

        return progress

    def add_documents(self, documents: list[dict[str, Any]]) -> Job:
        """Add (or replace, by id) these documents in a new run; only their content is
        extracted and embedded (the first documents of an empty workspace are its index).
        Documents that cannot be indexed are named in the job's ``problems``, by their place
        in the request and their id."""
        if not documents:
            raise InputError("no documents to add", "send one or more documents")

        def work(job: Job, writer: Workspace) -> dict[str, Any]:
            return _report(writer.add_documents(documents, progress=self._progress(job)))

        return self._start_write("add", work)

    @property
    def settings_load(self) -> LoadSettings:
        return self.ws.settings.load

    def add_files(self, files: list[tuple[str, bytes]]) -> Job:
        """Add uploaded files (name, bytes) in a new run, read as a corpus folder's files are;
        the names and sizes are checked now, the contents when the job runs."""
        from graphgate.index.update import check_uploads

        check_uploads(files, self.ws.settings.load)

        def work(job: Job, writer: Workspace) -> dict[str, Any]:
            return _report(writer.add_files(files, progress=self._progress(job)))

        return self._start_write("add", work)

    def delete_documents(self, doc_ids: list[str]) -> Job:
        """Remove these documents in a new run; an id the current run lacks is refused now,
        unless earlier writes are still queued (the job then checks it when its turn comes)."""
        from graphgate.index.update import require_ids, without_documents

        require_ids(doc_ids)
        for doc_id in doc_ids:
            check_unicode(doc_id, "the document id")
        if not self._pending:
            current = self.ws.runs.current()
            without_documents(from_table(current.read_artifact("documents"), Document), doc_ids)

        def work(job: Job, writer: Workspace) -> dict[str, Any]:
            return _report(writer.delete(doc_ids, progress=self._progress(job)))

        return self._start_write("delete", work)

    def reindex(self, path: str) -> Job:
        """Index a corpus below ``serve.allowed_paths`` into a new run."""
        corpus = self.allowed_path(path)

        def work(job: Job, writer: Workspace) -> dict[str, Any]:
            return _report(writer.index(corpus, progress=self._progress(job)))

        return self._start_write("index", work)

    # -- curation (app/curation.py) ----------------------------------------------------------
    def curation_edits(self) -> list[dict[str, Any]]:
        return [s.as_dict() for s in self.ws.curation.edits()]

    def curate(self, edit: CurationEdit) -> Job:
        """Record an edit and apply it in a new run. It is checked against the current run
        now (an entity or edge that is not there is refused at once), unless earlier writes
        are still queued: the job then checks it when its turn comes."""
        check_edit(replace(edit, n=edit.n or 10**9), "the edit")
        if not self._pending and self.ws.runs.current_id() is not None:
            edits = self.ws.curation.log.read()
            check_against(replace(edit, n=len(edits) + 1), edits, self.ws.runs.current())

        def work(job: Job, writer: Workspace) -> dict[str, Any]:
            return writer.curation.make(edit, progress=self._progress(job)).as_dict()

        return self._start_write("curate", work)

    def evaluate(self, testset: str, modes: list[str] | str) -> Job:
        """Evaluate a test set below ``serve.allowed_paths``; results stay with the run."""
        path = self.allowed_path(testset)
        chosen = parse_modes(modes)

        def work(job: Job) -> dict[str, Any]:
            def count(_: EvalRecord) -> None:
                job.progress["cases"] = job.progress.get("cases", 0) + 1
                self.jobs.save(job)

            with self.views_lock:
                run = self.ws.loaded().run
                out = run.eval_dir(job.id)
                outcome = self.ws.evaluate(path, chosen, out, progress=count)
            return {"run_id": run.run_id, "eval_id": job.id, "summary": outcome.summary}

        return self._start("eval", work)


def _report(report: IndexReport) -> dict[str, Any]:
    """A write's answer: its run, what changed, and what was skipped (by place and id)."""
    return {
        "run_id": report.run_id,
        "new_run": report.new_run,
        "counts": report.counts,
        "changes": report.changes,
        "problems": report.problems,
    }
