"""A run's second process: its gates judged, and parts of its store built, while the main
process runs the stages.

On a large corpus the gates take seconds and need none of the store: they read the run's
artifacts, every one written before the graph stage. With a second core they then cost an
index or an update little more than writing the store already does. The worker starts when
resolution begins, so its imports overlap the stages before the store. In stage order it
builds the keyword index of chunks (their artifact is written: the worker is idle during
resolution), then that of entities once they are resolved (pure Python under the GIL, so it
would only slow the database writes it used to run beside), measures the partition's
stability across seeds (the community gate's slowest part) once the entities are embedded,
detecting the run's partition itself while the main process does the same, and judges the
gates as soon as the reports are written. Small runs (``gates.background_from_chunks``) do
all of it in the main process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing.pool import AsyncResult
from pathlib import Path

from graphgate.core.config import CommunitySettings, GateSettings, Settings
from graphgate.core.errors import RunStateError
from graphgate.core.runs import Run, RunRegistry
from graphgate.core.types import column_values
from graphgate.core.workers import BackgroundProcess, spawnable
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.gates.community import measure_stability
from graphgate.gates.context import write_stability
from graphgate.gates.runner import GatesReport, chosen_baseline, judge_run
from graphgate.index.communities import detect, undirected_edges
from graphgate.index.pipeline import cycle_collector_paused
from graphgate.store.build import KEYWORD_AHEAD, build_keyword_index

START_AT = "resolve"  # the first stage after the embedders, which use every core
ENTITIES_AFTER = "resolve"  # the entities are written: their keyword index
# The graph is written and the embedder (every core) is done: the partition's stability.
STABILITY_AFTER = "embed_entities"
JUDGE_AFTER = "summarize"  # the last artifact the gates read is written: they are judged


def _warm() -> None:
    """The worker's slow imports, done while the run's first stages run."""
    import igraph  # noqa: F401
    import sklearn.metrics  # noqa: F401

    import graphgate.gates.runner  # noqa: F401


def _measure_stability(
    workspace: str, run_id: str, settings: CommunitySettings, seed: int, pause_gc: bool
) -> None:
    """While the main process detects the run's partition, this one detects the same (same
    inputs, settings and seed) and the partitions under the other seeds; the record names
    the partition it compared, so the gate reads it only if the run's is that one."""
    with cycle_collector_paused(pause_gc):
        run = RunRegistry(Path(workspace)).get(run_id)
        ids = column_values(run.read_artifact("entities", ["id"])["id"])
        relationships = run.read_artifact("relationships", ["source_id", "target_id", "weight"])
        edges = undirected_edges(*(column_values(column) for column in relationships.columns))
        chosen = detect(ids, edges, settings, seed)
        stability = measure_stability(ids, edges, chosen, settings, seed)
        write_stability(run, stability, chosen)


def _build_keyword_index(
    workspace: str, run_id: str, kind: str, fields: list[str], pause_gc: bool
) -> bool:
    with cycle_collector_paused(pause_gc):
        run = RunRegistry(Path(workspace)).get(run_id)
        tables = {name: run.read_artifact(name) for name in KEYWORD_AHEAD[kind]}
        build_keyword_index(run.store_dir, kind, tables, fields)
        return True


def _judge(
    workspace: str,
    run_id: str,
    baseline_id: str | None,
    settings: GateSettings,
    spacy_model: str,
    synonyms: dict[str, str],
    pause_gc: bool,
) -> GatesReport:
    with cycle_collector_paused(pause_gc):
        registry = RunRegistry(Path(workspace))
        baseline = registry.get(baseline_id) if baseline_id else None
        matcher = PredicateMatcher(spacy_model, synonyms)
        return judge_run(registry, registry.get(run_id), settings, baseline, matcher)


