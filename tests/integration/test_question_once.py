"""One query reads its question once: hybrid mode's walk, fusion and pages share one entity
linking (one spaCy pass) and one embedding; vector mode links nothing."""

from __future__ import annotations

from typing import Any

import pytest

from graphgate import Workspace


def _count_readings(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    loaded = ws.loaded()
    seen: dict[str, list[Any]] = {"spacy": [], "embed": []}
    nlp = loaded.linker._pipeline()
    monkeypatch.setattr(
        loaded.linker, "_pipeline", lambda: lambda text: (seen["spacy"].append(text), nlp(text))[1]
    )
    embed = loaded.embedder.embed
    monkeypatch.setattr(
        loaded.embedder, "embed", lambda texts: (seen["embed"].append(list(texts)), embed(texts))[1]
    )
    return seen


@pytest.mark.parametrize("mode", ["hybrid", "local"])
def test_a_graph_query_links_and_embeds_its_question_once(
    demo_workspace: Workspace, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    question = "Who is Bob Cratchit's employer?"
    seen = _count_readings(demo_workspace, monkeypatch)
    answer = demo_workspace.query(question, mode=mode)
    assert answer.citations and answer.retrieval.entities
    assert seen["spacy"] == [question]
    assert seen["embed"] == [[question]]


def test_vector_mode_embeds_once_and_links_nothing(
    demo_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "Which of the Cratchit children is ill?"
    seen = _count_readings(demo_workspace, monkeypatch)
    demo_workspace.query(question, mode="vector")
    assert seen == {"spacy": [], "embed": [[question]]}


def test_the_result_carries_the_question_as_read(demo_workspace: Workspace) -> None:
    result = demo_workspace.retriever("hybrid").retrieve("Who employs Bob Cratchit in 1843?")
    assert result.parsed is not None and result.parsed.text == result.question
    assert result.parsed.time is not None and result.time == result.parsed.time
    assert {"employ", "bob", "cratchit"} <= result.parsed.words
    names = {
        demo_workspace.loaded().store.entity(link.entity_id).name for link in result.parsed.links
    }
    assert "Bob Cratchit" in names
