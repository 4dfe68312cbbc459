"""The graph a community report is made from, held as columns: integer codes, numbers and the
Arrow tables, with a Python value made only for what a report shows.

A record per entity and relation of the whole graph, kept while every report is written, was
the largest thing the summarize stage held; a community's members, the relations among them,
their degrees and the chunks they name are all found here by array operations instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import squash
from graphgate.core.types import COOCCURS
from graphgate.index.cache import content_key
from graphgate.index.columnar import value_ranks

Rows = npt.NDArray[np.int64]
LIST_SEPARATOR = "\x1e"  # between a list's items inside one part of a key (content_key's are \x1f)
_KEY_BATCH = 8192


def _array(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


class ListCodes:
    """A list column as codes into a sorted dictionary: each row's values (in the row's
    order) are ``codes[offsets[i]:offsets[i + 1]]``; a code's rank is its value's rank."""

    def __init__(self, column: pa.Array | pa.ChunkedArray, dictionary: pa.Array) -> None:
        lists = pc.fill_null(_array(column), pa.scalar([], column.type))
        self.offsets: Rows = lists.offsets.to_numpy().astype(np.int64)
        self.offsets -= self.offsets[0]
        flat = lists.flatten()
        codes = pc.index_in(flat, value_set=dictionary).to_numpy(zero_copy_only=False)
        self.codes: Rows = codes.astype(np.int64)

    def of(self, row: int) -> Rows:
        return self.codes[self.offsets[row] : self.offsets[row + 1]]

    def union(self, rows: Rows) -> Rows:
        """The distinct codes of ``rows``' lists, in ascending order (the values sorted)."""
        starts, ends = self.offsets[rows], self.offsets[rows + 1]
        distinct: Rows = np.unique(self.codes[ranges(starts, ends)])
        return distinct


def ranges(starts: Rows, ends: Rows) -> Rows:
    """The positions ``starts[i]..ends[i]-1`` of every i, one after the other."""
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    shift: Rows = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return np.arange(total, dtype=np.int64) + shift


