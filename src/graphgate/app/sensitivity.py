"""Do the gates catch what they exist to catch, on this corpus? The corpus indexed as the
baseline, the gates calibrated under a few more seeds, then two controls that must pass (the
same settings again, a seed outside the history) and each injected regression
(gates/injections.py) alone, judged against the baseline; with a test set, the baseline, the
controls and the answerer's regressions are evaluated too, so the Gen gate is judged.

Each run after the baseline reuses the workspace's content caches (what a regression leaves
unchanged is not computed again), except the same-settings control, which recomputes
everything: it is the check that the pipeline gives the same artifacts again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.core.errors import ConfigError, InputError
from graphgate.core.modes import DEFAULT_MODE
from graphgate.core.runs import RunRegistry
from graphgate.embed.base import Embedder
from graphgate.gates.injections import INJECTIONS, Injection
from graphgate.gates.runner import GatesReport
from graphgate.index.stages import PIPELINES

GATES = ("data", "chunk", "ie", "graph", "community", "hierarchy", "summary", "gen")
SAME_SETTINGS = "control: same settings again"
ANOTHER_SEED = "control: another seed"
# What the gates judge, compared to tell a regression with no effect on a corpus (documents by
# id and content: a version counts the changes a document went through, here the injections').
JUDGED = ("chunks", "mentions", "entities", "relationships", "communities", "community_reports")


@dataclass(frozen=True)
class SensitivityRow:
    name: str
    run_id: str
    expected: frozenset[str]  # empty for a control
    flagged: dict[str, str]  # gate -> WARN or FAIL
    reasons: list[str]  # "gate.metric: why", of every flagged metric
    no_effect: bool = False  # the regression left every judged artifact as the baseline's
    cause: str | None = None  # the injection's own measure ("gate.metric")

    @property
    def cause_flagged(self) -> bool:
        """Whether the measure that names the regression is among the flagged ones."""
        return self.cause is not None and any(r.startswith(f"{self.cause}:") for r in self.reasons)

    @property
    def control(self) -> bool:
        return not self.expected

    @property
    def caught(self) -> bool:
        """A control: nothing flagged; a regression: flagged at one of its gates."""
        return not self.flagged if self.control else bool(set(self.flagged) & self.expected)


@dataclass(frozen=True)
class SensitivityReport:
    workspace: Path
    baseline: str
    seeds: int
    rows: list[SensitivityRow]
    thresholds: str  # how the controls were judged (the thresholds note)

    @property
    def injected(self) -> list[SensitivityRow]:
        return [r for r in self.rows if not r.control and not r.no_effect]

    @property
    def sensitivity(self) -> float:
        rows = self.injected
        return sum(r.caught for r in rows) / len(rows) if rows else 0.0

    @property
    def false_alarms(self) -> int:
        return sum(not r.caught for r in self.rows if r.control)

    def as_dict(self) -> dict[str, Any]:
        return {
            "workspace": str(self.workspace),
            "baseline": self.baseline,
            "seeds": self.seeds,
            "thresholds": self.thresholds,
            "sensitivity": self.sensitivity,
            "false_alarms": self.false_alarms,
            "rows": [
                {
                    "name": r.name,
                    "run_id": r.run_id,
                    "control": r.control,
                    "expected": sorted(r.expected),
                    "cause": r.cause,
                    "flagged": r.flagged,
                    "caught": r.caught,
                    "cause_flagged": r.cause_flagged,
                    "no_effect": r.no_effect,
                    "reasons": r.reasons,
                }
                for r in self.rows
            ],
        }

    def table(self) -> str:
        """The confusion table (W = WARN, F = FAIL, * = a gate it should be flagged at)."""
        lines = [
            "| run | " + " | ".join(GATES) + " | caught |",
            "|---|" + "---|" * (len(GATES) + 1),
        ]
        for row in self.rows:
            if row.no_effect:
                continue
            cells = [
                {"WARN": "W", "FAIL": "F"}.get(row.flagged.get(g, ""), "·")
                + ("*" if g in row.expected else "")
                for g in GATES
            ]
            lines.append(
                f"| {row.name} | " + " | ".join(cells) + f" | {'yes' if row.caught else 'NO'} |"
            )
        return "\n".join(lines)

    def summary(self) -> str:
        rows = self.injected
        caught = sum(r.caught for r in rows)
        controls = sum(r.control for r in self.rows)
        text = (
            f"sensitivity {caught}/{len(rows)} = {self.sensitivity:.2f}; "
            f"false alarms {self.false_alarms}/{controls}"
        )
        idle = [r.name for r in self.rows if r.no_effect]
        if idle:
            text += (
                f"; no effect on this corpus (artifacts equal the baseline's): {', '.join(idle)}"
            )
        return text


def chosen_injections(names: Sequence[str]) -> list[Injection]:
    """The catalogue's injections by name (all of them for none), in catalogue order."""
    if not names:
        return list(INJECTIONS)
    known = {i.name for i in INJECTIONS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(
            f"no injection named {', '.join(repr(n) for n in unknown)}",
            "use some of: " + "; ".join(i.name for i in INJECTIONS),
        )
    return [i for i in INJECTIONS if i.name in names]


def flagged_gates(report: GatesReport) -> dict[str, str]:
    return {r.gate: r.verdict for r in report.results if r.verdict in {"WARN", "FAIL"}}


def reasons_of(report: GatesReport) -> list[str]:
    return [f"{r.gate}.{m}: {why}" for r in report.results for m, why in r.reasons.items()]


def unchanged(registry: RunRegistry, run_id: str, base: str) -> bool:
    """Whether a run's judged artifacts equal the baseline's (a regression with no effect on
    this corpus is not one the gates could catch)."""
    a, b = registry.get(run_id), registry.get(base)
    if not all(a.read_or_empty(n).equals(b.read_or_empty(n)) for n in JUDGED):
        return False
    documents = ["id", "sha256"]
    return bool(
        a.read_artifact("documents", documents).equals(b.read_artifact("documents", documents))
    )


def gate_sensitivity(
    path: Path,
    corpus: Path,
    injections: Sequence[Injection] = INJECTIONS,
    seeds: int = 3,
    testset: Path | None = None,
    scratch: Path | None = None,
    told: Callable[[str], None] = lambda _: None,
    **overrides: Any,
) -> SensitivityReport:
    """The confusion table of ``injections`` on ``corpus``, in a new workspace at ``path``
    (``seeds`` calibration runs; 0 leaves the fixed rules to judge; ``overrides`` nest like
    the settings; ``scratch`` holds rewritten corpora and
    evaluations, default ``path``'s sibling). ``told`` hears each step as it starts."""
    from graphgate.app.workspace import Workspace

    if path.exists() and any(path.iterdir()):
        raise ConfigError(
            f"{path} is not empty: the sensitivity check sets its own baseline and leaves "
            "two dozen runs behind",
            "give it a new folder (never a workspace in use)",
        )
    scratch = scratch or path.with_name(path.name + "-scratch")
    scratch.mkdir(parents=True, exist_ok=True)
    # Without calibration the fixed rules judge: no band from the regressions' own runs
    # (a parser's fault is a new state of the corpus, with the baseline's settings).
    gates = {**overrides.get("gates", {}), **({} if seeds else {"history_window": 0})}
    overrides = {**overrides, "gates": gates}
    quiet: dict[str, Any] = {**overrides, "gates": {**gates, "run_on_index": False}}
    evaluations = itertools.count()

    def evaluate(ws: Workspace, name: str) -> None:
        """The current run evaluated in the default mode (the one the Gen gate judges)."""
        if testset is not None:
            told(f"evaluation of {name}")
            ws.evaluate(testset, [DEFAULT_MODE], scratch / f"eval-{next(evaluations)}")

    told("baseline")
    with Workspace(path, **quiet) as ws:
        base = ws.index(corpus, full=True).run_id
        ws.set_baseline(base)
        evaluate(ws, "baseline")
        base_seed = ws.settings.seed
        embedder = ws.embedder  # loaded once: every run below embeds with the same model
    if seeds:  # 0: the fixed rules judge (what a workspace without history gets)
        told(f"calibration under {seeds} seeds")
        # Each calibration run's gates (judged as it is indexed) are the history.
        with Workspace(path, embedder=embedder, **overrides) as ws:
            ws.calibrate_gates(seeds)
    runs: list[tuple[str, str, Injection | None]] = []
    with Workspace(path, embedder=embedder, **quiet) as ws:
        told(SAME_SETTINGS)
        runs.append((SAME_SETTINGS, ws.index(corpus, full=True).run_id, None))
        evaluate(ws, SAME_SETTINGS)
    with Workspace(path, embedder=embedder, **{**quiet, "seed": base_seed + seeds + 7}) as ws:
        told(ANOTHER_SEED)
        runs.append((ANOTHER_SEED, ws.index(corpus).run_id, None))
        evaluate(ws, ANOTHER_SEED)
    for number, chosen in enumerate(injections):
        told(chosen.name)
        where = scratch / f"corpus-{number}"
        made = _inject(path, corpus, chosen, where, quiet, evaluate, embedder)
        runs.append((chosen.name, made, chosen))
    rows: list[SensitivityRow] = []
    note = ""
    with Workspace(path) as ws:
        for name, run_id, injection in runs:
            if injection is None:  # a control
                report = ws.gates(run_id, base)
                note = report.notes[-1]
                rows.append(
                    SensitivityRow(
                        name, run_id, frozenset(), flagged_gates(report), reasons_of(report)
                    )
                )
                continue
            expected, cause = injection.gates, injection.cause
            if not injection.at_query_time and unchanged(ws.runs, run_id, base):
                rows.append(SensitivityRow(name, run_id, expected, {}, [], True, cause))
                continue
            report = ws.gates(run_id, base)
            flagged, reasons = flagged_gates(report), reasons_of(report)
            rows.append(SensitivityRow(name, run_id, expected, flagged, reasons, False, cause))
    return SensitivityReport(path, base, seeds, rows, note)


def _inject(
    path: Path,
    corpus: Path,
    injection: Injection,
    scratch: Path,
    quiet: dict[str, Any],
    evaluate: Callable[[Any, str], None],
    embedder: Embedder,
) -> str:
    """The run ``injection`` makes (indexed with its settings, parser and stage fault; for an
    answerer's fault, the baseline's settings again, evaluated with the faulty answerer)."""
    from graphgate.app.workspace import Workspace

    settings = _merged(quiet, dict(injection.settings))
    read = injection.corpus(corpus, scratch) if injection.corpus is not None else corpus
    shared = None if "embed" in injection.settings else embedder  # another model: its own
    pipelines = {"graph": injection.pipeline(PIPELINES)}
    answerer = None
    if injection.answerer is not None:  # the faulty one wraps the answerer configured
        with Workspace(path, embedder=shared, **settings) as plain:
            answerer = injection.answerer(plain.answerer())
    with Workspace(path, embedder=shared, answerer=answerer, pipelines=pipelines, **settings) as ws:
        # Query-time faults need a run of their own (the Gen gate reads a run's evaluation).
        run_id = ws.index(read).run_id
        if injection.at_query_time:
            evaluate(ws, injection.name)
    return run_id


def _merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = (
            _merged(out[key], value)
            if isinstance(value, dict) and isinstance(out.get(key), dict)
            else value
        )
    return out
