"""Building one index run: the run created and its manifest started, the pipeline executed
over an :class:`IndexContext` of the workspace's parts, and, once complete, the run made
current, the old store graphs dropped, the gates judged and old runs pruned. A failed run is
recorded as failed and never becomes current. Called with the workspace's write lock held."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphgate.app.background import BackgroundWork
from graphgate.core.errors import ExtractionFailedError
from graphgate.core.runs import Run
from graphgate.core.types import Document
from graphgate.gates import runner as gating
from graphgate.gates.context import write_gold_triples
from graphgate.index.load import LoadProblem
from graphgate.index.pipeline import IndexContext, IndexReport, ProgressFactory, execute
from graphgate.index.update import documents_by_id

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace


def build_run(
    ws: Workspace,
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
    """A new run of ``pipeline`` over ``corpus`` (or the ``documents`` given: an update), built
    on ``parent`` (default: the current run)."""
    ws.path.mkdir(parents=True, exist_ok=True)
    if parent is None and ws.runs.current_id() is not None:
        parent = ws.runs.current()
    previous = documents_by_id(parent)
    edits = ws.curation.log.read()  # a damaged file stops the run before it starts
    run = ws.runs.create()
    ws.write_lock.started_run(run.run_id)
    if gold is not None:
        write_gold_triples(run.gold_triples_path, gold)
    run.update_manifest(
        pipeline=pipeline,
        corpus=str(corpus),
        origin=origin,
        parent_run=parent.run_id if parent is not None else None,
        full=full,
        seed=ws.settings.seed,
        settings=ws.settings.public_dump(),
        settings_sources=ws.setting_sources,
        stage_names=ws.pipelines[pipeline].stage_names(),
        curation=edits[-1].n if edits else None,
    )
    uses_llm = "llm" in (ws.settings.extract.extractor, ws.settings.communities.summarizer)
    ctx = IndexContext(
        ws.settings,
        corpus,
        run,
        ws.embedder,
        ws.extractor,
        previous,
        progress,
        ws.llm_client() if uses_llm else None,
        documents,
        ws.content_cache(),
        not full,
        parent=parent,
        load_problems=list(problems),
        stores=ws.stores,
        summarizer=ws.summarizer,
        executor=ws.parts.executor,
        telemetry=ws.parts.telemetry,
        curation=edits,
    )
    keyword_ahead = ws.stores.get(ws.settings.store.backend).keyword_ahead
    background = BackgroundWork.for_run(
        ws.runs, run, ws.settings, ws.parts.gate_worker, keyword_ahead
    )
    if background is not None:
        ctx.before_stage = background.before_stage
        ctx.built_ahead = background.built_ahead
    try:
        report = execute(ws.pipelines[pipeline], ctx)
    except ExtractionFailedError:
        if ws.settings.gates.run_on_index:
            # The failed run's verdict, for `graphgate runs`; never in place of the error.
            with contextlib.suppress(Exception):
                ws.gates(run.run_id)
        raise
    ws.runs.set_current(run)
    ws._close_loaded()
    ws.stores.drop_old(ws.runs, ws.settings)
    judged = background.result() if background else None
    if judged is not None:
        gating.store_gates(run, judged)
    elif ws.settings.gates.run_on_index:
        ws.gates(run.run_id)
    if ws.settings.runs.keep is not None:
        ws.prune_runs()
    return report
