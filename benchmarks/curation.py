"""What a curation edit costs, and an update with edits in force, in one run.

    .venv/bin/python benchmarks/curation.py WORKSPACE [--out DIR]

On a copy of WORKSPACE (an index with entities; left as it is), the edits are chosen from its
graph, deterministically: an alias added to the most-mentioned person, a rename of the
most-mentioned place, a merge of the two most-mentioned organisations, a split of the first
entity with two names that normalise apart, a delete of the heaviest verb edge, and a revert
of the merge. Then one document is deleted, with the edits in force and, on a second copy,
without any: the price of curation in an update. Printed per step: seconds, the resolve
stage's seconds, whether the edit applied, and the stages that took longest.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphgate import Workspace
from graphgate.app.curation import CurationReport
from graphgate.core.text import normalise_name
from graphgate.index.pipeline import IndexReport


def _choose(ws: Workspace) -> dict[str, Any]:
    run = ws.runs.current()
    entities = sorted(
        run.read_artifact("entities").to_pylist(), key=lambda e: (-e["mention_count"], e["id"])
    )

    def top(kind: str, n: int) -> list[dict[str, Any]]:
        return [e for e in entities if e["type"] == kind][:n]

    person, place, orgs = top("PERSON", 1)[0], top("GPE", 1)[0], top("ORG", 2)
    split = next(
        e
        for e in entities
        if len({normalise_name(n) for n in (e["name"], *e["aliases"])}) >= 2
        and any(normalise_name(a) != normalise_name(e["name"]) for a in e["aliases"])
    )
    alias = next(a for a in split["aliases"] if normalise_name(a) != normalise_name(split["name"]))
    names = {e["id"]: e["name"] for e in entities}
    edges = sorted(
        (r for r in run.read_artifact("relationships").to_pylist() if r["kind"] == "svo"),
        key=lambda r: (-r["weight"], r["id"]),
    )
    edge = edges[0]
    documents = sorted(run.read_artifact("documents")["id"].to_pylist())
    return {
        "alias": (person["name"], "".join(w[0] for w in person["name"].split()) + " Curated"),
        "rename": (place["name"], place["name"] + " (renamed)"),
        "merge": (orgs[0]["name"], orgs[1]["name"]),
        "split": (split["name"], alias),
        "delete": (names[edge["source_id"]], names[edge["target_id"]], edge["predicate"]),
        "document": documents[len(documents) // 2],
    }


def _stages(report: IndexReport) -> tuple[float, str]:
    resolve = next((s.seconds for s in report.stages if s.name == "resolve"), 0.0)
    longest = sorted(report.stages, key=lambda s: -s.seconds)[:3]
    return resolve, ", ".join(f"{s.name} {s.seconds:.1f}" for s in longest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="gg-curation-"))
    edited, plain = out / "edited", out / "plain"
    for copy in (edited, plain):
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(args.workspace, copy)
    rows: list[tuple[str, float, float, str, str]] = []

    def timed(label: str, fn: Callable[[], CurationReport | IndexReport]) -> None:
        started = time.perf_counter()
        result = fn()
        seconds = time.perf_counter() - started
        report = result.report if isinstance(result, CurationReport) else result
        outcome = ""
        if isinstance(result, CurationReport) and result.edit.op == "revert":
            outcome = f"edit {result.edit.reverts} undone"
        elif isinstance(result, CurationReport):
            applied = result.outcome.get("applied")
            outcome = "applied" if applied else f"not applied: {result.outcome.get('reason')}"
        resolve, longest = _stages(report)
        rows.append((label, seconds, resolve, outcome, longest))

    with Workspace(edited) as ws:
        chosen = _choose(ws)
        timed(f"alias add {chosen['alias']}", lambda: ws.curation.alias_add(*chosen["alias"]))
        timed(f"rename {chosen['rename']}", lambda: ws.curation.rename(*chosen["rename"]))
        merge = chosen["merge"]
        timed(f"merge {merge}", lambda: ws.curation.merge(merge[0], [merge[1]]))
        split = chosen["split"]
        timed(f"split {split}", lambda: ws.curation.split(split[0], [split[1]]))
        timed(
            f"relation delete {chosen['delete']}",
            lambda: ws.curation.relation_delete(*chosen["delete"]),
        )
        timed("revert the merge", lambda: ws.curation.revert(3))
        timed(
            f"delete {chosen['document']} (5 edits in force)",
            lambda: ws.delete([chosen["document"]]),
        )
    with Workspace(plain) as ws:
        timed(f"delete {chosen['document']} (no edits)", lambda: ws.delete([chosen["document"]]))
    print("| step | seconds | resolve s | outcome | longest stages s |\n|---|---:|---:|---|---|")
    for label, seconds, resolve, outcome, longest in rows:
        print(f"| {label} | {seconds:.1f} | {resolve:.2f} | {outcome} | {longest} |")


if __name__ == "__main__":
    main()
