"""The FalkorDB writer's content, read label by label in batches, and the differences an update
writes: no server needed (tests/integration/test_falkordb.py writes and compares real graphs)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np
import pyarrow as pa
import pytest

from graphgate.core.types import Entity, to_table, vectors_table
from graphgate.store import falkordb_content
from graphgate.store.falkordb_content import (
    NodeChanges,
    Vectors,
    edge_keys,
    edge_rows,
    edges_not_in,
    node_batches,
    node_digests,
    vectors_differing,
)


class CountingTables(Mapping[str, pa.Table]):
    """Tables that record which are asked for."""

    def __init__(self, tables: dict[str, pa.Table]) -> None:
        self.tables = tables
        self.asked: list[str] = []

    def __getitem__(self, name: str) -> pa.Table:
        self.asked.append(name)
        return self.tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)


def _entities(names: list[str]) -> pa.Table:
    rows = [Entity(f"e{i}", name, "PERSON", "", chunk_ids=["c0"]) for i, name in enumerate(names)]
    return to_table(rows, Entity)


def _vectors(ids: list[str], matrix: list[list[float]]) -> Vectors:
    dim = len(matrix[0])
    return Vectors(vectors_table(ids, np.array(matrix, dtype=np.float32).reshape(-1, dim)))


def test_nodes_come_in_batches_from_their_own_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(falkordb_content, "BATCH", 2)
    names = ["Ann Lee", "Bob Ray", "Cy Young", "Di Ross", "Ed Wood"]
    tables = CountingTables({"entities": _entities(names)})
    batches = list(node_batches(tables, "Entity"))
    assert [len(b) for b in batches] == [2, 2, 1]
    rows = [row for batch in batches for row in batch]
    assert [r["ordinal"] for r in rows] == [0, 1, 2, 3, 4]  # the artifact's order across batches
    assert rows[2]["name_keys"] == ["cy young"]
    assert rows[0]["search_text"].startswith("Ann Lee Ann Lee")
    assert all(None not in r.values() for r in rows)  # the server stores no null
    assert set(tables.asked) == {"entities"}


def test_changes_tell_added_gone_moved_and_replaced_nodes() -> None:
    before = [
        {"id": "a", "name": "A", "ordinal": 0},
        {"id": "b", "name": "B", "ordinal": 1},
        {"id": "c", "name": "C", "ordinal": 2},
        {"id": "d", "name": "D", "ordinal": 3},
    ]
    after = [
        {"id": "b", "name": "B", "ordinal": 0},  # moved only
        {"id": "c", "name": "C2", "ordinal": 1},  # changed (and moved)
        {"id": "d", "name": "D", "ordinal": 3},  # kept
        {"id": "e", "name": "E", "ordinal": 4},  # new
    ]
    changes = NodeChanges(node_digests(iter([before[:3], before[3:]])), node_digests(iter([after])))
    assert changes.gone == ["a"]
    assert changes.added == ["e"]
    assert changes.moved == {"b"}
    assert changes.replaced == {"c"}
    assert changes.kept == ["d"]
    empty = node_digests(iter([]))
    assert NodeChanges(empty, empty).added == []


def test_vectors_differ_bit_for_bit_and_when_one_side_has_none() -> None:
    old = _vectors(["a", "b", "c", "d"], [[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.0, 0.0]])
    new = _vectors(["a", "b", "c", "e"], [[1.0, 0.0], [0.5, 0.25], [0.0, 1.0], [-0.0, 0.0]])
    assert vectors_differing(["a", "b", "c", "d", "e"], new, old) == ["b", "d", "e"]
    assert vectors_differing(["a", "b"], None, old) == ["a", "b"]  # removed
    assert vectors_differing(["a"], new, None) == ["a"]
    flipped = _vectors(["a"], [[1.0, -0.0]])
    assert vectors_differing(["a"], flipped, _vectors(["a"], [[1.0, 0.0]])) == ["a"]
    assert new.lists(["c", "zz"]) == [[0.0, 1.0], None]
    assert isinstance(new.matrix, np.ndarray) and new.dimension == 2


def test_edges_differ_as_pairs_or_whole_related_edges() -> None:
    old = pa.table({"a": ["c1", "c1", "c2"], "b": ["e1", "e2", "e1"]})
    new = pa.table({"a": ["c1", "c3", "c3"], "b": ["e1", "e1", "e1"]})
    old_keys, new_keys = edge_keys(old, "MENTIONS"), edge_keys(new, "MENTIONS")
    assert edges_not_in(old, old_keys, new_keys, "MENTIONS") == [
        ("c1", "e2", {}),
        ("c2", "e1", {}),
    ]
    assert edges_not_in(new, new_keys, old_keys, "MENTIONS") == [("c3", "e1", {})]  # once
    related_old = pa.table(
        {"a": ["x", "x"], "b": ["y", "z"], "id": ["r1", "r2"], "weight": [1.0, None]}
    )
    related_new = pa.table(
        {"a": ["x", "x"], "b": ["y", "z"], "id": ["r1", "r2"], "weight": [2.0, None]}
    )
    ok, nk = edge_keys(related_old, "RELATED"), edge_keys(related_new, "RELATED")
    assert edges_not_in(related_old, ok, nk, "RELATED") == [("x", "y", {"id": "r1", "weight": 1.0})]
    assert edges_not_in(related_new, nk, ok, "RELATED") == [("x", "y", {"id": "r1", "weight": 2.0})]
    rows = [edge for batch in edge_rows(related_new) for edge in batch]
    assert rows[1] == ("x", "z", {"id": "r2"})  # no null property
