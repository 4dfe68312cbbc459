"""Engine commands: index, query, status, runs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from graphgate.app.history import RunOverview, runs_overview
from graphgate.app.workspace import Workspace
from graphgate.app.workspace_lock import WriterInfo
from graphgate.cli.common import (
    DEFAULT_WORKSPACE,
    WorkspaceOpt,
    console,
    errors,
    progress_bars,
    shown,
)
from graphgate.core.errors import InputError
from graphgate.core.inputs import read_questions, read_text_file
from graphgate.core.modes import check_mode, modes_help
from graphgate.index.pipeline import IndexReport, ProgressFactory
from graphgate.query.base import Answer
from graphgate.query.events import AnswerText, QueryEvents, Retrieved


def changes_line(changes: dict[str, Any]) -> str:
    """ "+2 added, ~1 changed, -1 removed, 40 unchanged" from a run's recorded changes (the
    ids, or their counts as the run list gives them)."""

    def count(key: str) -> int:
        value = changes.get(key, 0)
        return len(value) if isinstance(value, list) else int(value)

    return (
        f"+{count('added')} added, ~{count('changed')} changed, "
        f"-{count('removed')} removed, {count('unchanged')} unchanged"
    )


class OnError(StrEnum):
    skip = "skip"
    fail = "fail"


def register(app: typer.Typer) -> None:
    for command in (index, add, delete, query, status):
        app.command()(command)
    runs_app = typer.Typer(help="Index runs: list and prune.", invoke_without_command=True)
    runs_app.callback()(runs)
    runs_app.command("prune")(prune)
    app.add_typer(runs_app, name="runs")


ExecutorOpt = Annotated[
    str | None,
    typer.Option(
        help="Where extraction and embeddings run: local, ray, or ray://HOST:PORT (a Ray "
        "cluster; needs graphgate[ray]). [config: index.executor]"
    ),
]

ExtractionsOpt = Annotated[
    Path | None,
    typer.Option(
        help="Import these extractions instead of extracting: graphgate JSONL (doc_id, "
        "entities, relations) or HippoRAG OpenIE JSON. [config: extract.extractor = import, "
        "extract.import_path]"
    ),
]


def index(
    corpus: Annotated[
        Path, typer.Argument(help="A folder of .txt/.md/.html files or a .jsonl file.")
    ],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    on_error: Annotated[
        OnError | None,
        typer.Option(help="skip: report unreadable files and go on; fail: stop. [config: skip]"),
    ] = None,
    pipeline: Annotated[str, typer.Option(help="graph (default) or vector (baseline).")] = "graph",
    json_out: Annotated[bool, typer.Option("--json", help="Print the run report as JSON.")] = False,
    gold_triples: Annotated[
        Path | None, typer.Option(help="Gold triples (JSONL) for the IE QA gate.")
    ] = None,
    extractor: Annotated[str | None, typer.Option(help="nlp (default) or llm.")] = None,
    extractions: ExtractionsOpt = None,
    estimate: Annotated[
        bool,
        typer.Option(help="Print the LLM calls, tokens and cost it would take; index nothing."),
    ] = False,
    no_cache: Annotated[bool, typer.Option(help="Bypass the LLM response cache.")] = False,
    full: Annotated[
        bool, typer.Option(help="Recompute everything instead of reusing indexed content.")
    ] = False,
    executor: ExecutorOpt = None,
) -> None:
    """Make the index equal to CORPUS in a new run (it becomes current only when complete):
    documents are matched by id and content, unchanged content is reused, documents gone from
    CORPUS are removed."""
    overrides: dict[str, Any] = {} if on_error is None else {"load": {"on_error": on_error.value}}
    if extractor is not None:
        overrides["extract"] = {"extractor": extractor}
    overrides |= _imported(extractions)
    if no_cache:
        overrides["llm"] = {"cache": False}
    if executor is not None:
        overrides["index"] = {"executor": executor}
    if estimate:
        with errors(), Workspace(workspace, **overrides) as ws:
            numbers = ws.estimate(corpus)
        print(json.dumps(numbers, indent=2))
        return
    with (
        errors(),
        Workspace(workspace, on_write_wait=_tell_waiting, **overrides) as ws,
        progress_bars(not json_out and sys.stderr.isatty()) as progress,
    ):
        report = ws.index(
            corpus, pipeline=pipeline, progress=progress, gold_triples=gold_triples, full=full
        )
    _print_report(report, json_out)


def add(
    paths: Annotated[
        list[Path], typer.Argument(help="Files, folders or .jsonl files of documents to add.")
    ],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print the run report as JSON.")] = False,
    executor: ExecutorOpt = None,
    extractions: ExtractionsOpt = None,
) -> None:
    """Add documents (a document whose id is indexed already is replaced) in a new run; only the
    new content is extracted and embedded."""
    overrides: dict[str, Any] = {} if executor is None else {"index": {"executor": executor}}
    overrides |= _imported(extractions)
    _update(workspace, json_out, lambda ws, progress: ws.add(paths, progress=progress), overrides)


def _imported(extractions: Path | None) -> dict[str, Any]:
    """``--extractions FILE``: the import extractor over that file."""
    if extractions is None:
        return {}
    return {"extract": {"extractor": "import", "import_path": str(extractions.resolve())}}


def delete(
    doc_ids: Annotated[list[str], typer.Argument(help="Ids of the documents to remove.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print the run report as JSON.")] = False,
) -> None:
    """Remove documents in a new run: their chunks, the entities and edges only they support,
    and the communities and reports they changed."""
    _update(workspace, json_out, lambda ws, progress: ws.delete(doc_ids, progress=progress))


def _update(
    workspace: Path,
    json_out: bool,
    change: Callable[[Workspace, ProgressFactory], IndexReport],
    overrides: dict[str, Any] | None = None,
) -> None:
    """One update of the workspace (add or delete), with progress bars, then its report."""
    with (
        errors(),
        Workspace(workspace, on_write_wait=_tell_waiting, **(overrides or {})) as ws,
        progress_bars(not json_out and sys.stderr.isatty()) as progress,
    ):
        report = change(ws, progress)
    _print_report(report, json_out)


def _tell_waiting(holder: WriterInfo) -> None:
    """Said once, on stderr, when another writer holds the workspace."""
    console(stderr=True).print(
        f"[yellow]waiting[/] for another write to finish: {shown(holder.describe())}"
    )


def _print_report(report: IndexReport, json_out: bool) -> None:
    err = console(stderr=True)
    for p in report.problems:
        err.print(  # one line however long the path: it is copied, not read across a break
            f"[yellow]skipped[/] {shown(p['source'])}: {shown(p['problem'])} — {shown(p['fix'])}",
            soft_wrap=True,
        )
    if json_out:
        print(
            json.dumps(
                {
                    "run_id": report.run_id,
                    "new_run": report.new_run,
                    "pipeline": report.pipeline,
                    "seconds": round(report.seconds, 3),
                    "counts": report.counts,
                    "changes": report.changes,
                    "problems": report.problems,
                    "stages": [s.as_dict() for s in report.stages],
                },
                indent=2,
            )
        )
        return
    if not report.new_run:
        out = console()
        out.print(f"nothing changed: run {shown(report.run_id)} stays current")
        if report.changes:
            out.print("documents: " + changes_line(report.changes))
        return
    table = Table(title=f"run {report.run_id} ({report.pipeline})")
    table.add_column("stage")
    table.add_column("seconds", justify="right")
    table.add_column("peak RSS MB", justify="right")
    table.add_column("rows")
    for s in report.stages:
        table.add_row(
            s.name,
            f"{s.seconds:.2f}",
            "" if s.peak_rss_mb is None else f"{s.peak_rss_mb:.0f}",
            shown(", ".join(f"{k}={v}" for k, v in s.rows.items())),
        )
    out = console()
    out.print(table)
    out.print("graph: " + shown(", ".join(f"{k}={v}" for k, v in report.counts.items())))
    if report.changes:
        out.print("documents: " + changes_line(report.changes))


def _mode_option(value: str | None) -> str | None:
    """--mode checked against the registry, as a usage error naming the modes."""
    try:
        return check_mode(value)
    except InputError as exc:
        raise typer.BadParameter(f"{exc.problem}; {exc.fix}") from exc


def query(
    question: Annotated[str | None, typer.Argument(help="The question.")] = None,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    mode: Annotated[
        str | None,
        typer.Option(
            callback=_mode_option, help=f"Retrieval mode: {modes_help()}. [config: query.mode]"
        ),
    ] = None,
    top_k: Annotated[int | None, typer.Option(help="Chunks to retrieve (1-100).")] = None,
    batch: Annotated[
        Path | None, typer.Option(help="One question a line, or test-set JSONL.")
    ] = None,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="Answer for this date (2016, 2016-03, 2016-03-31, 'March 2016'); default: the "
            "time the question names, if any.",
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    stream: Annotated[
        bool,
        typer.Option(
            "--stream",
            help="Print the answer as it is written (with --json: one JSON event a line: "
            "retrieval, text, answer).",
        ),
    ] = False,
) -> None:
    """Answer a question (or a file of them) from the current run, with citations."""
    if (question is None) == (batch is None):
        console(stderr=True).print("[bold red]error:[/] give a QUESTION or --batch FILE")
        raise typer.Exit(2)
    if stream and batch is not None:
        console(stderr=True).print("[bold red]error:[/] --stream answers one QUESTION")
        raise typer.Exit(2)
    if stream:
        assert question is not None
        with errors(), Workspace(workspace) as ws:
            _print_stream(ws.query_stream(question, mode, top_k, as_of), json_out)
        return
    with errors(), Workspace(workspace) as ws:
        if batch is not None:
            lines = read_text_file(batch, "question file").splitlines()
            # Every line is checked before any is answered.
            questions = read_questions(lines, ws.settings.query.max_question_chars, str(batch))
            for qid, q in questions:
                row: dict[str, Any] = ws.query(q, mode, top_k, as_of).to_dict()
                if qid is not None:
                    row = {"id": qid, **row}
                print(json.dumps(row, ensure_ascii=False), flush=True)
            return
        assert question is not None
        answer = ws.query(question, mode, top_k, as_of)
    if json_out:
        print(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
        return
    out = console()
    out.print(f"[bold]Q ({answer.mode}):[/] {shown(answer.question)}")
    out.print(shown(answer.answer))
    _print_citations(answer)


def _print_citations(answer: Answer) -> None:
    out = console()
    for c in answer.citations:
        where = f"{c.place()}, chars {c.start}-{c.end}"
        out.print(shown(f"  [{c.marker}] {where} (chunk {c.chunk_id})"))
    out.print(f"[dim]{answer.timings_ms['total']:.0f} ms[/]")


def _print_stream(events: QueryEvents, json_out: bool) -> None:
    """The answer's pieces as they come (or, with ``json_out``, each event as a JSON line)."""
    out = console()
    for event in events:
        if isinstance(event, Retrieved):
            if json_out:
                row = {"event": "retrieval", **event.retrieval.to_dict()}
                print(json.dumps(row, ensure_ascii=False), flush=True)
            else:
                r = event.retrieval
                out.print(f"[bold]Q ({r.mode}):[/] {shown(r.question)}")
        elif isinstance(event, AnswerText):
            if json_out:
                print(json.dumps({"event": "text", "text": event.text}), flush=True)
            else:
                out.print(shown(event.text), end="", soft_wrap=True)
        elif json_out:
            row = {"event": "answer", **event.answer.to_dict()}
            print(json.dumps(row, ensure_ascii=False), flush=True)
        else:
            out.print()
            _print_citations(event.answer)


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
        out.print(shown(f"workspace {st.workspace}  run {st.current_run}  ({st.runs} runs)"))
        out.print("counts: " + shown(", ".join(f"{k}={v}" for k, v in st.counts.items())))
        out.print(f"embedding: {shown(st.embedding)}")
        if st.store:
            where = ", ".join(f"{k} {v}" for k, v in st.store.items() if k != "backend")
            out.print(shown(f"store: {st.store.get('backend')} ({where})"))
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
        out.print("healthy" if st.healthy else f"[red]unhealthy:[/] {shown(st.problems)}")
    if not st.healthy:
        raise typer.Exit(1)


