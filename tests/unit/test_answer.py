from __future__ import annotations

from graphgate.core.text import content_words
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.base import RetrievalResult, RetrievedChunk, RetrievedEdge, RetrievedEntity

DOC = "Intro text here. Alice Smith founded Acme Corp in Paris. The weather was mild that year."


def _result(edges: list[RetrievedEdge] | None = None) -> RetrievalResult:
    start = DOC.index("Alice")
    chunk = RetrievedChunk("c1", "d1", DOC[start:], start, len(DOC), 0.9)
    return RetrievalResult(
        "Who founded Acme Corp?",
        "local",
        [chunk],
        [RetrievedEntity("e1", "Alice Smith", "PERSON", 0.5)],
        edges or [],
    )


def test_best_sentence_is_cited_with_document_offsets() -> None:
    answer = ExtractiveAnswerer(max_sentences=1).answer(_result(), "run1")
    assert answer.answer.startswith("Extractive answer (no LLM configured)")
    [citation] = answer.citations
    assert citation.text == "Alice Smith founded Acme Corp in Paris."
    assert DOC[citation.start : citation.end] == citation.text
    assert (citation.chunk_id, citation.doc_id, citation.marker) == ("c1", "d1", 1)
    assert "[1]" in answer.answer and answer.generator == "extractive"


def test_parsed_facts_are_listed_with_their_time_span_and_citation() -> None:
    fact = RetrievedEdge(
        "r1", "e1", "Alice Smith", "found", "e2", "Acme Corp", 1.0, ["c1"], 1.0, "1998", None
    )
    cooc = RetrievedEdge(
        "r2", "e1", "Alice Smith", "co_occurs_with", "e3", "Paris", 3.0, ["c1"], 2.0
    )
    elsewhere = RetrievedEdge("r3", "e1", "Alice Smith", "visit", "e3", "Paris", 1.0, ["c9"], 0.5)
    answer = ExtractiveAnswerer(max_sentences=1).answer(_result([cooc, fact, elsewhere]), "run1")
    assert "Fact: Alice Smith —found→ Acme Corp (1998–) [1]" in answer.answer
    assert "co_occurs_with" not in answer.answer
    assert "visit" not in answer.answer  # its chunk was not retrieved, so it cannot be cited


def test_nothing_retrieved_says_so() -> None:
    empty = RetrievalResult("Who?", "vector")
    answer = ExtractiveAnswerer().answer(empty, "run1")
    assert answer.citations == [] and "No supporting text" in answer.answer


def test_content_words_drop_stopwords_and_plurals() -> None:
    assert content_words("Who founded the companies and classes?") == [
        "founded",
        "company",
        "class",
    ]


def test_the_llm_prompt_carries_the_time_and_both_sides_of_a_conflict() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from graphgate.core.dates import question_time
    from graphgate.query.answer_llm import LLMAnswerer
    from graphgate.query.base import ConflictSide, RetrievedConflict

    a_text, b_text = "The tower is 120 metres tall.", "The tower is 135 metres tall."
    chunks = [
        RetrievedChunk("ca", "a", a_text, 0, len(a_text), 0.9),
        RetrievedChunk("cb", "b", b_text, 0, len(b_text), 0.8),
    ]
    sides = (
        ConflictSide("120 metres tall", "ca", "a", 0, len(a_text), a_text, "2020-01-01"),
        ConflictSide("135 metres tall", "cb", "b", 0, len(b_text), b_text, None),
    )
    result = RetrievalResult(
        "How tall was the tower in 2021?",
        "hybrid",
        chunks,
        conflicts=[RetrievedConflict("x1", "Tower", "height", sides)],
        time=question_time("How tall was the tower in 2021?"),
    )
    # The prompt is built without calling the model: the client only names the generator.
    client = cast(Any, SimpleNamespace(llm=SimpleNamespace(model="fake-1")))
    prompt = LLMAnswerer(client).prompt(result)
    assert "Sources disagree on the height of Tower: [C1] says 120 metres tall" in prompt
    assert "[C2] says 135 metres tall" in prompt and "cite both" in prompt
    assert "the question asks about in 2021" in prompt


def test_the_llm_prompt_says_who_held_the_post_then() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from graphgate.core.dates import question_time
    from graphgate.query.answer_llm import LLMAnswerer
    from graphgate.query.base import RetrievedEdge

    text = "In May 2006, Bo Vik took over as mayor of Kettleby from Ada Lund."
    question = "Who was the mayor of Kettleby in 2010?"
    held = RetrievedEdge(
        "r", "b", "Bo Vik", "mayor_of", "k", "Kettleby", 1.0, ["c1"], 0.0, "2006-05", None
    )
    result = RetrievalResult(
        question,
        "vector",
        [RetrievedChunk("c1", "d", text, 0, len(text), 0.9)],
        time=question_time(question),
        holders=[held],
    )
    client = cast(Any, SimpleNamespace(llm=SimpleNamespace(model="fake-1")))
    prompt = LLMAnswerer(client).prompt(result)
    assert "Held then: Bo Vik was mayor of Kettleby (from 2006-05 to now) [C1]" in prompt
