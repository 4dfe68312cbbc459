"""Helpers every command shares: consoles, error handling, progress bars."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from graphgate.errors import GraphgateError
from graphgate.index.pipeline import Advance

WorkspaceOpt = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace folder (config, graph, runs).")
]
DEFAULT_WORKSPACE = Path(".graphgate")


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


@contextmanager
def errors() -> Iterator[None]:
    """Known problems become one clear line and exit code 2, never a traceback."""
    try:
        yield
    except GraphgateError as exc:
        console(stderr=True).print(f"[bold red]error:[/] {exc.problem}")
        if exc.fix:
            console(stderr=True).print(f"[yellow]fix:[/] {exc.fix}")
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
