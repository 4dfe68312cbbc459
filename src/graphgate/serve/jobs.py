"""Background jobs (index, delete, evaluate) and where their state is kept.

A job lives in the process that runs it, and its state is also written to the workspace's
``jobs/`` folder, so with ``graphgate serve --workers N`` every worker answers ``GET /jobs`` and
``GET /jobs/{id}`` for a job any of them started (the web interface polls whichever worker the
connection reaches). A job whose process is gone reads as ``interrupted``.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphgate.core.runs import owner, owner_alive

_JOB_ID = re.compile(r"^[0-9a-f]{12}$")
_KEEP = 100  # job files kept per workspace, newest first
_SAVE_EVERY_S = 0.5  # progress is written at most this often; state changes always


@dataclass
class Job:
    id: str
    kind: str
    state: str = "queued"  # queued | running | done | failed (| interrupted, when read back)
    progress: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.time)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def wait(self, poll_s: float = 0.2) -> Job:
        while self.state in {"queued", "running"}:
            time.sleep(poll_s)
        return self


class JobBoard:
    """This process's jobs in memory, every process's jobs on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mine: dict[str, Job] = {}
        self._saved_at: dict[str, float] = {}

    def add(self, job: Job) -> None:
        self.mine[job.id] = job
        self.save(job, force=True)

    def save(self, job: Job, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._saved_at.get(job.id, 0.0) < _SAVE_EVERY_S:
            return
        self._saved_at[job.id] = now
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{job.id}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**job.as_dict(), "owner": owner()}, default=str))
        os.replace(tmp, path)
        if force:
            self._prune()

    def get(self, job_id: str) -> dict[str, Any] | None:
        if job_id in self.mine:
            return self.mine[job_id].as_dict()
        if not _JOB_ID.match(job_id):
            return None
        return self._read(self.folder / f"{job_id}.json")

    def list(self) -> list[dict[str, Any]]:
        """Every job this workspace's servers know, newest first."""
        found = {job.id: job.as_dict() for job in self.mine.values()}
        if self.folder.is_dir():
            for path in self.folder.glob("*.json"):
                if path.stem not in found and (read := self._read(path)) is not None:
                    found[path.stem] = read
        return sorted(found.values(), key=lambda j: -float(j.get("started", 0)))

    @staticmethod
    def _read(path: Path) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        who = data.pop("owner", {})
        if data.get("state") in {"queued", "running"} and not owner_alive(who):
            data["state"] = "interrupted"
        return data

    def _prune(self) -> None:
        files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for path in files[_KEEP:]:
            path.unlink(missing_ok=True)
