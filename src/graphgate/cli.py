"""The command line: a thin typer + rich layer over :class:`graphgate.Workspace`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graphgate.errors import GraphgateError
from graphgate.index.pipeline import Advance
from graphgate.workspace import Workspace, read_questions

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="graphgate: a GraphRAG engine in which every stage is measured.",
)
WorkspaceOpt = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace folder (config, graph, runs).")
]
DEFAULT_WORKSPACE = Path(".graphgate")


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


@contextmanager
def _errors() -> Iterator[None]:
    """Known problems become one clear line and exit code 2, never a traceback."""
    try:
        yield
    except GraphgateError as exc:
        _console(stderr=True).print(f"[bold red]error:[/] {exc.problem}")
        if exc.fix:
            _console(stderr=True).print(f"[yellow]fix:[/] {exc.fix}")
        raise typer.Exit(2) from exc


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str, int], Advance]]:
    if not enabled:
        yield lambda description, total: lambda n: None
        return
    columns = (
        TextColumn("{task.description:>16}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=_console(stderr=True), transient=False) as bar:

        def factory(description: str, total: int) -> Advance:
            task = bar.add_task(description, total=total)
            return lambda n: bar.advance(task, n)

        yield factory


@app.command()
def index(
    corpus: Annotated[
        Path, typer.Argument(help="A folder of .txt/.md/.html files or a .jsonl file.")
    ],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    on_error: Annotated[
        str | None,
        typer.Option(help="skip: report unreadable files and go on; fail: stop. [config: skip]"),
    ] = None,
    pipeline: Annotated[str, typer.Option(help="graph (default) or vector (baseline).")] = "graph",
    json_out: Annotated[bool, typer.Option("--json", help="Print the run report as JSON.")] = False,
) -> None:
    """Index a corpus into a new run; it becomes current only when complete."""
    overrides: dict[str, Any] = {} if on_error is None else {"load": {"on_error": on_error}}
    with (
        _errors(),
        Workspace(workspace, **overrides) as ws,
        _progress(not json_out and sys.stderr.isatty()) as progress,
    ):
        report = ws.index(corpus, pipeline=pipeline, progress=progress)
    err = _console(stderr=True)
    for p in report.problems:
        err.print(f"[yellow]skipped[/] {p['source']}: {p['problem']} — {p['fix']}")
    if json_out:
        print(
            json.dumps(
                {
                    "run_id": report.run_id,
                    "pipeline": report.pipeline,
                    "seconds": round(report.seconds, 3),
                    "counts": report.counts,
                    "problems": report.problems,
                    "stages": [s.as_dict() for s in report.stages],
                },
                indent=2,
            )
        )
        return
    table = Table(title=f"run {report.run_id} ({report.pipeline})")
    table.add_column("stage")
    table.add_column("seconds", justify="right")
    table.add_column("rows")
    for s in report.stages:
        table.add_row(s.name, f"{s.seconds:.2f}", ", ".join(f"{k}={v}" for k, v in s.rows.items()))
    console = _console()
    console.print(table)
    console.print("graph: " + ", ".join(f"{k}={v}" for k, v in report.counts.items()))


@app.command()
def query(
    question: Annotated[str | None, typer.Argument(help="The question.")] = None,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    mode: Annotated[str | None, typer.Option(help="vector or local.")] = None,
    top_k: Annotated[int | None, typer.Option(help="Chunks to retrieve.")] = None,
    batch: Annotated[
        Path | None, typer.Option(help="One question a line, or test-set JSONL.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Answer a question (or a file of them) from the current run, with citations."""
    if (question is None) == (batch is None):
        _console(stderr=True).print("[bold red]error:[/] give a QUESTION or --batch FILE")
        raise typer.Exit(2)
    with _errors(), Workspace(workspace) as ws:
        if batch is not None:
            if not batch.exists():
                raise GraphgateError(f"question file not found: {batch}", "check the path")
            for qid, q in read_questions(batch.read_text(encoding="utf-8").splitlines()):
                out: dict[str, Any] = ws.query(q, mode, top_k).to_dict()
                if qid is not None:
                    out = {"id": qid, **out}
                print(json.dumps(out, ensure_ascii=False), flush=True)
            return
        assert question is not None
        answer = ws.query(question, mode, top_k)
    if json_out:
        print(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
        return
    console = _console()
    console.print(f"[bold]Q ({answer.mode}):[/] {answer.question}")
    console.print(answer.answer)
    for c in answer.citations:
        console.print(f"  [{c.marker}] {c.doc_id} chars {c.start}-{c.end} (chunk {c.chunk_id})")
    console.print(f"[dim]{answer.timings_ms['total']:.0f} ms[/]")


@app.command()
def status(
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Counts, current run, embedding model and store health."""
    with _errors(), Workspace(workspace) as ws:
        st = ws.status()
    if json_out:
        print(json.dumps(st.to_dict(), indent=2))
    else:
        console = _console()
        console.print(f"workspace {st.workspace}  run {st.current_run}  ({st.runs} runs)")
        console.print("counts: " + ", ".join(f"{k}={v}" for k, v in st.counts.items()))
        console.print(f"embedding: {st.embedding}")
        console.print("healthy" if st.healthy else f"[red]unhealthy:[/] {st.problems}")
    if not st.healthy:
        raise typer.Exit(1)


@app.command()
def runs(workspace: WorkspaceOpt = DEFAULT_WORKSPACE) -> None:
    """List index runs with their status."""
    with _errors(), Workspace(workspace) as ws:
        current = ws.runs.current_id()
        table = Table()
        for col in ("run", "status", "pipeline", "seconds", "current"):
            table.add_column(col)
        for run in ws.list_runs():
            m = run.manifest()
            table.add_row(
                run.run_id,
                str(m.get("status")),
                str(m.get("pipeline")),
                str(m.get("seconds", "")),
                "*" if run.run_id == current else "",
            )
    _console().print(table)


def main() -> None:
    app()
