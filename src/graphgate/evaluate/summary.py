"""Summaries per mode and question type, verdicts against targets, and strategy comparison."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphgate.core.config import EvalSettings
from graphgate.evaluate.records import (
    EvalRecord,
    EvalSummary,
    GroupStats,
    MetricStat,
    ModeSummary,
)

PASS, WARN, FAIL, UNMEASURED = "PASS", "WARN", "FAIL", "UNMEASURED"
COMPARED_METRICS = (
    "doc_recall@2",
    "doc_recall@5",
    "entity_recall",
    "relationship_recall",
    "answer_correctness",
    "grounding",
    "context_precision",
)


def _group_stats(records: Sequence[EvalRecord]) -> GroupStats:
    names = sorted({m for r in records for m in r["metrics"]})
    metrics: dict[str, MetricStat] = {}
    for name in names:
        values = [v for r in records if (v := r["metrics"].get(name)) is not None]
        metrics[name] = {
            "mean": round(float(np.mean(values)), 6) if values else None,
            "measured": len(values),
            "unmeasured": len(records) - len(values),
        }
    failures = Counter(r["failure"] or "unmeasured" for r in records)
    return {"cases": len(records), "metrics": metrics, "failures": dict(sorted(failures.items()))}


def _latency(records: Sequence[EvalRecord]) -> dict[str, float]:
    totals = [r["latency_ms"]["retrieve"] + r["latency_ms"]["generate"] for r in records]
    if not totals:
        return {}
    return {
        "p50": round(float(np.percentile(totals, 50)), 3),
        "p95": round(float(np.percentile(totals, 95)), 3),
    }


def verdict(value: float | None, target: float, band: float) -> str:
    if value is None:
        return UNMEASURED
    if value >= target:
        return PASS
    return WARN if value >= target - band else FAIL


def summarize(records: Sequence[EvalRecord], settings: EvalSettings) -> EvalSummary:
    """Overall and per question type, per mode; never only one aggregate."""
    by_mode: dict[str, list[EvalRecord]] = defaultdict(list)
    for r in records:
        by_mode[r["mode"]].append(r)
    modes: dict[str, ModeSummary] = {}
    verdicts: dict[str, dict[str, str]] = {}
    for mode, rows in by_mode.items():
        by_type: dict[str, list[EvalRecord]] = defaultdict(list)
        for r in rows:
            by_type[r["question_type"]].append(r)
        overall = _group_stats(rows)
        modes[mode] = {
            "overall": overall,
            "by_type": {t: _group_stats(v) for t, v in sorted(by_type.items())},
        }
        verdicts[mode] = {
            metric: verdict(_mean(overall, metric), target, settings.warn_band)
            for metric, target in sorted(settings.targets.items())
        }
    seen = {v for per_mode in verdicts.values() for v in per_mode.values()}
    overall_verdict = FAIL if FAIL in seen else WARN if WARN in seen else PASS
    summary: EvalSummary = {
        "cases": len({r["case_id"] for r in records}),
        "modes": modes,
        "verdicts": verdicts,
        "overall_verdict": overall_verdict,
        "targets": settings.targets,
    }
    return summary


def _mean(stats: GroupStats, metric: str) -> float | None:
    stat = stats["metrics"].get(metric)
    return None if stat is None else stat["mean"]


def latency_summary(records: Sequence[EvalRecord]) -> dict[str, dict[str, float]]:
    """Kept apart from ``summarize`` so a resumed run's summary equals an uninterrupted one."""
    by_mode: dict[str, list[EvalRecord]] = defaultdict(list)
    for r in records:
        by_mode[r["mode"]].append(r)
    return {mode: _latency(rows) for mode, rows in by_mode.items()}


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], samples: int, seed: int = 0
) -> tuple[float, float, float]:
    """Mean of b - a over paired cases and its 95% percentile interval."""
    diffs = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if diffs.size == 0:
        return (float("nan"), float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, diffs.size, size=(samples, diffs.size))
    means = diffs[idx].mean(axis=1)
    return (
        float(diffs.mean()),
        float(np.percentile(means, 2.5)),
        float(np.percentile(means, 97.5)),
    )


def _paired(
    table: dict[tuple[str, str], dict[str, float | None]],
    ids: Sequence[str],
    baseline: str,
    mode: str,
    metric: str,
) -> list[tuple[float, float]]:
    pairs: list[tuple[float, float]] = []
    for i in ids:
        a = table.get((i, baseline), {}).get(metric)
        b = table.get((i, mode), {}).get(metric)
        if a is not None and b is not None:
            pairs.append((a, b))
    return pairs


def compare(
    records: Sequence[EvalRecord],
    baseline: str,
    samples: int,
    seed: int = 0,
    metrics: Sequence[str] = COMPARED_METRICS,
) -> dict[str, Any]:
    """Per question type and metric: each mode's mean and its paired difference to ``baseline``."""
    table: dict[tuple[str, str], dict[str, float | None]] = {}
    for r in records:
        table[(r["case_id"], r["mode"])] = r["metrics"]
    modes = sorted({r["mode"] for r in records})
    types = [*sorted({r["question_type"] for r in records}), "all"]
    out: dict[str, Any] = {}
    for qtype in types:
        ids = sorted(
            {r["case_id"] for r in records if qtype == "all" or r["question_type"] == qtype}
        )
        per_metric: dict[str, Any] = {}
        for metric in metrics:
            row: dict[str, Any] = {}
            for mode in modes:
                values = [table[(i, mode)].get(metric) for i in ids if (i, mode) in table]
                measured = [v for v in values if v is not None]
                entry: dict[str, Any] = {
                    "mean": float(np.mean(measured)) if measured else None,
                    "measured": len(measured),
                }
                if mode != baseline:
                    pairs = _paired(table, ids, baseline, mode, metric)
                    if pairs:
                        diff, low, high = paired_bootstrap(
                            [p[0] for p in pairs], [p[1] for p in pairs], samples, seed
                        )
                        entry |= {
                            "diff": diff,
                            "ci_low": low,
                            "ci_high": high,
                            "paired": len(pairs),
                        }
                row[mode] = entry
            per_metric[metric] = row
        out[qtype] = per_metric
    return {"baseline": baseline, "by_type": out}
