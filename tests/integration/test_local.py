"""Local retrieval's seeding over the real store and indexes of the small corpus."""

from __future__ import annotations

from graphgate import Workspace
from graphgate.query.local import LocalRetriever


def _retriever(ws: Workspace) -> LocalRetriever:
    return LocalRetriever(ws.loaded(), ws.settings.query)


def test_named_entities_prefer_the_longest_capitalised_match(small_workspace: Workspace) -> None:
    retriever = _retriever(small_workspace)
    found = retriever.named_entities("Does Ebenezer Scrooge live in london?")
    names = {small_workspace.loaded().store.entity(e).name for e in found}
    assert names == {"Ebenezer Scrooge"}  # "london" is not capitalised; "Scrooge" is inside
    assert retriever.named_entities("what is a house") == []


def test_named_entities_are_the_only_seeds(small_workspace: Workspace) -> None:
    retriever = _retriever(small_workspace)
    question = "Who employs Bob Cratchit?"
    seeds = retriever.seeds(question, small_workspace.loaded().embed_question(question))
    assert [small_workspace.loaded().store.entity(e).name for e in seeds] == ["Bob Cratchit"]


def test_seeds_fall_back_to_vectors_and_keywords(small_workspace: Workspace) -> None:
    retriever = _retriever(small_workspace)
    question = "who is the youngest son in the family"
    seeds = retriever.seeds(question, small_workspace.loaded().embed_question(question))
    assert seeds and all(0 < w < 1.0 for w in seeds.values())
