"""A pipeline is a named list of stages; each stage maps artifact tables to artifact tables."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.memory import peak_rss_mb, release_memory, use_arrow_allocator
from graphgate.core.runs import COMPLETE, FAILED, ArtifactTables, Run, finished_now
from graphgate.core.telemetry import Steps, Telemetry
from graphgate.core.types import Document
from graphgate.embed.base import Embedder, HoldsMemory
from graphgate.index.cache import ContentCache
from graphgate.index.curation import CurationEdit
from graphgate.index.executor_base import Executor
from graphgate.index.executor_local import LocalExecutor
from graphgate.index.extract_base import Extractor
from graphgate.index.load import LoadProblem
from graphgate.index.summarize import Summarizer
from graphgate.store.base import BuiltAhead, nothing_built_ahead
from graphgate.store.registry import StoreBackends, default_backends

Advance = Callable[[int], None]
ProgressFactory = Callable[[str, int], Advance]


def no_progress(description: str, total: int) -> Advance:
    return lambda n: None


@dataclass
class IndexContext:
    """What stages may use besides their input tables; components are built by the caller."""

    settings: Settings
    corpus: Path
    run: Run
    embedder: Embedder
    extractor: Extractor
    previous_documents: dict[str, Document] = field(default_factory=dict)
    progress: ProgressFactory = no_progress
    llm: Any = None  # an LLMClient when a stage is configured to use the model
    # An update's document set (add / delete); None: load ``corpus``.
    documents: list[Document] | None = None
    # Content caches (embeddings, offline extraction); reuse=False recomputes (and refreshes).
    cache: ContentCache | None = None
    reuse: bool = True
    # The run an update starts from (the current one): resolution keeps its edges that no
    # change reaches (index/resolve_update.py). None: a first index.
    parent: Run | None = None
    # Told each stage's name before it runs (work that overlaps the stages starts from it).
    before_stage: Callable[[str], None] | None = None
    # Whether the store's keyword index of a kind ("chunk", "entity") was built ahead by
    # that work (waiting for it); False: the graph stage builds it (store/build.py).
    built_ahead: BuiltAhead = nothing_built_ahead
    # What was skipped while reading an update's ``documents`` (the loader's report): the
    # load stage records it with the run, as it records a corpus's.
    load_problems: list[LoadProblem] = field(default_factory=list)
    # The store backends by name; the graph stage writes to ``store.backend``'s.
    stores: StoreBackends = field(default_factory=default_backends)
    # A summarizer given by the caller; None: ``communities.summarizer``'s.
    summarizer: Summarizer | None = None
    # Where the per-chunk work (extraction, embeddings) runs (``index.executor``).
    executor: Executor = field(default_factory=LocalExecutor)
    # Where stage spans go (core/telemetry.py); default: none.
    telemetry: Telemetry = field(default_factory=Telemetry)
    # The workspace's curation (index/curation.py), applied at resolution: every edit made,
    # in order, reverts included.
    curation: list[CurationEdit] = field(default_factory=list)


@dataclass(frozen=True)
class StageOutput:
    tables: dict[str, pa.Table]
    info: dict[str, Any] = field(default_factory=dict)


StageFn = Callable[[IndexContext, Mapping[str, pa.Table]], StageOutput]
# A check on a stage's output, after its artifacts are written: it raises to stop the run,
# and the artifacts stay for the gates to judge the failed run.
StageCheck = Callable[[IndexContext, StageOutput], None]


@dataclass(frozen=True)
class Stage:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    fn: StageFn
    optional_inputs: tuple[str, ...] = ()
    check: StageCheck | None = None
    # Inputs read from the run's artifacts at each access and held by no one else
    # (:class:`ArtifactTables`): a stage that walks many tables once each keeps one at a time.
    reads_as_needed: bool = False
    # Runs with the cycle collector paused (``runs.pause_gc``): seconds of record building.
    # Not a stage that may wait on a remote model for hours (failed calls leave cycles).
    pause_gc: bool = True
    # Columns of its required inputs read dictionary-encoded (Run.read_artifact): long texts
    # repeated row after row, which the stage encodes (index/columnar.py) or reads as values.
    dictionary_columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class StageReport:
    name: str
    seconds: float
    rows: dict[str, int]
    info: dict[str, Any]
    # The process's peak RSS when the stage ended (MB; memory.peak_rss_mb).
    peak_rss_mb: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seconds": round(self.seconds, 4),
            "rows": self.rows,
            "info": self.info,
            "peak_rss_mb": self.peak_rss_mb,
        }


@dataclass(frozen=True)
class IndexReport:
    run_id: str
    pipeline: str
    stages: list[StageReport]
    problems: list[dict[str, str]]
    counts: dict[str, int]
    seconds: float
    changes: dict[str, Any] | None = None  # documents added, changed, removed vs the parent
    new_run: bool = True  # False: nothing changed, and ``run_id`` is the current run still


@dataclass(frozen=True)
class Pipeline:
    name: str
    stages: tuple[Stage, ...]

    def stage_names(self) -> list[str]:
        return [s.name for s in self.stages]

    def run(
        self, ctx: IndexContext, only: Sequence[str] | None = None, trace: Steps | None = None
    ) -> list[StageReport]:
        """Run every stage (or ``only`` some). A stage's inputs are read from the run's
        artifacts when it starts and dropped when it ends: no table outlives the stage that
        uses it, so memory holds one stage's working set, not every artifact made so far."""
        reports: list[StageReport] = []
        # Each stage's seconds and its span are one measurement (core/telemetry.py).
        trace = trace if trace is not None else ctx.telemetry.steps("graphgate.index")
        for stage in self.stages:
            if only is not None and stage.name not in only:
                continue
            if ctx.before_stage is not None:
                ctx.before_stage(stage.name)
            inputs: Mapping[str, pa.Table]
            if stage.reads_as_needed:
                inputs = ArtifactTables(
                    ctx.run, stage.inputs, stage.optional_inputs, stage.dictionary_columns
                )
            else:
                inputs = {
                    name: ctx.run.read_artifact(name, dictionary=stage.dictionary_columns)
                    for name in stage.inputs
                }
                inputs |= {name: ctx.run.read_or_empty(name) for name in stage.optional_inputs}
            with (
                trace.step(f"index.{stage.name}", stage=stage.name) as step,
                cycle_collector_paused(ctx.settings.runs.pause_gc and stage.pause_gc),
            ):
                output = stage.fn(ctx, inputs)
                step.set(**{f"rows.{name}": t.num_rows for name, t in output.tables.items()})
            seconds = trace.ms[f"index.{stage.name}"] / 1000
            _write_outputs(ctx.run, output)
            rows = {name: t.num_rows for name, t in output.tables.items()}
            reports.append(StageReport(stage.name, seconds, rows, output.info, peak_rss_mb()))
            # Recorded as it goes: a failed or killed run shows how far it got.
            ctx.run.update_manifest(stages=[r.as_dict() for r in reports])
            if stage.check is not None:
                stage.check(ctx, output)
            del inputs, output
            if isinstance(ctx.embedder, HoldsMemory):
                ctx.embedder.release_memory()
            release_memory()
        return reports


