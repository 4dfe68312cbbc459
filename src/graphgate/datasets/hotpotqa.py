"""Multi-hop paragraph datasets: HotpotQA, 2WikiMultihopQA and MuSiQue.

Three layouts are read: a ``{title: [sentences]}`` corpus file beside questions whose
``supporting_facts`` name titles (the HippoRAG subset); questions that carry their own
``context`` as ``[[title, [sentences]], ...]`` (HotpotQA, 2WikiMultihopQA); and questions with
``paragraphs`` of ``{title, paragraph_text, is_supporting}`` (MuSiQue). Every question is
multi-hop; the gold documents are the supporting titles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphgate.core.errors import InputError
from graphgate.datasets.base import ConvertedDataset, read_json, read_jsonl, write_dataset
from graphgate.evaluate.testset import TestCase


def _doc(title: str, text: str, source: str) -> dict[str, Any]:
    return {"id": title, "title": title, "text": text.strip(), "metadata": {"dataset": source}}


def _questions_file(path: Path) -> tuple[Path, Path | None]:
    if path.is_file():
        return path, None
    corpora = sorted(path.glob("*_corpus.json"))
    if corpora:
        questions = corpora[0].with_name(corpora[0].name.replace("_corpus.json", ".json"))
        return questions, corpora[0]
    candidates = sorted(path.glob("*.json")) + sorted(path.glob("*.jsonl"))
    if not candidates:
        raise InputError(f"no question file in {path}", "point at a HotpotQA-style .json file")
    return candidates[0], None


def _load_questions(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return [row for _, row in read_jsonl(path)]
    data = read_json(path)
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a list of questions", "use the dataset's question file")
    return data


def convert_hotpotqa(path: Path, out_dir: Path) -> ConvertedDataset:
    questions_file, corpus_file = _questions_file(path)
    rows = _load_questions(questions_file)
    docs: list[dict[str, Any]] = []
    if corpus_file is not None:
        corpus = read_json(corpus_file)
        docs = [_doc(title, "".join(sents), "hotpotqa") for title, sents in corpus.items()]
    cases: list[TestCase] = []
    for n, q in enumerate(rows):
        gold: list[str] = []
        if "paragraphs" in q:  # MuSiQue
            for p in q["paragraphs"]:
                docs.append(_doc(p["title"], p["paragraph_text"], "musique"))
                if p.get("is_supporting") and p["title"] not in gold:
                    gold.append(p["title"])
        else:
            for title, sentences in q.get("context", []):
                docs.append(_doc(title, "".join(sentences), "hotpotqa"))
            gold = sorted({title for title, _ in q.get("supporting_facts", [])})
        cases.append(
            TestCase.model_validate(
                {
                    "id": str(q.get("_id") or q.get("id") or n),
                    "question": q["question"],
                    "question_type": "multi_hop",
                    "answer": q.get("answer"),
                    "answer_aliases": q.get("answer_aliases", []),
                    "gold_docs": sorted(gold),
                    "source_type": q.get("type"),
                    "level": q.get("level"),
                }
            )
        )
    return write_dataset(out_dir, docs, cases)
