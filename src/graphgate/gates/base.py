"""Gate results, verdicts and the rules that turn a measurement into PASS / WARN / FAIL."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from graphgate.core.config import GateRule, GateSettings
from graphgate.gates.bands import Band, judge_by_band

PASS, WARN, FAIL, UNMEASURED = "PASS", "WARN", "FAIL", "UNMEASURED"
ORDER = {PASS: 0, UNMEASURED: 0, WARN: 1, FAIL: 2}

Metrics = dict[str, float | None]


@dataclass
class GateResult:
    gate: str
    metrics: Metrics
    details: dict[str, Any] = field(default_factory=dict)
    verdicts: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        judged = [v for v in self.verdicts.values() if v != UNMEASURED]
        if not judged:
            return UNMEASURED
        return max(judged, key=lambda v: ORDER[v])

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "verdict": self.verdict}


class Gate(Protocol):
    """Measures one stage boundary; rules and baselines are applied by the runner."""

    name: str

    def measure(self, ctx: Any) -> GateResult: ...


def judge_metric(
    value: float | None,
    rule: GateRule,
    baseline: float | None,
    band: Band | None = None,
    settings: GateSettings | None = None,
) -> tuple[str, str]:
    """(verdict, reason) for one metric. FAIL first: hard bounds, and a jump from the baseline
    past ``fail_jump``. Then WARN: outside its history ``band`` (never inside a fixed warning
    bound, a floor of noise a few seeds cannot narrow), or, without a band, beyond a fixed
    warning bound or a bad move from the baseline past ``warn_relative`` (and at least
    ``warn_min_change``)."""
    if value is None:
        return UNMEASURED, ""
    if rule.fail_below is not None and value < rule.fail_below:
        return FAIL, f"{value:.4g} < {rule.fail_below:g}"
    if rule.fail_above is not None and value > rule.fail_above:
        return FAIL, f"{value:.4g} > {rule.fail_above:g}"
    worse = None if baseline is None else _worse(value, baseline, rule.direction)
    if worse is not None and rule.fail_jump is not None and worse > rule.fail_jump:
        return FAIL, f"moved {worse:+.4g} from baseline {baseline:.4g} (limit {rule.fail_jump:g})"
    below = rule.warn_below is not None and value < rule.warn_below
    above = rule.warn_above is not None and value > rule.warn_above
    floored = rule.warn_below is not None or rule.warn_above is not None
    if band is not None and settings is not None:
        judged = judge_by_band(value, rule, band, settings)
        return judged if judged is not None and (below or above or not floored) else (PASS, "")
    if below:
        return WARN, f"{value:.4g} < {rule.warn_below:g}"
    if above:
        return WARN, f"{value:.4g} > {rule.warn_above:g}"
    if worse is None or rule.warn_relative is None or worse <= 0:
        return PASS, ""
    relative = worse / abs(baseline) if baseline else float("inf")
    if relative <= rule.warn_relative or worse < rule.warn_min_change:
        return PASS, ""
    moved = "off" if rule.direction == "stable" else "worse"
    return WARN, (
        f"{value:.4g} vs baseline {baseline:.4g} "
        f"({relative:.0%} {moved}, tolerance {rule.warn_relative:.0%})"
    )


def _worse(value: float, baseline: float, direction: str) -> float | None:
    """How much worse than the baseline (negative: better); None for an info metric."""
    return {
        "higher": baseline - value,
        "lower": value - baseline,
        "stable": abs(value - baseline),
    }.get(direction)


def apply_rules(
    result: GateResult,
    rules: Mapping[str, GateRule],
    baseline: Metrics | None,
    bands: Mapping[str, Band] | None = None,
    settings: GateSettings | None = None,
) -> GateResult:
    """Each metric with a rule judged; ``bands`` (by "gate.metric") replace the relative
    tolerance around the baseline where history made one."""
    for name, value in result.metrics.items():
        key = f"{result.gate}.{name}"
        rule = rules.get(key)
        if rule is None:
            continue
        previous = baseline.get(name) if baseline else None
        band = (bands or {}).get(key)
        verdict, reason = judge_metric(value, rule, previous, band, settings)
        result.verdicts[name] = verdict
        if reason:
            result.reasons[name] = reason
    return result
