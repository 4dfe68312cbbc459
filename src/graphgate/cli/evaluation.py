"""Evaluation commands: ``eval`` (run, resume, report) and ``testset generate``."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from graphgate.app.workspace import Workspace
from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors, shown
from graphgate.core.errors import InputError
from graphgate.core.inputs import output_file
from graphgate.core.modes import DEFAULT_EVAL_MODES, modes_help, parse_modes
from graphgate.evaluate.harness import SUMMARY, read_results
from graphgate.evaluate.records import EvalRecord, EvalSummary, parse_summary
from graphgate.evaluate.report import html_report, print_report


class _RunByDefault(TyperGroup):
    """``graphgate eval TESTSET`` means ``graphgate eval run TESTSET``; ``eval report DIR``
    stays a command of its own."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in {"--help", "-h"}:
            args = ["run", *args]
        return super().parse_args(ctx, args)


def register(app: typer.Typer) -> None:
    evaluation = typer.Typer(
        cls=_RunByDefault,
        no_args_is_help=True,
        help="Evaluate retrieval and answers: `eval TESTSET` (= `eval run`), `eval report DIR`.",
    )
    evaluation.command("run")(eval_command)
    evaluation.command("report")(report_command)
    app.add_typer(evaluation, name="eval")
    testset = typer.Typer(help="Test sets generated from the graph.", no_args_is_help=True)
    testset.command("generate")(generate_command)
    testset.command("convert")(convert_command)
    app.add_typer(testset, name="testset")


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
HtmlOpt = Annotated[Path | None, typer.Option(help="Also write a self-contained HTML report.")]
StrictOpt = Annotated[bool, typer.Option(help="Exit 1 unless the overall verdict is PASS.")]


def eval_command(
    testset: Annotated[Path, typer.Argument(help="A test-set JSONL.")],
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
    html: HtmlOpt = None,
    strict: StrictOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Score retrieval and answers per question type and mode."""
    with errors():
        if html is not None:
            output_file(html, "the HTML report")
        summary, records = _run(testset, workspace, modes, out, resume, live=not json_out)
        _show(summary, records, html, json_out)
    if strict and summary["overall_verdict"] != "PASS":
        raise typer.Exit(1)


def report_command(
    folder: Annotated[Path, typer.Argument(help="The folder of a finished evaluation.")],
    html: HtmlOpt = None,
    strict: StrictOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Print (and render) the report of a finished evaluation."""
    with errors():
        if html is not None:
            output_file(html, "the HTML report")
        summary, records = _load_report(folder)
        _show(summary, records, html, json_out)
    if strict and summary["overall_verdict"] != "PASS":
        raise typer.Exit(1)


def _show(
    summary: EvalSummary, records: list[EvalRecord], html: Path | None, json_out: bool
) -> None:
    if json_out:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print_report(summary, console())
    if html is not None:
        html.write_text(html_report(summary, records), encoding="utf-8")
        console(stderr=True).print(f"HTML report: {shown(html)}")


def _load_report(folder: Path) -> tuple[EvalSummary, list[EvalRecord]]:
    if not (folder / SUMMARY).exists():
        raise InputError(
            f"no {SUMMARY} in {folder}", "run `graphgate eval TESTSET --out DIR` first"
        )
    path = folder / SUMMARY
    return parse_summary(path.read_text(encoding="utf-8"), str(path)), read_results(folder)


def _run(
    testset: Path,
    workspace: Path,
    modes: str,
    out: Path | None,
    resume: Path | None,
    live: bool = True,
) -> tuple[EvalSummary, list[EvalRecord]]:
    if out is None and resume is None:
        raise InputError("no output folder", "pass --out DIR (or --resume DIR)")
    if out is not None and resume is not None and out != resume:
        raise InputError("--out and --resume name different folders", "give one of them")
    folder = resume or out
    assert folder is not None
    mode_list = parse_modes(modes)
    err = console(stderr=True)
    with Workspace(workspace) as ws:

        def show(record: EvalRecord) -> None:
            m = record["metrics"]
            recall = m.get("doc_recall@5")
            err.print(
                shown(
                    f"{record['case_id']} {record['mode']:>7} {record['failure'] or '-':>24} "
                    f"recall@5={'—' if recall is None else f'{recall:.2f}'}"
                )
            )

        # One line a case, for people watching.
        progress = show if live and sys.stderr.isatty() else None
        outcome = ws.evaluate(
            testset, mode_list, folder, resume=resume is not None, progress=progress
        )
    return outcome.summary, outcome.records


def generate_command(
    n: Annotated[int, typer.Option("--n", help="Number of cases.")] = 200,
    out: Annotated[Path, typer.Option(help="Where to write the JSONL test set.")] = Path(
        "generated.jsonl"
    ),
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    seed: Annotated[int | None, typer.Option(help="Seed (default: the workspace seed).")] = None,
    structured: Annotated[
        bool,
        typer.Option(help="Also counting and listing questions, gold computed by Cypher."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Template questions with ground-truth answers, entities, edges and documents."""
    from graphgate.evaluate.generate import TestsetGenerator
    from graphgate.evaluate.testset import write_testset

    with errors(), Workspace(workspace) as ws:
        generator = TestsetGenerator(ws.loaded(), ws.settings.seed if seed is None else seed)
        cases = generator.generate(n, structured)
        write_testset(cases, out)
    counts: dict[str, int] = {}
    for case in cases:
        counts[case.question_type] = counts.get(case.question_type, 0) + 1
    if json_out:
        print(json.dumps({"cases": len(cases), "out": str(out), "by_type": counts}, indent=2))
        return
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
    json_out: JsonOpt = False,
) -> None:
    """Convert a public benchmark into a corpus to index and a test set to evaluate."""
    from graphgate.datasets import CONVERTERS

    with errors():
        if dataset not in CONVERTERS:
            raise InputError(f"unknown dataset {dataset!r}", f"use one of {sorted(CONVERTERS)}")
        result = CONVERTERS[dataset](path, out)
    if json_out:
        print(json.dumps(dataclasses.asdict(result), indent=2, default=str))
        return
    console().print(
        shown(
            f"{result.documents} documents -> {result.corpus}; {result.cases} cases -> "
            f"{result.questions}" + (f" ({result.skipped} skipped)" if result.skipped else "")
        )
    )
