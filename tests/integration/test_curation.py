"""Curation through the workspace and the CLI: each edit applied by a new run, kept through
add, delete and sync exactly as a rebuild with the same edits makes it, undone by a revert,
reported when it no longer applies, refused (changing nothing) when it cannot apply."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.app.curation import CURATION_FILE
from graphgate.cli import build_app
from graphgate.core.errors import GraphgateError, InputError, NotFoundError
from tests.conftest import SMALL_TEXTS

TABLES = ("entities", "relationships", "communities")
NEW_DOC = (
    "Robert Cratchit carried Tiny Tim home through London. Ebenezer Scrooge raised the wages "
    "of Robert Cratchit the next morning."
)


def _corpus(path: Path) -> Path:
    path.mkdir()
    for name, text in SMALL_TEXTS.items():
        (path / name).write_text(text, encoding="utf-8")
    return path


def _tables(ws: Workspace) -> dict[str, pa.Table]:
    run = ws.runs.current()
    return {name: run.read_artifact(name) for name in TABLES}


def _entities(ws: Workspace) -> dict[str, dict[str, object]]:
    rows = ws.runs.current().read_artifact("entities").to_pylist()
    return {row["name"]: row for row in rows}


def _edges(ws: Workspace) -> set[tuple[str, str, str]]:
    run = ws.runs.current()
    names = {r["id"]: r["name"] for r in run.read_artifact("entities").to_pylist()}
    return {
        (names[r["source_id"]], r["predicate"], names[r["target_id"]])
        for r in run.read_artifact("relationships").to_pylist()
    }


def test_every_edit_survives_add_delete_and_sync_as_a_rebuild_makes_it(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus")
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
        assert "Scrooge" in _entities(ws)["Ebenezer Scrooge"]["aliases"]  # the embedding merge
        assert ("Bob Cratchit", "work_for", "Ebenezer Scrooge") in _edges(ws)
        ws.curation.alias_add("Bob Cratchit", "Robert Cratchit")
        ws.curation.merge("Tiny Tim", ["Martha Cratchit"])
        ws.curation.rename("Fred Holywell", "Fred")
        ws.curation.split("Ebenezer Scrooge", ["Scrooge"])
        done = ws.curation.relation_delete("Bob Cratchit", "Ebenezer Scrooge", "work_for")
        assert done.outcome["applied"] and done.edit.n == 5
        entities, edges = _entities(ws), _edges(ws)
        assert "Robert Cratchit" in entities["Bob Cratchit"]["aliases"]
        assert "Martha Cratchit" in entities["Tiny Tim"]["aliases"]
        assert "Martha Cratchit" not in entities
        assert entities["Fred"]["aliases"] == ["Fred Holywell"]
        assert "Scrooge" in entities and "Scrooge" not in entities["Ebenezer Scrooge"]["aliases"]
        assert ("Bob Cratchit", "work_for", "Ebenezer Scrooge") not in edges

        # A document naming the alias: its mentions join the entity.
        (corpus / "wages.txt").write_text(NEW_DOC, encoding="utf-8")
        ws.add([corpus / "wages.txt"])
        bob = _entities(ws)["Bob Cratchit"]
        assert "wages.txt" in bob["doc_ids"] and "Robert Cratchit" not in _entities(ws)
        # The renamed entity's document leaves: the rename no longer applies, reported.
        ws.delete(["fred.html"])
        (corpus / "fred.html").unlink()
        states = {s.edit.n: s for s in ws.curation.edits()}
        assert states[3].applied is False and "Fred Holywell" in states[3].reason
        assert all(states[n].applied for n in (1, 2, 4, 5))
        # A sync of the folder as it now is changes nothing and keeps every edit.
        ws.index(corpus)
        updated = _tables(ws)
        rows = {r["run_id"]: r for r in _runs(tmp_path / "ws")}
        assert rows[ws.runs.current_id()]["edits_not_applied"] == [3]

    rebuilt = tmp_path / "rebuilt"
    rebuilt.mkdir()
    shutil.copy(tmp_path / "ws" / CURATION_FILE, rebuilt / CURATION_FILE)
    with Workspace(rebuilt) as fresh:
        fresh.index(corpus)
        again = _tables(fresh)
    for name in TABLES:
        assert again[name].equals(updated[name]), name


def _runs(path: Path) -> list[dict[str, object]]:
    result = CliRunner().invoke(build_app(), ["runs", "--json", "-w", str(path)])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def test_a_revert_gives_back_the_graph_before_the_edit(small_workspace: Workspace) -> None:
    ws = small_workspace
    before = _tables(ws)
    merged = ws.curation.merge("Ebenezer Scrooge", ["Jacob Marley"])
    assert "Jacob Marley" not in _entities(ws)
    reverted = ws.curation.revert(merged.edit.n)
    assert reverted.edit.n == merged.edit.n + 1
    after = _tables(ws)
    for name in TABLES:
        assert after[name].equals(before[name]), name
    states = ws.curation.edits()
    assert states[0].reverted_by == reverted.edit.n
    with pytest.raises(InputError, match="reverted already"):
        ws.curation.revert(merged.edit.n)
    with pytest.raises(NotFoundError, match="no edit 9"):
        ws.curation.revert(9)
    with pytest.raises(InputError, match="itself a revert"):
        ws.curation.revert(reverted.edit.n)


def test_an_edit_that_cannot_apply_is_refused_and_changes_nothing(
    small_workspace: Workspace,
) -> None:
    ws = small_workspace
    current = ws.runs.current_id()
    log = ws.path / CURATION_FILE
    refused: list[tuple[object, str]] = [
        (lambda: ws.curation.merge("Ebenezer Scrooge", ["Nobody Atall"]), "no entity named"),
        (lambda: ws.curation.merge("Scrooge", ["Ebenezer Scrooge"]), "one entity twice"),
        (lambda: ws.curation.rename("Tiny Tim", "Bob Cratchit"), "another entity"),
        (lambda: ws.curation.alias_add("Tiny Tim", "tiny tim"), "already names"),
        (lambda: ws.curation.split("Tiny Tim", ["Bob Cratchit"]), "not a name of"),
        (lambda: ws.curation.split("Jacob Marley", ["Marley", "Jacob Marley"]), "nothing of"),
        (lambda: ws.curation.relation_delete("Tiny Tim", "London"), "no edge"),
        (lambda: ws.curation.relation_delete("Tiny Tim", "Bob Cratchit", "owns"), "no 'owns'"),
        (lambda: ws.curation.rename("Tiny Tim", "!!!"), "letters or digits"),
        (lambda: ws.curation.rename("Tiny Tim", "x" * 400), "too long"),
        (lambda: ws.curation.alias_add("Tiny Tim", "Tim \ud800"), "lone surrogate"),
    ]
    for attempt, message in refused:
        with pytest.raises(GraphgateError, match=message):
            attempt()  # type: ignore[operator]
    assert ws.runs.current_id() == current
    assert not log.exists()


def test_a_failed_run_takes_its_edit_back_out(
    small_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = small_workspace
    ws.curation.alias_add("Tiny Tim", "Tim")
    log = (ws.path / CURATION_FILE).read_text()
    current = ws.runs.current_id()

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk full")

    monkeypatch.setattr(ws, "_update", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        ws.curation.rename("Tiny Tim", "Timothy Cratchit")
    assert (ws.path / CURATION_FILE).read_text() == log
    assert ws.runs.current_id() == current


def test_two_editors_at_once_both_land_in_order(small_workspace: Workspace) -> None:
    path = small_workspace.path
    small_workspace.close()
    errors: list[BaseException] = []

    def edit(alias: str) -> None:
        try:
            with Workspace(path) as ws:
                ws.curation.alias_add("Bob Cratchit", alias)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=edit, args=(a,)) for a in ("Bobby", "Mr Cratchit")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with Workspace(path) as ws:
        states = ws.curation.edits()
        assert [s.edit.n for s in states] == [1, 2]
        assert all(s.applied for s in states)
        aliases = _entities(ws)["Bob Cratchit"]["aliases"]
    assert {"Bobby", "Mr Cratchit"} <= set(aliases)  # type: ignore[arg-type]


def test_the_cli_edits_lists_and_reverts(small_workspace: Workspace) -> None:
    runner, app = CliRunner(), build_app()
    ws = str(small_workspace.path)
    small_workspace.close()
    result = runner.invoke(app, ["entity", "alias", "add", "Tiny Tim", "Tim", "-w", ws, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcome"]["applied"] is True
    result = runner.invoke(app, ["entity", "merge", "Tiny Tim", "Nobody Atall", "-w", ws])
    assert result.exit_code == 2 and "no entity named 'Nobody Atall'" in result.output
    result = runner.invoke(app, ["entity", "show", "Tim", "-w", ws, "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["name"] == "Tiny Tim"
    result = runner.invoke(app, ["relation", "delete", "Tiny Tim", "Bob Cratchit", "-w", ws, "-q"])
    assert result.exit_code == 0 and "edit 2: delete every edge" in result.output
    result = runner.invoke(app, ["curation", "revert", "1", "-w", ws, "-q"])
    assert result.exit_code == 0, result.output
    listed = json.loads(runner.invoke(app, ["curation", "list", "-w", ws, "--json"]).stdout)
    assert [(e["n"], e["op"], e["reverted_by"]) for e in listed] == [
        (1, "alias_add", 3),
        (2, "relation_delete", None),
        (3, "revert", None),
    ]
    (Path(ws) / CURATION_FILE).write_text("{broken\n")
    result = runner.invoke(app, ["curation", "list", "-w", ws])
    assert result.exit_code == 2 and "line 1: not JSON" in result.output
