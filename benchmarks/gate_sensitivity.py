"""Do the gates catch what they exist to catch? Regressions injected one at a time, judged
against a baseline, with controls that must pass; one run, one corpus.

    .venv/bin/python benchmarks/gate_sensitivity.py CORPUS [--workspace WS] [--seeds 3]

Indexes CORPUS as the baseline (seed 0), calibrates the gates with ``--seeds`` other seeds
(``Workspace.calibrate_gates``: the history the bands come from), then indexes:
- controls: the same settings again, and a seed not in the history: nothing may be flagged;
- injections, each a realistic regression through the settings a team might change (or, for
  the data gate, a corpus with documents duplicated under new ids), with the gates it must
  be flagged at.
Prints the confusion table (injection x gate: W = WARN, F = FAIL, * = expected here), the
sensitivity (injections flagged at an expected gate) and the false-alarm rate (controls
flagged anywhere), and for each injection the reasons given.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from graphgate import Workspace
from graphgate.core.runs import RunRegistry
from graphgate.gates.runner import GatesReport

GATES = ("data", "chunk", "ie", "graph", "community", "hierarchy", "summary", "gen")

# name -> (settings overrides, gates it should be flagged at)
INJECTIONS: dict[str, tuple[dict[str, Any], set[str]]] = {
    "chunks of 60 tokens": ({"chunk": {"size_tokens": 60}}, {"chunk"}),
    "chunk overlap gone": ({"chunk": {"overlap_tokens": 0}}, {"chunk"}),
    "extractor narrowed to PERSON": ({"extract": {"entity_types": ["PERSON"]}}, {"ie", "graph"}),
    "co-occurrence edges off": ({"extract": {"cooccurrence_edges": False}}, {"ie", "graph"}),
    "resolution without embedding merges": (
        {"resolve": {"use_embeddings": False, "similarity_threshold": 1.0}},
        {"graph"},
    ),
    "resolution stricter (0.95)": ({"resolve": {"similarity_threshold": 0.95}}, {"graph"}),
    "resolution over-merging (0.0)": ({"resolve": {"similarity_threshold": 0.0}}, {"graph"}),
    "Leiden resolution 1 -> 8": ({"communities": {"resolution": 8.0}}, {"community"}),
    "levels collapsed (no split)": (
        {"communities": {"max_cluster_size": 100_000}},
        {"community", "hierarchy"},
    ),
    "reports truncated": (
        {"communities": {"report_entities": 1, "report_relationships": 0, "report_sentences": 0}},
        {"summary"},
    ),
}
DUPLICATED = "documents duplicated under new ids"


_COMPARED = ("chunks", "entities", "relationships", "communities", "community_reports")


def unchanged(registry: RunRegistry, run_id: str, base: str) -> bool:
    """Whether an injection left every artifact the gates judge as the baseline's (a setting
    with no effect on this corpus is no regression to catch)."""
    a, b = registry.get(run_id), registry.get(base)
    return all(a.read_or_empty(n).equals(b.read_or_empty(n)) for n in _COMPARED)


def flagged(report: GatesReport) -> dict[str, str]:
    """Gate -> its worst verdict, for the gates that warned or failed."""
    return {r.gate: r.verdict for r in report.results if r.verdict in {"WARN", "FAIL"}}


def duplicated_corpus(corpus: Path, root: Path) -> Path:
    """Every fifth document again under a new id (a loader that re-ingests a folder twice):
    for a JSONL corpus a copied line, for a folder a copied file."""
    if corpus.is_dir():
        out = root / "duplicated"
        shutil.copytree(corpus, out, dirs_exist_ok=True)
        for file in sorted(p for p in corpus.iterdir() if p.is_file())[::5]:
            shutil.copy(file, out / f"copy-{file.name}")
        return out
    rows = [json.loads(line) for line in corpus.read_text().splitlines() if line.strip()]
    extra = [{**row, "id": f"{row['id']} (copy)"} for row in rows[::5]]
    out = root / "duplicated.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in [*rows, *extra]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="A .jsonl corpus (the demo folder works too).")
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    root = args.workspace or Path(tempfile.mkdtemp(prefix="gate-sensitivity-"))
    ws_path = root / "ws"
    quiet = {"gates": {"run_on_index": False}}

    def index(corpus: Path, **overrides: Any) -> str:
        with Workspace(ws_path, **{**quiet, **overrides}) as ws:
            return ws.index(corpus, full=True).run_id

    base = index(args.corpus)
    with Workspace(ws_path) as ws:
        ws.set_baseline(base)
        ws.calibrate_gates(args.seeds)
    rows: list[tuple[str, dict[str, str], set[str], list[str]]] = []
    no_effect: list[str] = []
    controls = {
        "control: same settings again": index(args.corpus),
        "control: another seed": index(args.corpus, seed=args.seeds + 7),
    }
    runs = dict(controls)
    for name, (overrides, _) in INJECTIONS.items():
        runs[name] = index(args.corpus, **overrides)
    runs[DUPLICATED] = index(duplicated_corpus(args.corpus, root))
    expected = {name: gates for name, (_, gates) in INJECTIONS.items()} | {DUPLICATED: {"data"}}
    with Workspace(ws_path) as ws:
        for name, run_id in runs.items():
            if not name.startswith("control") and unchanged(ws.runs, run_id, base):
                no_effect.append(name)
                continue
            report = ws.gates(run_id, base)
            reasons = [
                f"{r.gate}.{m}: {why}" for r in report.results for m, why in r.reasons.items()
            ]
            rows.append((name, flagged(report), expected.get(name, set()), reasons))
            if name.startswith("control"):
                note = report.notes[-1]
    print(f"corpus {args.corpus}, baseline seed 0, {args.seeds} calibration seeds; {note}\n")
    print("| run | " + " | ".join(GATES) + " | caught |")
    print("|---|" + "---|" * (len(GATES) + 1))
    caught = alarms = 0
    for name, found, wanted, _ in rows:
        cells = []
        for gate in GATES:
            mark = {"WARN": "W", "FAIL": "F"}.get(found.get(gate, ""), "·")
            cells.append(mark + ("*" if gate in wanted else ""))
        if name.startswith("control"):
            ok = not found
            alarms += not ok
        else:
            ok = bool(set(found) & wanted)
            caught += ok
        print(f"| {name} | " + " | ".join(cells) + f" | {'yes' if ok else 'NO'} |")
    injected = len(rows) - len(controls)
    print(
        f"\nsensitivity {caught}/{injected} = {caught / injected:.2f}; "
        f"false alarms {alarms}/{len(controls)}"
    )
    if no_effect:
        print(f"no effect on this corpus (artifacts equal the baseline's): {', '.join(no_effect)}")
    for name, _, _, reasons in rows:
        print(f"\n{name}:")
        for reason in reasons[:6]:
            print(f"  {reason}")


if __name__ == "__main__":
    main()
