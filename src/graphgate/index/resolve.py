"""Stage *resolve*: surface names become entities; relations are re-keyed onto them.

Blocking on a normalised name merges spelling variants; a short name (``Scrooge``) joins the
one longer name of the same type that contains it (``Ebenezer Scrooge``) only when the
embeddings of the passages they occur in agree, so ambiguous short names stay apart. The
passages' vectors are the chunk embeddings the run already has: resolution embeds nothing.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from graphgate.core.config import ResolveSettings
from graphgate.core.text import normalise_name
from graphgate.core.types import Entity, Mention, RawRelation, Relationship
from graphgate.embed.base import mean_directions
from graphgate.index.curation import CurationEdit, EditOutcome, apply_edits, edge_matches


def clip(sentence: str, limit: int = 300) -> str:
    """A sentence cut at a word boundary with an ellipsis, so run-on sentences stay readable
    and the cut never glues one sentence to the next."""
    if len(sentence) <= limit:
        return sentence
    return sentence[:limit].rsplit(" ", 1)[0] + "…"


def entity_id(key: str) -> str:
    return "e_" + hashlib.sha256(key.encode()).hexdigest()[:16]


def relationship_id(
    source: str,
    predicate: str,
    target: str,
    valid_from: str | None = None,
    valid_to: str | None = None,
) -> str:
    key = f"{source}|{predicate}|{target}|{valid_from or ''}|{valid_to or ''}"
    return "r_" + hashlib.sha256(key.encode()).hexdigest()[:16]


@dataclass(slots=True)
class _Group:
    key: str
    surfaces: Counter[str]
    types: Counter[str]
    sentences: list[str]
    chunk_ids: set[str]
    doc_ids: set[str]

    @property
    def name(self) -> str:
        return sorted(self.surfaces.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))[0][0]

    @property
    def type(self) -> str:
        return sorted(self.types.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


@dataclass(frozen=True)
class Resolution:
    entities: list[Entity]
    relationships: list[Relationship]
    merged_by_embedding: int
    key_to_id: dict[str, str]  # normalised name -> the id of the entity it resolved into
    # The user's edits (index/curation.py): how each fared, and the edges to delete as
    # (source id, predicate or None, target id, the edit's number).
    outcomes: list[EditOutcome] = field(default_factory=list)
    deleted: list[tuple[str, str | None, str, int]] = field(default_factory=list)


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
        groups = _group_mentions(mentions, self.description_sentences)
        parent = {key: key for key in groups}
        merged = 0
        if self.settings.use_embeddings and chunk_vectors:
            for short, long in self._embedding_merges(groups, chunk_vectors):
                parent[short] = long
                merged += 1

        def root(key: str) -> str:
            while parent[key] != key:
                key = parent[key]
            return key

        curated = apply_edits({key: root(key) for key in groups}, edits)
        head = curated.head
        clusters: dict[str, list[_Group]] = defaultdict(list)
        for key in sorted(groups):
            clusters[head[key]].append(groups[key])
        key_to_id = {key: entity_id(head[key]) for key in groups}
        for label, surfaces in curated.extra.items():  # curated names not (yet) in the corpus
            for surface in surfaces:
                key_to_id.setdefault(normalise_name(surface), entity_id(label))
        entities = [
            self._entity(
                entity_id(r), groups[r], members, curated.names.get(r), curated.extra.get(r, [])
            )
            for r, members in sorted(clusters.items())
        ]
        deleted = [
            (entity_id(s), predicate, entity_id(t), n)
            for source, predicate, target, n in curated.deleted
            if (s := curated.find(source)) is not None
            and (t := curated.find(target)) is not None
            and s != t
        ]
        relationships = (
            relationships_of(relations, key_to_id, self.description_sentences)
            if with_relationships
            else []
        )
        return Resolution(entities, relationships, merged, key_to_id, curated.outcomes, deleted)

    def _entity(
        self,
        eid: str,
        head: _Group,
        members: list[_Group],
        renamed: str | None = None,
        curated_names: Sequence[str] = (),
    ) -> Entity:
        if len(members) == 1:  # most entities: one spelling group, nothing to merge
            merged = head
        else:
            merged = _Group(head.key, Counter(), Counter(), [], set(), set())
            for g in [head, *[m for m in members if m is not head]]:
                merged.surfaces.update(g.surfaces)
                merged.types.update(g.types)
                merged.sentences.extend(s for s in g.sentences if s not in merged.sentences)
                merged.chunk_ids |= g.chunk_ids
                merged.doc_ids |= g.doc_ids
        surfaces, sentences = merged.surfaces, merged.sentences
        name = renamed or head.name
        return Entity(
            id=eid,
            name=name,
            type=merged.type,
            description=" ".join(clip(s) for s in sentences[: self.description_sentences]),
            aliases=sorted({*surfaces, *curated_names} - {name}),
            mention_count=sum(surfaces.values()),
            chunk_ids=sorted(merged.chunk_ids),
            doc_ids=sorted(merged.doc_ids),
        )

    def _embedding_merges(
        self, groups: dict[str, _Group], chunk_vectors: Mapping[str, npt.NDArray[np.float32]]
    ) -> list[tuple[str, str]]:
        by_token: dict[str, set[str]] = defaultdict(set)
        for key in groups:
            for token in key.split():
                by_token[token].add(key)
        kind = {key: group.type for key, group in groups.items()}  # a property that sorts
        candidates: dict[str, list[str]] = {}
        for key in groups:
            tokens = key.split()
            pool = set.intersection(*(by_token[t] for t in tokens)) - {key}
            supersets = sorted(k for k in pool if kind[k] == kind[key] and len(k) > len(key))
            # Only the longest forms are targets, so "Scrooge" chooses among full names.
            supersets = [k for k in supersets if not any(k != o and k in o for o in supersets)]
            if supersets:
                candidates[key] = supersets
        # Each name's context: the unit mean of the passages it occurs in, all at once.
        needed = sorted({k for short, longs in candidates.items() for k in (short, *longs)})
        chunk_ids = sorted(chunk_vectors)
        row = {c: i for i, c in enumerate(chunk_ids)}
        matrix = np.vstack([chunk_vectors[c] for c in chunk_ids]) if chunk_ids else None
        context: dict[str, npt.NDArray[np.float32]] = {}
        if needed and matrix is not None:
            rows = [[row[c] for c in sorted(groups[k].chunk_ids) if c in row] for k in needed]
            context = dict(zip(needed, mean_directions(rows, matrix), strict=True))
        merges: list[tuple[str, str]] = []
        for short in sorted(candidates):
            longs = candidates[short]
            sims = [float(context[short] @ context[k]) for k in longs]
            best = int(np.argmax(sims))
            runner_up = max((s for i, s in enumerate(sims) if i != best), default=-1.0)
            if sims[best] >= self.settings.similarity_threshold and sims[best] - runner_up >= 0.05:
                merges.append((short, longs[best]))
        return merges


def _group_mentions(mentions: Iterable[Mention], keep: int) -> dict[str, _Group]:
    """Mentions by normalised name, each group with its first ``keep`` distinct sentences:
    an entity's description is the first ``keep`` of its groups' sentences taken in turn
    (head first, then the others' new ones), and each group's first ``keep`` are enough for
    that, however many of them repeat the head's."""
    groups: dict[str, _Group] = {}
    keys: dict[str, str] = {}
    for m in mentions:
        key = keys.get(m.name)
        if key is None:
            key = keys[m.name] = normalise_name(m.name)
        if not key:
            continue
        g = groups.get(key)
        if g is None:
            g = groups[key] = _Group(key, Counter(), Counter(), [], set(), set())
        g.surfaces[m.name] += 1
        g.types[m.type] += 1
        if len(g.sentences) < keep and m.sentence not in g.sentences:
            g.sentences.append(m.sentence)
        g.chunk_ids.add(m.chunk_id)
        g.doc_ids.add(m.doc_id)
    return groups


class _Acc:
    """One edge's evidence as the relations are read."""

    __slots__ = ("chunks", "count", "docs", "kind", "sentences")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0
        self.sentences: list[str] = []
        self.chunks: set[str] = set()
        self.docs: set[str] = set()


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


def relationships_of(
    relations: Iterable[RawRelation],
    key_to_id: Mapping[str, str],
    n_sentences: int,
    only: set[EdgeKey] | None = None,
) -> list[Relationship]:
    """One edge per (source, predicate, target, time span): the same fact stated for two
    different periods stays two edges, so time is never averaged away. With ``only``, just
    those edges (each from every relation that belongs to it)."""

    acc: dict[EdgeKey, _Acc] = {}
    ids: dict[str, str | None] = {}
    for r in relations:
        key = edge_key(r, key_to_id, ids)
        if key is None or (only is not None and key not in only):
            continue
        a = acc.get(key)
        if a is None:
            a = acc[key] = _Acc(r.kind)
        a.count += 1
        if r.sentence not in a.sentences and len(a.sentences) < n_sentences:
            a.sentences.append(r.sentence)
        a.chunks.add(r.chunk_id)
        a.docs.add(r.doc_id)
    out = [
        Relationship(
            id=relationship_id(s, p, t, vf, vt),
            source_id=s,
            target_id=t,
            predicate=p,
            kind=a.kind,
            weight=float(a.count),
            description=" ".join(clip(x) for x in a.sentences),
            chunk_ids=sorted(a.chunks),
            doc_ids=sorted(a.docs),
            valid_from=vf,
            valid_to=vt,
        )
        for (s, p, t, vf, vt), a in acc.items()
    ]
    out.sort(key=lambda r: r.id)
    return out


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
