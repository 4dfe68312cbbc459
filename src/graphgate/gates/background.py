"""A run's gates judged in a second process while its graph store is written.

On a large corpus both take seconds and neither needs the other: the gates read the run's
artifacts, every one written before the graph stage, and the store is written from the same
tables. With a second core the gates then cost an index or an update little more than the
store already does. The worker starts when resolution begins, so its imports overlap the
stages before the store. It measures the partition's stability across seeds (the community
gate's slowest part) once the graph is resolved and its entities embedded, detecting the
run's partition itself while the main process does the same, so that the gates can start
as soon as the reports are written. Small runs (``gates.background_from_chunks``) judge
their gates afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing.pool import AsyncResult
from pathlib import Path

from graphgate.config import CommunitySettings, GateSettings, Settings
from graphgate.errors import RunStateError
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.gates.community import measure_stability
from graphgate.gates.context import write_stability
from graphgate.gates.runner import GatesReport, chosen_baseline, judge_run
from graphgate.index.communities import detect, relationship_edges
from graphgate.index.pipeline import cycle_collector_paused
from graphgate.index.workers import BackgroundProcess
from graphgate.runs import Run, RunRegistry
from graphgate.types import Entity, Relationship, from_table

START_AT = "resolve"  # the first stage after the embedders, which use every core
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
        entities = from_table(run.read_artifact("entities"), Entity)
        relationships = from_table(run.read_artifact("relationships"), Relationship)
        ids = [e.id for e in entities]
        chosen = detect(ids, relationship_edges(relationships), settings, seed)
        stability = measure_stability(entities, relationships, chosen, settings, seed)
        write_stability(run, stability, chosen)


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


class BackgroundGates:
    """Told each stage as it starts (``IndexContext.before_stage``); :meth:`result` is the
    judged report, or None when the run was too small (the caller judges it then). The worker
    is the workspace's (:meth:`worker`), which closes it."""

    def __init__(
        self,
        registry: RunRegistry,
        run: Run,
        settings: Settings,
        baseline: Run | None,
        worker: BackgroundProcess,
    ) -> None:
        self.registry = registry
        self.run = run
        self.settings = settings
        self.baseline = baseline
        self._worker = worker
        self._started = False
        self._previous = ""
        self._pending: AsyncResult[GatesReport] | None = None

    @staticmethod
    def worker() -> BackgroundProcess:
        """The process gates are judged in: one per workspace object, started by the first run
        large enough, kept warm for the next (a server's updates pay its start-up once)."""
        return BackgroundProcess(_warm)

    @classmethod
    def for_run(
        cls,
        registry: RunRegistry,
        run: Run,
        settings: Settings,
        worker: Callable[[], BackgroundProcess],
    ) -> BackgroundGates | None:
        """None when gates do not run on index, or the set baseline cannot be judged against
        (the gates judged afterwards report that). ``worker`` gives the workspace's worker."""
        if not settings.gates.run_on_index:
            return None
        try:
            baseline = chosen_baseline(registry)
        except RunStateError:
            return None
        return cls(registry, run, settings, baseline, worker())

    def wanted(self) -> bool:
        """More than one core, and a run as large as ``gates.background_from_chunks``."""
        if (os.cpu_count() or 1) < 2 or not self.run.has_artifact("chunks"):
            return False
        rows = self.run.artifact_rows("chunks")
        return rows >= self.settings.gates.background_from_chunks

    def before_stage(self, name: str) -> None:
        finished, self._previous = self._previous, name
        if name == START_AT and self.wanted():
            self._worker.start()
            self._started = True
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

    def result(self) -> GatesReport | None:
        """None too when the worker died before answering: the caller judges the run then."""
        return self._worker.wait(self._pending) if self._pending is not None else None
