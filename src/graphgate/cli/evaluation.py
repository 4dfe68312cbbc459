"""Evaluation commands: ``eval`` (run, resume, report) and ``testset generate``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors, shown
from graphgate.errors import InputError
from graphgate.evaluate.harness import SUMMARY, read_results
from graphgate.evaluate.report import html_report, print_report
from graphgate.inputs import output_file
from graphgate.modes import DEFAULT_EVAL_MODES, modes_help, parse_modes
from graphgate.workspace import Workspace


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
    testset = typer.Typer(help="Test sets generated from the graph.", no_args_is_help=True)
    testset.command("generate")(generate_command)
    testset.command("convert")(convert_command)
    app.add_typer(testset, name="testset")


def eval_command(
    target: Annotated[str, typer.Argument(help="A test-set JSONL, or `report`.")],
    report_dir: Annotated[
        Path | None, typer.Argument(help="With `report`: the eval folder.")
    ] = None,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    modes: Annotated[
        str, typer.Option(help=f"Comma-separated retrieval modes: {modes_help()}.")
    ] = ",".join(DEFAULT_EVAL_MODES),
    out: Annotated[
        Path | None, typer.Option(help="Folder for results.jsonl and summary.json.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the evaluation in this folder.")
    ] = None,
    html: Annotated[
        Path | None, typer.Option(help="Also write a self-contained HTML report.")
    ] = None,
    strict: Annotated[
        bool, typer.Option(help="Exit 1 unless the overall verdict is PASS.")
    ] = False,
) -> None:
    """Score retrieval and answers per question type and mode; `eval report DIR` re-prints."""
    with errors():
        if html is not None:
            output_file(html, "the HTML report")
        if target == "report":
            if report_dir is None:
                raise InputError(
                    "`eval report` needs the eval folder", "graphgate eval report eval/"
                )
            summary, records = _load_report(report_dir)
        else:
            summary, records = _run(Path(target), workspace, modes, out, resume)
        print_report(summary, console())
        if html is not None:
            html.write_text(html_report(summary, records), encoding="utf-8")
            console(stderr=True).print(f"HTML report: {shown(html)}")
    if strict and summary["overall_verdict"] != "PASS":
        raise typer.Exit(1)


def _load_report(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if not (folder / SUMMARY).exists():
        raise InputError(
            f"no {SUMMARY} in {folder}", "run `graphgate eval TESTSET --out DIR` first"
        )
    return json.loads((folder / SUMMARY).read_text()), read_results(folder)


def _run(
    testset: Path, workspace: Path, modes: str, out: Path | None, resume: Path | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if out is None and resume is None:
        raise InputError("no output folder", "pass --out DIR (or --resume DIR)")
    if out is not None and resume is not None and out != resume:
        raise InputError("--out and --resume name different folders", "give one of them")
    folder = resume or out
    assert folder is not None
    mode_list = parse_modes(modes)
    err = console(stderr=True)
    with Workspace(workspace) as ws:

        def show(record: dict[str, Any]) -> None:
            m = record["metrics"]
            recall = m.get("doc_recall@5")
            err.print(
                shown(
                    f"{record['case_id']} {record['mode']:>7} {record['failure'] or '-':>24} "
                    f"recall@5={'—' if recall is None else f'{recall:.2f}'}"
                )
            )

        live = show if sys.stderr.isatty() else None  # one line a case, for people watching
        outcome = ws.evaluate(testset, mode_list, folder, resume=resume is not None, progress=live)
    return outcome.summary, outcome.records


def generate_command(
    n: Annotated[int, typer.Option("--n", help="Number of cases.")] = 200,
    out: Annotated[Path, typer.Option(help="Where to write the JSONL test set.")] = Path(
        "generated.jsonl"
    ),
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    seed: Annotated[int | None, typer.Option(help="Seed (default: the workspace seed).")] = None,
) -> None:
    """Template questions with ground-truth answers, entities, edges and documents."""
    from graphgate.evaluate.generate import TestsetGenerator
    from graphgate.evaluate.testset import write_testset

    with errors(), Workspace(workspace) as ws:
        generator = TestsetGenerator(ws.loaded(), ws.settings.seed if seed is None else seed)
        cases = generator.generate(n)
        write_testset(cases, out)
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.question_type] = counts.get(case.question_type, 0) + 1
    console().print(
        shown(
            f"wrote {len(cases)} cases to {out}: "
            + ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))
        )
    )


def convert_command(
    dataset: Annotated[str, typer.Argument(help="hotpotqa, graphrag-bench, timeqa or ramdocs.")],
    path: Annotated[Path, typer.Argument(help="The dataset's folder or file.")],
    out: Annotated[Path, typer.Option(help="Folder for corpus.jsonl and testset.jsonl.")],
) -> None:
    """Convert a public benchmark into a corpus to index and a test set to evaluate."""
    from graphgate.datasets import CONVERTERS

    with errors():
        if dataset not in CONVERTERS:
            raise InputError(f"unknown dataset {dataset!r}", f"use one of {sorted(CONVERTERS)}")
        result = CONVERTERS[dataset](path, out)
    console().print(
        shown(
            f"{result.documents} documents -> {result.corpus}; {result.cases} cases -> "
            f"{result.questions}" + (f" ({result.skipped} skipped)" if result.skipped else "")
        )
    )
