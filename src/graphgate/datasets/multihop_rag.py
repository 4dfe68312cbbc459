"""MultiHop-RAG (news, 2023): articles rebuilt from evidence facts, and its questions.

Titles are headlines, not entity names, so retrieval cannot lean on entity pages. Questions name
their sources and dates, which the articles' metadata carries. Inference and comparison
questions are multi-hop, temporal ones temporal; a null query (no evidence) is ``unanswerable``:
no gold documents, left out of recall. The dataset's own type is kept as ``source_type``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphgate.core.errors import InputError
from graphgate.datasets.base import ConvertedDataset, read_jsonl, write_dataset
from graphgate.evaluate.testset import TestCase

_TYPES = {
    "inference_query": "multi_hop",
    "comparison_query": "multi_hop",
    "temporal_query": "temporal",
    "null_query": "unanswerable",
}
_META = ("source", "author", "category", "published_at", "url")


def _files(path: Path) -> tuple[Path, Path]:
    folder = path.parent if path.is_file() else path
    articles, questions = folder / "articles.jsonl", folder / "queries_dev.jsonl"
    if not articles.exists():
        raise InputError(f"no articles.jsonl in {folder}", "point at the multihop_rag folder")
    if path.is_file() and path.name != "articles.jsonl":
        questions = path
    return articles, questions


def convert_multihop_rag(path: Path, out_dir: Path) -> ConvertedDataset:
    articles_file, questions_file = _files(path)
    docs: list[dict[str, Any]] = []
    for _, a in read_jsonl(articles_file):
        docs.append(
            {
                "id": a["url"],
                "title": a["title"],
                "text": " ".join(f.strip() for f in a["facts"]),
                "metadata": {k: a[k] for k in _META if a.get(k)},
            }
        )
    known = {d["id"] for d in docs}
    cases: list[TestCase] = []
    skipped = 0
    for n, q in read_jsonl(questions_file):
        gold = sorted({e["url"] for e in q.get("evidence_list", [])})
        if any(g not in known for g in gold):
            skipped += 1  # evidence from an article outside this corpus
            continue
        kind = _TYPES.get(q.get("question_type", ""), "multi_hop")
        cases.append(
            TestCase.model_validate(
                {
                    "id": str(q.get("id", n)),
                    "question": q["question"],
                    "question_type": kind,
                    "answer": None if kind == "unanswerable" else q.get("answer"),
                    "gold_docs": [] if kind == "unanswerable" else gold,
                    "source_type": q.get("question_type"),
                }
            )
        )
    return write_dataset(out_dir, docs, cases, skipped)
