"""One query reads its question once: hybrid mode's walk, fusion and pages share one entity
linking (one spaCy pass) and one embedding; vector mode links nothing."""

from __future__ import annotations

from typing import Any

import pytest

from graphgate import Workspace


class _Counting:
    """The linker's spaCy pipeline, counting what it parses one text at a time (the question)
    apart from the reader's batches of evidence sentences."""

    def __init__(self, nlp: Any, seen: dict[str, list[Any]]) -> None:
        self.nlp, self.seen = nlp, seen

    def __call__(self, text: str) -> Any:
        self.seen["spacy"].append(text)
        return self.nlp(text)

    def pipe(self, texts: list[str]) -> Any:
        return self.nlp.pipe(texts)


def _count_readings(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """What parses and embeds the question; the reader's embedding of evidence sentences (one
    call without the question's text) is not a reading of it."""
    loaded = ws.loaded()
    seen: dict[str, list[Any]] = {"spacy": [], "embed": []}
    counting = _Counting(loaded.linker.pipeline(), seen)
    monkeypatch.setattr(loaded.linker, "pipeline", lambda: counting)
    embed = loaded.embedder.embed

    def embedding(texts: list[str]) -> Any:
        seen["embed"].append(list(texts))
        return embed(texts)

    monkeypatch.setattr(loaded.embedder, "embed", embedding)
    return seen


def _of_question(seen: dict[str, list[Any]], question: str) -> list[list[str]]:
    return [texts for texts in seen["embed"] if question in texts]


@pytest.mark.parametrize("mode", ["hybrid", "local"])
def test_a_graph_query_links_and_embeds_its_question_once(
    demo_workspace: Workspace, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    question = "Who is Bob Cratchit's employer?"
    seen = _count_readings(demo_workspace, monkeypatch)
    answer = demo_workspace.query(question, mode=mode)
    assert answer.citations and answer.retrieval.entities
    # One parse, shared by entity linking and the reader's answer type; one embedding.
    assert seen["spacy"] == [question]
    assert _of_question(seen, question) == [[question]]
    assert answer.short_answer is not None


def test_vector_mode_embeds_once_and_links_nothing(
    demo_workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "Which of the Cratchit children is ill?"
    seen = _count_readings(demo_workspace, monkeypatch)
    answer = demo_workspace.query(question, mode="vector")
    # No entity linking; the reader's one parse of the question reads its answer type.
    assert seen["spacy"] == [question] and _of_question(seen, question) == [[question]]
    parsed = answer.retrieval.parsed
    assert parsed is not None and "links" not in vars(parsed)  # never linked


def test_the_result_carries_the_question_as_read(demo_workspace: Workspace) -> None:
    result = demo_workspace.retriever("hybrid").retrieve("Who employs Bob Cratchit in 1843?")
    assert result.parsed is not None and result.parsed.text == result.question
    assert result.parsed.time is not None and result.time == result.parsed.time
    assert {"employ", "bob", "cratchit"} <= result.parsed.words
    names = {
        demo_workspace.loaded().store.entity(link.entity_id).name for link in result.parsed.links
    }
    assert "Bob Cratchit" in names
