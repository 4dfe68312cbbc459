"""The evidenced subgraph: every mode's graph recall measured on what its chunks state."""

from __future__ import annotations

from pathlib import Path

from graphgate import Workspace
from graphgate.evaluate.evidence import IndexEvidence
from graphgate.evaluate.harness import RETRIEVAL_FAILURE, EvalHarness
from graphgate.evaluate.judge import DeterministicJudge
from graphgate.evaluate.metrics import relationship_recall
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.testset import TestCase
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.base import RetrievalResult
from graphgate.query.vector import chunk_hit


def _case(gold_edges: list[list[str]], gold_docs: list[str]) -> TestCase:
    entities = sorted({e[0] for e in gold_edges} | {e[2] for e in gold_edges})
    return TestCase.model_validate(
        {
            "id": "c1",
            "question": "Who does Bob Cratchit work for?",
            "question_type": "single_hop",
            "answer": "Ebenezer Scrooge",
            "gold_entities": entities,
            "gold_edges": gold_edges,
            "gold_docs": gold_docs,
        }
    )


def _chunks_of(ws: Workspace, doc_id: str) -> RetrievalResult:
    store = ws.loaded().store
    chunks = [chunk_hit(store, c.id, 1.0) for c in store.chunks() if c.doc_id == doc_id]
    return RetrievalResult("Who does Bob Cratchit work for?", "vector", chunks=chunks)


def test_chunks_that_state_the_gold_edge_give_full_relationship_recall(
    small_workspace: Workspace,
) -> None:
    evidence = IndexEvidence(small_workspace.loaded())
    passages = _chunks_of(small_workspace, "scrooge.txt")  # as vector mode returns them: no edges
    seen = evidence.subgraph(passages)
    assert [c.id for c in seen.chunks] == [c.id for c in passages.chunks]
    assert {"Bob Cratchit", "Ebenezer Scrooge"} <= {e.name for e in seen.entities}
    case = _case([["Bob Cratchit", "work for", "Ebenezer Scrooge"]], ["scrooge.txt"])
    assert relationship_recall(case, passages) == 0.0  # what vector mode returned
    assert relationship_recall(case, seen) == 1.0  # what its chunks state
    # Direction is kept: the reversed edge is not stated.
    reversed_case = _case([["Ebenezer Scrooge", "work for", "Bob Cratchit"]], ["scrooge.txt"])
    assert relationship_recall(reversed_case, seen) == 0.0
    # An edge whose evidence lies elsewhere does not count, even with both ends mentioned here.
    elsewhere = _case([["Fred Holywell", "nephew of", "Ebenezer Scrooge"]], ["fred.html"])
    assert relationship_recall(elsewhere, seen) == 0.0


def test_an_edge_with_one_end_in_the_chunks_does_not_count(small_workspace: Workspace) -> None:
    evidence = IndexEvidence(small_workspace.loaded())
    seen = evidence.subgraph(_chunks_of(small_workspace, "family.md"))  # Bob, not Scrooge
    names = {e.name for e in seen.entities}
    assert "Bob Cratchit" in names and "Ebenezer Scrooge" not in names
    case = _case([["Bob Cratchit", "work for", "Ebenezer Scrooge"]], ["scrooge.txt"])
    assert relationship_recall(case, seen) == 0.0
    son = _case([["Tiny Tim", "son of", "Bob Cratchit"]], ["family.md"])
    assert relationship_recall(son, seen) == 1.0


def test_the_harness_attributes_on_the_evidenced_subgraph_for_vector_mode(
    small_workspace: Workspace, tmp_path: Path
) -> None:
    loaded = small_workspace.loaded()

    class Passages:
        mode = "vector"

        def retrieve(self, question: str, top_k: int | None = None) -> RetrievalResult:
            return _chunks_of(small_workspace, "scrooge.txt")

    case = _case([["Bob Cratchit", "works for", "Ebenezer Scrooge"]], ["scrooge.txt"])
    settings = small_workspace.settings.eval
    predicates = PredicateMatcher(small_workspace.settings.extract.spacy_model)
    judge = DeterministicJudge()
    answerer = ExtractiveAnswerer(3)
    measured = EvalHarness(
        {"vector": Passages()},
        answerer,
        judge,
        settings,
        None,
        "r",
        predicates,
        IndexEvidence(loaded),
    ).evaluate(case, "vector")
    assert measured["metrics"]["relationship_recall"] == 1.0  # "works for" ~ "work_for"
    assert measured["metrics"]["relationship_recall_returned"] == 0.0
    assert measured["metrics"]["entity_recall"] == 1.0
    assert measured["failure"] != RETRIEVAL_FAILURE
    unmeasured = EvalHarness(
        {"vector": Passages()}, answerer, judge, settings, None, "r", predicates
    )
    assert unmeasured.evaluate(case, "vector")["failure"] == RETRIEVAL_FAILURE