def _write_outputs(run: Run, output: StageOutput) -> None:
    """In a function of its own: a loop variable left bound in :meth:`Pipeline.run` kept the
    stage's last table alive through the next stage."""
    for name, table in output.tables.items():
        run.write_artifact(name, table)


@contextlib.contextmanager
def cycle_collector_paused(pause: bool) -> Iterator[None]:
    """A stage allocates records by the hundred thousand and keeps them: each allocation burst
    triggers a collection that rescans the survivors (a tenth of an update's time). Reference
    counting still frees what it drops; cycles wait until the stage ends. Process-wide, for
    the seconds a stage takes; left as found when it was already off (the caller's choice)."""
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def execute(pipeline: Pipeline, ctx: IndexContext) -> IndexReport:
    """Every stage of ``pipeline``, its outcome recorded in the run's manifest: complete, with
    its stages, counts and document changes; or failed, with the error (which is re-raised)."""
    run = ctx.run
    use_arrow_allocator(ctx.settings.index.arrow_allocator)
    trace = ctx.telemetry.steps("graphgate.index", pipeline=pipeline.name, run_id=run.run_id)
    spent = contextlib.ExitStack()
    run_llm = spent.enter_context(ctx.llm.scope()) if ctx.llm is not None else None
    try:
        with spent:
            reports = pipeline.run(ctx, trace=trace)
    except BaseException as exc:
        run.update_manifest(
            status=FAILED, finished_at=finished_now(), error=f"{type(exc).__name__}: {exc}"
        )
        trace.error(exc)
        trace.end()
        raise
    seconds = trace.end() / 1000
    load = reports[0].info if reports else {}
    problems: list[dict[str, str]] = load.get("problems", [])
    counts: dict[str, int] = next(
        (r.info["store_counts"] for r in reports if "store_counts" in r.info), {}
    )
    run.update_manifest(
        status=COMPLETE,
        finished_at=finished_now(),
        changes=load.get("changes"),
        seconds=round(seconds, 3),
        stages=[r.as_dict() for r in reports],
        load_problems=problems,
        counts=counts,
        embedding={"model": ctx.embedder.model, "dimension": ctx.embedder.dimension},
        executor=ctx.executor.describe(),
        llm=run_llm.as_dict() if run_llm is not None else None,
    )
    return IndexReport(
        run.run_id, pipeline.name, reports, problems, counts, seconds, load.get("changes")
    )
