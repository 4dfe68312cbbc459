"""``graphgate cypher``: read-only Cypher against the current run's graph."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from graphgate.app.workspace import Workspace
from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors, shown
from graphgate.query.cypher_guard import graph_schema, parse_param


def register(app: typer.Typer) -> None:
    app.command("cypher")(cypher)


def cypher(
    query: Annotated[str, typer.Argument(help="One read query: MATCH … RETURN ….")] = "",
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A parameter: name=value (JSON).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    schema: Annotated[
        bool, typer.Option("--schema", help="Print the graph's labels, edges and properties.")
    ] = False,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
) -> None:
    """Run a read-only Cypher query on the current run's graph (writes, loads and procedures
    off the read list are refused; query.cypher_max_rows and cypher_timeout_s apply)."""
    if schema:
        print(json.dumps(graph_schema(), indent=2))
        return
    with errors(), Workspace(workspace) as ws:
        params = dict(parse_param(p) for p in param or [])
        result = ws.cypher(query, params)
    if json_out:
        print(json.dumps(result.to_dict(), indent=2, default=str))
        return
    table = Table(*[shown(c) for c in result.columns])
    for row in result.rows:
        table.add_row(*[shown(row[c]) for c in result.columns])
    out = console()
    out.print(table)
    more = f" (cut at query.cypher_max_rows = {len(result.rows)})" if result.truncated else ""
    out.print(f"[dim]{len(result.rows)} rows{more}, {result.seconds * 1000:.0f} ms[/]")
