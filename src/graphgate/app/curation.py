"""Curation: the user's edits to the graph, kept in the workspace and applied in every run.

An edit is checked against the current run (the entities it names exist, the edge it deletes
is there), appended to ``curation.jsonl`` and applied by a new run over the same documents,
which reuses every cached extraction and embedding; resolution applies every edit in force, in
order, so a later index, add, delete or sync keeps it. A run that fails takes its edit back
out of the file: the file and the current run never disagree. Called with nothing held; each
operation takes the workspace's write lock for the check, the edit and the run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from graphgate.core.errors import GraphgateError, InputError, NotFoundError
from graphgate.core.runs import Run, replace_text
from graphgate.core.text import normalise_name
from graphgate.core.types import column_values
from graphgate.index.curation import (
    ALIAS_ADD,
    MERGE,
    RELATION_DELETE,
    RENAME,
    REVERT,
    SPLIT,
    CurationEdit,
    check_edit,
    edge_matches,
    edit_from_record,
)
from graphgate.index.pipeline import IndexReport, ProgressFactory, no_progress
from graphgate.index.update import documents_of

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace

CURATION_FILE = "curation.jsonl"


class CurationLog:
    """``curation.jsonl``: one edit per line, numbered from 1 in the order made."""

    def __init__(self, workspace: Path) -> None:
        self.path = workspace / CURATION_FILE

    def read(self) -> list[CurationEdit]:
        if not self.path.exists():
            return []
        edits: list[CurationEdit] = []
        text = self.path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{self.path}, line {number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"{where}: not JSON ({exc.msg})", "restore the line as graphgate wrote it"
                ) from exc
            edit = edit_from_record(record, where)
            if edit.n != len(edits) + 1:
                raise InputError(
                    f"{where}: edit {edit.n} where {len(edits) + 1} was expected",
                    "edits are numbered 1, 2, 3… in the order made; restore the file",
                )
            edits.append(edit)
        return edits

    def text(self) -> str | None:
        return self.path.read_text(encoding="utf-8") if self.path.exists() else None

    def write(self, edits: list[CurationEdit]) -> None:
        replace_text(self.path, "".join(e.to_json() + "\n" for e in edits))

    def restore(self, text: str | None) -> None:
        if text is None:
            self.path.unlink(missing_ok=True)
        else:
            replace_text(self.path, text)


@dataclass(frozen=True)
class EditState:
    """An edit as ``curation list`` shows it: in force or reverted, and how the current run
    applied it."""

    edit: CurationEdit
    reverted_by: int | None = None
    applied: bool | None = None  # None: a revert, reverted, or the current run predates it
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.edit.to_record(),
            "description": self.edit.describe(),
            "reverted_by": self.reverted_by,
            "applied": self.applied,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class CurationReport:
    edit: CurationEdit
    report: IndexReport
    outcome: dict[str, Any] = field(default_factory=dict)  # how the new run applied it

    def as_dict(self) -> dict[str, Any]:
        return {
            "edit": self.edit.to_record(),
            "description": self.edit.describe(),
            "outcome": self.outcome,
            "run_id": self.report.run_id,
            "counts": self.report.counts,
        }


def run_outcomes(run: Run) -> dict[int, dict[str, Any]]:
    """How a run applied each edit in force, by edit number ({} before any curation)."""
    resolved = run.manifest().stage("resolve")
    found = resolved.info.get("curation", []) if resolved is not None else []
    return {int(o["n"]): o for o in found if isinstance(o, dict) and "n" in o}


class Curation:
    """The curation commands of one workspace (``Workspace.curation``)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.log = CurationLog(ws.path)

    def edits(self) -> list[EditState]:
        edits = self.log.read()
        reverts = {e.reverts: e.n for e in edits if e.op == REVERT}
        outcomes: dict[int, dict[str, Any]] = {}
        if self.ws.runs.current_id() is not None:
            outcomes = run_outcomes(self.ws.runs.current())
        out = []
        for e in edits:
            found = outcomes.get(e.n)
            applied = bool(found["applied"]) if found else None
            reason = str(found.get("reason", "")) if found else ""
            out.append(EditState(e, reverts.get(e.n), applied, reason))
        return out

    def merge(
        self, entity: str, others: list[str], progress: ProgressFactory = no_progress
    ) -> CurationReport:
        """The entities named by ``others`` become part of ``entity`` (its name is kept)."""
        return self.make(CurationEdit(0, MERGE, entity, tuple(others)), progress)

    def rename(
        self, entity: str, name: str, progress: ProgressFactory = no_progress
    ) -> CurationReport:
        """``entity`` is called ``name``; its old name stays an alias."""
        return self.make(CurationEdit(0, RENAME, entity, (name,)), progress)

    def split(
        self, entity: str, names: list[str], progress: ProgressFactory = no_progress
    ) -> CurationReport:
        """The mentions under ``names`` leave ``entity`` and become an entity of their own."""
        return self.make(CurationEdit(0, SPLIT, entity, tuple(names)), progress)

    def alias_add(
        self, entity: str, alias: str, progress: ProgressFactory = no_progress
    ) -> CurationReport:
        """``alias`` names ``entity``: its mentions (now or in documents added later) and a
        question naming it link to the entity."""
        return self.make(CurationEdit(0, ALIAS_ADD, entity, (alias,)), progress)

    def relation_delete(
        self,
        source: str,
        target: str,
        predicate: str | None = None,
        progress: ProgressFactory = no_progress,
    ) -> CurationReport:
        """The edges between ``source`` and ``target`` (of ``predicate`` only, if given) leave
        the graph, however often the corpus states them."""
        edit = CurationEdit(0, RELATION_DELETE, source, target=target, predicate=predicate)
        return self.make(edit, progress)

    def revert(self, n: int, progress: ProgressFactory = no_progress) -> CurationReport:
        """Undo edit ``n``: a new run without it (the edit stays in the file, marked reverted)."""
        return self.make(CurationEdit(0, REVERT, reverts=n), progress)

    def make(self, edit: CurationEdit, progress: ProgressFactory = no_progress) -> CurationReport:
        """Check ``edit`` against the current run, record it and apply it in a new run."""
        check_edit(replace(edit, n=edit.n or 10**9), "the edit")
        with self.ws._writing("curate"):
            parent = self.ws._parent("curate")
            before = self.log.text()
            edits = self.log.read()
            numbered = replace(edit, n=len(edits) + 1, at=_now())
            numbered = check_against(numbered, edits, parent)
            self.log.write([*edits, numbered])
            try:
                report = self.ws._update(
                    parent, documents_of(parent), progress, f"curation {numbered.n}", []
                )
            except BaseException:
                self.log.restore(before)
                raise
        outcome = run_outcomes(self.ws.runs.get(report.run_id)).get(numbered.n, {})
        return CurationReport(numbered, report, outcome)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def check_against(edit: CurationEdit, edits: list[CurationEdit], run: Run) -> CurationEdit:
    """The edit with its entities named as the current run names them, or an error saying
    why it cannot apply (an entity or an edge that is not there, a name of another one)."""
    if edit.op == REVERT:
        undone = next((e for e in edits if e.n == edit.reverts), None)
        if undone is None:
            raise NotFoundError(
                f"there is no edit {edit.reverts} to revert", "see `graphgate curation list`"
            )
        if undone.op == REVERT:
            raise InputError(
                f"edit {edit.reverts} is itself a revert",
                f"make edit {undone.reverts} again instead",
            )
        if any(e.op == REVERT and e.reverts == edit.reverts for e in edits):
            raise InputError(f"edit {edit.reverts} is reverted already", "nothing to undo")
        return edit
    if not run.has_artifact("entities"):
        raise GraphgateError(
            "the current run has no entities to edit (a vector-only index)",
            "index with the graph pipeline first",
        )
    names = _Names(run.read_artifact("entities"))
    entity = names.entity(edit.entity)
    if edit.op == MERGE:
        others = [names.entity(n) for n in edit.names]
        if any(o == entity for o in others) or len(set(others)) < len(others):
            raise InputError("merge names one entity twice", "name each entity once")
        return replace(edit, entity=names.name[entity], names=tuple(names.name[o] for o in others))
    if edit.op in (RENAME, ALIAS_ADD):
        new = edit.names[0].strip()
        owner = names.by_key.get(normalise_name(new))
        if owner == entity and (edit.op == ALIAS_ADD or new == names.name[entity]):
            raise InputError(f"{new!r} already names {names.name[entity]!r}", "nothing to change")
        if owner is not None and owner != entity and edit.op == RENAME:
            raise InputError(
                f"{new!r} is a name of another entity, {names.name[owner]!r}",
                f"merge them instead: graphgate entity merge {names.name[entity]!r} {new!r}",
            )
        return replace(edit, entity=names.name[entity], names=(new,))
    if edit.op == SPLIT:
        own = {normalise_name(s) for s in names.surfaces[entity]}
        outside = [n for n in edit.names if normalise_name(n) not in own]
        if outside:
            raise InputError(
                f"{', '.join(map(repr, outside))} is not a name of {names.name[entity]!r}",
                "split off names the entity has (its name and aliases)",
            )
        if own <= {normalise_name(n) for n in edit.names}:
            raise InputError(
                f"nothing of {names.name[entity]!r} would remain (names that differ only in "
                "case, punctuation or a company suffix count as one)",
                "name only the names that leave",
            )
        return replace(edit, entity=names.name[entity])
    target = names.entity(edit.target)
    if not _has_edge(run, entity, target, edit.predicate):
        what = f"no {edit.predicate!r} edge" if edit.predicate else "no edge"
        raise NotFoundError(
            f"{what} between {names.name[entity]!r} and {names.name[target]!r}",
            "see the entity's edges: graphgate entity show NAME (or the web page's entity view)",
        )
    return replace(edit, entity=names.name[entity], target=names.name[target])


