"""Records made one at a time from Arrow buffers equal the records made column by column."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pytest

from graphgate.core.types import SCHEMAS, Chunk, Relationship, from_table
from graphgate.store.arrow_rows import ArrowRows, value_reader

_WORDS = ["", "a", "Zoë", "東京", "naïve café", "x" * 300, "emoji 🙂", "tab\tand\nnewline", "'\""]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 3)))


def _relationships(rng: random.Random, n: int) -> pa.Table:
    rows = [
        {
            "id": f"r{i:05d}",
            "source_id": f"e{rng.randint(0, 50)}",
            "target_id": f"e{rng.randint(0, 50)}",
            "predicate": rng.choice(["works for", "born in", "", "ist Teil von"]),
            "kind": rng.choice(["svo", "cooccurs"]),
            "weight": rng.choice([0.0, 1.0, 2.5, 1e-9, 123456.789]),
            "description": _text(rng),
            "chunk_ids": [f"c{rng.randint(0, 99)}" for _ in range(rng.randint(0, 5))],
            "doc_ids": [_text(rng) for _ in range(rng.randint(0, 2))],
            "valid_from": rng.choice([None, "2016", "2016-03-31"]),
            "valid_to": rng.choice([None, "", "2020-01"]),
            "observed_at": rng.choice([None, "2019-05-01"]),
        }
        for i in range(n)
    ]
    return pa.Table.from_pylist(rows, schema=SCHEMAS[Relationship])


def _chunks(rng: random.Random, n: int) -> pa.Table:
    rows = [
        {
            "id": f"c{i}",
            "doc_id": f"d{i // 3}",
            "index": i % 3,
            "text": _text(rng),
            "start": rng.randint(0, 10**9),
            "end": rng.randint(0, 10**9),
            "n_tokens": rng.randint(0, 512),
            "date": rng.choice([None, "1843-12-19"]),
            "page": rng.randint(0, 9),
            "page_breaks": [rng.randint(0, 99) for _ in range(rng.randint(0, 3))],
            "section": [_text(rng) for _ in range(rng.randint(0, 3))],
        }
        for i in range(n)
    ]
    return pa.Table.from_pylist(rows, schema=SCHEMAS[Chunk])


def _mapped(table: pa.Table, path: Path) -> pa.Table:
    """Through an Arrow file, memory-mapped back, as the read model reads its tables."""
    with ipc.new_file(path, table.schema) as writer:
        writer.write_table(table.combine_chunks(), max_chunksize=max(table.num_rows, 1))
    return ipc.open_file(pa.memory_map(str(path))).read_all()


@pytest.mark.parametrize("make, cls", [(_relationships, Relationship), (_chunks, Chunk)])
def test_each_record_equals_the_columnwise_record(make, cls, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    table = make(random.Random(7), 400)
    expected = from_table(table, cls)
    for source in (table, _mapped(table, tmp_path / "t.arrow")):
        rows = ArrowRows(source, cls)
        assert len(rows) == len(expected)
        assert [rows.record(i) for i in range(len(rows))] == expected
        assert rows.all() == expected
        assert rows.records([5, 0, 5]) == [expected[5], expected[0], expected[5]]


def test_slices_and_several_chunks_read_their_own_rows() -> None:
    table = _relationships(random.Random(3), 300)
    sliced = table.slice(117, 90)
    assert ArrowRows(sliced, Relationship).records(range(90)) == from_table(sliced, Relationship)
    several = pa.concat_tables([table.slice(0, 100), table.slice(100, 200)])
    assert several.column("id").num_chunks == 2
    assert ArrowRows(several, Relationship).records(range(300)) == from_table(table, Relationship)


@pytest.mark.parametrize(
    "array",
    [
        pa.array(["a", None, "", "Zoë"], pa.large_string()),
        pa.array([1, None, -(2**40), 3], pa.int64()),
        pa.array([1, 2, None, 4], pa.int32()),
        pa.array([1.5, None, float("inf"), -0.0], pa.float64()),
        pa.array([1.5, 2.0, None, 3.25], pa.float32()),
        pa.array([True, None, False, True]),
        pa.array([["x", None], [], None, ["東京"]], pa.list_(pa.string())),
        pa.array([[1, 2], None, [], [3]], pa.list_(pa.int64())),
        pa.array([{"a": 1}, None, {"a": 2}, {"a": 3}]),
    ],
    ids=lambda a: str(a.type),
)
def test_every_value_reads_as_arrow_gives_it(array: pa.Array) -> None:
    read = value_reader(array)
    assert [read(i) for i in range(len(array))] == array.to_pylist()
    tail = array.slice(1)
    read_tail = value_reader(tail)
    assert [read_tail(i) for i in range(len(tail))] == tail.to_pylist()


@dataclass(frozen=True)
class _Later:
    id: str
    tags: list[str] = field(default_factory=list)
    page: int = 0


def test_a_column_the_table_lacks_takes_the_fields_default() -> None:
    rows = ArrowRows(pa.table({"id": ["a", "b"]}), _Later)
    assert rows.record(1) == _Later("b", [], 0)
    assert rows.all() == [_Later("a"), _Later("b")]
    assert rows.record(0).tags is not rows.record(1).tags
    with pytest.raises(ValueError, match="no column 'id'"):
        ArrowRows(pa.table({"page": [1]}), _Later)


def test_a_cached_reader_gives_the_same_records() -> None:
    table = _relationships(random.Random(11), 50)
    cached = ArrowRows(table, Relationship, cached=8)
    expected = from_table(table, Relationship)
    assert [cached.record(i) for i in (3, 3, 40, 3)] == [expected[i] for i in (3, 3, 40, 3)]
    assert cached.record(3) is cached.record(3)
