"""The command line: thin typer + rich layers over :class:`graphgate.Workspace`."""

from __future__ import annotations

import typer

from graphgate.cli import engine as engine_commands
from graphgate.cli import evaluation as evaluation_commands
from graphgate.cli import gates as gate_commands
from graphgate.cli import serving as serving_commands


def build_app() -> typer.Typer:
    app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        help="graphgate: a GraphRAG engine in which every stage is measured.",
    )
    engine_commands.register(app)
    evaluation_commands.register(app)
    gate_commands.register(app)
    serving_commands.register(app)
    return app


def main() -> None:
    build_app()()