class _Names:
    """A run's entities by id, name and alias."""

    def __init__(self, entities: pa.Table) -> None:
        ids, names, aliases = (column_values(entities[c]) for c in ("id", "name", "aliases"))
        self.name = dict(zip(ids, names, strict=True))
        self.surfaces = {i: [n, *(a or [])] for i, n, a in zip(ids, names, aliases, strict=True)}
        self.by_key: dict[str, str] = {}
        for i, surfaces in self.surfaces.items():
            for s in surfaces:
                self.by_key.setdefault(normalise_name(s), i)

    def entity(self, ref: str) -> str:
        """The id of the entity ``ref`` names (an id, a name or an alias)."""
        if ref in self.name:
            return ref
        found = self.by_key.get(normalise_name(ref))
        if found is None:
            raise NotFoundError(
                f"no entity named {ref!r} in the current run",
                "give an entity's name, alias or id (graphgate entity search TEXT)",
            )
        return found


def _has_edge(run: Run, source: str, target: str, predicate: str | None) -> bool:
    columns = ["source_id", "target_id", "predicate", "kind"]
    table = run.read_artifact("relationships").select(columns)
    rows = zip(*(column_values(table[c]) for c in columns), strict=True)
    return any(edge_matches(source, predicate, target, *row) for row in rows)
