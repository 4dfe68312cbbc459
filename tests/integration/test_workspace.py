from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from graphgate import Workspace
from graphgate.core.errors import (
    EmbeddingMismatchError,
    GraphgateError,
    IndexMissingError,
    InputError,
)
from graphgate.core.runs import Run
from graphgate.core.types import Document, from_table
from graphgate.index.stages import PIPELINES
from tests.conftest import DEMO_CORPUS


def _chunk_ids_in_store(ws: Workspace, ids: list[str]) -> set[str]:
    table = ws.loaded().store.cypher(
        "MATCH (c:Chunk) WHERE c.id IN $ids RETURN c.id AS id", {"ids": ids}
    )
    return set(table["id"].to_pylist())


def test_small_corpus_index_writes_every_artifact_and_manifest(small_workspace: Workspace) -> None:
    run = small_workspace.runs.current()
    for name in (
        "documents",
        "chunks",
        "mentions",
        "raw_relations",
        "entities",
        "relationships",
        "chunk_vectors",
        "entity_vectors",
    ):
        assert run.has_artifact(name), name
    m = run.manifest().to_json()
    assert m["status"] == "complete" and m["pipeline"] == "graph"
    assert [s["name"] for s in m["stages"]] == PIPELINES["graph"].stage_names()
    assert all(s["seconds"] > 0 for s in m["stages"])
    assert sum(s["seconds"] for s in m["stages"]) <= m["seconds"]
    assert m["embedding"] == {"model": "all-MiniLM-L6-v2-int8", "dimension": 384}
    assert m["versions"]["ladybug"] != "absent" and m["seed"] == 0
    assert m["counts"]["Document"] == 3 and m["counts"]["Entity"] > 3


def test_graph_holds_the_extracted_facts(small_workspace: Workspace) -> None:
    store = small_workspace.loaded().store
    rows = store.cypher(
        "MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE r.kind = 'svo' "
        "RETURN a.name AS s, r.predicate AS p, b.name AS o"
    ).to_pylist()
    facts = {(r["s"], r["p"], r["o"]) for r in rows}
    assert ("Bob Cratchit", "work_for", "Ebenezer Scrooge") in facts
    # Every edge keeps the chunks and documents it came from.
    prov = store.cypher("MATCH ()-[r:RELATED]->() RETURN r.chunk_ids AS c, r.doc_ids AS d")
    assert all(c and d for c, d in zip(prov["c"].to_pylist(), prov["d"].to_pylist(), strict=True))


@pytest.mark.parametrize("mode", ["vector", "local"])
def test_queries_cite_chunks_that_exist(small_workspace: Workspace, mode: str) -> None:
    answer = small_workspace.query("Who does Bob Cratchit work for?", mode=mode)
    assert answer.mode == mode and answer.citations
    cited = [c.chunk_id for c in answer.citations]
    assert _chunk_ids_in_store(small_workspace, cited) == set(cited)
    documents = small_workspace.runs.current().read_artifact("documents")
    docs = {d.id: d for d in from_table(documents, Document)}
    for c in answer.citations:
        assert docs[c.doc_id].text[c.start : c.end] == c.text  # spans point into the document
    out = answer.to_dict()
    assert {"answer", "citations", "entities", "edges", "chunks", "mode", "timings_ms"} <= set(out)
    assert "Extractive answer" in out["answer"]


def test_local_mode_walks_the_graph(small_workspace: Workspace) -> None:
    answer = small_workspace.query("Who is the nephew of Ebenezer Scrooge?", mode="local")
    names = [e["name"] for e in answer.to_dict()["entities"]]
    assert "Ebenezer Scrooge" in names[:3]
    assert "Fred Holywell" in names
    assert answer.retrieval.edges


def test_status_reports_counts_and_health(small_workspace: Workspace) -> None:
    st = small_workspace.status()
    assert st.healthy and st.current_run == small_workspace.runs.current_id()
    assert st.counts["Document"] == 3 and st.embedding["dimension"] == 384


def test_two_runs_give_identical_entity_and_edge_tables(small_corpus: Path, tmp_path: Path) -> None:
    tables = []
    for name in ("one", "two"):
        with Workspace(tmp_path / name) as ws:
            ws.index(small_corpus)
            run = ws.runs.current()
            tables.append(
                [
                    pq.read_table(run.artifact_path(a))
                    for a in ("entities", "relationships", "chunks")
                ]
            )
    for a, b in zip(*tables, strict=True):
        assert a.equals(b)


