from __future__ import annotations

from graphgate.core.types import CommunityReport
from graphgate.query.global_ import choose_level
from graphgate.query.hybrid import reciprocal_rank_fusion


def _report(level: int, n: int) -> CommunityReport:
    return CommunityReport(f"k{level}_{n}", level, "t", "s", [], [], 1.0, [], [], "[]")


def test_choose_level_takes_the_deepest_that_fits_the_budget() -> None:
    reports = (
        [_report(0, i) for i in range(3)]
        + [_report(1, i) for i in range(8)]
        + [_report(2, i) for i in range(30)]
    )
    assert choose_level(reports, budget=10, level=None) == 1
    assert choose_level(reports, budget=100, level=None) == 2
    assert choose_level(reports, budget=2, level=None) == 0  # nothing fits: the coarsest
    assert choose_level(reports, budget=2, level=2) == 2  # configured wins
    assert choose_level([], budget=5, level=None) == 0


def test_reciprocal_rank_fusion() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "d"]], k=60)
    assert [x for x, _ in fused] == ["b", "a", "d", "c"]
    assert fused[0][1] == 1 / 62 + 1 / 61
