"""The evaluation's files are read back through their typed declarations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphgate.core.errors import InputError
from graphgate.evaluate.harness import RESULTS, read_results
from graphgate.evaluate.records import parse_summary

RECORD = {
    "case_id": "q1",
    "mode": "vector",
    "question_type": "single_hop",
    "difficulty": None,
    "question": "Who?",
    "gold_answer": "Fred",
    "answer": "Fred.",
    "metrics": {"doc_recall@5": 1.0, "entity_recall": None},
    "failure": "pass",
    "retrieved_entities": ["Fred"],
    "retrieved_edges": [["Fred", "nephew_of", "Scrooge"]],
    "retrieved_docs": ["fred.html"],
    "gold_entities": [],
    "gold_edges": [],
    "gold_docs": ["fred.html"],
    "latency_ms": {"retrieve": 1.0, "generate": 0.5},
    "extras": {},
}


def test_a_result_file_round_trips_and_a_broken_line_is_named(tmp_path: Path) -> None:
    (tmp_path / RESULTS).write_text(json.dumps(RECORD) + "\n")
    assert read_results(tmp_path) == [RECORD]
    broken = {k: v for k, v in RECORD.items() if k != "metrics"}
    (tmp_path / RESULTS).write_text(json.dumps(RECORD) + "\n" + json.dumps(broken) + "\n")
    with pytest.raises(InputError, match=f"{RESULTS}:2"):
        read_results(tmp_path)


def test_a_summary_without_its_verdicts_is_refused() -> None:
    good = {"cases": 1, "modes": {}, "verdicts": {}, "overall_verdict": "PASS", "targets": {}}
    assert parse_summary(json.dumps(good), "s.json")["cases"] == 1
    with pytest.raises(InputError, match="not an evaluation summary"):
        parse_summary(json.dumps({"modes": {}}), "s.json")
