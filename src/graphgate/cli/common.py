"""Helpers every command shares: consoles, error handling, progress bars."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from graphgate.core.errors import GraphgateError
from graphgate.index.pipeline import Advance

WorkspaceOpt = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace folder (config, graph, runs).")
]
DEFAULT_WORKSPACE = Path(".graphgate")


# C0 and C1 control characters but newline and tab (ESC starts terminal escape sequences), and
# the bidirectional controls, which show the text after them reversed (U+202E).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, emoji=False)


def shown(text: object) -> str:
    """User text (documents, answers, file names) for a rich console: never markup, never a
    terminal control sequence — brackets are escaped and control characters shown as \\xNN
    (direction controls as \\uNNNN)."""
    return escape(_CONTROL.sub(_escaped, str(text)))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def report_error(problem: str, fix: str = "") -> None:
    err = console(stderr=True)
    # Not wrapped: paths and commands in a message stay whole, to copy and paste.
    err.print(f"[bold red]error:[/] {shown(problem)}", soft_wrap=True)
    if fix:
        err.print(f"[yellow]fix:[/] {shown(fix)}", soft_wrap=True)


@contextmanager
def errors() -> Iterator[None]:
    """Known problems become one clear line and exit code 2, never a traceback."""
    try:
        yield
    except GraphgateError as exc:
        report_error(exc.problem, exc.fix)
        raise typer.Exit(2) from exc


@contextmanager
def progress_bars(enabled: bool) -> Iterator[Callable[[str, int], Advance]]:
    if not enabled:
        yield lambda description, total: lambda n: None
        return
    columns = (
        TextColumn("{task.description:>16}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console(stderr=True), transient=False) as bar:

        def factory(description: str, total: int) -> Advance:
            task = bar.add_task(description, total=total)
            return lambda n: bar.advance(task, n)

        yield factory
