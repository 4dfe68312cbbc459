from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graphgate.core.config import EvalSettings
from graphgate.evaluate.summary import compare, paired_bootstrap, summarize, verdict


def _rec(case: str, mode: str, qtype: str, **metrics: float | None) -> dict[str, Any]:
    return {
        "case_id": case,
        "mode": mode,
        "question_type": qtype,
        "metrics": metrics,
        "failure": "pass",
        "latency_ms": {"retrieve": 1.0, "generate": 1.0},
    }


def test_verdict_bands() -> None:
    assert verdict(0.9, 0.85, 0.1) == "PASS"
    assert verdict(0.80, 0.85, 0.1) == "WARN"
    assert verdict(0.70, 0.85, 0.1) == "FAIL"
    assert verdict(None, 0.85, 0.1) == "UNMEASURED"


def test_summary_per_mode_and_type_with_verdicts() -> None:
    records = [
        _rec("1", "vector", "single_hop", answer_correctness=1.0, grounding=None),
        _rec("2", "vector", "multi_hop", answer_correctness=0.0, grounding=1.0),
        _rec("1", "local", "single_hop", answer_correctness=1.0, grounding=1.0),
        _rec("2", "local", "multi_hop", answer_correctness=1.0, grounding=1.0),
    ]
    settings = EvalSettings(targets={"answer_correctness": 0.8, "grounding": 0.8})
    s = summarize(records, settings)
    assert s["modes"]["vector"]["overall"]["metrics"]["answer_correctness"]["mean"] == 0.5
    assert s["modes"]["vector"]["overall"]["metrics"]["grounding"] == {
        "mean": 1.0,
        "measured": 1,
        "unmeasured": 1,
    }
    assert (
        s["modes"]["vector"]["by_type"]["multi_hop"]["metrics"]["answer_correctness"]["mean"] == 0
    )
    assert s["verdicts"] == {
        "vector": {"answer_correctness": "FAIL", "grounding": "PASS"},
        "local": {"answer_correctness": "PASS", "grounding": "PASS"},
    }
    assert s["overall_verdict"] == "FAIL"


def test_paired_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    rng = np.random.default_rng(3)
    a = rng.random(60)
    b = a + 0.1 + rng.normal(0, 0.05, 60)
    one = paired_bootstrap(list(a), list(b), 500, seed=1)
    assert one == paired_bootstrap(list(a), list(b), 500, seed=1)
    diff, low, high = one
    assert diff == pytest.approx(float(np.mean(b - a)))
    assert low < diff < high and low > 0.05


def test_compare_pairs_only_cases_measured_in_both_modes() -> None:
    records = [
        _rec("1", "vector", "multi_hop", **{"doc_recall@5": 0.0}),
        _rec("2", "vector", "multi_hop", **{"doc_recall@5": 0.5}),
        _rec("1", "hybrid", "multi_hop", **{"doc_recall@5": 1.0}),
        _rec("2", "hybrid", "multi_hop", **{"doc_recall@5": None}),
    ]
    out = compare(records, "vector", samples=100, metrics=["doc_recall@5"])
    cell = out["by_type"]["multi_hop"]["doc_recall@5"]["hybrid"]
    assert cell["paired"] == 1 and cell["diff"] == 1.0 and cell["mean"] == 1.0
    assert out["by_type"]["all"]["doc_recall@5"]["vector"]["mean"] == 0.25
