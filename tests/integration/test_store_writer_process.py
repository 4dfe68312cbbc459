"""The embedded store written by a process of its own equals the one written in place, and the
indexing process then never loads LadybugDB (so holds none of its memory)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graphgate import Workspace
from graphgate.core.runs import Run

QUESTIONS = [
    "Who is Bob Cratchit's employer?",
    "Who is Fred Holywell?",
    "Where is the counting-house?",
]


def _index_in_a_fresh_process(
    corpus: Path, workspace: Path, write_process_above: int
) -> dict[str, object]:
    """Index in a new interpreter; what it reports: the graph stage's counts and whether this
    process ever imported the LadybugDB module."""
    script = (
        "import json, sys\n"
        "from graphgate import Workspace\n"
        f"store = {{'write_process_above': {write_process_above}}}\n"
        f"with Workspace({str(workspace)!r}, store=store) as ws:\n"
        f"    report = ws.index({str(corpus)!r})\n"
        "print(json.dumps({'counts': report.counts, 'ladybug': 'ladybug' in sys.modules}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _store_files(run: Run) -> dict[str, bytes]:
    """The search indexes and the read model's tables, file by file (the graph file itself
    carries LadybugDB's own page layout, so it is compared by its counts and answers)."""
    root = run.store_dir
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith("graph.lbug") and "read" not in p.parts
    } | {f"read/{p.name}": p.read_bytes() for p in sorted((root / "read").glob("*.arrow"))}


def test_a_store_written_apart_equals_one_written_in_place(
    small_corpus: Path, tmp_path: Path
) -> None:
    apart = _index_in_a_fresh_process(small_corpus, tmp_path / "apart", 0)
    in_place = _index_in_a_fresh_process(small_corpus, tmp_path / "in_place", 10**9)
    assert apart["ladybug"] is False  # the indexing process never loaded the database
    assert in_place["ladybug"] is True
    assert apart["counts"] == in_place["counts"]
    with Workspace(tmp_path / "apart") as a, Workspace(tmp_path / "in_place") as b:
        run_a, run_b = a.runs.current(), b.runs.current()
        writer = run_a.manifest().store.writer_peak_rss_mb  # its own, for the run's figures
        assert writer is not None and writer > 50
        assert run_b.manifest().store.writer_peak_rss_mb is None
        assert _store_files(run_a) == _store_files(run_b)
        for mode in ("vector", "local", "graph", "hybrid"):
            for question in QUESTIONS:
                x, y = a.query(question, mode=mode), b.query(question, mode=mode)
                assert x.answer == y.answer
                assert [c.chunk_id for c in x.citations] == [c.chunk_id for c in y.citations]
        count = "MATCH (e:Entity)-[r:RELATED]->(f:Entity) RETURN count(r) AS n"
        assert a.cypher(count).rows == b.cypher(count).rows
