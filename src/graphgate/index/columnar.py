"""Grouping rows column by column: codes for values, and each group's distinct values as a list.

Resolution aggregates a row per mention or raw relation into a row per name or edge. Done with
a Python record per group, its memory grew with the corpus faster than anything else the
pipeline held; these helpers keep it to integer arrays and Arrow columns.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

Codes = npt.NDArray[np.int64]


def encode(column: pa.Array | pa.ChunkedArray) -> tuple[Codes, pa.Array]:
    """Each row's code and the distinct values, numbered in order of first appearance (so
    codes are deterministic for a given table). The column must hold no nulls."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if array.null_count:
        raise ValueError("encode: the column holds nulls")
    if pa.types.is_dictionary(array.type):
        return _renumbered(array)
    encoded = pc.dictionary_encode(array)
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64), encoded.dictionary


def _renumbered(array: pa.DictionaryArray) -> tuple[Codes, pa.Array]:
    """:func:`encode` of a column read dictionary-encoded (``Run.read_artifact``): the same
    codes and values as of the plain column. A Parquet dictionary may hold a value twice and
    values no row uses, in its own order; its values are encoded first, then renumbered by
    each code's first row."""
    value_codes, values = encode(array.dictionary)
    codes = value_codes[array.indices.to_numpy(zero_copy_only=False).astype(np.int64)]
    used, first = np.unique(codes, return_index=True)
    in_order = used[np.argsort(first, kind="stable")]
    renumber = np.empty(len(values), dtype=np.int64)
    renumber[in_order] = np.arange(len(in_order), dtype=np.int64)
    return renumber[codes], values.take(pa.array(in_order, pa.int64()))


def first_rows(groups: Codes, n_groups: int) -> Codes:
    """The first row of each group (codes 0..n_groups-1, each with a row)."""
    found, first = np.unique(groups, return_index=True)
    if len(found) != n_groups:
        raise ValueError("first_rows: a group has no row")
    return first.astype(np.int64)


def value_ranks(values: pa.Array) -> Codes:
    """Each value's position among the values sorted (as Python sorts strings: UTF-8 bytes
    compare as code points do)."""
    order = pc.sort_indices(values).to_numpy().astype(np.int64)
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order), dtype=np.int64)
    return ranks


def grouped_lists(
    groups: Codes,
    values: Codes,
    dictionary: pa.Array,
    n_groups: int,
    order: Literal["sorted", "first"] = "sorted",
    limit: int | None = None,
) -> pa.ListArray:
    """For each group (0..n_groups-1), its distinct values: sorted, or in order of first
    appearance among the group's rows; with ``limit``, the first ``limit`` of them."""
    width = max(len(dictionary), 1)
    if order == "sorted":
        ranks = value_ranks(dictionary)
        by_rank = np.empty(len(ranks), dtype=np.int64)
        by_rank[ranks] = np.arange(len(ranks), dtype=np.int64)
        pairs = np.unique(groups * width + ranks[values])
        group_of, value_of = pairs // width, by_rank[pairs % width]
    else:
        pairs, first = np.unique(groups * width + values, return_index=True)
        pairs = pairs[np.lexsort((first, pairs // width))]
        group_of, value_of = pairs // width, pairs % width
    if limit is not None:
        position = np.arange(len(group_of)) - np.searchsorted(group_of, group_of, side="left")
        keep = position < limit
        group_of, value_of = group_of[keep], value_of[keep]
    offsets = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(np.bincount(group_of, minlength=n_groups), out=offsets[1:])
    taken = dictionary.take(pa.array(value_of, pa.int64()))
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), taken)
