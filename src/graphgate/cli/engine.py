"""Engine commands: index, query, status, runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors, progress_bars
from graphgate.errors import GraphgateError
from graphgate.gates.runner import stored_gates
from graphgate.workspace import Workspace, read_questions


def register(app: typer.Typer) -> None:
    for command in (index, query, status, runs):
        app.command()(command)


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
    gold_triples: Annotated[
        Path | None, typer.Option(help="Gold triples (JSONL) for the IE QA gate.")
    ] = None,
    extractor: Annotated[str | None, typer.Option(help="nlp (default) or llm.")] = None,
    estimate: Annotated[
        bool,
        typer.Option(help="Print the LLM calls, tokens and cost it would take; index nothing."),
    ] = False,
    no_cache: Annotated[bool, typer.Option(help="Bypass the LLM response cache.")] = False,
) -> None:
    """Index a corpus into a new run; it becomes current only when complete."""
    overrides: dict[str, Any] = {} if on_error is None else {"load": {"on_error": on_error}}
    if extractor is not None:
        overrides["extract"] = {"extractor": extractor}
    if no_cache:
        overrides["llm"] = {"cache": False}
    if estimate:
        with errors(), Workspace(workspace, **overrides) as ws:
            numbers = ws.estimate(corpus)
        print(json.dumps(numbers, indent=2))
        return
    with (
        errors(),
        Workspace(workspace, **overrides) as ws,
        progress_bars(not json_out and sys.stderr.isatty()) as progress,
    ):
        report = ws.index(corpus, pipeline=pipeline, progress=progress, gold_triples=gold_triples)
    err = console(stderr=True)
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
    out = console()
    out.print(table)
    out.print("graph: " + ", ".join(f"{k}={v}" for k, v in report.counts.items()))


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
        console(stderr=True).print("[bold red]error:[/] give a QUESTION or --batch FILE")
        raise typer.Exit(2)
    with errors(), Workspace(workspace) as ws:
        if batch is not None:
            if not batch.exists():
                raise GraphgateError(f"question file not found: {batch}", "check the path")
            for qid, q in read_questions(batch.read_text(encoding="utf-8").splitlines()):
                row: dict[str, Any] = ws.query(q, mode, top_k).to_dict()
                if qid is not None:
                    row = {"id": qid, **row}
                print(json.dumps(row, ensure_ascii=False), flush=True)
            return
        assert question is not None
        answer = ws.query(question, mode, top_k)
    if json_out:
        print(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(f"[bold]Q ({answer.mode}):[/] {answer.question}")
    out.print(answer.answer)
    for c in answer.citations:
        out.print(f"  [{c.marker}] {c.doc_id} chars {c.start}-{c.end} (chunk {c.chunk_id})")
    out.print(f"[dim]{answer.timings_ms['total']:.0f} ms[/]")


def status(
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Counts, current run, embedding model and store health."""
    with errors(), Workspace(workspace) as ws:
        st = ws.status()
    if json_out:
        print(json.dumps(st.to_dict(), indent=2))
    else:
        out = console()
        out.print(f"workspace {st.workspace}  run {st.current_run}  ({st.runs} runs)")
        out.print("counts: " + ", ".join(f"{k}={v}" for k, v in st.counts.items()))
        out.print(f"embedding: {st.embedding}")
        if st.llm:
            out.print(
                f"llm: {st.llm['calls']} calls, {st.llm['cached']} cached, "
                f"{st.llm['prompt_tokens']}+{st.llm['completion_tokens']} tokens, "
                f"cost {st.llm['cost']}"
            )
        for level, stats in st.communities.items():
            out.print(
                f"communities level {level}: {stats['count']} "
                f"(mean size {stats['mean_size']}, max {stats['max_size']})"
            )
        out.print("healthy" if st.healthy else f"[red]unhealthy:[/] {st.problems}")
    if not st.healthy:
        raise typer.Exit(1)


def runs(workspace: WorkspaceOpt = DEFAULT_WORKSPACE) -> None:
    """List index runs with their status and gate verdict."""
    with errors(), Workspace(workspace) as ws:
        current = ws.runs.current_id()
        table = Table()
        for col in ("run", "status", "pipeline", "seconds", "gates", "current"):
            table.add_column(col)
        for run in ws.list_runs():
            m = run.manifest()
            table.add_row(
                run.run_id,
                str(m.get("status")),
                str(m.get("pipeline")),
                str(m.get("seconds", "")),
                str((stored_gates(run) or {}).get("verdict", "")),
                "*" if run.run_id == current else "",
            )
    console().print(table)
