"""Issue 31's generated successions and conflicts, indexed offline: no change of holder read
as a disagreement, as-of retrieval and the answer at the time asked, both sides of every
genuine disagreement (graphgate.evaluate.time_scenarios says how each is scored)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphgate import Workspace
from graphgate.core.types import Conflict, from_table
from graphgate.datasets.time_scenarios import write_time_scenarios
from graphgate.evaluate.testset import TestCase, load_testset
from graphgate.evaluate.time_scenarios import overall, score, successions_as_conflicts


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, list[TestCase]]]:
    root = tmp_path_factory.mktemp("time-scenarios")
    dataset = write_time_scenarios(root / "data", seed=3)  # not the seed the benchmark reports
    with Workspace(root / "ws") as ws:
        ws.index(dataset.corpus)
        yield ws, load_testset(dataset.questions)


def test_no_succession_is_read_as_a_conflict(indexed: tuple[Workspace, list[TestCase]]) -> None:
    ws, cases = indexed
    conflicts = from_table(ws.runs.current().read_artifact("conflicts"), Conflict)
    assert successions_as_conflicts(conflicts, cases) == {}
    # What it lists are the genuine disagreements, each between two sources.
    assert conflicts and all(c.a_doc_id != c.b_doc_id for c in conflicts)
    assert all(c.about in {"height", "population", "founding year", "area", "elevation",
                           "employees", "length", "headquarters"} for c in conflicts)  # fmt: skip


def test_answers_at_the_time_asked_and_both_sides_of_a_disagreement(
    indexed: tuple[Workspace, list[TestCase]],
) -> None:
    ws, cases = indexed
    rows = score(cases, lambda c: ws.query(c.question, mode="hybrid", as_of=c.as_of))
    shares = overall(rows)
    assert shares["as-of top chunk valid"] >= 0.9, rows
    assert shares["holder named"] >= 0.95, rows
    assert shares["conflicts surfaced"] >= 0.85, rows
    # Every role family is answered, not just the common ones.
    for family, values in rows.items():
        if values.get("holder named"):
            assert sum(values["holder named"]) >= 0.8 * len(values["holder named"]), family
