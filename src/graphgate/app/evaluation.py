"""An evaluation of a workspace's current run: one loaded run for every mode, the model's use
accounted, the summary stored with the run (where the Gen gate reads it)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from graphgate.core.modes import parse_modes
from graphgate.evaluate.evidence import IndexEvidence
from graphgate.evaluate.gold import IndexGoldContext
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.records import EvalRecord
from graphgate.evaluate.run import EvalOutcome, check_graph, run_evaluation, write_summary

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace


def evaluate_current_run(
    ws: Workspace,
    testset: Path | str,
    modes: Sequence[str] | str,
    out_dir: Path | str,
    resume: bool = False,
    progress: Callable[[EvalRecord], None] | None = None,
) -> EvalOutcome:
    chosen = parse_modes(modes)
    with contextlib.ExitStack() as stack:
        # One loaded run for every mode, open until the last case even if another run becomes
        # current meanwhile; raises when there is no index, or on an embedding mismatch.
        loaded = stack.enter_context(ws.holding())
        counts = loaded.store.counts()
        check_graph(chosen, loaded.run.run_id, counts.get("Entity", 0), counts.get("RELATED", 0))
        # Unknown modes fail before a case.
        retrievers = {m: ws.retriever(m, loaded) for m in chosen}
        generator, judge = ws.answerer(), ws.judge()
        spent = (
            stack.enter_context(ws.llm_client().scope())
            if ws.parts.uses_llm_for_answers()
            else None
        )
        outcome = run_evaluation(
            Path(testset),
            retrievers,
            generator,
            judge,
            ws.settings.eval,
            IndexGoldContext(loaded),
            loaded.run.run_id,
            Path(out_dir),
            seed=ws.settings.seed,
            resume=resume,
            progress=progress,
            predicates=PredicateMatcher(
                ws.settings.extract.spacy_model, ws.settings.eval.predicate_synonyms
            ),
            evidence=IndexEvidence(loaded),
            max_question_chars=ws.settings.query.max_question_chars,
        )
    outcome.summary["llm"] = spent.as_dict() if spent is not None else None
    outcome.summary["settings"] = ws.settings.public_dump()
    outcome.summary["settings_sources"] = ws.setting_sources
    write_summary(outcome, loaded.run)
    return outcome
