"""Communities, reports and the graph / hybrid / global modes over real indexes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphgate import Workspace
from graphgate.app.workspace import MODES
from graphgate.core.modes import LLM_MODES
from graphgate.core.types import Community, from_table
from graphgate.index.communities import stability, undirected_edges
from graphgate.query.hybrid import HybridRetriever
from graphgate.query.modes import build_retriever
from graphgate.query.question import read_question


def test_communities_and_reports_are_in_the_store(demo_workspace: Workspace) -> None:
    run = demo_workspace.runs.current()
    communities = run.read_artifact("communities").to_pylist()
    reports = run.read_artifact("community_reports").to_pylist()
    store = demo_workspace.loaded().store
    counts = store.counts()
    assert counts["Community"] == len(communities) > 0
    assert counts["IN_COMMUNITY"] == sum(len(c["members"]) for c in communities)
    assert counts["PARENT_OF"] == sum(1 for c in communities if c["parent"])
    level0 = [m for c in communities if c["level"] == 0 for m in c["members"]]
    entity_ids = [e.id for e in store.entities()]
    assert sorted(level0) == sorted(entity_ids)  # each entity exactly once
    top = max(reports, key=lambda r: r["rating"])
    row = store.cypher(
        "MATCH (c:Community) WHERE c.id = $id RETURN c.title AS t, c.summary AS s",
        {"id": top["community_id"]},
    ).to_pylist()
    assert row == [{"t": top["title"], "s": top["summary"]}]
    # Stability across the 3 seeds is measured by the community gate, stored with the run.
    gates = json.loads(run.gates_path.read_text())
    community = next(g for g in gates["gates"] if g["gate"] == "community")
    assert len(community["details"]["communities_per_seed"]) == 3
    assert community["metrics"]["modularity"] > 0
    assert 0 < community["metrics"]["ari_min"] <= community["metrics"]["ari_mean"] <= 1
    # ... exactly what rerunning the seeds on the stage's own inputs gives.
    relations = run.read_artifact("relationships")
    edges = undirected_edges(
        *(relations[c].to_pylist() for c in ("source_id", "target_id", "weight"))
    )
    ids = run.read_artifact("entities")["id"].to_pylist()
    chosen = from_table(run.read_artifact("communities"), Community)
    settings = demo_workspace.settings
    expected = stability(ids, edges, settings.communities, settings.seed, chosen)
    assert community["metrics"]["ari_min"] == expected["ari"]["min"]
    assert community["metrics"]["nmi_min"] == expected["nmi"]["min"]
    assert community["metrics"]["modularity"] == expected["modularity_level0"]


def test_every_report_claim_traces_to_the_graph(demo_workspace: Workspace) -> None:
    store = demo_workspace.loaded().store
    edge_ids = {r.id for r in store.relationships()}
    for report in store.reports():
        claims = json.loads(report.claims_json)
        assert claims and report.summary == " ".join(c["text"] for c in claims)
        members = set(store.community(report.community_id).members)
        for claim in claims:
            if claim["kind"] == "entity":
                assert claim["ref"] in members
                description = " ".join(store.entity(claim["ref"]).description.split())
                assert claim["text"] in description
            elif claim["kind"] == "edge":
                assert claim["ref"] in edge_ids
            else:
                assert claim["text"] in " ".join(store.chunk(claim["ref"]).text.split())
            if claim["chunk_id"] is not None:
                assert claim["chunk_id"] in report.chunk_ids


@pytest.mark.parametrize("mode", [m for m in MODES if m not in LLM_MODES])
def test_every_mode_answers_with_citations_in_the_store(
    demo_workspace: Workspace, mode: str
) -> None:
    answer = demo_workspace.query("Who is Bob Cratchit's employer?", mode=mode)
    assert answer.mode == mode and answer.citations
    ids = [c.chunk_id for c in answer.citations]
    found = demo_workspace.loaded().store.cypher(
        "MATCH (c:Chunk) WHERE c.id IN $ids RETURN c.id AS id", {"ids": ids}
    )
    assert set(found["id"].to_pylist()) == set(ids)


def test_global_mode_cites_communities_and_their_chunks(demo_workspace: Workspace) -> None:
    answer = demo_workspace.query("What happens to the Cratchit family?", mode="global")
    store = demo_workspace.loaded().store
    assert answer.retrieval.communities and answer.answer.startswith("Global answer")
    for citation in answer.citations:
        assert citation.community_id is not None
        assert citation.chunk_id in store.report(citation.community_id).chunk_ids
    assert "communities" in answer.to_dict() and answer.to_dict()["communities"]


def test_graph_mode_without_dense_seeds_never_embeds(
    demo_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("graph mode without dense seeds must not use vectors")

    loaded = demo_workspace.loaded()
    settings = demo_workspace.settings.query.model_copy(update={"walk_passage_seeds": 0})
    retriever = build_retriever("graph", loaded, settings)
    monkeypatch.setattr(loaded.embedder, "embed", refuse)
    result = retriever.retrieve("Who is Bob Cratchit's employer?")
    assert result.mode == "graph" and result.chunks and result.entities
    with pytest.raises(AssertionError, match="dense seeds"):  # the default walk embeds
        build_retriever("graph", loaded, demo_workspace.settings.query).retrieve(
            "Who employs the clerk?"
        )


def test_status_reports_community_levels(demo_workspace: Workspace) -> None:
    levels = demo_workspace.status().communities
    assert "0" in levels and levels["0"]["count"] > 0 and levels["0"]["max_size"] >= 2


PAGES = [
    {
        "id": "alice",
        "title": "Alice Smith",
        "text": "Alice Smith is an engineer. Alice Smith founded Acme Corporation in 1998.",
    },
    {
        "id": "acme",
        "title": "Acme Corporation",
        "text": "Acme Corporation is a maker of anvils. The company is based in Springfield.",
    },
    {"id": "other", "title": "Bananas", "text": "Bananas are yellow fruit grown in Ecuador."},
]


def test_hybrid_follows_entity_pages(tmp_path: Path) -> None:
    corpus = tmp_path / "pages.jsonl"
    corpus.write_text("\n".join(json.dumps(p) for p in PAGES))
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
        hybrid = HybridRetriever(ws.loaded(), ws.settings.query)
        store = ws.loaded().store
        alice = [c.id for c in store.chunks() if c.doc_id == "alice"]
        links = hybrid.linked_pages(alice)
        assert [store.chunk(c).doc_id for c in links] == ["acme"]
        asked = read_question("Where is the company that Alice Smith founded based?", ws.loaded())
        result = hybrid.retrieve(asked, 2)
        assert [c.doc_id for c in result.chunks] == ["alice", "acme"]
