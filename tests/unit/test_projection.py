from __future__ import annotations

import numpy as np

from graphgate.query.projection import GraphProjection


def _graph() -> GraphProjection:
    # a-b-c chain, d-e pair, f isolated
    return GraphProjection(
        ["a", "b", "c", "d", "e", "f"], ["a", "b", "d"], ["b", "c", "e"], [1.0, 1.0, 1.0]
    )


def test_ppr_is_a_distribution_that_favours_the_seed() -> None:
    scores = _graph().personalised_pagerank({"a": 1.0}, damping=0.5)
    assert np.isclose(scores.sum(), 1.0)
    assert scores[0] > scores[1] > scores[2] > 0
    assert scores[3] == scores[4] == scores[5] == 0  # unreachable from the seed


def test_ppr_without_seeds_is_zero_and_unknown_seeds_are_ignored() -> None:
    g = _graph()
    assert g.personalised_pagerank({}, 0.5).sum() == 0
    assert g.personalised_pagerank({"zzz": 1.0}, 0.5).sum() == 0


def test_heavier_edges_carry_more_mass() -> None:
    g = GraphProjection(["s", "x", "y"], ["s", "s"], ["x", "y"], [9.0, 1.0])
    scores = g.personalised_pagerank({"s": 1.0}, 0.85)
    assert scores[1] > scores[2]


def test_two_seeds_share_the_restart() -> None:
    scores = _graph().personalised_pagerank({"a": 1.0, "d": 1.0}, 0.5)
    assert scores[0] > 0 and scores[3] > 0 and np.isclose(scores.sum(), 1.0)
