"""The state a server shares between requests: one workspace, one writer, background jobs.

Queries are serialised on one lock (the search libraries are not documented as thread-safe);
indexing runs in a background thread into a new run, and queries keep answering from the
current run until the new one is complete and becomes current.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphgate.workspace import Workspace


@dataclass
class Job:
    id: str
    kind: str
    state: str = "queued"  # queued | running | done | failed
    progress: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.time)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Service:
    def __init__(
        self, workspace: Path, write_token: str | None, read_token: str | None = None
    ) -> None:
        self.workspace = workspace
        self.write_token = write_token
        self.read_token = read_token
        self.ws = Workspace(workspace)
        self.query_lock = threading.Lock()
        self.write_lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def close(self) -> None:
        self.ws.close()

    def query(self, question: str, mode: str | None, top_k: int | None) -> dict[str, Any]:
        with self.query_lock:
            return self.ws.query(question, mode, top_k).to_dict()

    def _start(self, kind: str, work: Any) -> Job:
        job = Job(uuid.uuid4().hex[:12], kind)
        self.jobs[job.id] = job

        def run() -> None:
            with self.write_lock:
                job.state = "running"
                try:
                    job.result = work(job)
                    job.state = "done"
                except Exception as exc:  # a job reports its failure instead of dying silently
                    job.state, job.error = "failed", f"{type(exc).__name__}: {exc}"

        threading.Thread(target=run, name=f"graphgate-{kind}-{job.id}", daemon=True).start()
        return job

    def add_documents(self, documents: list[dict[str, Any]]) -> Job:
        """Index the current corpus plus these documents (added or replaced) into a new run."""

        def work(job: Job) -> dict[str, Any]:
            folder = Path(tempfile.mkdtemp(prefix="gg-docs-"))
            corpus = folder / "corpus.jsonl"
            existing: dict[str, dict[str, Any]] = {}
            if self.ws.runs.current_id() is not None:
                for row in self.ws.runs.current().read_artifact("documents").to_pylist():
                    existing[row["id"]] = {
                        "id": row["id"],
                        "title": row["title"],
                        "text": row["text"],
                        "metadata": json.loads(row["metadata_json"]),
                    }
            for doc in documents:
                existing[doc["id"]] = doc
            corpus.write_text(
                "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in existing.values()),
                encoding="utf-8",
            )
            writer = Workspace(self.workspace)

            def progress(description: str, total: int) -> Any:
                job.progress[description] = {"done": 0, "total": total}

                def advance(n: int) -> None:
                    job.progress[description]["done"] += n

                return advance

            try:
                report = writer.index(corpus, progress=progress)
            finally:
                writer.close()
            return {"run_id": report.run_id, "counts": report.counts, "documents": len(existing)}

        return self._start("index", work)

    def reindex(self, corpus: Path) -> Job:
        """Index a corpus path on the server into a new run."""

        def work(job: Job) -> dict[str, Any]:
            writer = Workspace(self.workspace)
            try:
                report = writer.index(corpus)
            finally:
                writer.close()
            return {"run_id": report.run_id, "counts": report.counts}

        return self._start("index", work)

    def evaluate(self, testset: Path, modes: list[str]) -> Job:
        def work(job: Job) -> dict[str, Any]:
            from graphgate.evaluate.run import evaluate

            out = Path(tempfile.mkdtemp(prefix="gg-eval-"))

            def count(_: dict[str, Any]) -> None:
                job.progress["cases"] = job.progress.get("cases", 0) + 1

            with self.query_lock:
                outcome = evaluate(
                    self.ws,
                    testset,
                    modes,
                    out,
                    progress=count,
                )
            return {"out_dir": str(out), "summary": outcome.summary}

        return self._start("eval", work)
