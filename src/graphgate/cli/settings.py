"""``graphgate settings``: the settings reference, made from the settings model."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from graphgate.cli.common import console, shown
from graphgate.core.settings_reference import (
    reference_json,
    reference_markdown,
    settings_reference,
)


def register(app: typer.Typer) -> None:
    app.command("settings")(settings)


def settings(
    json_out: Annotated[bool, typer.Option("--json", help="Print the reference as JSON.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print it as Markdown (docs/settings.md).")
    ] = False,
) -> None:
    """Every setting: key, type, default, bounds, environment variable and what it does."""
    if json_out:
        print(reference_json(), end="")
        return
    if markdown:
        print(reference_markdown(), end="")
        return
    out = console()
    for doc in settings_reference():
        default = json.dumps(doc.default, ensure_ascii=False)
        out.print(f"[bold]{shown(doc.key)}[/] = {shown(default)}  [dim]{shown(doc.type)}[/]")
        out.print(f"    {shown(doc.description)}", highlight=False)
