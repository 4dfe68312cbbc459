"""A corpus without entity pages, where the second document of a multi-hop answer is reached
only through the graph: the question names the founder, the passage that answers names only
the company. Local and graph modes reach it; hybrid's fusion ranks it below two text-similar
distractors (a limit the README notes)."""

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


def test_the_graph_reaches_the_second_hop(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": i, "title": t, "text": x}) + "\n" for i, t, x in DOCS)
    )
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
        top = {
            mode: [c.doc_id for c in ws.retriever(mode).retrieve(QUESTION, 3).chunks]
            for mode in ("vector", "local", "graph")
        }
    assert "b" not in top["vector"], top  # text similarity alone misses the second hop
    assert "b" in top["local"] and "b" in top["graph"], top
