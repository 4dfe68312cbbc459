"""Stage *resolve*: surface names become entities; relations are re-keyed onto them.

Blocking on a normalised name merges spelling variants; a short name (``Scrooge``) joins the
one longer name of the same type that contains it (``Ebenezer Scrooge``) only when the
embeddings of the passages they occur in agree, so ambiguous short names stay apart. The
passages' vectors are the chunk embeddings the run already has: resolution embeds nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.config import ResolveSettings
from graphgate.core.text import normalise_name
from graphgate.core.types import (
    Entity,
    Mention,
    RawRelation,
    Relationship,
    TableRows,
    from_table,
    to_table,
)
from graphgate.embed.base import VectorRows, mean_directions
from graphgate.index.curation import CurationEdit, EditOutcome, apply_edits, edge_matches
from graphgate.index.edges import edge_table
from graphgate.index.name_groups import NameGroups, entity_id, entity_table, group_names


@dataclass(frozen=True)
class Resolution:
    entity_table: pa.Table
    relationships: list[Relationship]
    merged_by_embedding: int
    key_to_id: dict[str, str]  # normalised name -> the id of the entity it resolved into
    # The user's edits (index/curation.py): how each fared, and the edges to delete as
    # (source id, predicate or None, target id, the edit's number).
    outcomes: list[EditOutcome] = field(default_factory=list)
    deleted: list[tuple[str, str | None, str, int]] = field(default_factory=list)

    @property
    def entities(self) -> list[Entity]:
        return from_table(self.entity_table, Entity)


# Short names whose contexts (and their long forms') are held at once.
_MERGE_BATCH = 1024


class EntityResolver:
    def __init__(self, settings: ResolveSettings, description_sentences: int = 3) -> None:
        self.settings = settings
        self.description_sentences = description_sentences

    def resolve(
        self,
        mentions: Iterable[Mention],
        relations: Iterable[RawRelation],
        chunk_vectors: Mapping[str, npt.NDArray[np.float32]] | None = None,
        with_relationships: bool = True,
        edits: Sequence[CurationEdit] = (),
    ) -> Resolution:
        """``chunk_vectors`` (chunk id -> embedding) enable the embedding merge of short names.
        Without relationships, the caller makes them from :attr:`Resolution.key_to_id`.
        ``edits`` (the workspace's curation) apply after the merges, in order."""
        groups = group_names(mention_table(mentions))
        parent = {key: key for key in groups.keys}
        merged = 0
        if self.settings.use_embeddings and chunk_vectors:
            for short, long in self._embedding_merges(groups, chunk_vectors):
                parent[short] = long
                merged += 1

        def root(key: str) -> str:
            while parent[key] != key:
                key = parent[key]
            return key

        curated = apply_edits({key: root(key) for key in groups.keys}, edits)
        head = curated.head
        key_to_id = {key: entity_id(head[key]) for key in groups.keys}
        for label, surfaces in curated.extra.items():  # curated names not (yet) in the corpus
            for surface in surfaces:
                key_to_id.setdefault(normalise_name(surface), entity_id(label))
        entities, _ = entity_table(
            groups, head, curated.names, curated.extra, self.description_sentences
        )
        deleted = [
            (entity_id(s), predicate, entity_id(t), n)
            for source, predicate, target, n in curated.deleted
            if (s := curated.find(source)) is not None
            and (t := curated.find(target)) is not None
            and s != t
        ]
        relationships = (
            from_table(
                edge_table(raw_table(relations), key_to_id, self.description_sentences),
                Relationship,
            )
            if with_relationships
            else []
        )
        return Resolution(entities, relationships, merged, key_to_id, curated.outcomes, deleted)

    def _embedding_merges(
        self, groups: NameGroups, chunk_vectors: Mapping[str, npt.NDArray[np.float32]]
    ) -> list[tuple[str, str]]:
        by_token: dict[str, set[str]] = defaultdict(set)
        for key in groups.keys:
            for token in key.split():
                by_token[token].add(key)
        kind = dict(zip(groups.keys, groups.types(), strict=True))
        candidates: dict[str, list[str]] = {}
        for key in groups.keys:
            tokens = key.split()
            pool = set.intersection(*(by_token[t] for t in tokens)) - {key}
            supersets = sorted(k for k in pool if kind[k] == kind[key] and len(k) > len(key))
            # Only the longest forms are targets, so "Scrooge" chooses among full names.
            supersets = [k for k in supersets if not any(k != o and k in o for o in supersets)]
            if supersets:
                candidates[key] = supersets
        if not candidates or not chunk_vectors:
            return []
        # Each name's context: the unit mean of the passages it occurs in, for a batch of
        # short names and their long forms at a time (a context depends only on its name).
        if isinstance(chunk_vectors, VectorRows):  # the stage's: rows gathered, no copy
            row, matrix = chunk_vectors.row, chunk_vectors.matrix
        else:
            chunk_ids = sorted(chunk_vectors)
            row = {c: i for i, c in enumerate(chunk_ids)}
            matrix = np.vstack([chunk_vectors[c] for c in chunk_ids])
        index = {key: i for i, key in enumerate(groups.keys)}
        chunk_lists = groups.chunk_lists()
        shorts = sorted(candidates)
        merges: list[tuple[str, str]] = []
        for start in range(0, len(shorts), _MERGE_BATCH):
            batch = shorts[start : start + _MERGE_BATCH]
            needed = sorted({k for short in batch for k in (short, *candidates[short])})
            lists = chunk_lists.take(pa.array([index[k] for k in needed], pa.int64()))
            rows = [[row[c] for c in chunks if c in row] for chunks in lists.to_pylist()]
            context = dict(zip(needed, mean_directions(rows, matrix), strict=True))
            for short in batch:
                longs = candidates[short]
                sims = [float(context[short] @ context[k]) for k in longs]
                best = int(np.argmax(sims))
                runner_up = max((s for i, s in enumerate(sims) if i != best), default=-1.0)
                threshold = self.settings.similarity_threshold
                if sims[best] >= threshold and sims[best] - runner_up >= 0.05:
                    merges.append((short, longs[best]))
        return merges


# Changed with how raw relations become edges: an update keeps no row of a parent made by an
# older version (index/resolve_update.py).
EDGES_VERSION = "edges-1"
# An edge: (source id, predicate, target id, valid_from, valid_to).
EdgeKey = tuple[str, str, str, str | None, str | None]


def edge_key(
    r: RawRelation, key_to_id: Mapping[str, str], ids: dict[str, str | None]
) -> EdgeKey | None:
    """The edge a raw relation belongs to; None when a name resolves to no entity or both to
    the same one. ``ids`` caches surface name -> entity id (names repeat across relations)."""
    source = ids.get(r.source_name, "")
    if source == "":
        source = ids[r.source_name] = key_to_id.get(normalise_name(r.source_name))
    target = ids.get(r.target_name, "")
    if target == "":
        target = ids[r.target_name] = key_to_id.get(normalise_name(r.target_name))
    if source is None or target is None or source == target:
        return None
    if r.kind == "cooccurrence" and target < source:
        source, target = target, source
    return (source, r.predicate, target, r.valid_from, r.valid_to)


def mention_table(mentions: Iterable[Mention]) -> pa.Table:
    """Mentions as their table (the one they are read from, when they are its rows)."""
    if isinstance(mentions, TableRows):
        return mentions.table
    return to_table(list(mentions), Mention)


def raw_table(relations: Iterable[RawRelation]) -> pa.Table:
    """Raw relations as their table (the one they are read from, when they are its rows)."""
    if isinstance(relations, TableRows):
        return relations.table
    return to_table(list(relations), RawRelation)


def deleted_statements(
    relations: Iterable[RawRelation],
    key_to_id: Mapping[str, str],
    deleted: Sequence[tuple[str, str | None, str, int]],
) -> dict[int, int]:
    """How many raw relations each relation delete keeps out of the graph: counted from what
    the corpus states, so a rebuild and an update (which keeps its parent's rows, already
    without the edge) report the same."""
    counts = {n: 0 for *_, n in deleted}
    if not deleted:
        return counts
    ids: dict[str, str | None] = {}
    for r in relations:
        key = edge_key(r, key_to_id, ids)
        if key is None:
            continue
        for s, p, t, n in deleted:
            if edge_matches(s, p, t, key[0], key[2], key[1], r.kind):
                counts[n] += 1
                break
    return counts
