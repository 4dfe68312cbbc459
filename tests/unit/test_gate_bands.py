"""Thresholds from history: bands from comparable stored runs (one per seed), judged on the
bad side only, the fixed rules as fallback, warning floors a few seeds cannot narrow; the
'stable' direction, absolute warning bounds, and duplicated content at the data gate."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from graphgate.app.history import gate_trends
from graphgate.core.config import GateRule, GateSettings
from graphgate.core.runs import COMPLETE, Run, RunRegistry
from graphgate.core.types import Document
from graphgate.gates.bands import Band, comparability_key, history_bands, usable_bands
from graphgate.gates.base import FAIL, PASS, WARN, judge_metric
from graphgate.gates.context import GateContext
from graphgate.gates.data_chunk import DataGate
from graphgate.gates.runner import set_baseline

SETTINGS = {"chunk": {"size_tokens": 200}, "resolve": {"similarity_threshold": 0.55}}


def _run(
    registry: RunRegistry, seed: int, value: float | None, docs: tuple[str, ...] = ("a", "b"),
    settings: dict[str, object] | None = None,
) -> Run:  # fmt: skip
    run = registry.create()
    run.update_manifest(status=COMPLETE, seed=seed, settings=settings or SETTINGS)
    table = pa.table({"id": list(docs), "sha256": [f"{d:0>64}" for d in docs]})
    run.write_artifact("documents", table)
    if value is not None:
        gates = {"gates": [{"gate": "graph", "metrics": {"components": value, "nodes": 10.0}}]}
        run.gates_path.write_text(json.dumps(gates))
    return run


def _stored(registry: RunRegistry) -> dict[str, dict[str, object]]:
    return {r.run_id: json.loads(r.gates_path.read_text()) for r in registry.list()
            if r.gates_path.exists()}  # fmt: skip


def test_bands_come_from_comparable_runs_one_per_seed(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    base = _run(registry, 0, 100.0)
    _run(registry, 1, 102.0)
    _run(registry, 2, 98.0)
    _run(registry, 0, 100.0)  # the baseline's seed again: not a second sample of chance
    _run(registry, 3, 500.0, docs=("a", "c"))  # other documents
    _run(registry, 4, 500.0, settings={**SETTINGS, "chunk": {"size_tokens": 60}})  # other settings
    failed = _run(registry, 5, 900.0)  # a regression of these documents and settings
    failed.gates_path.write_text(
        json.dumps({**_stored(registry)[failed.run_id], "verdict": "FAIL"})
    )
    judged = _run(registry, 0, 140.0, settings={**SETTINGS, "resolve": {"use_embeddings": False}})
    bands, runs = history_bands(registry, base, judged, _stored(registry))
    assert runs == 3
    assert bands["graph.components"] == Band(98.0, 102.0, 3)
    assert comparability_key(judged) != comparability_key(base)
    assert usable_bands(bands, 3) == bands and usable_bands(bands, 4) == {}


def test_a_band_judges_the_bad_side_and_names_its_history() -> None:
    settings = GateSettings(history_margin=0.02)
    lower = GateRule(direction="lower", warn_relative=0.25)
    band = Band(98.0, 102.0, 4)
    verdict, reason = judge_metric(112.0, lower, 100.0, band, settings)  # +12 %: inside 25 %
    assert verdict == WARN and "outside 98–102 of 4 comparable runs" in reason
    assert judge_metric(101.0, lower, 100.0, band, settings)[0] == PASS
    assert judge_metric(80.0, lower, 100.0, band, settings)[0] == PASS  # better is no warning
    assert judge_metric(112.0, lower, 100.0, None, settings)[0] == PASS  # fixed rule: 12 % < 25 %
    floor = GateRule(direction="lower", warn_above=0.12, warn_relative=None)
    zero = Band(0.0, 0.0, 3)  # three seeds that all reproduced the baseline's partition
    assert judge_metric(0.09, floor, None, zero, settings)[0] == PASS  # under the floor
    assert judge_metric(0.2, floor, None, zero, settings)[0] == WARN
    # A jump past fail_jump fails, band or not: a history band only decides warnings.
    jump = GateRule(direction="lower", fail_jump=0.10)
    verdict, reason = judge_metric(0.3, jump, 0.065, Band(0.06, 0.07, 4), settings)
    assert verdict == FAIL and "limit 0.1" in reason


def test_stable_rules_and_absolute_warning_bounds() -> None:
    stable = GateRule(direction="stable", warn_relative=0.03)
    assert judge_metric(106.0, stable, 100.0)[0] == WARN
    assert judge_metric(94.0, stable, 100.0)[0] == WARN
    assert "6% off" in judge_metric(94.0, stable, 100.0)[1]
    assert judge_metric(102.0, stable, 100.0)[0] == PASS
    above = GateRule(direction="lower", warn_above=0.0)
    assert judge_metric(0.1, above, None)[0] == WARN and judge_metric(0.0, above, None)[0] == PASS


def test_the_data_gate_counts_the_same_text_under_two_ids() -> None:
    docs = [
        Document("a.txt", "A", "same", "1" * 64, 1, 4, "a.txt"),
        Document("copy-a.txt", "A", "same", "1" * 64, 1, 4, "copy-a.txt"),
        Document("b.txt", "B", "other", "2" * 64, 1, 5, "b.txt"),
    ]
    result = DataGate().measure(GateContext(settings=GateSettings(), documents=docs))
    assert result.metrics["duplicate_content_rate"] == 1 / 3
    assert result.details["duplicate_content"] == [["a.txt", "copy-a.txt"]]
    alone = DataGate().measure(GateContext(settings=GateSettings(), documents=docs[::2]))
    assert alone.metrics["duplicate_content_rate"] == 0.0


def test_the_trends_carry_the_baselines_history_band(tmp_path: Path) -> None:
    registry = RunRegistry(tmp_path)
    base = _run(registry, 0, 100.0)
    set_baseline(registry, base.run_id)
    settings = GateSettings(rules={"graph.components": GateRule(direction="lower")})
    trend = next(t for t in gate_trends(registry, settings) if t["metric"] == "components")
    assert trend["band_runs"] == 0 and trend["band_low"] is None  # one run: no band
    _run(registry, 1, 104.0)
    _run(registry, 2, 97.0)
    trend = next(t for t in gate_trends(registry, settings) if t["metric"] == "components")
    assert (trend["band_low"], trend["band_high"], trend["band_runs"]) == (97.0, 104.0, 3)
    assert trend["band_source"] == "comparable runs"


def test_an_evolving_corpus_is_judged_by_its_recent_runs_without_counts(tmp_path: Path) -> None:
    """Each sync adds a document: no two runs are comparable, so the last runs with the same
    index settings make the bands, one per state of the corpus, of what does not count."""
    from graphgate.gates.bands import recent_bands

    def synced(
        docs: tuple[str, ...], rate: float, settings: dict[str, object] | None = None, **kw: str
    ) -> Run:
        run = _run(registry, 0, None, docs=docs, settings=settings)
        metrics = {"orphan_rate": rate, "nodes": 10.0 * len(docs)}
        gates = {"gates": [{"gate": "graph", "metrics": metrics}], **kw}
        run.gates_path.write_text(json.dumps(gates))
        return run

    registry = RunRegistry(tmp_path)
    synced(("a",), 0.50)  # outside the window of 3
    synced(("a", "b"), 0.20)
    synced(("a", "b"), 0.20)  # the same documents again: one state of the corpus
    synced(("a", "b", "c"), 0.22)
    synced(("a", "b", "c", "d"), 0.21, settings={**SETTINGS, "chunk": {"size_tokens": 60}})
    synced(("a", "b", "c", "d", "e"), 0.24)
    synced(("a", "b", "c", "d", "e", "x"), 0.90, verdict="WARN")  # flagged: no measure of normal
    judged = synced(("a", "b", "c", "d", "e", "f"), 0.40)
    stored = _stored(registry)
    assert history_bands(registry, judged, judged, stored)[1] == 0
    bands, runs = recent_bands(registry, judged, judged, stored, window=3)
    assert runs == 3
    assert bands == {"graph.orphan_rate": Band(0.20, 0.24, 3, "recent runs")}  # nodes: a count
    verdict, reason = judge_metric(
        0.40, GateRule(direction="lower"), 0.24, bands["graph.orphan_rate"], GateSettings()
    )
    assert verdict == WARN and "of 3 recent runs" in reason
    assert recent_bands(registry, judged, judged, stored, window=0) == ({}, 0)
    set_baseline(registry, judged.run_id)  # the trend charts: the baseline's band, itself in
    trends = gate_trends(registry, GateSettings(history_window=3))
    trend = next(t for t in trends if t["metric"] == "orphan_rate")
    assert (trend["band_low"], trend["band_high"], trend["band_source"]) == (
        0.22,
        0.40,
        "recent runs",
    )