def runs(
    ctx: typer.Context,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List index runs with their state (running, complete, failed, interrupted) and gate
    verdict."""
    if ctx.invoked_subcommand is not None:
        return
    with errors(), Workspace(workspace) as ws:
        rows = runs_overview(ws.runs)
    if json_out:
        print(json.dumps(rows, indent=2))
        return
    table = Table()
    curated = any(row["curation"] for row in rows)  # the column only where there are edits
    columns = ("run", "status", "pipeline", "seconds", "gates", "current", "edits", "built from")
    for col in columns:
        if col != "edits" or curated:
            table.add_column(col)
    for row in rows:
        changes = row["changes"]
        built = shown(row["origin"] or "index")
        if row["parent_run"]:
            built += f" on {shown(row['parent_run'])}"
        if changes and not (row["origin"] or "").startswith("curation"):
            built += ": " + changes_line(changes)
        table.add_row(
            shown(row["run_id"]),
            str(row["status"]),
            shown(row["pipeline"] or ""),
            "" if row["seconds"] is None else str(row["seconds"]),
            str(row["verdict"] or ""),
            "*" if row["current"] else "",
            *([_edits(row)] if curated else []),
            built,
        )
    console().print(table)


def _edits(row: RunOverview) -> str:
    """The curation a run was built with (edits 1 to n: "6"), and the edits not applied."""
    if not row["curation"]:
        return ""
    missed = ", ".join(map(str, row["edits_not_applied"]))
    return f"{row['curation']}" + (f" ({missed} not applied)" if missed else "")


def prune(
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    keep: Annotated[
        int | None,
        typer.Option(min=1, help="Complete runs to keep besides current and baseline. [config]"),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Remove interrupted and failed runs, and complete runs beyond --keep (runs.keep).
    The current run and the baseline are never removed."""
    overrides: dict[str, Any] = {} if keep is None else {"runs": {"keep": keep}}
    with errors(), Workspace(workspace, **overrides) as ws:
        removed = ws.prune_runs()
    if json_out:
        print(json.dumps({"removed": removed}, indent=2))
        return
    console().print(
        f"removed {len(removed)} runs" + (": " + shown(", ".join(removed)) if removed else "")
    )
