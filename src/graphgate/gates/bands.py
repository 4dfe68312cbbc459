"""Thresholds from history: a metric's band is what comparable runs of this workspace measured.

Runs are comparable when they indexed the same documents (ids and content) with the same
settings except the seed: their spread is what chance (Leiden's seed) moves a metric. A run is
judged by the band of the runs comparable with its baseline (without one, with itself): with
``gates.history_min_runs`` of them stored, a metric outside its band widened by
``gates.history_margin`` warns on its bad side, naming the band and how many runs made it.
A corpus that evolves (a sync a day) has no comparable runs: then the last
``gates.history_window`` runs with the same index settings make the bands, of the metrics that
do not count things (rates, shares, per-document figures). With fewer runs than that, the
fixed rules judge; the report says which. ``graphgate gates calibrate`` indexes a few seeds on
purpose to build a comparable history.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from graphgate.core.config import GateRule, GateSettings
from graphgate.core.errors import GraphgateError
from graphgate.core.runs import COMPLETE, Run, RunRegistry

# Settings sections that decide what an index holds; the rest (serving, querying, the gates
# themselves) leave a run's artifacts as they are.
INDEX_SECTIONS = (
    "load",
    "chunk",
    "extract",
    "resolve",
    "truth",
    "communities",
    "embed",
    "vectors",
)


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    runs: int
    # Where it came from, as a reason names it: "comparable runs" (same documents and index
    # settings, other seeds) or "recent runs" (the last runs of an evolving corpus).
    source: str = "comparable runs"

    def widened(self, margin: float) -> tuple[float, float]:
        """The band, widened on each side by ``margin`` of its centre, or by half its own
        width when that is more (a few seeds underestimate the spread of many)."""
        centre = (self.low + self.high) / 2
        slack = max(margin * abs(centre), (self.high - self.low) / 2, 1e-9)
        return self.low - slack, self.high + slack


# A recent run whose stored gates said this is left out of an evolving corpus's band.
_FLAGGED = frozenset({"WARN", "FAIL"})

# Metrics that count things, and so grow with a corpus: an evolving corpus's recent runs give
# them no band (their rates, shares and per-document figures are compared instead).
COUNTS = frozenset(
    {
        "data.documents",
        "data.added",
        "data.changed",
        "data.removed",
        "data.missing_identity",
        "chunk.chunks",
        "chunk.tokens_max",
        "chunk.chars_max",
        "ie.predicted_triples",
        "ie.type_violations",
        "graph.nodes",
        "graph.edges",
        "graph.degree_max",
        "graph.degree_p95",
        "graph.components",
        "graph.conflicts",
        "community.communities",
        "hierarchy.levels",
        "hierarchy.leaf_depth_max",
        "hierarchy.depth_spread",
        "hierarchy.children_not_contained",
        "summary.reports",
        "summary.hallucinated_claims",
    }
)


def _indexed_settings(run: Run) -> dict[str, Any] | None:
    """The settings sections that decide what the run's index holds; None when unreadable."""
    try:
        settings = run.manifest().settings
    except GraphgateError:
        return None
    return {k: settings.get(k) for k in INDEX_SECTIONS}


def settings_key(run: Run) -> str | None:
    """The index settings alone (documents and seed left out); None for an unreadable run."""
    indexed = _indexed_settings(run)
    if indexed is None:
        return None
    return hashlib.sha256(json.dumps(indexed, sort_keys=True).encode()).hexdigest()


def _bands_of(
    runs: list[Run], stored: dict[str, dict[str, Any]], source: str, leave_out: frozenset[str]
) -> dict[str, Band]:
    """Each numeric metric's range over ``runs``' stored gates (``leave_out`` not banded)."""
    values: dict[str, list[float]] = {}
    for run in runs:
        for gate in stored[run.run_id].get("gates", []):
            for name, value in gate.get("metrics", {}).items():
                metric = f"{gate['gate']}.{name}"
                if isinstance(value, int | float) and metric not in leave_out:
                    values.setdefault(metric, []).append(float(value))
    return {k: Band(min(v), max(v), len(v), source) for k, v in values.items()}


