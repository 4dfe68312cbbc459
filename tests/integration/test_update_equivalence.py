"""An update is indistinguishable from a rebuild: random sequences of add, change and delete
(seeded) end in the same documents, chunks, entities, edges, communities, reports and answers as
a from-scratch index of the final corpus with the same seed.

Documents are compared without ``version`` and ``source_path``: they record a document's history
(how often it changed, which file it last came from), which a rebuild cannot know.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pytest

from graphgate import Workspace
from graphgate.core.runs import Run

PEOPLE = ["Alice Moreau", "Bruno Keller", "Chiara Rossi", "Dmitri Volkov", "Elena Sousa"]
FIRMS = ["Nordvik Shipping", "Halden Mining", "Corvo Textiles", "Lumen Optics", "Tarn Robotics"]
CITIES = ["Oslo", "Bergen", "Milan", "Porto", "Lyon"]


def _text(rng: random.Random) -> str:
    person, firm, other = rng.choice(PEOPLE), rng.choice(FIRMS), rng.choice(FIRMS)
    city, year = rng.choice(CITIES), rng.randint(1990, 2020)
    return (
        f"{person} founded {firm} in {city} in {year}. {firm} later bought a stake in {other}. "
        f"{person} moved to {rng.choice(CITIES)} after {other} opened an office there."
    )


def _write(path: Path, docs: dict[str, str]) -> Path:
    path.write_text(
        "".join(
            json.dumps({"id": i, "title": f"Note {i}", "text": t}) + "\n"
            for i, t in sorted(docs.items())
        )
    )
    return path


TABLES = (
    "chunks",
    "mentions",
    "raw_relations",
    "entities",
    "relationships",
    "communities",
    "community_reports",
    "chunk_vectors",
    "entity_vectors",
)
QUESTIONS = [
    "Who founded Nordvik Shipping?",
    "Which firm bought a stake in Lumen Optics?",
    "Where did Elena Sousa move?",
]


def _documents(run: Run) -> pa.Table:
    return run.read_artifact("documents").drop(["version", "source_path"])


def _answers(ws: Workspace) -> list[tuple[str, list[tuple[str, float]], list[str]]]:
    out = []
    for mode in ("vector", "local", "hybrid", "global"):
        for question in QUESTIONS:
            answer = ws.query(question, mode=mode)
            chunks = [(c.id, round(c.score, 6)) for c in answer.retrieval.chunks]
            out.append((mode, chunks, [c.chunk_id for c in answer.citations]))
    return out


# Seed 11 parses in warm worker processes (kept by the workspace between updates), the
# rebuild in this process: the graph must not depend on where it was parsed.
@pytest.mark.parametrize(("seed", "parallel_from"), [(7, 200), (11, 1)])
def test_random_updates_equal_a_rebuild(tmp_path: Path, seed: int, parallel_from: int) -> None:
    rng = random.Random(seed)
    corpus = {f"d{i}": _text(rng) for i in range(6)}
    next_id = 6
    with Workspace(tmp_path / "live", extract={"parallel_from": parallel_from}) as live:
        live.index(_write(tmp_path / "start.jsonl", corpus))
        workers = live.extractor.worker_pids()
        assert len(workers) == (2 if parallel_from == 1 else 0)
        for step in range(5):
            action = rng.choice(["add", "change", "delete", "sync"])
            if action == "add":
                new = {f"d{next_id}": _text(rng)}
                next_id += 1
                corpus.update(new)
                live.add([_write(tmp_path / f"add{step}.jsonl", new)])
            elif action == "change":
                doc = rng.choice(sorted(corpus))
                corpus[doc] = _text(rng)
                live.add([_write(tmp_path / f"change{step}.jsonl", {doc: corpus[doc]})])
            elif action == "delete" and len(corpus) > 2:
                doc = rng.choice(sorted(corpus))
                del corpus[doc]
                live.delete([doc])
            else:  # declarative: the whole corpus, one document changed and one gone
                doc = rng.choice(sorted(corpus))
                corpus[doc] = _text(rng)
                corpus.pop(rng.choice(sorted(set(corpus) - {doc})))
                live.index(_write(tmp_path / f"sync{step}.jsonl", corpus))
        updated = live.runs.current()
        assert updated.manifest().to_json()["parent_run"] is not None
        assert live.extractor.worker_pids() == workers
        updated_answers = _answers(live)
    with Workspace(tmp_path / "scratch") as scratch:
        scratch.index(_write(tmp_path / "final.jsonl", corpus))
        rebuilt = scratch.runs.current()
        rebuilt_answers = _answers(scratch)
    assert _documents(updated).equals(_documents(rebuilt))
    for name in TABLES:
        assert updated.read_artifact(name).equals(rebuilt.read_artifact(name)), name
    assert updated_answers == rebuilt_answers


def test_updates_reuse_content_and_full_recomputes(tmp_path: Path) -> None:
    rng = random.Random(3)
    corpus = {f"d{i}": _text(rng) for i in range(5)}
    with Workspace(tmp_path / "ws") as ws:
        first = ws.index(_write(tmp_path / "a.jsonl", corpus))
        extract = {s.name: s.info for s in first.stages}["extract"]
        assert extract["reused"] == 0
        corpus["d9"] = _text(rng)
        added = ws.add([_write(tmp_path / "b.jsonl", {"d9": corpus["d9"]})])
        info = {s.name: s.info for s in added.stages}
        n = info["extract"]["chunks"]
        assert info["extract"]["reused"] == n - 1  # only the new document's chunk is extracted
        assert info["embed_chunks"]["reused"] == n - 1
        assert added.changes == {"added": ["d9"], "changed": [], "removed": [], "unchanged": 5}
        # back to the first corpus: its graph again, every report taken from the cache
        back = ws.delete(["d9"])
        summarize = {s.name: s for s in back.stages}["summarize"]
        assert summarize.info["reused"] == summarize.rows["community_reports"] > 0
        assert (
            ws.runs.current()
            .read_artifact("community_reports")
            .equals(ws.runs.get(first.run_id).read_artifact("community_reports"))
        )
        ws.add([_write(tmp_path / "b.jsonl", {"d9": corpus["d9"]})])
        full = ws.index(_write(tmp_path / "c.jsonl", corpus), full=True)
        full_info = {s.name: s.info for s in full.stages}
        assert full_info["extract"]["reused"] == 0 and full_info["summarize"]["reused"] == 0
        assert (
            ws.runs.current()
            .read_artifact("entities")
            .equals(ws.runs.get(added.run_id).read_artifact("entities"))
        )


def test_bad_updates_change_nothing(tmp_path: Path) -> None:
    rng = random.Random(5)
    with Workspace(tmp_path / "ws") as ws:
        with pytest.raises(Exception, match="no index yet"):
            ws.delete(["d0"])
        ws.index(_write(tmp_path / "a.jsonl", {"d0": _text(rng), "d1": _text(rng)}))
        current = ws.runs.current_id()
        with pytest.raises(Exception, match="no document 'nope'"):
            ws.delete(["nope"])
        with pytest.raises(Exception, match="empty index"):
            ws.delete(["d0", "d1"])
        with pytest.raises(Exception, match="corpus path not found"):
            ws.add([tmp_path / "missing.jsonl"])
        assert ws.runs.current_id() == current
        assert len(ws.list_runs()) == 1  # refused before any run was made


SUCCESSION = {
    "report-2012": (
        "In 2012, Anna Berg became chief executive of Nordvik Shipping. Nordvik Shipping moved "
        "its headquarters to Oslo.",
        "2012-12-31",
    ),
    "report-2016": (
        "In 2016, Olaf Lund succeeded Anna Berg as chief executive of Nordvik Shipping. "
        "Berg joined the board of Halden Mining.",
        "2016-12-31",
    ),
    "profile": (
        "Anna Berg studied in Bergen. Olaf Lund worked for Halden Mining in Oslo.",
        "2010-01-01",
    ),
}


def _dated(path: Path, docs: dict[str, tuple[str, str]]) -> Path:
    path.write_text(
        "".join(
            json.dumps({"id": i, "title": i, "text": t, "metadata": {"date": d}}) + "\n"
            for i, (t, d) in sorted(docs.items())
        )
    )
    return path


def test_edges_kept_from_the_parent_equal_a_rebuild(tmp_path: Path) -> None:
    """An update keeps the parent's edges no change reaches and makes the rest again: after a
    succession is deleted (the earlier post reopens), added back (closed again), a report
    re-dated (same text, a new observation date) and a short name's long form added, every
    table equals a rebuild's, and some edges were kept each time."""
    corpus = dict(SUCCESSION)
    with Workspace(tmp_path / "live") as live:
        live.index(_dated(tmp_path / "start.jsonl", corpus))
        for step, change in enumerate(["delete", "add", "redate", "long name"]):
            if change == "delete":
                del corpus["report-2016"]
                report = live.delete(["report-2016"])
            elif change == "add":
                corpus["report-2016"] = SUCCESSION["report-2016"]
                new = {"report-2016": corpus["report-2016"]}
                report = live.add([_dated(tmp_path / f"s{step}.jsonl", new)])
            elif change == "redate":
                corpus["profile"] = (corpus["profile"][0], "2011-06-30")
                report = live.add(
                    [_dated(tmp_path / f"s{step}.jsonl", {"profile": corpus["profile"]})]
                )
            else:
                corpus["board"] = ("Anna Berg chaired the board of Halden Mining.", "2017-01-01")
                report = live.add([_dated(tmp_path / f"s{step}.jsonl", {"board": corpus["board"]})])
            resolve = {s.name: s for s in report.stages}["resolve"]
            assert 0 < resolve.info["edges_kept"] <= resolve.rows["relationships"]
            with Workspace(tmp_path / f"scratch{step}") as scratch:
                scratch.index(_dated(tmp_path / f"final{step}.jsonl", corpus))
                rebuilt = scratch.runs.current()
            updated = live.runs.current()
            for name in ("entities", "relationships", "communities", "community_reports"):
                assert updated.read_artifact(name).equals(rebuilt.read_artifact(name)), (
                    change,
                    name,
                )
        held = {
            (r["valid_from"], r["valid_to"])
            for r in live.runs.current().read_artifact("relationships").to_pylist()
            if r["predicate"] == "chief_executive_of"
        }
        assert ("2012", "2016") in held  # closed by the succession, as a rebuild closes it
