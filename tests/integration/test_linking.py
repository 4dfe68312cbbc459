"""Entity linking over a real index of a corpus without entity pages: names, aliases, near
misses, partial names, paraphrases by embedding, and concepts; and that a linked entity seeds
the walk to a passage text similarity does not reach."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from graphgate import Workspace
from graphgate.query.linking import EntityLink

DOCS = [
    (
        "history",
        "Company history",
        "Margaret Okafor founded Brightwater Analytics in 2015. Today, Okafor leads the firm "
        "from New York City.",
    ),
    ("products", "Products", "Brightwater Analytics builds forecasting software for hospitals."),
    ("market", "Market", "The hospitals in Lagos buy software from several vendors."),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("linking")
    corpus = root / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": i, "title": t, "text": x}) + "\n" for i, t, x in DOCS)
    )
    # Names of entities seen once are embedded too, so "New York City" can be linked by embedding.
    settings = {"extract": {"concepts": True}, "embed": {"entity_name_min_chunks": 1}}
    with Workspace(root / "ws", **settings) as ws:
        ws.index(corpus)
        yield ws


def _links(ws: Workspace, question: str) -> dict[str, EntityLink]:
    store = ws.loaded().store
    return {store.entity(link.entity_id).name: link for link in ws.loaded().linker.link(question)}


def test_exact_names_link_at_full_weight(workspace: Workspace) -> None:
    links = _links(workspace, "What did Margaret Okafor found?")
    assert set(links) == {"Margaret Okafor"}
    assert links["Margaret Okafor"].kind == "name" and links["Margaret Okafor"].score == 1.0
    # Lower case is fine for a name of several words.
    assert set(_links(workspace, "what does brightwater analytics build?")) == {
        "Brightwater Analytics"
    }


def test_near_misses_link_fuzzily_below_full_weight(workspace: Workspace) -> None:
    for question, name in [
        ("What did Margaret Okafr found?", "Margaret Okafor"),
        ("Who runs Brightwatter Analytics?", "Brightwater Analytics"),
    ]:
        link = _links(workspace, question)[name]
        assert link.kind == "fuzzy" and 0.88 <= link.score < 1.0, link
    # A different name is not a near miss.
    assert _links(workspace, "Who is Margaret Thatcher?") == {}


def test_aliases_and_partial_names(workspace: Workspace) -> None:
    store = workspace.loaded().store
    okafor = next(e for e in store.entities() if e.name == "Margaret Okafor")
    assert okafor.aliases == ["Okafor"]  # resolution merged the short name into the long one
    link = _links(workspace, "What does Okafor lead?")["Margaret Okafor"]
    assert link.kind == "name" and link.score == 1.0
    # A near miss of the alias is a near miss of the entity.
    link = _links(workspace, "What does Okafr lead?")["Margaret Okafor"]
    assert link.kind == "fuzzy" and link.matched == "okafor"
    # The first or last words of exactly one name link at a lower weight.
    link = _links(workspace, "Where is Brightwater based?")["Brightwater Analytics"]
    assert link.kind == "partial" and link.score == 0.8


def test_paraphrase_links_by_embedding(workspace: Workspace) -> None:
    link = _links(workspace, "Is the firm based in NYC?")["New York City"]
    assert link.kind == "embedding" and link.score >= 0.8
    # Nothing in the graph is near an unrelated name.
    assert _links(workspace, "What is the weather like on Mars?") == {}
    with Workspace(workspace.path, query={"link_embedding_min": 0.99}) as strict:
        assert "New York City" not in {
            strict.loaded().store.entity(link.entity_id).name
            for link in strict.loaded().linker.link("Is the firm based in NYC?")
        }


def test_concepts_link_at_half_weight(workspace: Workspace) -> None:
    links = _links(workspace, "Which vendors sell to hospitals?")
    assert {"vendor", "hospital"} <= set(links)
    assert all(links[n].kind == "concept" and links[n].score == 0.5 for n in ("vendor", "hospital"))
    # A concept matched word for word is still a kind of thing, not a named entity.
    assert _links(workspace, "Where is the firm?")["firm"].kind == "concept"


def test_a_misspelt_name_still_seeds_the_walk(workspace: Workspace) -> None:
    """The walk from Margaret Okafor reaches the products passage through Brightwater Analytics;
    a misspelling of her name must not lose that."""
    for question in (
        "What does the company Margaret Okafor founded build?",
        "What does the company Margaret Okafr founded build?",
    ):
        result = workspace.retriever("graph").retrieve(question, 2)
        assert "products" in [c.doc_id for c in result.chunks], question
        assert "Margaret Okafor" in [e.name for e in result.entities]
