"""Reports: a rich console report and a self-contained HTML page (no network to open it)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphgate.evaluate.records import EvalRecord, EvalSummary, GroupStats, MetricStat

HEADLINE = (
    "doc_recall@2",
    "doc_recall@5",
    "mrr",
    "entity_recall",
    "relationship_recall",
    "context_precision",
    "answer_correctness",
    "grounding",
    "citation_coverage",
    "rouge_l",
)
FAILURES = (
    "pass",
    "retrieval_failure",
    "missed_retrieval_failure",
    "reasoning_failure",
    "unattributed",
    "unmeasured",
)


def _fmt(stat: MetricStat | None) -> str:
    """The mean, with measured/total when some cases could not be measured."""
    if not stat or stat.get("mean") is None:
        return "—"
    if stat.get("unmeasured"):
        total = stat["measured"] + stat["unmeasured"]
        return f"{stat['mean']:.3f} ({stat['measured']}/{total})"
    return f"{stat['mean']:.3f}"


def comparison_cell(entry: dict[str, Any]) -> str:
    """A mode's mean, with its difference to the baseline and the interval when paired."""
    if entry["mean"] is None:
        return "—"
    if "diff" not in entry:
        return f"{entry['mean']:.3f}"
    return (
        f"{entry['mean']:.3f} ({entry['diff']:+.3f} "
        f"[{entry['ci_low']:+.3f}, {entry['ci_high']:+.3f}])"
    )


def _bar(value: float | None, width: int = 20) -> str:
    if value is None:
        return ""
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "░" * (width - filled)


def print_report(summary: EvalSummary, console: Console) -> None:
    for mode, data in summary["modes"].items():
        table = Table(title=f"mode {mode}: {data['overall']['cases']} results")
        table.add_column("metric")
        groups = [("all", data["overall"]), *data["by_type"].items()]
        for name, group in groups:
            table.add_column(f"{escape(name)} (n={group['cases']})", justify="right")
        for metric in HEADLINE:
            table.add_row(metric, *[_fmt(g["metrics"].get(metric)) for _, g in groups])
        for failure in FAILURES:
            counts = [str(g["failures"].get(failure, 0)) for _, g in groups]
            if any(c != "0" for c in counts):
                table.add_row(f"[dim]{failure}[/]", *counts)
        console.print(table)
        for qtype, group in data["by_type"].items():
            stat = group["metrics"].get("doc_recall@5")
            value = stat.get("mean") if stat else None
            console.print(f"  {escape(f'{qtype:>14}')} doc_recall@5 {_bar(value)} {_fmt(stat)}")
    verdicts = Table(title="verdicts against targets")
    verdicts.add_column("metric")
    verdicts.add_column("target", justify="right")
    modes = list(summary["verdicts"])
    for mode in modes:
        verdicts.add_column(mode)
    colours = {"PASS": "green", "WARN": "yellow", "FAIL": "red", "UNMEASURED": "dim"}
    for metric, target in summary["targets"].items():
        cells = [summary["verdicts"][m][metric] for m in modes]
        verdicts.add_row(metric, f"{target:.2f}", *[f"[{colours[c]}]{c}[/]" for c in cells])
    console.print(verdicts)
    if "comparison" in summary:
        print_comparison(summary["comparison"], console)
    console.print(f"overall verdict: [bold]{summary['overall_verdict']}[/]")


def print_comparison(comparison: dict[str, Any], console: Console) -> None:
    base = comparison["baseline"]
    for qtype, metrics in comparison["by_type"].items():
        table = Table(title=f"{escape(qtype)}: difference to {base} (95% paired bootstrap CI)")
        table.add_column("metric")
        modes = list(next(iter(metrics.values())).keys())
        for mode in modes:
            table.add_column(mode, justify="right")
        for metric, row in metrics.items():
            cells = [comparison_cell(row[mode]) for mode in modes]
            table.add_row(metric, *cells)
        console.print(table)


def _svg_bars(items: Sequence[tuple[str, float | None]]) -> str:
    rows = []
    for i, (label, value) in enumerate(items):
        y = i * 22
        width = 0 if value is None else max(0.0, min(1.0, value)) * 300
        text = "unmeasured" if value is None else f"{value:.3f}"
        rows.append(
            f'<text x="0" y="{y + 15}" font-size="12">{html.escape(label)}</text>'
            f'<rect x="170" y="{y + 4}" width="{width:.1f}" height="14" fill="#4a7bd0"/>'
            f'<text x="{175 + width:.1f}" y="{y + 15}" font-size="12">{text}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="560" height="{22 * len(items) + 4}">'
        + "".join(rows)
        + "</svg>"
    )


