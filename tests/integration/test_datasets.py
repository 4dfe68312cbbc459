"""Every converter on its dataset in ../shared (skipped when absent)."""

from __future__ import annotations

import json
from pathlib import Path

from graphgate.datasets import CONVERTERS
from graphgate.datasets.graphrag_bench import parse_triples
from graphgate.evaluate.testset import load_testset
from tests.conftest import shared_path


def _corpus_ids(path: Path) -> list[str]:
    return [json.loads(x)["id"] for x in path.read_text().splitlines()]


def test_hotpotqa(tmp_path: Path) -> None:
    out = CONVERTERS["hotpotqa"](shared_path("multihop", "hotpotqa"), tmp_path)
    assert (out.documents, out.cases) == (994, 100)
    cases = load_testset(out.questions)
    ids = set(_corpus_ids(out.corpus))
    assert all(c.question_type == "multi_hop" and c.gold_docs for c in cases)
    assert all(set(c.gold_docs) <= ids for c in cases)
    assert {c.extras()["source_type"] for c in cases} == {"bridge", "comparison"}


def test_hotpotqa_style_context_and_musique_paragraphs(tmp_path: Path) -> None:
    hotpot = [
        {
            "_id": "h1",
            "question": "Q?",
            "answer": "A",
            "type": "bridge",
            "context": [["T1", ["One. ", "Two."]], ["T2", ["Three."]]],
            "supporting_facts": [["T2", 0]],
        }
    ]
    musique = [
        {
            "id": "m1",
            "question": "M?",
            "answer": "B",
            "answer_aliases": ["b"],
            "paragraphs": [
                {"idx": 0, "title": "P1", "paragraph_text": "x", "is_supporting": True},
                {"idx": 1, "title": "P2", "paragraph_text": "y", "is_supporting": False},
            ],
        }
    ]
    (tmp_path / "h.json").write_text(json.dumps(hotpot))
    (tmp_path / "m.jsonl").write_text("\n".join(json.dumps(x) for x in musique))
    h = CONVERTERS["hotpotqa"](tmp_path / "h.json", tmp_path / "h")
    assert _corpus_ids(h.corpus) == ["T1", "T2"]
    assert load_testset(h.questions)[0].gold_docs == ["T2"]
    m = CONVERTERS["hotpotqa"](tmp_path / "m.jsonl", tmp_path / "m")
    case = load_testset(m.questions)[0]
    assert case.gold_docs == ["P1"] and case.answer_aliases == ["b"]


def test_graphrag_bench(tmp_path: Path) -> None:
    out = CONVERTERS["graphrag-bench"](shared_path("global", "graphrag_bench"), tmp_path)
    cases = load_testset(out.questions)
    assert out.documents == 1 and out.cases == 99 and out.skipped == 5
    kinds = {
        t: sum(c.question_type == t for c in cases) for t in ("single_hop", "multi_hop", "global")
    }
    assert kinds == {"single_hop": 48, "multi_hop": 30, "global": 21}
    assert all(c.gold_edges for c in cases if c.question_type == "single_hop")
    assert parse_triples("(boy,digs in,garden).; (a, b ,c)") == [
        ("boy", "digs in", "garden"),
        ("a", "b", "c"),
    ]


def test_timeqa(tmp_path: Path) -> None:
    out = CONVERTERS["timeqa"](shared_path("temporal", "timeqa"), tmp_path)
    cases = load_testset(out.questions)
    # Two questions ask for a range that ends before it starts ("from 1959 to 1958"): skipped.
    assert out.documents == 257 and out.cases == 987 and out.skipped == 2
    ids = set(_corpus_ids(out.corpus))
    assert all(c.question_type == "temporal" and set(c.gold_docs) <= ids for c in cases)
    assert sum(c.as_of is not None for c in cases) > 900


def test_ramdocs(tmp_path: Path) -> None:
    out = CONVERTERS["ramdocs"](shared_path("contradiction", "ramdocs"), tmp_path)
    cases = load_testset(out.questions)
    assert out.documents == 2766 and out.cases == 500
    assert all(c.question_type == "contradiction" for c in cases)
    assert sum(bool(c.conflicting_answers) for c in cases) == 306  # the rest have no wrong answer
    first = cases[0]
    assert first.answer == "3,559 people" and first.conflicting_answers == ["10,000 people"]


def test_multihop_rag(tmp_path: Path) -> None:
    out = CONVERTERS["multihop-rag"](shared_path("multihop", "multihop_rag"), tmp_path)
    assert (out.documents, out.cases, out.skipped) == (326, 250, 0)
    cases = load_testset(out.questions)
    ids = set(_corpus_ids(out.corpus))
    unanswerable = [c for c in cases if c.question_type == "unanswerable"]
    assert len(unanswerable) == 31 and all(not c.gold_docs for c in unanswerable)
    assert all(c.gold_docs and set(c.gold_docs) <= ids for c in cases if c not in unanswerable)
    assert {c.extras()["source_type"] for c in cases} == {
        "inference_query",
        "comparison_query",
        "temporal_query",
        "null_query",
    }
    first = json.loads(out.corpus.read_text().splitlines()[0])
    assert {"source", "published_at", "url"} <= set(first["metadata"])