def test_a_failed_run_leaves_the_previous_index_answering(
    small_workspace: Workspace, small_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = small_workspace.runs.current_id()
    answer_before = small_workspace.query("Who is Fred?", mode="local").answer

    def explode(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # an interrupted run, mid-pipeline

    monkeypatch.setattr(small_workspace.extractor, "extract", explode)
    with pytest.raises(KeyboardInterrupt):
        small_workspace.index(small_corpus, full=True)  # full: extract, not reuse the cache
    assert small_workspace.runs.current_id() == before
    failed = [
        r for r in small_workspace.list_runs() if r.manifest().to_json()["status"] == "failed"
    ]
    assert len(failed) == 1 and "KeyboardInterrupt" in str(failed[0].manifest().error)
    assert small_workspace.query("Who is Fred?", mode="local").answer == answer_before


def test_bad_corpus_never_touches_the_current_index(
    small_workspace: Workspace, tmp_path: Path
) -> None:
    before = small_workspace.runs.current_id()
    with pytest.raises(InputError, match="not found"):
        small_workspace.index(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no readable documents"):
        small_workspace.index(tmp_path / "empty")
    assert small_workspace.runs.current_id() == before
    assert small_workspace.status().healthy


def test_a_stage_reruns_alone_from_the_run_artifacts(small_workspace: Workspace) -> None:
    from graphgate.index.pipeline import IndexContext

    run = small_workspace.runs.current()
    before = pq.read_table(run.artifact_path("entities"))
    ctx = IndexContext(
        small_workspace.settings,
        Path("unused"),
        run,
        small_workspace.embedder,
        small_workspace.extractor,
    )
    reports = PIPELINES["graph"].run(ctx, only=["resolve"])
    assert [r.name for r in reports] == ["resolve"]
    assert pq.read_table(run.artifact_path("entities")).equals(before)


def test_vector_pipeline_is_a_baseline_without_entities(small_corpus: Path, tmp_path: Path) -> None:
    with Workspace(tmp_path / "v") as ws:
        report = ws.index(small_corpus, pipeline="vector")
        assert [s.name for s in report.stages] == ["load", "chunk", "embed_chunks", "graph"]
        assert report.counts["Entity"] == 0
        assert ws.query("Who is Fred?", mode="vector").citations
        with pytest.raises(GraphgateError, match="no entities"):
            ws.query("Who is Fred?", mode="local")


def test_query_errors(tmp_path: Path, small_workspace: Workspace) -> None:
    with pytest.raises(IndexMissingError, match="no index yet"):
        Workspace(tmp_path / "fresh").query("anything")
    with pytest.raises(GraphgateError, match="unknown query mode"):
        small_workspace.query("Who is Fred?", mode="telepathy")
    with pytest.raises(GraphgateError, match="empty"):
        small_workspace.query("   ")


def test_embedding_model_mismatch_is_caught_before_searching(small_workspace: Workspace) -> None:
    run: Run = small_workspace.runs.current()
    run.update_manifest(embedding={"model": "other-model", "dimension": 768})
    with pytest.raises(EmbeddingMismatchError, match="re-index"):
        small_workspace.query("Who is Fred?")


def test_missing_search_indexes_are_rebuilt_from_artifacts(small_workspace: Workspace) -> None:
    import shutil

    run = small_workspace.runs.current()
    expected = small_workspace.query("Who is Fred?", mode="vector").to_dict()["chunks"]
    small_workspace.close()
    shutil.rmtree(run.store_dir / "vectors")
    shutil.rmtree(run.store_dir / "text")
    assert small_workspace.query("Who is Fred?", mode="vector").to_dict()["chunks"] == expected
    assert (run.store_dir / "vectors" / "chunk" / "ids.json").exists()


def test_demo_corpus_answers_in_both_modes(demo_workspace: Workspace) -> None:
    st = demo_workspace.status()
    assert st.counts["Entity"] > 100 and st.counts["RELATED"] > 100
    for mode in ("vector", "local"):
        answer = demo_workspace.query("Who is Bob Cratchit's employer?", mode=mode)
        cited = [c.chunk_id for c in answer.citations]
        assert cited and _chunk_ids_in_store(demo_workspace, cited) == set(cited)
    local = demo_workspace.query("Who is Bob Cratchit's employer?", mode="local")
    assert any("Scrooge" in c.text for c in local.citations)
    manifest = demo_workspace.runs.current().manifest().to_json()
    assert json.dumps(manifest)  # serialisable
    assert manifest["corpus"] == str(DEMO_CORPUS)


def test_parallel_extraction_is_deterministic(demo_workspace: Workspace, tmp_path: Path) -> None:
    """The demo has over 200 chunks, so extraction runs in two processes; re-running extract
    and resolve from the run's own artifacts must reproduce its entity and edge tables."""
    import shutil

    from graphgate.core.runs import Run
    from graphgate.index.pipeline import IndexContext

    source = demo_workspace.runs.current()
    copy = Run(source.run_id, tmp_path / source.run_id)
    shutil.copytree(source.path, copy.path, ignore=shutil.ignore_patterns("store"))
    before = {n: pq.read_table(copy.artifact_path(n)) for n in ("entities", "relationships")}
    assert pq.read_table(copy.artifact_path("chunks")).num_rows >= 200
    ctx = IndexContext(
        demo_workspace.settings,
        Path("unused"),
        copy,
        demo_workspace.embedder,
        demo_workspace.extractor,
    )
    PIPELINES["graph"].run(ctx, only=["extract", "resolve"])
    for name, table in before.items():
        assert pq.read_table(copy.artifact_path(name)).equals(table), name


def test_the_manifest_says_where_each_setting_came_from(
    small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHGATE_QUERY__TOP_K_CHUNKS", "7")
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "graphgate.toml").write_text("seed = 5\n")
    with Workspace(tmp_path / "ws", chunk={"size_tokens": 90}) as ws:
        ws.index(small_corpus)
        manifest = ws.runs.current().manifest().to_json()
    assert manifest["settings_sources"] == {
        "chunk.size_tokens": "argument",
        "query.top_k_chunks": "env",
        "seed": "file",
    }
    assert manifest["settings"]["seed"] == 5 and manifest["settings"]["query"]["top_k_chunks"] == 7
