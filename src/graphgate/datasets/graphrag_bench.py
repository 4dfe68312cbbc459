"""GraphRAG-Bench (novel slice): one novel as the corpus, typed questions with evidence triples."""

from __future__ import annotations

import re
from pathlib import Path

from graphgate.datasets.base import ConvertedDataset, read_json, require, write_dataset
from graphgate.evaluate.testset import TestCase

QUESTION_TYPES = {
    "Fact Retrieval": "single_hop",
    "Complex Reasoning": "multi_hop",
    "Contextual Summarize": "global",
}
_TRIPLE = re.compile(r"\(([^(),]+),([^(),]+),([^()]+)\)")


def parse_triples(text: str) -> list[tuple[str, str, str]]:
    return [(a.strip(), b.strip(), c.strip()) for a, b, c in _TRIPLE.findall(text or "")]


def convert_graphrag_bench(path: Path, out_dir: Path) -> ConvertedDataset:
    """``path`` is the folder with ``NAME.txt`` and ``NAME_questions.json``."""
    questions_file = next(
        iter(sorted(path.glob("*_questions.json"))), path / "missing_questions.json"
    )
    rows = read_json(questions_file)
    name = questions_file.name.removesuffix("_questions.json")
    text = require(path / f"{name}.txt").read_text(encoding="utf-8")
    docs = [{"id": name, "title": name, "text": text, "metadata": {"dataset": "graphrag-bench"}}]
    cases: list[TestCase] = []
    skipped = 0
    for q in rows:
        qtype = QUESTION_TYPES.get(q["question_type"])
        if qtype is None:  # Creative Generation has no checkable answer
            skipped += 1
            continue
        triples = parse_triples(q.get("evidence_triple", ""))
        facts = [
            f.strip().rstrip(".") for f in re.split(r";\s*", q.get("evidence") or "") if f.strip()
        ]
        cases.append(
            TestCase.model_validate(
                {
                    "id": q["id"],
                    "question": q["question"],
                    "question_type": qtype,
                    "answer": q.get("answer"),
                    "key_facts": facts,
                    "gold_entities": sorted({x for a, _, c in triples for x in (a, c)}),
                    "gold_edges": [list(t) for t in triples],
                    "gold_docs": [name],
                    "source_type": q["question_type"],
                }
            )
        )
    return write_dataset(out_dir, docs, cases, skipped)
