"""Curation commands: entity merge / rename / split / alias add / show / search, relation
delete, curation list / revert. Each edit is applied by a new run, kept by every later one."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.table import Table

from graphgate.app.curation import CurationReport
from graphgate.app.explore import Explorer
from graphgate.app.workspace import Workspace
from graphgate.cli.common import (
    DEFAULT_WORKSPACE,
    WorkspaceOpt,
    console,
    errors,
    progress_bars,
    shown,
)
from graphgate.core.errors import NotFoundError
from graphgate.core.text import normalise_name
from graphgate.index.pipeline import ProgressFactory

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]


def register(app: typer.Typer) -> None:
    entity = typer.Typer(help="See and correct the graph's entities.", no_args_is_help=True)
    for command in (merge, rename, split, show, search):
        entity.command()(command)
    alias = typer.Typer(help="Names an entity goes by.", no_args_is_help=True)
    alias.command("add")(alias_add)
    entity.add_typer(alias, name="alias")
    app.add_typer(entity, name="entity")
    relation = typer.Typer(help="Correct the graph's relations.", no_args_is_help=True)
    relation.command("delete")(relation_delete)
    app.add_typer(relation, name="relation")
    curation = typer.Typer(help="The edits made to the graph.", no_args_is_help=True)
    curation.command("list")(curation_list)
    curation.command("revert")(curation_revert)
    app.add_typer(curation, name="curation")


def _edit(
    workspace: Any,
    json_out: bool,
    quiet: bool,
    make: Callable[[Workspace, ProgressFactory], CurationReport],
) -> None:
    with errors(), Workspace(workspace) as ws, progress_bars(not (quiet or json_out)) as bars:
        result = make(ws, bars)
    if json_out:
        print(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(f"edit {result.edit.n}: {shown(result.edit.describe())}")
    outcome = result.outcome
    if outcome and not outcome.get("applied"):
        out.print(f"[yellow]not applied:[/] {shown(outcome.get('reason', ''))}")
    elif outcome.get("reason"):
        out.print(f"[yellow]{shown(outcome['reason'])}[/]")
    out.print(f"run {shown(result.report.run_id)} is current")


def merge(
    entity: Annotated[str, typer.Argument(help="The entity that stays (name, alias or id).")],
    others: Annotated[list[str], typer.Argument(help="Entities merged into it.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Merge entities into ENTITY, which keeps its name; theirs become its aliases."""
    _edit(workspace, json_out, quiet, lambda ws, p: ws.curation.merge(entity, others, p))


def rename(
    entity: Annotated[str, typer.Argument(help="The entity (name, alias or id).")],
    name: Annotated[str, typer.Argument(help="Its new name.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Rename an entity; its old name stays an alias."""
    _edit(workspace, json_out, quiet, lambda ws, p: ws.curation.rename(entity, name, p))


def split(
    entity: Annotated[str, typer.Argument(help="The entity (name, alias or id).")],
    names: Annotated[list[str], typer.Argument(help="Its names that become another entity.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Split a wrong merge: the mentions under NAMES become an entity of their own."""
    _edit(workspace, json_out, quiet, lambda ws, p: ws.curation.split(entity, names, p))


def alias_add(
    entity: Annotated[str, typer.Argument(help="The entity (name, alias or id).")],
    alias: Annotated[str, typer.Argument(help="Another name for it.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Add an alias: its mentions, now and in documents added later, and questions naming it
    link to the entity."""
    _edit(workspace, json_out, quiet, lambda ws, p: ws.curation.alias_add(entity, alias, p))


def relation_delete(
    source: Annotated[str, typer.Argument(help="One end (name, alias or id).")],
    target: Annotated[str, typer.Argument(help="The other end.")],
    predicate: Annotated[
        str | None,
        typer.Option(help="Only edges of this predicate, from SOURCE to TARGET (default: all)."),
    ] = None,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Delete the edges between two entities, however often the corpus states them."""
    _edit(
        workspace,
        json_out,
        quiet,
        lambda ws, p: ws.curation.relation_delete(source, target, predicate, p),
    )


def curation_revert(
    n: Annotated[int, typer.Argument(help="The edit's number (graphgate curation list).")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Undo edit N in a new run (the edit stays listed, marked reverted)."""
    _edit(workspace, json_out, quiet, lambda ws, p: ws.curation.revert(n, p))


def curation_list(workspace: WorkspaceOpt = DEFAULT_WORKSPACE, json_out: JsonOpt = False) -> None:
    """Every edit in order, whether it is in force, and how the current run applied it."""
    with errors(), Workspace(workspace) as ws:
        states = ws.curation.edits()
    if json_out:
        print(json.dumps([s.as_dict() for s in states], indent=2, ensure_ascii=False))
        return
    table = Table()
    for col in ("#", "edit", "made", "in the current run"):
        table.add_column(col)
    for s in states:
        if s.edit.op == "revert":
            state = ""
        elif s.reverted_by is not None:
            state = f"reverted by {s.reverted_by}"
        elif s.applied is None:
            state = "not applied yet"
        else:
            state = "applied" if s.applied else "not applied"
        if s.reason:
            state += f": {s.reason}"
        table.add_row(str(s.edit.n), shown(s.edit.describe()), shown(s.edit.at), shown(state))
    console().print(table if states else "no edits")


def show(
    entity: Annotated[str, typer.Argument(help="Name, alias or id.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: JsonOpt = False,
) -> None:
    """An entity of the current run: its names, type, description and edges."""
    with errors(), Workspace(workspace) as ws, ws.holding() as loaded:
        explorer = Explorer(loaded)
        hits = explorer.search_entities(entity, limit=50)
        exact = [
            h
            for h in hits
            if h["id"] == entity or any(_same(n, entity) for n in (h["name"], *h["aliases"]))
        ]
        if not exact:
            raise NotFoundError(
                f"no entity named {entity!r} in the current run",
                "find it with graphgate entity search TEXT",
            )
        view = explorer.entity(exact[0]["id"])
    if json_out:
        print(json.dumps({k: v for k, v in view.items() if k != "graph"}, indent=2))
        return
    out = console()
    out.print(f"[bold]{shown(view['name'])}[/] ({shown(view['type'])}) {shown(view['id'])}")
    if view["aliases"]:
        out.print("aliases: " + shown(", ".join(view["aliases"])))
    out.print(shown(view["description"]))
    for e in view["edges"]:
        out.print(f"  {shown(e['source'])} —{shown(e['predicate'])}→ {shown(e['target'])}")


def search(
    text: Annotated[str, typer.Argument(help="Part of a name.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    limit: Annotated[int, typer.Option(min=1, max=500)] = 20,
    json_out: JsonOpt = False,
) -> None:
    """Entities of the current run whose names match TEXT."""
    with errors(), Workspace(workspace) as ws, ws.holding() as loaded:
        hits = Explorer(loaded).search_entities(text, limit=limit)
    if json_out:
        print(json.dumps(hits, indent=2))
        return
    for h in hits:
        console().print(f"{shown(h['name'])} ({shown(h['type'])}) {shown(h['id'])}")


def _same(name: str, ref: str) -> bool:
    return normalise_name(name) == normalise_name(ref)
