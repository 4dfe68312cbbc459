"""RAMDocs: questions over conflicting documents (correct, misinformation, noise)."""

from __future__ import annotations

from pathlib import Path

from graphgate.datasets.base import ConvertedDataset, read_jsonl, write_dataset
from graphgate.evaluate.testset import TestCase


def convert_ramdocs(path: Path, out_dir: Path) -> ConvertedDataset:
    """All documents of all questions are the corpus; wrong answers are the conflicting ones."""
    file = path if path.is_file() else path / "RAMDocs_test.jsonl"
    docs = []
    cases: list[TestCase] = []
    for n, q in read_jsonl(file):
        case_id = f"ramdocs-{n:04d}"
        gold_docs = []
        for j, d in enumerate(q["documents"]):
            doc_id = f"{case_id}-d{j}"
            docs.append(
                {
                    "id": doc_id,
                    "title": doc_id,
                    "text": d["text"],
                    "metadata": {
                        "dataset": "ramdocs",
                        "label": d["type"],
                        "answer": d.get("answer"),
                    },
                }
            )
            if d["type"] == "correct":
                gold_docs.append(doc_id)
        answers = q.get("gold_answers", [])
        cases.append(
            TestCase.model_validate(
                {
                    "id": case_id,
                    "question": q["question"],
                    "question_type": "contradiction",
                    "answer": answers[0] if answers else None,
                    "answer_aliases": answers[1:],
                    "gold_docs": gold_docs,
                    "conflicting_answers": q.get("wrong_answers", []),
                    "disambig_entity": q.get("disambig_entity", []),
                }
            )
        )
    return write_dataset(out_dir, docs, cases)
