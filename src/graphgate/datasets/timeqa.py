"""TimeQA: Wikipedia pages with time-constrained questions; gold document = the page."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from graphgate.datasets.base import ConvertedDataset, read_json, write_dataset
from graphgate.evaluate.testset import TestCase

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def convert_timeqa(path: Path, out_dir: Path) -> ConvertedDataset:
    """``path`` is the folder (reads ``human_annotated_test.json``) or a TimeQA JSON file."""
    file = path if path.is_file() else path / "human_annotated_test.json"
    pages = read_json(file)
    docs = []
    cases: list[TestCase] = []
    skipped = 0  # questions no time answers: a range that ends before it starts
    for page in pages:
        doc_id = page["link"].rsplit("/", 1)[-1]
        paras = page["paras"]
        docs.append(
            {
                "id": doc_id,
                "title": paras[0] if paras else doc_id,
                "text": "\n\n".join(paras),
                "metadata": {"dataset": "timeqa", "relation": page.get("type")},
            }
        )
        for n, (question, answers) in enumerate(page["questions"]):
            texts = [a["answer"] for a in answers if a.get("answer")]
            years = _YEAR.findall(question)
            case = {
                "id": f"{page['index']}#{n}",
                "question": question,
                "question_type": "temporal",
                "answer": texts[0] if texts else None,
                "answer_aliases": texts[1:],
                "gold_docs": [doc_id],
                "as_of": years[0] if years else None,
                "relation": page.get("type"),
            }
            try:
                cases.append(TestCase.model_validate(case))
            except ValidationError:
                skipped += 1
    return write_dataset(out_dir, docs, cases, skipped)