def html_report(summary: EvalSummary, records: Sequence[EvalRecord], worst: int = 10) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>graphgate evaluation</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:"
        "collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px}"
        ".PASS{color:#1a7f37}.WARN{color:#9a6700}.FAIL{color:#cf222e}.UNMEASURED{color:#888}"
        "</style></head><body>",
        f"<h1>graphgate evaluation</h1><p>test set {e(str(summary.get('testset', '')))}, "
        f"run {e(str(summary.get('run_id', '')))}, {summary['cases']} cases, overall verdict "
        f"<b class='{summary['overall_verdict']}'>{summary['overall_verdict']}</b></p>",
    ]
    for mode, data in summary["modes"].items():
        parts.append(f"<h2>mode {e(mode)}</h2><table><tr><th>metric</th><th>all</th>")
        groups = [("all", data["overall"]), *data["by_type"].items()]
        parts.append("".join(f"<th>{e(n)} (n={g['cases']})</th>" for n, g in groups[1:]) + "</tr>")
        for metric in HEADLINE:
            cells = "".join(f"<td>{_fmt(g['metrics'].get(metric))}</td>" for _, g in groups)
            parts.append(f"<tr><td>{metric}</td>{cells}</tr>")
        for failure in FAILURES:
            cells = "".join(f"<td>{g['failures'].get(failure, 0)}</td>" for _, g in groups)
            parts.append(f"<tr><td><i>{failure}</i></td>{cells}</tr>")
        parts.append("</table>")
        for metric in ("doc_recall@5", "answer_correctness"):
            parts.append(f"<h3>{metric} by question type</h3>")
            parts.append(_svg_bars([(t, _mean(g, metric)) for t, g in data["by_type"].items()]))
        parts.append("<h3>failure breakdown</h3>")
        total = max(1, data["overall"]["cases"])
        parts.append(
            _svg_bars([(f, data["overall"]["failures"].get(f, 0) / total) for f in FAILURES])
        )
    parts.append("<h2>verdicts</h2><table><tr><th>metric</th><th>target</th>")
    parts.append("".join(f"<th>{e(m)}</th>" for m in summary["verdicts"]) + "</tr>")
    for metric, target in summary["targets"].items():
        cells = "".join(
            f"<td class='{v[metric]}'>{v[metric]}</td>" for v in summary["verdicts"].values()
        )
        parts.append(f"<tr><td>{metric}</td><td>{target:.2f}</td>{cells}</tr>")
    parts.append("</table>")
    if "comparison" in summary:
        parts.append(_html_comparison(summary["comparison"]))
    failing = [r for r in records if r["failure"] not in (None, "pass")]
    failing.sort(
        key=lambda r: (
            r["metrics"].get("doc_recall@5") or 0.0,
            r["metrics"].get("entity_recall") or 0.0,
            r["case_id"],
        )
    )
    parts.append(
        "<h2>worst cases</h2><table><tr><th>case</th><th>mode</th><th>failure</th>"
        "<th>question</th><th>retrieved docs</th><th>gold docs</th>"
        "<th>retrieved entities</th><th>gold entities</th></tr>"
    )
    for r in failing[:worst]:
        parts.append(
            f"<tr><td>{e(r['case_id'])}</td><td>{e(r['mode'])}</td><td>{e(str(r['failure']))}</td>"
            f"<td>{e(r['question'])}</td><td>{e(', '.join(r['retrieved_docs'][:5]))}</td>"
            f"<td>{e(', '.join(r['gold_docs']))}</td>"
            f"<td>{e(', '.join(r['retrieved_entities'][:8]))}</td>"
            f"<td>{e(', '.join(r['gold_entities']))}</td></tr>"
        )
    parts.append("</table></body></html>")
    return "\n".join(parts)


def _html_comparison(comparison: dict[str, Any]) -> str:
    e = html.escape
    base = comparison["baseline"]
    parts = [f"<h2>strategy comparison (difference to {e(base)}, 95% paired bootstrap CI)</h2>"]
    for qtype, metrics in comparison["by_type"].items():
        modes = list(next(iter(metrics.values())).keys())
        parts.append(
            f"<h3>{e(qtype)}</h3><table><tr><th>metric</th>"
            + "".join(f"<th>{e(m)}</th>" for m in modes)
            + "</tr>"
        )
        for metric, row in metrics.items():
            cells = [f"<td>{e(comparison_cell(row[mode]))}</td>" for mode in modes]
            parts.append(f"<tr><td>{e(metric)}</td>{''.join(cells)}</tr>")
        parts.append("</table>")
    return "".join(parts)


def _mean(group: GroupStats, metric: str) -> float | None:
    stat = group["metrics"].get(metric)
    return None if stat is None else stat["mean"]
