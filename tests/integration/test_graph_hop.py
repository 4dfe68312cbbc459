"""A corpus without entity pages, where the second document of a multi-hop answer is reached
only through the graph: the question names the founder, the passage that answers names only
the company. Local and graph modes reach it; so does hybrid, through its graph slot (fusion
alone ranks it below text-similar distractors)."""

from __future__ import annotations

import json
from pathlib import Path

from graphgate import Workspace

DOCS = [
    ("a", "Startup news", "Alice Smith founded Nordvik Shipping in 2010 after leaving the navy."),
    ("b", "Company profiles", "Nordvik Shipping is headquartered in Oslo, near the harbour."),
    ("c", "Founders", "Bob Jones founded a company headquartered in Bergen in 2011."),
    ("d", "Founders", "Carol White founded a company headquartered in Tromso in 2012."),
    ("e", "Founders", "Dan Brown founded a company headquartered in Stavanger in 2013."),
    ("f", "Founders", "Eve Black founded a company headquartered in Trondheim in 2014."),
]
QUESTION = "Where is the company that Alice Smith founded headquartered?"


def _index(tmp_path: Path, docs: list[tuple[str, str, str]]) -> Path:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": i, "title": t, "text": x}) + "\n" for i, t, x in docs)
    )
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
    return tmp_path / "ws"


def test_the_graph_reaches_the_second_hop(tmp_path: Path) -> None:
    path = _index(tmp_path, DOCS)
    with Workspace(path) as ws:
        top = {
            mode: [c.doc_id for c in ws.retriever(mode).retrieve(QUESTION, 3).chunks]
            for mode in ("vector", "local", "graph")
        }
    assert "b" not in top["vector"], top  # text similarity alone misses the second hop
    assert "b" in top["local"], top
    # Graph mode walks passages: from Alice through the passage naming her company to the
    # company's own passage, second, when the dense seeds are a twentieth of the restart (as
    # in HippoRAG 2). At graphgate's default (half), the four distractors, each as near the
    # question as the answer's first hop, keep their own mass and rank before it.
    for weight, expected in ((0.05, ["a", "b"]), (1.0, ["a", "c"])):
        with Workspace(path, query={"walk_passage_weight": weight}) as ws:
            graph = ws.retriever("graph").retrieve(QUESTION, 6).chunks
        assert [c.doc_id for c in graph][:2] == expected, (weight, graph)
        assert "b" in [c.doc_id for c in graph]


def test_hybrid_reaches_the_second_hop_through_its_graph_slot(tmp_path: Path) -> None:
    path = _index(tmp_path, DOCS)
    top = {}
    for slots in (0, 1):
        with Workspace(path, query={"hybrid_graph_slots": slots}) as ws:
            top[slots] = [c.doc_id for c in ws.retriever("hybrid").retrieve(QUESTION, 3).chunks]
    assert "b" not in top[0], top  # fusion alone: passages sharing the question's words
    assert top[1][:2] == ["a", "b"], top  # the founder's passage, then the company's


PAGES = [
    (
        "silent-orchard",
        "The Silent Orchard",
        "A novel Anna Berg wrote in 1931 about apple growers in Norway.",
    ),
    (
        "quiet-harbor",
        "Quiet Harbor",
        "A novel Olaf Lund wrote in 1948 about a fishing village in Sweden.",
    ),
    *(
        (
            f"d{n}",
            f"Readers on The Silent Orchard and Quiet Harbor, part {n}",
            f"Which is older, The Silent Orchard or Quiet Harbor? Readers of Anna Berg argue {n}.",
        )
        for n in range(5)
    ),
]
QUESTION_PAGES = "Which is older, The Silent Orchard or Quiet Harbor?"


def test_hybrid_puts_the_pages_a_question_names_first(tmp_path: Path) -> None:
    with Workspace(_index(tmp_path, PAGES)) as ws:
        chunks = ws.query(QUESTION_PAGES, top_k=3)
    top = [c.doc_id for c in chunks.retrieval.chunks]
    assert {"silent-orchard", "quiet-harbor"} <= set(top), top
    # Text similarity alone prefers the reviews that quote the question.
    with Workspace(tmp_path / "ws", query={"hybrid_links": 0}) as ws:
        plain = ws.query(QUESTION_PAGES, top_k=3)
    assert not {"silent-orchard", "quiet-harbor"} <= {c.doc_id for c in plain.retrieval.chunks}
