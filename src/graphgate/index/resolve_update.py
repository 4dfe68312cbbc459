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

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.text import normalise_name
from graphgate.core.types import RawRelation, Relationship, column_values
from graphgate.index.resolve import EdgeKey, edge_key, relationship_id, relationships_of


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
    remade: list[Relationship]  # aggregated again, before observation dates and superseding


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
    relations: Iterable[RawRelation],
    key_to_id: Mapping[str, str],
    n_sentences: int,
    functional: Mapping[str, str],
) -> EdgeUpdate:
    """The parent's edges that no change reaches, and the others aggregated again (those a
    changed chunk or a moved name touches, before or now, and every functional one).
    ``relations`` is read twice: a list, or a table's rows (``TableRows``), not a generator."""
    before = name_keys(parent.entities)
    moved = {k for k in before.keys() | key_to_id.keys() if before.get(k) != key_to_id.get(k)}
    reached = {before[k] for k in moved if k in before}
    reached |= {key_to_id[k] for k in moved if k in key_to_id}
    rels = parent.relationships
    chunk_ids = rels["chunk_ids"]
    touched = pc.is_in(pc.list_flatten(chunk_ids), pa.array(sorted(changed), pa.string()))
    in_changed = pc.list_parent_indices(chunk_ids).filter(touched).unique()
    ends = pc.or_(_among(rels["source_id"], reached), _among(rels["target_id"], reached))
    # Superseding closes functional rows against each other: a stored one is not what its
    # relations give, so all are made again, from every current relation of theirs.
    closed = pc.and_(pc.equal(rels["kind"], "svo"), _among(rels["predicate"], functional))
    rows = set(in_changed.to_pylist()) | set(pc.indices_nonzero(ends).to_pylist())
    columns = ("source_id", "predicate", "target_id", "valid_from", "valid_to")
    open_rows = sorted(rows - set(pc.indices_nonzero(closed).to_pylist()))
    picked = rels.take(pa.array(open_rows, pa.int64())).select(list(columns))
    redo: set[EdgeKey] = set(zip(*(column_values(picked[c]) for c in columns), strict=True))
    ids: dict[str, str | None] = {}
    keys: dict[str, str] = {}
    found: list[EdgeKey | None] = []
    for r in relations:
        key = edge_key(r, key_to_id, ids)
        found.append(key)
        if key is None or key in redo:
            continue
        if r.chunk_id in changed or (r.kind == "svo" and r.predicate in functional):
            redo.add(key)
            continue
        for name in (r.source_name, r.target_name):
            key_of = keys.get(name)
            if key_of is None:
                key_of = keys[name] = normalise_name(name)
            if key_of in moved:
                redo.add(key)
    remade = relationships_of(
        (r for r, key in zip(relations, found, strict=True) if key in redo),
        key_to_id,
        n_sentences,
    )
    # Kept: a row no change reached, whose edge is not made again (a new relation may join an
    # old edge), and not a functional one.
    again = pa.array(sorted(relationship_id(*key) for key in redo), pa.string())
    reached_rows = pa.array([i in rows for i in range(rels.num_rows)], pa.bool_())
    drop = pc.or_(pc.or_(reached_rows, closed), pc.is_in(rels["id"], again))
    return EdgeUpdate(rels.filter(pc.invert(drop)), remade)


def combined(kept: pa.Table, remade: pa.Table) -> pa.Table:
    """The kept and remade rows as one table in id order, as a rebuild writes it."""
    table = pa.concat_tables([kept, remade])
    return table.take(pc.sort_indices(table, [("id", "ascending")]))


def _among(column: pa.ChunkedArray, values: Collection[str]) -> pa.ChunkedArray:
    return pc.is_in(column, pa.array(sorted(values), pa.string()))


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
