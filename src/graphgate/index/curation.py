"""The user's corrections to the graph, applied at resolution in every run.

An edit names entities by name, never by id: ids follow from resolution, which an edit
changes, and a name still means the same thing after documents come and go. Edits apply in
their order over the clusters that blocking and the embedding merge made, so a rebuild and an
update, which resolve the same mentions with the same edits, give the same graph. An edit
whose entity is no longer in the corpus is reported with its reason and skipped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import pyarrow as pa

from graphgate.core.errors import InputError
from graphgate.core.inputs import check_unicode
from graphgate.core.text import normalise_name
from graphgate.core.types import column_values

MERGE, RENAME, SPLIT, ALIAS_ADD, RELATION_DELETE, REVERT = (
    "merge",
    "rename",
    "split",
    "alias_add",
    "relation_delete",
    "revert",
)
OPS = (MERGE, RENAME, SPLIT, ALIAS_ADD, RELATION_DELETE, REVERT)
MAX_NAME_CHARS = 300


@dataclass(frozen=True)
class CurationEdit:
    """One correction. ``entity`` is the entity edited (a relation's source for
    ``relation_delete``); ``names`` what the operation takes: the entities merged into it, its
    new name, the names split off it, or the alias added."""

    n: int
    op: str
    entity: str = ""
    names: tuple[str, ...] = ()
    target: str = ""  # relation_delete: the other end
    predicate: str | None = None  # relation_delete: None deletes every edge between the two
    reverts: int | None = None  # revert: the edit undone
    at: str = ""  # when it was made (ISO 8601, UTC)

    def describe(self) -> str:
        quoted = ", ".join(repr(n) for n in self.names)
        if self.op == MERGE:
            return f"merge {quoted} into {self.entity!r}"
        if self.op == RENAME:
            return f"rename {self.entity!r} to {quoted}"
        if self.op == SPLIT:
            return f"split {quoted} off {self.entity!r}"
        if self.op == ALIAS_ADD:
            return f"add alias {quoted} to {self.entity!r}"
        if self.op == RELATION_DELETE:
            what = f"{self.predicate!r} edges" if self.predicate else "every edge"
            return f"delete {what} between {self.entity!r} and {self.target!r}"
        return f"revert edit {self.reverts}"

    def to_record(self) -> dict[str, Any]:
        record = asdict(self)
        record["names"] = list(self.names)
        return {k: v for k, v in record.items() if v not in ("", [], None)}

    def to_json(self) -> str:
        return json.dumps(self.to_record(), ensure_ascii=False)


def edit_from_record(record: Any, where: str) -> CurationEdit:
    """An edit read from its JSON object; ``where`` (file and line) names a bad one."""
    if not isinstance(record, dict):
        raise InputError(f"{where}: not a JSON object", "one edit per line, as graphgate wrote it")
    op, n = record.get("op"), record.get("n")
    if op not in OPS or not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InputError(
            f"{where}: an edit needs a number n ≥ 1 and op, one of {', '.join(OPS)}",
            "restore the line as graphgate wrote it, or remove it",
        )
    names = record.get("names", [])
    texts = [record.get(k, "") for k in ("entity", "target", "at")]
    predicate, reverts = record.get("predicate"), record.get("reverts")
    if (
        not isinstance(names, list)
        or not all(isinstance(t, str) for t in [*texts, *names])
        or not (predicate is None or isinstance(predicate, str))
        or not (reverts is None or (isinstance(reverts, int) and not isinstance(reverts, bool)))
    ):
        raise InputError(f"{where}: a field has the wrong type", "names are strings")
    entity, target, at = texts
    edit = CurationEdit(n, op, entity, tuple(names), target, predicate, reverts, at)
    check_edit(edit, where)
    return edit


def check_edit(edit: CurationEdit, where: str = "the edit") -> None:
    """The fields each operation needs, present and of sane size (not whether they apply)."""

    def need(ok: bool, problem: str, fix: str) -> None:
        if not ok:
            raise InputError(f"{where}: {problem}", fix)

    if edit.op == REVERT:
        need(
            edit.reverts is not None and 0 < edit.reverts < edit.n,
            "a revert must name an earlier edit",
            "give the number of an earlier edit (graphgate curation list)",
        )
        return
    texts = [edit.entity, *edit.names, edit.target, edit.predicate or ""]
    for text in texts:
        check_unicode(text, f"{where}: a name")
    need(
        all(len(t) <= MAX_NAME_CHARS for t in texts),
        "a name is too long",
        f"names are at most {MAX_NAME_CHARS} characters",
    )
    need(bool(normalise_name(edit.entity)), "no entity named", "name the entity to edit")
    if edit.op == RELATION_DELETE:
        need(bool(normalise_name(edit.target)), "no target entity named", "name both ends")
        need(edit.predicate is None or bool(edit.predicate.strip()), "an empty predicate",
             "give a predicate, or none for every edge between the two")  # fmt: skip
        return
    need(
        bool(edit.names) and all(normalise_name(n) for n in edit.names),
        f"{edit.op} needs one or more names with letters or digits",
        "give the names the edit takes",
    )
    if edit.op in (RENAME, ALIAS_ADD):
        need(len(edit.names) == 1, f"{edit.op} takes one name", "give exactly one new name")


def effective(edits: Sequence[CurationEdit]) -> list[CurationEdit]:
    """The edits in force: every edit not reverted (a revert itself cannot be reverted)."""
    reverted = {e.reverts for e in edits if e.op == REVERT}
    return [e for e in edits if e.op != REVERT and e.n not in reverted]


def curation_key(edits: Sequence[CurationEdit]) -> str:
    """What a run's resolution depends on in the edits: their content, not when they were made."""
    body = "\n".join(
        json.dumps([e.op, e.entity, list(e.names), e.target, e.predicate]) for e in edits
    )
    return hashlib.sha256(body.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class EditOutcome:
    n: int
    op: str
    description: str
    applied: bool
    reason: str = ""  # why it did not apply, or what of it did not

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Curated:
    """Clusters of name keys after the edits: each cluster is an entity, labelled by one of
    its keys (its id is made from the label)."""

    head: dict[str, str]  # name key -> its cluster's label
    names: dict[str, str] = field(default_factory=dict)  # label -> the name given by a rename
    extra: dict[str, list[str]] = field(default_factory=dict)  # label -> curated surfaces
    # Edges to delete: (source name, predicate or None, target name, the edit's number).
    deleted: list[tuple[str, str | None, str, int]] = field(default_factory=list)
    outcomes: list[EditOutcome] = field(default_factory=list)

    def members(self, label: str) -> list[str]:
        return sorted(k for k, h in self.head.items() if h == label)

    def find(self, name: str) -> str | None:
        """The label of the entity ``name`` belongs to: one of its names, or a curated one."""
        key = normalise_name(name)
        if key in self.head:
            return self.head[key]
        for label, surfaces in sorted(self.extra.items()):
            if any(normalise_name(s) == key for s in surfaces):
                return label
        return None

    def move(self, keys: set[str], label: str | None) -> str:
        """``keys`` leave their clusters for ``label``'s (None: a cluster of their own, labelled
        by a moved label key if there is one). A cluster that loses its label key is labelled
        by its smallest remaining key, keeping its rename and curated names."""
        sources = {self.head[k] for k in keys}
        rests = {
            old: [k for k, h in sorted(self.head.items()) if h == old and k not in keys]
            for old in sources
        }
        if label is None:
            label = next((k for k in sorted(keys) if k in sources), min(keys))
        for k in keys:
            self.head[k] = label
        for old, rest in sorted(rests.items()):
            if rest and old in keys:
                for k in rest:
                    self.head[k] = rest[0]
                self._relabel(old, rest[0])
        return label

    def merge_into(self, label: str, other: str) -> None:
        for k in self.members(other):
            self.head[k] = label
        self.names.pop(other, None)
        self.extra.setdefault(label, []).extend(self.extra.pop(other, []))

    def _relabel(self, old: str, new: str) -> None:
        if old in self.names:
            self.names[new] = self.names.pop(old)
        if old in self.extra:
            self.extra[new] = self.extra.pop(old)


def apply_edits(head: Mapping[str, str], edits: Sequence[CurationEdit]) -> Curated:
    """The clusters ``head`` (name key -> label, from blocking and the embedding merge) with
    ``edits`` applied in order; reverted edits are left out here."""
    cur = Curated(dict(head))
    for edit in effective(edits):
        reason = _apply(cur, edit)
        applied = not reason or reason.startswith("partly")
        cur.outcomes.append(EditOutcome(edit.n, edit.op, edit.describe(), applied, reason))
    return cur


def _apply(cur: Curated, edit: CurationEdit) -> str:
    """Apply one edit; the reason it did not (fully) apply, or ""."""
    label = cur.find(edit.entity)
    if label is None:
        return f"no entity named {edit.entity!r} in this corpus"
    if edit.op == MERGE:
        return _merge(cur, label, edit.names)
    if edit.op in (RENAME, ALIAS_ADD):
        new = edit.names[0]
        key = normalise_name(new)
        if key in cur.head and cur.head[key] != label:
            cur.move({key}, label)
        elif key not in cur.head:
            for surfaces in cur.extra.values():  # a curated name belongs to one entity
                surfaces[:] = [s for s in surfaces if normalise_name(s) != key]
            cur.extra.setdefault(label, []).append(new)
        if edit.op == RENAME:
            cur.names[label] = new
        return ""
    if edit.op == SPLIT:
        return _split(cur, label, edit)
    if cur.find(edit.target) is None:
        return f"no entity named {edit.target!r} in this corpus"
    cur.deleted.append((edit.entity, edit.predicate, edit.target, edit.n))
    return ""


def _merge(cur: Curated, label: str, names: Sequence[str]) -> str:
    others = [(n, cur.find(n)) for n in names]
    missing = [n for n, found in others if found is None]
    for _, other in others:
        if other is not None and other != label:
            cur.merge_into(label, other)
    if len(missing) == len(others):
        return "no entity named " + ", ".join(map(repr, missing)) + " in this corpus"
    return "partly: no entity named " + ", ".join(map(repr, missing)) if missing else ""


def _split(cur: Curated, label: str, edit: CurationEdit) -> str:
    keys = {normalise_name(n) for n in edit.names}
    inside = {k for k in keys if cur.head.get(k) == label}
    if not inside:
        return f"none of the names is part of {edit.entity!r} any more"
    if len(inside) == len(cur.members(label)):
        return f"nothing of {edit.entity!r} would remain: name only the names that leave"
    cur.move(inside, None)
    left = sorted(n for n in edit.names if normalise_name(n) not in inside)
    return "partly: not part of it any more: " + ", ".join(map(repr, left)) if left else ""


def without_deleted(
    relationships: pa.Table, deleted: Sequence[tuple[str, str | None, str, int]]
) -> tuple[pa.Table, dict[int, int]]:
    """The edges less those the user deleted, and how many each deleting edit removed. A
    predicate names the edges of that predicate from source to target (either way for an
    undirected co-occurrence); none, every edge between the two."""
    removed = {n: 0 for *_, n in deleted}
    if not deleted:
        return relationships, removed
    columns = ("source_id", "target_id", "predicate", "kind")
    rows = zip(*(column_values(relationships[c]) for c in columns), strict=True)
    keep: list[bool] = []
    for source, target, predicate, kind in rows:
        hit = next(
            (n for s, p, t, n in deleted if edge_matches(s, p, t, source, target, predicate, kind)),
            None,
        )
        if hit is not None:
            removed[hit] += 1
        keep.append(hit is None)
    return relationships.filter(pa.array(keep, pa.bool_())), removed


def edge_matches(
    s: str, p: str | None, t: str, source: str, target: str, predicate: str, kind: str
) -> bool:
    """Whether the edge (source, predicate, target, kind) is one a delete of (s, p, t) names."""
    if p is None:
        return {s, t} == {source, target}
    if predicate.casefold() != p.strip().casefold():
        return False
    return (s, t) == (source, target) or (kind == "cooccurrence" and (t, s) == (source, target))


def with_statement_counts(
    outcomes: Sequence[EditOutcome], stated: Mapping[int, int]
) -> list[EditOutcome]:
    """A delete of an edge the corpus no longer states did not apply; one that did says how
    many statements it keeps out."""
    out = []
    for o in outcomes:
        count = stated.get(o.n)
        if count is None or not o.applied:
            out.append(o)
        elif count == 0:
            out.append(replace(o, applied=False, reason="the corpus states no such edge"))
        else:
            out.append(replace(o, reason=f"{count} statements of it left out"))
    return out


def kept_apart(edits: Sequence[CurationEdit], entities: pa.Table) -> set[tuple[str, str]]:
    """Pairs of entity ids (sorted) that a split in force separated: the entity split and each
    entity its split names now belong to. The synonym edges of the walk never join them."""
    splits = [e for e in effective(edits) if e.op == SPLIT]
    if not splits:
        return set()
    owner: dict[str, str] = {}
    columns = (column_values(entities[c]) for c in ("id", "name", "aliases"))
    for entity_id, name, aliases in zip(*columns, strict=True):
        for surface in (name, *(aliases or [])):
            owner.setdefault(normalise_name(surface), entity_id)
    pairs: set[tuple[str, str]] = set()
    for edit in splits:
        source = owner.get(normalise_name(edit.entity))
        for name in edit.names:
            other = owner.get(normalise_name(name))
            if source is not None and other is not None and other != source:
                a, b = sorted((source, other))
                pairs.add((a, b))
    return pairs
