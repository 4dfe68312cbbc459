"""``graphgate gates``: the eight quality gates on a run, against a baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from graphgate.app.workspace import Workspace
from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors, shown
from graphgate.gates.base import FAIL, WARN
from graphgate.gates.runner import GatesReport

_COLOURS = {"PASS": "green", "WARN": "yellow", "FAIL": "red", "UNMEASURED": "dim"}


def register(app: typer.Typer) -> None:
    gates = typer.Typer(help="Quality gates over index runs.", invoke_without_command=True)
    gates.callback()(gates_command)
    baseline = typer.Typer(help="The run other runs are compared with.", no_args_is_help=True)
    baseline.command("set")(baseline_set)
    gates.add_typer(baseline, name="baseline")
    gates.command("calibrate")(calibrate)
    gates.command("sensitivity")(sensitivity)
    app.add_typer(gates, name="gates")


def gates_command(
    ctx: typer.Context,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    run: Annotated[str | None, typer.Option(help="Run id (default: the current run).")] = None,
    baseline: Annotated[str | None, typer.Option(help="Run id to compare with.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    strict: Annotated[bool, typer.Option(help="WARN fails the exit code too.")] = False,
) -> None:
    """All gates on a run: a table and a verdict; exit 1 on FAIL (or WARN with --strict)."""
    if ctx.invoked_subcommand is not None:
        return
    with errors(), Workspace(workspace) as ws:
        report = ws.gates(run, baseline)
    if json_out:
        print(json.dumps(report.as_dict(), indent=2, sort_keys=True, default=str))
    else:
        print_gates(report)
    if report.verdict == FAIL or (strict and report.verdict == WARN):
        raise typer.Exit(1)


def baseline_set(
    run_id: Annotated[str, typer.Argument(help="The run to accept as the baseline.")],
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Accept a complete run as the baseline."""
    with errors(), Workspace(workspace) as ws:
        ws.set_baseline(run_id)
    if json_out:
        print(json.dumps({"baseline": run_id}))
        return
    console().print(f"baseline: {shown(run_id)}")


def calibrate(
    seeds: Annotated[int, typer.Option(min=1, help="Seeds to index the current run under.")] = 3,
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Index the baseline's documents (else the current run's) again under other seeds with the
    same settings, so each gate metric gets a band of what chance moves it; the current run
    stays current, and the baseline is judged again by that history."""
    with errors(), Workspace(workspace) as ws:
        made, report = ws.calibrate_gates(seeds)
    if json_out:
        print(json.dumps({"runs": made, "gates": report.as_dict()}, indent=2, default=str))
        return
    console().print(f"calibration runs: {shown(', '.join(made))}")
    print_gates(report)


def sensitivity(
    corpus: Annotated[Path, typer.Argument(help="The corpus to inject regressions into.")],
    into: Annotated[
        Path, typer.Option(help="A new folder for the check's workspace (never one in use).")
    ],
    testset: Annotated[
        Path | None, typer.Option(help="Questions, so the Gen gate is judged too.")
    ] = None,
    seeds: Annotated[
        int, typer.Option(min=0, help="Calibration seeds (0: judged by the fixed rules).")
    ] = 3,
    only: Annotated[
        list[str] | None, typer.Option(help="An injection by name (repeat; default: all).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Do the gates catch what they exist to catch on this corpus? Index it as a baseline,
    then two controls and each injected regression alone, judged against it; print the
    confusion table. Exit 1 when a regression goes unflagged or a control is flagged."""
    from graphgate.app.sensitivity import chosen_injections, gate_sensitivity

    out = console()
    with errors():
        chosen = chosen_injections(only or [])
        report = gate_sensitivity(
            into,
            corpus,
            chosen,
            seeds,
            testset,
            told=(lambda step: None) if json_out else (lambda step: out.print(f"… {step}")),
        )
    if json_out:
        print(json.dumps(report.as_dict(), indent=2, default=str))
    else:
        out.print(report.thresholds, markup=False)
        print(report.table())
        out.print(report.summary(), markup=False)
    missed = [r for r in report.rows if not r.no_effect and not r.caught]
    if missed:
        raise typer.Exit(1)


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.4g}"


def print_gates(report: GatesReport) -> None:
    out = console()
    title = f"gates on run {report.run_id}"
    if report.baseline_id:
        title += f" (baseline {report.baseline_id})"
    table = Table(title=title)
    for column in ("gate", "metric", "value", "verdict", "why"):
        table.add_column(column)
    for result in report.results:
        first = True
        for name, value in result.metrics.items():
            verdict = result.verdicts.get(name, "")
            colour = _COLOURS.get(verdict, "white")
            table.add_row(
                f"[bold]{result.gate}[/] [{_COLOURS[result.verdict]}]{result.verdict}[/]"
                if first
                else "",
                name,
                _fmt(value),
                f"[{colour}]{verdict}[/]" if verdict else "",
                shown(result.reasons.get(name, "")),
            )
            first = False
    out.print(table)
    for note in report.notes:
        out.print(f"[yellow]note:[/] {shown(note)}")
    out.print(f"verdict: [{_COLOURS[report.verdict]}]{report.verdict}[/]")
