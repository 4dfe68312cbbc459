"""Chunks are embedded and keyword-indexed with their document's title, source and date, so a
question that names a source reaches it; citations still point at the passage's own text."""

from __future__ import annotations

import json
from pathlib import Path

from graphgate import Workspace
from graphgate.core.text import context_header

ARTICLES = [
    {
        "id": "verge-1",
        "title": "Chip makers report record quarter",
        "text": "Nvidia said demand for its accelerators doubled in the last quarter.",
        "metadata": {"source": "The Verge", "published_at": "2023-10-07T10:00:00+00:00"},
    },
    {
        "id": "tc-1",
        "title": "Chip makers report record quarter",
        "text": "Nvidia said demand for its accelerators doubled in the last quarter.",
        "metadata": {"source": "TechCrunch", "published_at": "2023-11-02T10:00:00+00:00"},
    },
    {
        "id": "age-1",
        "title": "Chip makers report record quarter",
        "text": "Nvidia said demand for its accelerators doubled in the last quarter.",
        "metadata": {"source": "The Age", "published_at": "2023-09-12T10:00:00+00:00"},
    },
]


def test_the_header_names_title_source_and_date_as_text_does() -> None:
    header = context_header(
        "A headline",
        {"source": "TechCrunch", "published_at": "2023-10-07T05:26:05+00:00", "label": "x"},
        ["title", "source", "author", "published_at"],
    )
    assert header == "A headline · TechCrunch · 2023-10-07 (October 7, 2023)"


def test_a_question_naming_a_source_or_date_reaches_it(tmp_path: Path) -> None:
    corpus = tmp_path / "news.jsonl"
    corpus.write_text("".join(json.dumps(a) + "\n" for a in ARTICLES))
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
        for mode in ("vector", "hybrid"):
            top = ws.query("What did TechCrunch report about Nvidia?", mode=mode, top_k=1)
            assert top.citations[0].doc_id == "tc-1", mode
            dated = ws.query("Which report was published on September 12, 2023?", mode=mode)
            assert dated.citations[0].doc_id == "age-1", mode
        # The citation is the passage itself, at its exact place in the document.
        citation = top.citations[0]
        assert citation.text == ARTICLES[1]["text"][citation.start : citation.end]
        assert "TechCrunch" not in citation.text


STRONG = "Nvidia said demand for its AI accelerators doubled in the third quarter of 2023."
COVERAGE = [
    *(
        {
            "id": f"wire-{n}",
            "title": "Nvidia demand doubles",
            "text": STRONG,
            "metadata": {"source": f"Wire {n}"},
        }
        for n in range(4)
    ),
    {
        "id": "tc-1",
        "title": "Chips",
        "text": "Analysts saw chip orders rise.",
        "metadata": {"source": "TechCrunch"},
    },
    {
        "id": "age-1",
        "title": "Markets",
        "text": "Shares of chip makers climbed on Monday.",
        "metadata": {"source": "The Age"},
    },
]


def test_hybrid_covers_every_source_the_question_names(tmp_path: Path) -> None:
    corpus = tmp_path / "news.jsonl"
    corpus.write_text("".join(json.dumps(a) + "\n" for a in COVERAGE))
    question = "Did The Age and TechCrunch report that Nvidia's AI accelerator demand doubled?"
    tops = {}
    for fields in (["source", "author"], []):
        with Workspace(tmp_path / "ws", query={"cover_fields": fields}) as ws:
            if ws.runs.current_id() is None:
                ws.index(corpus)
            if fields:
                assert ws.loaded().store.documents_by("source")["TechCrunch"] == ["tc-1"]
            chunks = ws.query(question, mode="hybrid", top_k=3).retrieval.chunks
            tops[bool(fields)] = [c.doc_id for c in chunks]
    assert {"age-1", "tc-1"} <= set(tops[True]), tops
    assert not {"age-1", "tc-1"} <= set(tops[False]), tops  # what coverage adds


NAMED_SOURCE = [
    *COVERAGE[:4],
    *(
        {
            "id": f"tc-{n}",
            "title": title,
            "text": text,
            "metadata": {"source": "TechCrunch", "author": "Dana Whitfield"},
        }
        for n, (title, text) in enumerate(
            [
                ("Chips", "Analysts saw Nvidia's chip orders rise."),
                ("Supply", "Accelerator supply stayed tight at Nvidia through the autumn."),
                ("Data centres", "Demand for data-centre chips kept growing, buyers said."),
            ]
        )
    ),
]


def test_hybrid_ranks_the_named_sources_documents_ahead_of_the_rest(tmp_path: Path) -> None:
    """Beyond the best chunk of a named source, its other documents come before stronger
    matches from sources the question does not name; a question naming none is unchanged."""
    corpus = tmp_path / "news.jsonl"
    corpus.write_text("".join(json.dumps(a) + "\n" for a in NAMED_SOURCE))
    named = {
        "What did TechCrunch report about Nvidia's AI accelerator demand?",
        "What has Dana Whitfield written about demand for Nvidia's AI accelerators?",
    }
    plain = "Did demand for Nvidia's AI accelerators double in 2023?"
    tops: dict[bool, dict[str, list[str]]] = {}
    for first in (True, False):
        with Workspace(tmp_path / "ws", query={"hybrid_named_sources_first": first}) as ws:
            if ws.runs.current_id() is None:
                ws.index(corpus)
            tops[first] = {
                q: [c.doc_id for c in ws.query(q, mode="hybrid", top_k=4).retrieval.chunks]
                for q in [*named, plain]
            }
    techcrunch = {"tc-0", "tc-1", "tc-2"}
    for q in named:
        assert techcrunch <= set(tops[True][q]), (q, tops[True][q])
        assert not techcrunch <= set(tops[False][q]), (q, tops[False][q])  # what it adds
    assert tops[True][plain] == tops[False][plain]
