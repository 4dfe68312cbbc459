"""A table's rows as records, made one at a time on request from its Arrow buffers.

The embedded read model keeps the run's tables as Arrow (memory-mapped files) instead of a
Python object per row: a relationship as a frozen dataclass costs several times its bytes in
Arrow, and most rows are never asked for. ``pyarrow``'s own per-value conversion (``arr[i]
.as_py()``) is too slow for the hot path of a query (tens of microseconds per record), so each
column gets a reader that decodes one value straight from the buffers.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import pyarrow as pa

from graphgate.core.types import from_table

R = TypeVar("R")
ValueReader = Callable[[int], Any]


def single_array(column: pa.ChunkedArray) -> pa.Array:
    """The column as one array: its only chunk as it is (no copy of a memory-mapped buffer)."""
    if column.num_chunks == 1:
        return column.chunk(0)
    return column.combine_chunks()


def value_reader(array: pa.Array) -> ValueReader:
    """A function from a row number to the row's value, as ``array[row].as_py()`` gives it."""
    read = _non_null_reader(array)
    if not array.null_count:
        return read
    valid = array.is_valid().to_numpy(zero_copy_only=False)

    def nullable(row: int) -> Any:
        return read(row) if valid[row] else None

    return nullable


def _non_null_reader(array: pa.Array) -> ValueReader:
    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return _string_reader(array)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return _list_reader(array)
    if pa.types.is_int64(kind) or pa.types.is_int32(kind) or pa.types.is_float64(kind):
        code = {"int64": "q", "int32": "i", "double": "d"}[str(kind)]
        numbers = array.fill_null(0) if array.null_count else array
        return _typed_view(numbers.buffers()[1], code, numbers.offset, len(numbers)).__getitem__
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
        values = array.fill_null(False if pa.types.is_boolean(kind) else 0).to_numpy(
            zero_copy_only=False
        )

        def read_number(row: int) -> Any:
            return values[row].item()

        return read_number

    def read_any(row: int) -> Any:
        return array[row].as_py()

    return read_any


def _typed_view(buffer: pa.Buffer, code: str, start: int, count: int) -> memoryview:
    """``count`` values of a buffer from ``start``, typed (a view, not a copy): a
    ``memoryview`` is indexed an order of magnitude faster than a NumPy array."""
    view: memoryview = memoryview(buffer).cast(code)  # type: ignore[call-overload]
    return view[start : start + count]


def _offsets(array: pa.Array) -> memoryview:
    """Where each row's values (a string's bytes, a list's items) begin, and the last ends."""
    large = pa.types.is_large_string(array.type) or pa.types.is_large_list(array.type)
    return _typed_view(array.buffers()[1], "q" if large else "i", array.offset, len(array) + 1)


def _string_reader(array: pa.Array) -> ValueReader:
    offsets = _offsets(array)
    data = array.buffers()[2]
    text = memoryview(data) if data is not None else memoryview(b"")

    def read_string(row: int) -> str:
        return str(text[offsets[row] : offsets[row + 1]], "utf-8")

    return read_string


def _list_reader(array: pa.Array) -> ValueReader:
    # The offsets index the whole child array (``values`` ignores a slice's offset).
    offsets = _offsets(array)
    child = value_reader(array.values)

    def read_list(row: int) -> list[Any]:
        return [child(i) for i in range(offsets[row], offsets[row + 1])]

    return read_list


class ArrowRows(Generic[R]):
    """The rows of ``table`` as ``cls`` records (a dataclass whose fields name its columns; a
    field the table lacks takes its default), made when asked for and not kept."""

    def __init__(self, table: pa.Table, cls: type[R], cached: int = 0) -> None:
        self.table = table
        self.cls = cls
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        self._names = [f.name for f in fields if f.name in table.column_names]
        self._readers = [_field_reader(table, f) for f in fields]
        if cached:
            # The records asked for most recently, kept (records are frozen): a hub entity
            # with hundreds of chunks is asked for by many queries and costs most to make.
            self.record = functools.lru_cache(maxsize=cached)(self.record)  # type: ignore[method-assign]

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def record(self, row: int) -> R:
        return self.cls(*[read(row) for read in self._readers])

    def records(self, rows: Iterable[int]) -> list[R]:
        return [self.record(row) for row in rows]

    def all(self) -> list[R]:
        """Every row, in table order (built column by column: the fast way to read them all)."""
        return from_table(self.table.select(self._names), self.cls)

    def column(self, name: str) -> list[Any]:
        return list(single_array(self.table.column(name)).to_pylist())


def _field_reader(table: pa.Table, field: dataclasses.Field[Any]) -> ValueReader:
    if field.name in table.column_names:
        return value_reader(single_array(table.column(field.name)))
    if field.default_factory is not dataclasses.MISSING:
        factory = field.default_factory
        return lambda row: factory()
    if field.default is not dataclasses.MISSING:
        default = field.default
        return lambda row: default
    raise ValueError(f"table has no column {field.name!r} and the field has no default")
