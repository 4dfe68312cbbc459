"""The embedded read model: records made from memory-mapped Arrow files answer exactly as the
run's tables say, and the files are written once, by one writer, or not at all."""

from __future__ import annotations

import random
import shutil
import threading
from pathlib import Path

import pytest

from graphgate import Workspace
from graphgate.core.config import Settings
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run, RunRegistry
from graphgate.core.types import Chunk, Community, CommunityReport, Entity, Relationship, from_table
from graphgate.store import read_tables as read_tables_module
from graphgate.store.embedded_backend import EmbeddedBackend
from graphgate.store.read_tables import READ_DIR, READ_TABLES, read_tables


def test_every_record_and_lookup_is_the_tables(small_workspace_path: Path) -> None:
    run = RunRegistry(small_workspace_path).current()
    store = EmbeddedBackend().open(run, StoreRecord(backend="embedded"), Settings())
    try:
        entities = from_table(run.read_artifact("entities"), Entity)
        relationships = from_table(run.read_artifact("relationships"), Relationship)
        chunks = from_table(run.read_artifact("chunks"), Chunk)
        assert store.entities() == entities
        assert [store.entity(e.id) for e in reversed(entities)] == entities[::-1]
        assert store.relationships() == relationships
        assert [store.chunk(c.id) for c in chunks] == chunks == store.chunks()
        in_chunk: dict[str, list[str]] = {}
        for e in entities:
            for cid in e.chunk_ids:
                in_chunk.setdefault(cid, []).append(e.id)
        for chunk in chunks:
            assert store.entities_in_chunk(chunk.id) == in_chunk.get(chunk.id, [])
        rng = random.Random(5)
        ids = [e.id for e in entities]
        for size in sorted({1, 2, 5, min(20, len(ids)), len(ids)}):
            keep = set(rng.sample(ids, size)) | {"no-such-entity"}
            expected = [r for r in relationships if r.source_id in keep and r.target_id in keep]
            assert store.relations_among(keep) == expected
        assert store.relations_among([]) == []
        communities = from_table(run.read_artifact("communities"), Community)
        reports = from_table(run.read_artifact("community_reports"), CommunityReport)
        assert store.communities() == communities
        assert [store.community(c.id) for c in communities] == communities
        assert [store.report(r.community_id) for r in reports] == reports  # before reports()
        assert store.reports() == reports
        assert [store.report(r.community_id) for r in reports] == reports  # after
    finally:
        store.close()


def _answers(ws: Workspace) -> list[dict[str, object]]:
    found = []
    for mode in ("vector", "local", "hybrid", "global"):
        answer = ws.query("Who does Bob Cratchit work for?", mode=mode).to_dict()
        answer.pop("timings_ms")
        found.append(answer)
    return found


def _without_read_tables(ws: Workspace) -> Run:
    """The current run as a run indexed before the read tables existed (``ws`` closed)."""
    run = ws.runs.current()
    ws.close()
    shutil.rmtree(run.store_dir / READ_DIR)
    return run


def test_a_run_indexed_without_them_writes_them_when_opened(small_workspace: Workspace) -> None:
    folder = small_workspace.runs.current().store_dir / READ_DIR
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.arrow" for n in READ_TABLES)
    before = _answers(small_workspace)
    _without_read_tables(small_workspace)
    with Workspace(small_workspace.path) as ws:
        assert _answers(ws) == before
    assert folder.is_dir()


def test_writers_at_once_leave_one_complete_folder(small_workspace: Workspace) -> None:
    run = _without_read_tables(small_workspace)
    start = threading.Barrier(6)
    results: list[dict[str, int]] = []
    errors: list[BaseException] = []

    def open_tables() -> None:
        start.wait()
        try:
            tables = read_tables(run)
            results.append({name: table.num_rows for name, table in tables.items()})
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=open_tables) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    expected = {name: run.read_or_empty(name).num_rows for name in READ_TABLES}
    assert results == [expected] * 6
    assert [p.name for p in run.store_dir.iterdir() if p.name.startswith(".read-")] == []


def test_a_folder_that_cannot_be_written_is_read_into_memory(
    small_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _answers(small_workspace)
    run = _without_read_tables(small_workspace)
    folder = run.store_dir / READ_DIR

    def refuse(**_: object) -> str:
        raise PermissionError(13, "Permission denied", str(run.store_dir))

    monkeypatch.setattr(read_tables_module.tempfile, "mkdtemp", refuse)
    with Workspace(small_workspace.path) as ws:
        assert _answers(ws) == before
    assert not folder.exists()
