"""The command line: thin typer + rich layers over :class:`graphgate.Workspace`."""

from __future__ import annotations

import os
import sys

import typer

from graphgate.cli import curation as curation_commands
from graphgate.cli import cypher as cypher_commands
from graphgate.cli import engine as engine_commands
from graphgate.cli import evaluation as evaluation_commands
from graphgate.cli import gates as gate_commands
from graphgate.cli import serving as serving_commands
from graphgate.cli import settings as settings_commands
from graphgate.cli.common import report_error
from graphgate.core.errors import GraphgateError

# Exit codes: 0 fine, 1 a quality verdict failed, 2 bad input or settings (a message names the
# fix), 3 an unexpected error (a bug: GRAPHGATE_DEBUG=1 shows the traceback).
UNEXPECTED = 3


def build_app() -> typer.Typer:
    app = typer.Typer(
        add_completion=False,
        pretty_exceptions_enable=False,
        no_args_is_help=True,
        help="graphgate: a GraphRAG engine in which every stage is measured.",
    )
    engine_commands.register(app)
    evaluation_commands.register(app)
    gate_commands.register(app)
    serving_commands.register(app)
    cypher_commands.register(app)
    curation_commands.register(app)
    settings_commands.register(app)
    return app


def main() -> None:
    try:
        build_app()()
    except GraphgateError as exc:
        report_error(exc.problem, exc.fix)
        sys.exit(2)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        report_error(f"{exc.strerror or exc}{where}", "check the path and its permissions")
        sys.exit(2)
    except Exception as exc:
        if os.environ.get("GRAPHGATE_DEBUG"):
            raise
        report_error(
            f"unexpected error: {type(exc).__name__}: {exc}",
            "this is a bug: rerun with GRAPHGATE_DEBUG=1 for the traceback and report it",
        )
        sys.exit(UNEXPECTED)
