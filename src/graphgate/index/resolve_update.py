"""An update's relationships, from its parent run's: the rows no change can reach are kept.

An edge aggregates the raw relations between two resolved entities. After an update it can
only differ from the parent's if one of those relations changed (its chunk was added,
removed, re-read or re-dated) or a name at either end now resolves to another entity (a new
name, a gone one, a merge made or undone). Those edges are aggregated again from every raw
relation that maps to them; every other row is the parent's, unchanged. Edges of functional
predicates are always aggregated again: superseding closes them against each other, so a
stored row is not what aggregation gave. Resolution itself (names, merges, entities) still
runs over the whole graph; this only spares rebuilding fifteen thousand edge records to find
the few hundred that changed. The result equals a rebuild (``test_update_equivalence.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import normalise_name
from graphgate.core.types import column_values
from graphgate.index.edges import aggregate_edges, among, edge_ids, edge_keys, edge_rows


@dataclass(frozen=True)
class ParentEdges:
    """What the parent run's edges were made from, as its artifacts hold it."""

    chunks: pa.Table
    raw_relations: pa.Table
    entities: pa.Table
    relationships: pa.Table


@dataclass(frozen=True)
class EdgeUpdate:
    kept: pa.Table  # the parent's rows no change reaches
    remade: pa.Table  # aggregated again (dated), before superseding


def changed_chunks(parent: ParentEdges, chunks: pa.Table, raw_relations: pa.Table) -> set[str]:
    """Chunks added, removed, or different in any field (text, span, date), and chunks whose
    raw relations differ, in content or order (an extractor's output is compared, not
    assumed: an edge's sentences are its relations' first ones, in order)."""
    return _differing(parent.chunks, chunks) | _differing(parent.raw_relations, raw_relations)


def name_keys(entities: pa.Table) -> dict[str, str]:
    """Normalised name -> entity id: an entity's name and aliases are every surface form of the
    names resolved into it, so their keys are exactly its cluster's."""
    out: dict[str, str] = {}
    ids, names, aliases = (column_values(entities[c]) for c in ("id", "name", "aliases"))
    for entity_id, name, more in zip(ids, names, aliases, strict=True):
        for surface in (name, *more):
            key = normalise_name(surface)
            if key:
                out[key] = entity_id
    return out


def update_edges(
    parent: ParentEdges,
    changed: set[str],
    raw_relations: pa.Table,
    key_to_id: Mapping[str, str],
    n_sentences: int,
    functional: Mapping[str, str],
    chunks: pa.Table | None = None,
) -> EdgeUpdate:
    """The parent's edges that no change reaches, and the others aggregated again (those a
    changed chunk or a moved name touches, before or now, and every functional one), dated
    by ``chunks`` (id, date)."""
    before = name_keys(parent.entities)
    moved = {k for k in before.keys() | key_to_id.keys() if before.get(k) != key_to_id.get(k)}
    reached = {before[k] for k in moved if k in before}
    reached |= {key_to_id[k] for k in moved if k in key_to_id}
    rels = parent.relationships
    chunk_ids = rels["chunk_ids"]
    touched = pc.is_in(pc.list_flatten(chunk_ids), pa.array(sorted(changed), pa.string()))
    in_changed = pc.list_parent_indices(chunk_ids).filter(touched).unique()
    ends = pc.or_(among(rels["source_id"], reached), among(rels["target_id"], reached))
    # Superseding closes functional rows against each other: a stored one is not what its
    # relations give, so all are made again, from every current relation of theirs.
    closed = pc.and_(pc.equal(rels["kind"], "svo"), among(rels["predicate"], functional))
    reached_rows = np.zeros(rels.num_rows, dtype=bool)
    reached_rows[in_changed.to_numpy()] = True
    reached_rows[pc.indices_nonzero(ends).to_numpy()] = True
    open_rows = np.flatnonzero(reached_rows & ~closed.to_numpy(zero_copy_only=False))
    redo = set(edge_keys(rels.take(pa.array(open_rows, pa.int64()))).to_pylist())
    current = edge_rows(raw_relations, key_to_id)
    rows = current.table
    names = pa.concat_arrays(
        [rows["source_name"].combine_chunks(), rows["target_name"].combine_chunks()]
    ).unique()
    renamed = pa.array([normalise_name(n) in moved for n in names.to_pylist()], pa.bool_())
    remake = [
        among(rows["key"], redo),
        among(rows["chunk_id"], changed),
        pc.and_(pc.equal(rows["kind"], "svo"), among(rows["predicate"], functional)),
        renamed.take(pc.index_in(rows["source_name"], value_set=names)),
        renamed.take(pc.index_in(rows["target_name"], value_set=names)),
    ]
    reaching = functools.reduce(pc.or_, remake)
    redo |= set(rows["key"].filter(reaching).unique().to_pylist())
    remade = aggregate_edges(current.where(among(rows["key"], redo)), n_sentences, chunks)
    # Kept: a row no change reached, whose edge is not made again (a new relation may join an
    # old edge), and not a functional one.
    drop = pc.or_(
        pc.or_(pa.array(reached_rows), closed), pc.is_in(rels["id"], value_set=edge_ids(redo))
    )
    return EdgeUpdate(rels.filter(pc.invert(drop)), remade)


def combined(kept: pa.Table, remade: pa.Table) -> pa.Table:
    """The kept and remade rows as one table in id order, as a rebuild writes it."""
    table = pa.concat_tables([kept, remade])
    return table.take(pc.sort_indices(table, [("id", "ascending")]))


def _differing(before: pa.Table, after: pa.Table) -> set[str]:
    """Chunk ids (the first column; rows are grouped by it) whose rows differ in any column,
    in content or order, or that only one of the tables has."""
    spans_before, spans_after = _spans(before), _spans(after)
    differing = spans_before.keys() ^ spans_after.keys()
    common = spans_before.keys() & spans_after.keys()
    for name in before.column_names:
        old, new = column_values(before[name]), column_values(after[name])
        for c in common - differing:
            (a, b), (x, y) = spans_before[c], spans_after[c]
            if old[a:b] != new[x:y]:
                differing.add(c)
    return differing


def _spans(table: pa.Table) -> dict[str, tuple[int, int]]:
    """Each chunk id of the first column with the range of rows it holds (a chunk's rows are
    contiguous: artifacts are written chunk by chunk); a chunk found twice apart spans all."""
    spans: dict[str, tuple[int, int]] = {}
    for i, value in enumerate(column_values(table.column(0))):
        start = spans[value][0] if value in spans else i
        spans[value] = (start, i + 1)
    return spans