def sorted_values(*columns: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The distinct strings of the columns (list columns flattened), sorted."""
    parts = []
    for column in columns:
        array = _array(column)
        if pa.types.is_list(array.type) or pa.types.is_large_list(array.type):
            array = array.flatten()
        parts.append(array.cast(pa.string()))
    distinct = pc.unique(pa.concat_arrays(parts) if parts else pa.array([], pa.string()))
    distinct = distinct.drop_null()
    return distinct.take(pc.sort_indices(distinct))


class SubgraphColumns:
    """Entities, relationships and chunk texts by row number, with what reports are ranked on
    as arrays and the relations of each entity found by source (a CSR index)."""

    def __init__(self, entities: pa.Table, relationships: pa.Table, chunks: pa.Table) -> None:
        self.entities = entities.combine_chunks()
        self.relationships = relationships.combine_chunks()
        ids = _array(self.entities["id"])
        self.entity_ids: list[str] = ids.to_pylist()
        self.code = {e: i for i, e in enumerate(self.entity_ids)}
        self.entity_rank: Rows = value_ranks(ids)
        self.mentions: Rows = self.entities["mention_count"].to_numpy().astype(np.int64)
        n = len(self.entity_ids)
        # An endpoint that is no entity gets code n: never a member, so never inside.
        self.source = self._codes(self.relationships["source_id"], n)
        self.target = self._codes(self.relationships["target_id"], n)
        self.weight: npt.NDArray[np.float64] = (
            self.relationships["weight"].to_numpy().astype(np.float64)
        )
        predicate = _array(self.relationships["predicate"])
        self.cooccurs = pc.equal(predicate, COOCCURS).to_numpy(zero_copy_only=False)
        self.relation_rank = value_ranks(_array(self.relationships["id"]))
        order = np.argsort(self.source, kind="stable")
        self._by_source: Rows = order.astype(np.int64)
        self._source_offsets = np.zeros(n + 2, dtype=np.int64)
        np.cumsum(np.bincount(self.source, minlength=n + 1), out=self._source_offsets[1:])
        self._member = np.zeros(n + 1, dtype=bool)
        chunk_ids = _array(chunks["id"])
        self.chunk_dictionary = sorted_values(
            chunk_ids, self.entities["chunk_ids"], self.relationships["chunk_ids"]
        )
        self.chunk_names: list[str] = self.chunk_dictionary.to_pylist()
        text_of = dict(zip(chunk_ids.to_pylist(), _array(chunks["text"]).to_pylist(), strict=True))
        self.chunk_text = [squash(text_of[c]) if c in text_of else "" for c in self.chunk_names]
        del text_of
        self._chunk_in_table = np.asarray(
            pc.is_in(self.chunk_dictionary, value_set=chunk_ids).to_numpy(zero_copy_only=False)
        )
        self.entity_chunks = ListCodes(self.entities["chunk_ids"], self.chunk_dictionary)
        self.relation_chunks = ListCodes(self.relationships["chunk_ids"], self.chunk_dictionary)
        self.doc_dictionary = sorted_values(self.entities["doc_ids"])
        self.doc_names: list[str] = self.doc_dictionary.to_pylist()
        self.entity_docs = ListCodes(self.entities["doc_ids"], self.doc_dictionary)

    def _codes(self, column: pa.ChunkedArray, missing: int) -> Rows:
        found = pc.index_in(_array(column), value_set=_array(self.entities["id"]))
        codes: Rows = pc.fill_null(found, missing).to_numpy().astype(np.int64)
        return codes

    def members(self, ids: Sequence[str]) -> Rows:
        return np.fromiter((self.code[m] for m in ids), np.int64, len(ids))

    def inside(self, members: Rows) -> Rows:
        """The relations with both ends among ``members``, ordered by id."""
        out = ranges(self._source_offsets[members], self._source_offsets[members + 1])
        found = self._by_source[out]
        self._member[members] = True
        try:
            found = found[self._member[self.target[found]]]
        finally:
            self._member[members] = False
        ordered: Rows = found[np.argsort(self.relation_rank[found], kind="stable")]
        return ordered

    def entity(self, row: int, column: str) -> object:
        return self.entities[column][row].as_py()

    def relation(self, row: int, column: str) -> object:
        return self.relationships[column][row].as_py()

    def text_keys(self) -> list[str]:
        """Each chunk code's key of its text ("" for a chunk the chunks table lacks)."""
        return [
            content_key(c, t) if known else ""
            for c, t, known in zip(
                self.chunk_names, self.chunk_text, self._chunk_in_table.tolist(), strict=True
            )
        ]

    def entity_keys(self, text_keys: list[str]) -> list[str]:
        """A key per entity of everything a report takes from it (CommunitySummarizer._keys)."""
        keys: list[str] = []
        columns = ["id", "name", "type", "description", "mention_count", "doc_ids"]
        for start in range(0, self.entities.num_rows, _KEY_BATCH):
            batch = self.entities.slice(start, _KEY_BATCH).select(columns).to_pylist()
            for row, e in enumerate(batch, start):
                keys.append(
                    content_key(
                        e["id"],
                        e["name"],
                        e["type"],
                        e["description"],
                        str(e["mention_count"]),
                        LIST_SEPARATOR.join(e["doc_ids"] or []),
                        LIST_SEPARATOR.join(
                            [text_keys[c] for c in self.entity_chunks.of(row).tolist()]
                        ),
                    )
                )
        return keys

    def relation_keys(self, text_keys: list[str]) -> list[str]:
        keys: list[str] = []
        columns = ["id", "predicate", "weight", "description"]
        for start in range(0, self.relationships.num_rows, _KEY_BATCH):
            batch = self.relationships.slice(start, _KEY_BATCH).select(columns).to_pylist()
            for row, r in enumerate(batch, start):
                keys.append(
                    content_key(
                        r["id"],
                        r["predicate"],
                        repr(r["weight"]),
                        r["description"],
                        LIST_SEPARATOR.join(
                            [text_keys[c] for c in self.relation_chunks.of(row).tolist()]
                        ),
                    )
                )
        return keys
