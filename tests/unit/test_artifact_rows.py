"""Records streamed from an artifact's file (the gates' context) and the graph gate's
neighbours made on demand: the same as the eager versions they replace."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from graphgate.core.runs import ArtifactRows, RunRegistry
from graphgate.core.types import Relationship, from_table, to_table
from graphgate.gates.graph import Neighbours


def _relationships(count: int, seed: int) -> list[Relationship]:
    rng = random.Random(seed)
    return [
        Relationship(
            id=f"r{i:03d}",
            source_id=f"e{rng.randrange(9)}",
            target_id=f"e{rng.randrange(9)}",
            predicate=rng.choice(["work_for", "live_in", "co_occurs"]),
            kind=rng.choice(["svo", "cooccurrence"]),
            weight=rng.random(),
            description="é" * rng.randrange(4),
            chunk_ids=[f"c{rng.randrange(5)}" for _ in range(rng.randrange(3))],
            doc_ids=[f"d{rng.randrange(3)}" for _ in range(rng.randrange(3))],
            valid_from=rng.choice([None, "2020-01-01"]),
        )
        for i in range(count)
    ]


@pytest.mark.parametrize(("count", "batch_rows"), [(20, 3), (20, 20), (21, 7), (1, 8192)])
def test_streamed_rows_are_the_artifacts_records_on_every_pass(
    tmp_path: Path, count: int, batch_rows: int
) -> None:
    run = RunRegistry(tmp_path).create()
    records = _relationships(count, seed=count + batch_rows)
    run.write_artifact("relationships", to_table(records, Relationship))
    rows = ArtifactRows(run, "relationships", Relationship, batch_rows=batch_rows)
    assert len(rows) == count
    expected = from_table(run.read_artifact("relationships"), Relationship)
    assert expected == records
    assert list(rows) == expected
    assert list(rows) == expected  # a second pass reads the file again


def test_no_table_is_held_between_passes_and_a_missing_artifact_has_no_rows(
    tmp_path: Path,
) -> None:
    run = RunRegistry(tmp_path).create()
    run.write_artifact("relationships", to_table(_relationships(2000, seed=1), Relationship))
    before = pa.total_allocated_bytes()
    rows = ArtifactRows(run, "relationships", Relationship)
    assert sum(1 for _ in rows) == 2000
    assert pa.total_allocated_bytes() - before < 4096
    missing = ArtifactRows(run, "entities", Relationship)
    assert len(missing) == 0 and list(missing) == []


@pytest.mark.parametrize("seed", range(30))
def test_neighbours_made_on_demand_are_the_sets_of_every_edge(seed: int) -> None:
    """Either direction, a self-loop its own neighbour, repeated edges once, an entity with
    no edge an empty set, an unknown id missing."""
    rng = random.Random(seed)
    ids = [f"e{i}" for i in range(rng.randrange(1, 30))]
    index = {eid: i for i, eid in enumerate(ids)}
    edges = [(rng.randrange(len(ids)), rng.randrange(len(ids))) for _ in range(rng.randrange(60))]
    expected: dict[str, set[str]] = {eid: set() for eid in ids}
    for a, b in edges:
        expected[ids[a]].add(ids[b])
        expected[ids[b]].add(ids[a])
    sources = np.array([a for a, _ in edges], dtype=np.int64)
    targets = np.array([b for _, b in edges], dtype=np.int64)
    neighbours = Neighbours(ids, index, sources, targets)
    assert dict(neighbours) == expected
    assert len(neighbours) == len(ids)
    assert neighbours.get("unknown") is None
