"""Local retrieval's seeding over the real store and indexes of the small corpus."""

from __future__ import annotations

from graphgate import Workspace
from graphgate.query.local import LocalRetriever
from graphgate.query.question import read_question


def _retriever(ws: Workspace) -> LocalRetriever:
    return LocalRetriever(ws.loaded(), ws.settings.query)


def test_names_link_the_longest_capitalised_match(small_workspace: Workspace) -> None:
    linker = small_workspace.loaded().linker
    store = small_workspace.loaded().store
    links = linker.link("Does Ebenezer Scrooge live in london?")
    named = {store.entity(link.entity_id).name for link in links if link.kind == "name"}
    assert named == {"Ebenezer Scrooge"}  # "Scrooge" is inside the longer name
    assert linker.link("what is a house") == []


def test_linked_entities_are_the_only_seeds(small_workspace: Workspace) -> None:
    retriever = _retriever(small_workspace)
    question = "Who employs Bob Cratchit?"
    seeds = retriever.seeds(read_question(question, small_workspace.loaded()))
    assert [small_workspace.loaded().store.entity(e).name for e in seeds] == ["Bob Cratchit"]


def test_seeds_fall_back_to_vectors_and_keywords(small_workspace: Workspace) -> None:
    retriever = _retriever(small_workspace)
    question = "who is the youngest son in the family"
    assert small_workspace.loaded().linker.link(question) == []  # no names; concepts are off
    seeds = retriever.seeds(read_question(question, small_workspace.loaded()))
    assert seeds and all(0 < w < 1.0 for w in seeds.values())
