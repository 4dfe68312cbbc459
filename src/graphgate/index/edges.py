"""Raw relations into edges, column by column.

One edge per (source, predicate, target, time span): the same fact stated for two different
periods stays two edges, so time is never averaged away. An edge's weight is how many raw
relations state it, its description their first distinct sentences (clipped), its chunks and
documents every one they were read in, and ``observed_at`` the latest date among those
documents. Built from integer codes and Arrow columns: a Python record per edge grew with the
corpus faster than anything else indexing held.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import normalise_name
from graphgate.core.types import SCHEMAS, Relationship, from_table
from graphgate.index.columnar import Codes, encode, first_rows, grouped_lists, value_ranks
from graphgate.index.truth import supersede

_KEY_COLUMNS = ("source_id", "predicate", "target_id", "valid_from", "valid_to")
CLIP = 300


def clip(sentence: str, limit: int = CLIP) -> str:
    """A sentence cut at a word boundary with an ellipsis, so run-on sentences stay readable
    and the cut never glues one sentence to the next."""
    if len(sentence) <= limit:
        return sentence
    return sentence[:limit].rsplit(" ", 1)[0] + "…"


def relationship_id(
    source: str,
    predicate: str,
    target: str,
    valid_from: str | None = None,
    valid_to: str | None = None,
) -> str:
    return edge_id(f"{source}|{predicate}|{target}|{valid_from or ''}|{valid_to or ''}")


def edge_id(key: str) -> str:
    """The id of the edge whose :func:`edge_keys` string is ``key``."""
    return "r_" + hashlib.sha256(key.encode()).hexdigest()[:16]


def edge_keys(table: pa.Table) -> pa.Array:
    """Each row's edge as one string, the one its id is hashed from: an edge's time span
    missing and empty are the same span."""
    parts = [
        pc.fill_null(table[c], "") if c.startswith("valid_") else table[c] for c in _KEY_COLUMNS
    ]
    joined = pc.binary_join_element_wise(*parts, "|")
    return joined.combine_chunks() if isinstance(joined, pa.ChunkedArray) else joined


def resolved_names(names: pa.Array, key_to_id: Mapping[str, str]) -> pa.Array:
    """The entity id each surface name resolves to (null: none)."""
    return pa.array([key_to_id.get(normalise_name(n)) for n in names.to_pylist()], pa.string())


# The raw relations' columns an edge row carries (its sentence and document stay in the raw
# table, read by position: they are the large ones).
_CARRIED = ("predicate", "kind", "chunk_id", "valid_from", "valid_to", "source_name", "target_name")


@dataclass(frozen=True)
class EdgeRows:
    """The raw relations that make an edge: their positions in ``raw`` (``at``), and for each
    its ends' entity ids, the columns of :data:`_CARRIED` and its edge's ``key``."""

    raw: pa.Table
    at: pa.Array
    table: pa.Table

    def where(self, mask: pa.Array) -> EdgeRows:
        return EdgeRows(self.raw, self.at.filter(mask), self.table.filter(mask))

    def codes(self, column: str) -> tuple[Codes, pa.Array]:
        """:func:`encode` of a raw column, for these rows."""
        codes, values = encode(self.raw[column])
        return codes[self.at.to_numpy()], values


def edge_rows(raw: pa.Table, key_to_id: Mapping[str, str]) -> EdgeRows:
    """The raw relations that make an edge, each with its ends' entity ids (a co-occurrence's
    in id order: it has no direction) and its edge's key; dropped: a relation whose name
    resolves to no entity, or whose two names resolve to the same one."""
    # Arrays, not chunked ones: pyarrow 20 crashes on some kernels over zero chunks.
    source_names = raw["source_name"].combine_chunks()
    target_names = raw["target_name"].combine_chunks()
    names = pa.concat_arrays([source_names, target_names]).unique()
    ids = resolved_names(names, key_to_id)
    source = ids.take(pc.index_in(source_names, value_set=names))
    target = ids.take(pc.index_in(target_names, value_set=names))
    made = pc.and_(pc.and_(pc.is_valid(source), pc.is_valid(target)), pc.not_equal(source, target))
    at = pc.indices_nonzero(pc.fill_null(made, False))
    cooccurrence = pc.equal(raw["kind"].combine_chunks(), "cooccurrence")
    swap = pc.fill_null(pc.and_(cooccurrence, pc.less(target, source)), False).take(at)
    source, target = source.take(at), target.take(at)
    table = raw.select(list(_CARRIED)).take(at)
    table = table.append_column("source_id", pc.if_else(swap, target, source))
    table = table.append_column("target_id", pc.if_else(swap, source, target))
    return EdgeRows(raw, at, table.append_column("key", edge_keys(table)))


def aggregate_edges(rows: EdgeRows, n_sentences: int, chunks: pa.Table | None = None) -> pa.Table:
    """The edges of :func:`edge_rows`' rows, in id order; ``chunks`` (id, date) dates them."""
    schema = SCHEMAS[Relationship]
    if len(rows.at) == 0:
        return schema.empty_table()
    groups, keys = encode(rows.table["key"])
    n = len(keys)
    ids = pa.array((edge_id(k) for k in keys.to_pylist()), pa.string(), size=n)
    del keys
    # Edges numbered in id order, so that every column is made sorted (sorting the finished
    # table copied all of it).
    order = pc.sort_indices(ids).to_numpy().astype(np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    groups = rank[groups]
    ids = ids.take(pa.array(order))
    del order, rank
    head = rows.table.select(["source_id", "target_id", "predicate", "kind", *_KEY_COLUMNS[3:]])
    head = head.take(pa.array(first_rows(groups, n), pa.int64()))
    sentence_codes, sentences = rows.codes("sentence")
    said = grouped_lists(groups, sentence_codes, clipped(sentences), n, "first", n_sentences)
    del sentence_codes, sentences
    description = pc.binary_join(said, " ")
    del said
    chunk_codes, chunk_ids = encode(rows.table["chunk_id"])
    doc_codes, doc_ids = rows.codes("doc_id")
    columns = {
        "id": ids,
        "source_id": head["source_id"],
        "target_id": head["target_id"],
        "predicate": head["predicate"],
        "kind": head["kind"],
        "weight": pa.array(np.bincount(groups, minlength=n).astype(np.float64)),
        "description": description,
        "chunk_ids": grouped_lists(groups, chunk_codes, chunk_ids, n),
        "doc_ids": grouped_lists(groups, doc_codes, doc_ids, n),
        "valid_from": head["valid_from"],
        "valid_to": head["valid_to"],
        "observed_at": _latest_dates(groups, n, chunk_codes, chunk_ids, chunks),
    }
    return pa.table(columns).cast(schema)


def edge_table(
    raw: pa.Table, key_to_id: Mapping[str, str], n_sentences: int, chunks: pa.Table | None = None
) -> pa.Table:
    """Every edge the raw relations make."""
    return aggregate_edges(edge_rows(raw, key_to_id), n_sentences, chunks)


def clipped(sentences: pa.Array) -> pa.Array:
    """:func:`clip` over an array, in Python only for the sentences long enough to cut."""
    at = pc.indices_nonzero(pc.greater(pc.utf8_length(sentences), CLIP))
    if len(at) == 0:
        return sentences
    cut = pa.array([clip(s) for s in sentences.take(at).to_pylist()], pa.string())
    index = np.arange(len(sentences), dtype=np.int64)
    index[at.to_numpy()] = len(sentences) + np.arange(len(at), dtype=np.int64)
    return pa.concat_arrays([sentences, cut]).take(pa.array(index))


def _latest_dates(
    groups: Codes,
    n: int,
    chunk_codes: Codes,
    chunk_ids: pa.Array,
    chunks: pa.Table | None,
) -> pa.Array:
    """Each edge's latest date among its chunks' (null: none dated)."""
    if chunks is None or chunks.num_rows == 0:
        return pa.nulls(n, pa.string())
    dates = pc.take(chunks["date"].combine_chunks(), pc.index_in(chunk_ids, value_set=chunks["id"]))
    present = pc.drop_null(dates).unique()
    distinct = present.filter(pc.not_equal(present, ""))
    if len(distinct) == 0:
        return pa.nulls(n, pa.string())
    position = pc.fill_null(pc.index_in(dates, value_set=distinct), -1)
    position_of = position.to_numpy(zero_copy_only=False).astype(np.int64)
    ranks = value_ranks(distinct)
    chunk_rank = np.where(position_of >= 0, ranks[position_of], -1)
    latest = np.full(n, -1, dtype=np.int64)
    np.maximum.at(latest, groups, chunk_rank[chunk_codes])
    in_order = distinct.take(pa.array(np.argsort(ranks)))
    found = in_order.take(pa.array(np.maximum(latest, 0)))
    return pc.if_else(pa.array(latest >= 0), found, pa.scalar(None, pa.string()))


def supersede_table(table: pa.Table, functional: Mapping[str, str]) -> tuple[pa.Table, int]:
    """:func:`truth.supersede` over the edges it can change (functional statements), as
    records only those; with how many it closed."""
    if not functional or table.num_rows == 0:
        return table, 0
    names = pa.array(sorted(functional), pa.string())
    mask = pc.and_(pc.equal(table["kind"], "svo"), pc.is_in(table["predicate"], value_set=names))
    if not pc.any(mask).as_py():
        return table, 0
    rows = from_table(table.filter(mask), Relationship)
    closed = supersede(rows, functional)
    changed = sum(a is not b for a, b in zip(rows, closed, strict=True))
    # Superseding changes an edge's end alone: the new ``valid_to`` column is the one copied,
    # each row's own value or its closed row's (no copy of the table).
    n = table.num_rows
    index = np.arange(n, dtype=np.int64)
    index[pc.indices_nonzero(mask).to_numpy()] = n + np.arange(len(closed), dtype=np.int64)
    ends = pa.concat_arrays(
        [
            table["valid_to"].combine_chunks(),
            pa.array([r.valid_to for r in closed], table.schema.field("valid_to").type),
        ]
    )
    at = table.schema.get_field_index("valid_to")
    out = table.set_column(at, table.schema.field(at), ends.take(pa.array(index)))
    return (out if _in_id_order(out) else out.take(pc.sort_indices(out["id"]))), changed


def _in_id_order(table: pa.Table) -> bool:
    ids = table["id"]
    n = len(ids)
    return n < 2 or not pc.any(pc.greater(ids.slice(0, n - 1), ids.slice(1))).as_py()


def among(column: pa.Array | pa.ChunkedArray, values: Collection[str]) -> pa.Array:
    """Whether each value is one of ``values``."""
    found = pc.is_in(column, value_set=pa.array(sorted(values), pa.string()))
    return found.combine_chunks() if isinstance(found, pa.ChunkedArray) else found


def edge_ids(keys: Iterable[str]) -> pa.Array:
    return pa.array(sorted(edge_id(k) for k in keys), pa.string())