class BackgroundWork:
    """Told each stage as it starts (``IndexContext.before_stage``); asked which keyword
    indexes it built (``IndexContext.built_ahead``); :meth:`result` is the judged report, or
    None when the run was too small (the caller judges it then). The worker is the
    workspace's (:meth:`worker`), which closes it."""

    def __init__(
        self,
        registry: RunRegistry,
        run: Run,
        settings: Settings,
        baseline: Run | None,
        worker: BackgroundProcess,
        keyword_ahead: bool = False,
    ) -> None:
        self.registry = registry
        self.keyword_ahead = keyword_ahead
        self.run = run
        self.settings = settings
        self.baseline = baseline
        self._worker = worker
        self._started = False
        self._previous = ""
        self._pending: AsyncResult[GatesReport] | None = None
        self._keyword: dict[str, AsyncResult[bool]] = {}

    @staticmethod
    def worker() -> BackgroundProcess:
        """The process gates are judged (and keyword indexes built) in: one per workspace
        object, started by the first run large enough, kept warm for the next (a server's
        updates pay its start-up once)."""
        return BackgroundProcess(_warm)

    @classmethod
    def for_run(
        cls,
        registry: RunRegistry,
        run: Run,
        settings: Settings,
        worker: Callable[[], BackgroundProcess],
        keyword_ahead: bool = False,
    ) -> BackgroundWork | None:
        """None when gates do not run on index, or the set baseline cannot be judged against
        (the gates judged afterwards report that; the graph stage then builds every keyword
        index itself). ``worker`` gives the workspace's worker; ``keyword_ahead``: the store
        keeps keyword indexes built ahead in the run's folder (the embedded one does)."""
        if not settings.gates.run_on_index:
            return None
        try:
            baseline = chosen_baseline(registry)
        except RunStateError:
            return None
        return cls(registry, run, settings, baseline, worker(), keyword_ahead)

    def wanted(self) -> bool:
        """More than one core, and a run as large as ``gates.background_from_chunks``."""
        if (os.cpu_count() or 1) < 2 or not spawnable() or not self.run.has_artifact("chunks"):
            return False
        rows = self.run.artifact_rows("chunks")
        return rows >= self.settings.gates.background_from_chunks

    def before_stage(self, name: str) -> None:
        finished, self._previous = self._previous, name
        if name == START_AT and self.wanted():
            self._worker.start()
            self._started = True
            self._build_ahead("chunk")
        if finished == ENTITIES_AFTER and self._started:
            self._build_ahead("entity")
        elif finished == STABILITY_AFTER and self._started:
            # Ahead of the gates, while the reports are written; the gates read it back.
            self._worker.submit(
                _measure_stability,
                str(self.registry.workspace),
                self.run.run_id,
                self.settings.communities,
                self.settings.seed,
                self.settings.runs.pause_gc,
            )
        elif finished == JUDGE_AFTER and self._started:
            self._pending = self._worker.submit(
                _judge,
                str(self.registry.workspace),
                self.run.run_id,
                self.baseline.run_id if self.baseline is not None else None,
                self.settings.gates,
                self.settings.extract.spacy_model,
                dict(self.settings.eval.predicate_synonyms),
                self.settings.runs.pause_gc,
            )

    def _build_ahead(self, kind: str) -> None:
        """Only for a store whose folder holds the keyword indexes (the embedded one)."""
        if self.keyword_ahead:
            self._keyword[kind] = self._worker.submit(
                _build_keyword_index,
                str(self.registry.workspace),
                self.run.run_id,
                kind,
                list(self.settings.chunk.context_fields),
                self.settings.runs.pause_gc,
            )

    def built_ahead(self, kind: str) -> bool:
        """Whether the keyword index of ``kind`` is built in the run's store folder, waiting
        for it. False when it was not asked for or did not finish (the worker died, or the
        job failed): the graph stage then builds it, and any error is raised there."""
        pending = self._keyword.get(kind)
        if pending is None:
            return False
        try:
            done = self._worker.wait(pending)
        except Exception:  # built again in place, where the error surfaces with its stage
            return False
        return done is True

    def result(self) -> GatesReport | None:
        """None too when the worker died before answering: the caller judges the run then."""
        return self._worker.wait(self._pending) if self._pending is not None else None
