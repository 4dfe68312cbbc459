"""Calibrating the gates: the baseline's documents (without a baseline, the current run's)
indexed again under other seeds with the same settings, so each metric has a band of what
chance moves it (gates/bands.py). The current run is current again afterwards; the
calibration runs stay in the history (pruned like any other run)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphgate.core.errors import ConfigError
from graphgate.gates.bands import INDEX_SECTIONS
from graphgate.gates.runner import GatesReport, chosen_baseline
from graphgate.index.pipeline import ProgressFactory, no_progress
from graphgate.index.update import documents_of

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace


def calibrate_gates(
    ws: Workspace, seeds: int, progress: ProgressFactory = no_progress
) -> tuple[list[str], GatesReport]:
    """The runs made, and the reference run's gates judged again against their history."""
    if seeds < 1:
        raise ConfigError(f"--seeds {seeds}: calibration needs at least one seed", "use 3")
    current = ws._parent("calibrate the gates of")
    reference = chosen_baseline(ws.runs) or current
    recorded = reference.manifest().settings
    mine = ws.settings.public_dump()
    differ = [k for k in INDEX_SECTIONS if recorded.get(k) != mine.get(k)]
    if differ:
        raise ConfigError(
            f"the workspace's settings differ from run {reference.run_id}'s in "
            f"{', '.join(differ)}: runs made with them would not be comparable with it",
            "calibrate with the settings the run was indexed with, or index again first",
        )
    documents = documents_of(reference)
    made: list[str] = []
    try:
        for offset in range(1, seeds + 1):
            settings = ws.settings.model_copy(update={"seed": ws.settings.seed + offset})
            # The parts the workspace was given (a pipeline, a summarizer of one's own) too:
            # a calibration run must be what the calibrated runs are.
            other = type(ws)(
                ws.path,
                settings=settings,
                store_backends=ws.stores,
                embedder=ws.embedder,
                summarizer=ws.summarizer,
                pipelines=ws.pipelines,
            )
            with other, other._writing("calibrate the gates"):
                made.append(other._update(reference, documents, progress, "calibrate", []).run_id)
    finally:  # also when a calibration run fails: the index answers from the run it did
        with ws._writing("calibrate the gates"):
            ws.runs.set_current(current)
    return made, ws.gates(reference.run_id)
