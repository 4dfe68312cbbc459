"""HotpotQA-style data: a ``{title: [sentences]}`` corpus and questions with supporting facts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from graphgate.errors import InputError


@dataclass(frozen=True)
class ConvertedDataset:
    corpus: Path  # JSONL of {id, title, text, metadata}
    questions: Path  # JSONL of {id, question, answer, gold_docs, question_type}
    documents: int
    cases: int


def convert_hotpotqa(
    folder: Path, out_dir: Path, prefix: str = "hotpotqa_train"
) -> ConvertedDataset:
    corpus_file = folder / f"{prefix}_corpus.json"
    questions_file = folder / f"{prefix}.json"
    for f in (corpus_file, questions_file):
        if not f.exists():
            raise InputError(
                f"HotpotQA file not found: {f}", "point at the folder holding both files"
            )
    corpus = json.loads(corpus_file.read_text(encoding="utf-8"))
    questions = json.loads(questions_file.read_text(encoding="utf-8"))
    out_dir.mkdir(parents=True, exist_ok=True)
    corpus_out = out_dir / "corpus.jsonl"
    with corpus_out.open("w", encoding="utf-8") as fh:
        for title, sentences in corpus.items():
            text = "".join(sentences).strip()
            row = {"id": title, "title": title, "text": text, "metadata": {"source": "hotpotqa"}}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    questions_out = out_dir / "questions.jsonl"
    with questions_out.open("w", encoding="utf-8") as fh:
        for q in questions:
            gold = sorted({title for title, _ in q.get("supporting_facts", [])})
            row = {
                "id": q.get("_id") or q.get("id"),
                "question": q["question"],
                "question_type": "multi_hop",
                "hotpotqa_type": q.get("type"),
                "answer": q.get("answer"),
                "gold_docs": gold,
            }
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return ConvertedDataset(corpus_out, questions_out, len(corpus), len(questions))
