from __future__ import annotations

from typing import Any

import pytest

from graphgate.evaluate.judge import (
    DeterministicJudge,
    answer_claims,
    key_fact_coverage,
    normalise_answer,
    numbers_match,
    token_f1,
)
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import (
    Answer,
    Citation,
    RetrievalResult,
    RetrievedChunk,
    RetrievedEdge,
)


def _case(**kw: Any) -> TestCase:
    return TestCase.model_validate(
        {"id": "c", "question": "q", "question_type": "single_hop", **kw}
    )


def _answer(text: str, cited: list[str] | None = None) -> Answer:
    chunks = [
        RetrievedChunk("c1", "d1", "Alice Smith founded Acme Corp in Paris in 1998.", 0, 47, 1.0)
    ]
    edges = [RetrievedEdge("r", "a", "Alice Smith", "found", "b", "Acme Corp", 1, ["c1"], 1.0)]
    result = RetrievalResult("q", "local", chunks=chunks, edges=edges)
    citations = [Citation(i, c, "d1", 0, 1, "x") for i, c in enumerate(cited or [], start=1)]
    return Answer("q", "local", text, citations, result, "extractive", "run")


def test_normalisation_and_token_f1() -> None:
    assert normalise_answer("The  Eiffel Tower!") == "eiffel tower"
    assert token_f1("the eiffel tower in paris", "Eiffel Tower") == pytest.approx(2 * 0.5 / 1.5)
    assert token_f1("", "x") == 0.0


def test_numbers_compare_with_tolerance() -> None:
    assert numbers_match("about 3,559 people", "3559")
    assert numbers_match("3,570 people", "3,559 people")  # within 1%
    assert not numbers_match("3,700 people", "3,559 people")
    assert not numbers_match("many", "3559")


def test_key_facts_and_claims() -> None:
    assert (
        key_fact_coverage("Alice founded Acme in Paris", ["Alice founded Acme", "Bob left"]) == 0.5
    )
    assert key_fact_coverage("x", []) is None
    text = "Extractive answer (no LLM configured):\nA one. B two! [1]\nFact: A —p→ B [2]"
    assert answer_claims(text) == ["A one.", "B two!", "Fact: A —p→ B"]


def test_judge_correctness_grounding_and_citations() -> None:
    judge = DeterministicJudge()
    ok = judge.judge(
        _case(answer="Acme Corp"), _answer("Alice Smith founded Acme Corp in Paris. [1]", ["c1"])
    )
    assert ok.correct and ok.grounding == 1.0 and ok.citation_coverage == 1.0
    alias = judge.judge(
        _case(answer="ACME Inc", answer_aliases=["Acme Corp"]), _answer("It was Acme Corp.")
    )
    assert alias.correct
    wrong = judge.judge(
        _case(answer="Globex"),
        _answer("Alice Smith founded Acme Corp. The moon is cheese. [1]", ["c1", "c9"]),
    )
    assert wrong.correct is False
    assert wrong.grounding == 0.5  # the invented sentence is unsupported
    assert wrong.citation_coverage == 0.5  # c9 was never retrieved
    fact = judge.judge(
        _case(answer="Acme Corp"), _answer("Fact: Alice Smith —found→ Acme Corp [1]")
    )
    assert fact.grounding == 1.0
    invented = judge.judge(_case(), _answer("Fact: Alice Smith —sell→ Acme Corp"))
    assert invented.grounding == 0.0 and invented.correct is None


def test_key_facts_decide_when_there_is_no_gold_answer() -> None:
    judge = DeterministicJudge()
    case = _case(key_facts=["Alice founded Acme"])
    assert judge.judge(case, _answer("Alice Smith founded Acme Corp.")).correct is True
    assert judge.judge(case, _answer("Bob did nothing.")).correct is False


def test_yes_no_answers_are_not_judged_by_containment() -> None:
    judge = DeterministicJudge()
    assert (
        judge.judge(_case(answer="no"), _answer("There is no doubt Alice founded it.")).correct
        is False
    )
    assert judge.judge(_case(answer="yes"), _answer("Yes")).correct is True


def test_a_change_of_holder_shown_as_a_disagreement_is_counted() -> None:
    from graphgate.query.base import ConflictSide, RetrievedConflict

    judge = DeterministicJudge()
    case = _case(question="Who was mayor of Kettleby?", question_type="temporal")
    case = case.model_copy(update={"answer": "Bo Vik", "as_of": "2010"})
    sides = (
        ConflictSide("Ada Lund", "c1", "d1", 0, 5, "Ada Lund became mayor.", "2001"),
        ConflictSide("Bo Vik", "c2", "d2", 0, 5, "Bo Vik became mayor.", "2006"),
    )
    shown = _answer("Sources disagree on the mayor of Kettleby: Ada Lund vs Bo Vik")
    shown.retrieval.conflicts = [RetrievedConflict("x", "Kettleby", "mayor", sides)]
    assert judge.judge(case, shown).successions_as_conflicts == 1.0
    held = _answer("The mayor of Kettleby as of 2010: Bo Vik (since 2006)")
    assert judge.judge(case, held).successions_as_conflicts == 0.0
    # Unmeasured where the gold has conflicting answers, or the question asks no time.
    disputed = case.model_copy(update={"conflicting_answers": ["Ada Lund"]})
    assert judge.judge(disputed, shown).successions_as_conflicts is None
    timeless = _case(question="Who is Bo Vik?").model_copy(update={"answer": "a mayor"})
    assert judge.judge(timeless, shown).successions_as_conflicts is None
