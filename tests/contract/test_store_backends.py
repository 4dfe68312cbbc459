"""The write side's contract, for every backend: where a run's graph goes is recorded before it
is written; what is written is what opens; an update built on its parent's graph equals a
fresh write; a failed write leaves nothing; pruning drops the graphs kept outside run folders.
Run on the embedded store, FalkorDB on a real server, and the toy backend of toy_backend.py,
which a workspace finds by name once it is registered (one ``with_backend`` call)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pytest

from graphgate import Workspace
from graphgate.core.config import Settings
from graphgate.core.errors import ConfigError
from graphgate.core.runs import COMPLETE, Run, RunRegistry
from graphgate.store.base import STORE_ARTIFACTS
from graphgate.store.registry import StoreBackends, default_backends, record_of
from tests.contract.toy_backend import ToyBackend

BACKENDS = ("embedded", "falkordb", "toy")


@dataclass
class Setup:
    registry: RunRegistry
    settings: Settings
    stores: StoreBackends
    toy: ToyBackend

    def external_graphs(self) -> set[str]:
        if self.settings.store.backend == "toy":
            return set(self.toy.graphs)
        if self.settings.store.backend == "falkordb":
            from graphgate.store.falkordb_client import FalkorDBServer

            server = FalkorDBServer(self.settings.store)
            try:
                return set(server.graphs())
            finally:
                server.close()
        return set()


@pytest.fixture(params=BACKENDS)
def setup(
    request: pytest.FixtureRequest, small_workspace_path: Path, tmp_path: Path
) -> Iterator[Setup]:
    copy = tmp_path / "ws"
    shutil.copytree(small_workspace_path, copy)
    store: dict[str, object] = {"backend": request.param, "keep_graphs": 2}
    if request.param == "falkordb":
        store |= {"url": request.getfixturevalue("falkordb_url"), "graph": tmp_path.name[-40:]}
    toy = ToyBackend()
    yield Setup(RunRegistry(copy), Settings(store=store), default_backends().with_backend(toy), toy)


def _tables(run: Run) -> dict[str, pa.Table]:
    return {n: run.read_artifact(n) for n in STORE_ARTIFACTS if run.has_artifact(n)}


def _child(setup: Setup, parent: Run, tables: dict[str, pa.Table]) -> Run:
    """A run on ``parent`` with ``tables`` as its artifacts (an update's outcome)."""
    child = setup.registry.create()
    child.update_manifest(parent_run=parent.run_id, embedding=parent.manifest().embedding)
    for name, table in tables.items():
        child.write_artifact(name, table)
    return child


def _complete(run: Run) -> None:
    run.update_manifest(status=COMPLETE)


def test_what_is_written_is_what_opens(setup: Setup) -> None:
    run = setup.registry.current()
    tables = _tables(run)
    counts = setup.stores.write(run, setup.settings, tables)
    # Recorded in the manifest, under the backend's name.
    record = record_of(run)
    assert record.backend == setup.settings.store.backend
    assert (record.graph is not None) == setup.stores.get(record.backend).external
    store = setup.stores.open(run, setup.settings)
    try:
        assert store.counts() == counts
        assert counts["Entity"] == tables["entities"].num_rows
        assert counts["Chunk"] == tables["chunks"].num_rows
        assert counts["RELATED"] == tables["relationships"].num_rows
        ids = sorted(tables["entities"]["id"].to_pylist())
        assert sorted(e.id for e in store.entities()) == ids
    finally:
        store.close()


def test_every_backend_counts_the_same_graph_alike(
    small_workspace_path: Path, falkordb_url: str, tmp_path: Path
) -> None:
    counts = {}
    for name in BACKENDS:
        copy = tmp_path / name
        shutil.copytree(small_workspace_path, copy)
        run = RunRegistry(copy).current()
        settings = Settings(store={"backend": name, "url": falkordb_url, "graph": f"alike-{name}"})
        counts[name] = (
            default_backends().with_backend(ToyBackend()).write(run, settings, _tables(run))
        )
    assert counts["embedded"] == counts["falkordb"] == counts["toy"]


def test_an_update_on_its_parent_equals_a_fresh_write(setup: Setup) -> None:
    parent = setup.registry.current()
    setup.stores.write(parent, setup.settings, _tables(parent))
    tables = _tables(parent)
    # The update drops one relation: the difference a copying backend writes.
    tables["relationships"] = tables["relationships"].slice(1)
    child = _child(setup, parent, tables)
    counts = setup.stores.write(child, setup.settings, tables, incremental=True)
    record = record_of(child)
    if setup.settings.store.backend != "embedded":
        assert record.copied_from == record_of(parent).graph  # built on the parent's graph
    fresh = _child(setup, parent, tables)
    assert setup.stores.write(fresh, setup.settings, tables, incremental=False) == counts
    assert record_of(fresh).copied_from is None
    updated = setup.stores.open(child, setup.settings)
    written = setup.stores.open(fresh, setup.settings)
    try:
        assert updated.relationships() == written.relationships()
        assert updated.entities() == written.entities() and updated.chunks() == written.chunks()
    finally:
        updated.close()
        written.close()


def test_a_failed_write_leaves_no_graph(setup: Setup) -> None:
    """A table that is not what its name says fails the write; an external backend drops what
    it had begun (the embedded store's folder belongs to a run that never becomes current)."""
    run = setup.registry.current()
    tables = _tables(run)
    tables["chunks"] = pa.table({"id": ["only an id"]})  # not a chunks table
    before = setup.external_graphs()
    with pytest.raises(Exception):  # noqa: B017 - each backend fails in its own words
        setup.stores.write(run, setup.settings, tables)
    record = record_of(run)
    assert record.backend == setup.settings.store.backend  # recorded first: prune finds it
    assert (record.graph is not None) == setup.stores.get(record.backend).external
    assert setup.external_graphs() == before


def test_prune_drops_external_graphs_beyond_keep(setup: Setup) -> None:
    first = setup.registry.current()
    setup.stores.write(first, setup.settings, _tables(first))
    runs = [first]
    for _ in range(2):
        child = _child(setup, runs[-1], _tables(first))
        setup.stores.write(child, setup.settings, _tables(first))
        _complete(child)
        runs.append(child)
    setup.registry.set_current(runs[-1])
    graphs = [record_of(r).graph for r in runs]
    dropped = setup.stores.prune(setup.registry, setup.settings)
    if not setup.stores.get(setup.settings.store.backend).external:
        assert dropped == []
        return
    # keep_graphs = 2: the current run's graph, and the newest complete one's before it.
    assert dropped == [graphs[0]]
    left = setup.external_graphs()
    assert graphs[1] in left and graphs[2] in left and graphs[0] not in left
    assert setup.stores.prune(setup.registry, setup.settings) == []  # nothing twice


def test_an_unknown_backend_is_named_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown store backend 'neo4j'.*embedded, falkordb"):
        Workspace(tmp_path / "ws", store={"backend": "neo4j"})


def test_a_registered_backend_indexes_queries_and_updates(
    small_corpus: Path, tmp_path: Path
) -> None:
    """The toy backend registered from this test module: a workspace indexes into it, answers
    from it as the embedded store does, and updates on the parent's graph."""
    toy = ToyBackend()
    stores = default_backends().with_backend(toy)
    questions = ["Who employs Bob Cratchit?", "Where does Fred live?"]
    with Workspace(tmp_path / "embedded") as embedded:
        embedded.index(small_corpus)
        expected = {
            (q, m): [c.chunk_id for c in embedded.query(q, mode=m).citations]
            for q in questions
            for m in ("vector", "local", "hybrid")
        }
    with Workspace(tmp_path / "toy", store={"backend": "toy"}, store_backends=stores) as ws:
        ws.index(small_corpus)
        assert ws.status().store["backend"] == "toy" and len(toy.graphs) == 1
        for (question, mode), cited in expected.items():
            assert [c.chunk_id for c in ws.query(question, mode=mode).citations] == cited
        ws.delete(["fred.html"])
        assert toy.copies == 1 and record_of(ws.runs.current()).copied_from is not None
        assert "fred.html" not in {c.doc_id for c in ws.query("Where does Fred live?").citations}