def recent_bands(
    registry: RunRegistry,
    reference: Run,
    judged: Run | None,
    stored: dict[str, dict[str, Any]],
    window: int,
) -> tuple[dict[str, Band], int]:
    """Bands from the last ``window`` complete runs indexed with ``reference``'s settings,
    whatever their documents (a corpus that evolves: each sync a run), ``judged`` left out and
    counts left out (they grow with the corpus), runs that warned or failed when judged left
    out (a regression is not what the corpus's change normally moves); and how many runs
    (states of the corpus) they came from."""
    key = settings_key(reference)
    if key is None or window < 1:
        return {}, 0
    # One run per state of the corpus (the latest): re-runs of one document set say nothing
    # of how far a change of documents moves a metric.
    chosen: dict[str | None, Run] = {}
    for other in reversed(registry.list()):
        if len(chosen) == window:
            break
        if (judged is not None and other.run_id == judged.run_id) or other.run_id not in stored:
            continue
        if stored[other.run_id].get("verdict") in _FLAGGED:
            continue  # a run flagged when it was judged is no measure of normal
        if registry.state(other) == COMPLETE and settings_key(other) == key:
            chosen.setdefault(comparability_key(other), other)
    return _bands_of(list(chosen.values()), stored, "recent runs", COUNTS), len(chosen)


def comparability_key(run: Run) -> str | None:
    """Corpus and index settings, seed left out; None for a run without documents."""
    if not run.has_artifact("documents"):
        return None
    indexed = _indexed_settings(run)
    if indexed is None:
        return None
    documents = run.read_artifact("documents", ["id", "sha256"]).to_pylist()
    content = sorted((d["id"], d["sha256"]) for d in documents)
    text = json.dumps({"documents": content, "settings": indexed}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def history_bands(
    registry: RunRegistry, reference: Run, judged: Run | None, stored: dict[str, dict[str, Any]]
) -> tuple[dict[str, Band], int]:
    """Bands by "gate.metric" from the stored gates of the runs comparable with ``reference``
    (the baseline: what the judged run should look like; it counts itself), ``judged`` and
    runs whose gates failed left out, and how many runs they came from. ``stored``: run id ->
    its stored gates."""
    key = comparability_key(reference)
    if key is None:
        return {}, 0
    # One run per seed (the reference's own first): a re-run under the same seed repeats
    # its partition exactly and would shrink the band of everything the seed moves.
    by_seed: dict[int, Run] = {}
    for other in [reference, *reversed(registry.list())]:
        if (judged is not None and other.run_id == judged.run_id) or other.run_id not in stored:
            continue
        if registry.state(other) != COMPLETE or comparability_key(other) != key:
            continue
        if other.run_id != reference.run_id and stored[other.run_id].get("verdict") == "FAIL":
            continue  # a failed run of these documents and settings: a regression, not chance
        by_seed.setdefault(other.manifest().seed, other)
    bands = _bands_of(list(by_seed.values()), stored, "comparable runs", frozenset())
    return bands, len(by_seed)


def judging_bands(
    registry: RunRegistry,
    reference: Run,
    judged: Run | None,
    stored: dict[str, dict[str, Any]],
    settings: GateSettings,
) -> tuple[dict[str, Band], int]:
    """The bands a run is judged by, and how many runs made them: those of the runs
    comparable with ``reference``; with too few, those of its recent runs (an evolving
    corpus); only bands of at least ``gates.history_min_runs`` runs (none: fixed rules)."""
    bands, runs = history_bands(registry, reference, judged, stored)
    if runs < settings.history_min_runs:
        recent, made = recent_bands(registry, reference, judged, stored, settings.history_window)
        if made >= settings.history_min_runs:
            bands, runs = recent, made
    return usable_bands(bands, settings.history_min_runs), runs


def usable_bands(bands: dict[str, Band], min_runs: int) -> dict[str, Band]:
    """The bands measured by at least ``min_runs`` runs (a metric only some runs have, such as
    the ARI against a baseline, keeps its fixed rule until enough have it)."""
    return {k: b for k, b in bands.items() if b.runs >= min_runs}


def judge_by_band(
    value: float, rule: GateRule, band: Band, settings: GateSettings
) -> tuple[str, str] | None:
    """(WARN, reason) when ``value`` leaves the band on its bad side; None inside it."""
    low, high = band.widened(settings.history_margin)
    below = value < low and rule.direction in {"higher", "stable"}
    above = value > high and rule.direction in {"lower", "stable"}
    if not (below or above):
        return None
    return "WARN", (
        f"{value:.4g}, outside {band.low:.4g}–{band.high:.4g} of {band.runs} {band.source} "
        f"(± {settings.history_margin:.0%})"
    )
