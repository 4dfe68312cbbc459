from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphgate.errors import InputError
from graphgate.evaluate.testset import load_testset, parse_testset, write_testset

GOOD = {
    "id": "q1",
    "question": "Who?",
    "question_type": "temporal",
    "as_of": "2001-01-01",
    "gold_edges": [["A", "*", "B"]],
    "my_field": {"x": 1},
}


def test_round_trip_keeps_unknown_fields(tmp_path: Path) -> None:
    cases = parse_testset([json.dumps(GOOD)])
    assert cases[0].gold_edges == [("A", "*", "B")] and cases[0].extras() == {"my_field": {"x": 1}}
    write_testset(cases, tmp_path / "t.jsonl")
    again = load_testset(tmp_path / "t.jsonl")
    assert again == cases


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "question": "q"', "line 2: malformed JSON"),
        (
            json.dumps({**GOOD, "id": "b", "question_type": "trivia"}),
            "line 2: field 'question_type'",
        ),
        (
            json.dumps({**GOOD, "id": "c", "gold_edges": [["A", "B"]]}),
            "line 2: field 'gold_edges.0",
        ),
        (json.dumps({"id": "d", "question_type": "global"}), "line 2: field 'question'"),
        (json.dumps(GOOD), "line 2: duplicate id"),
        ("[1, 2]", "line 2: not a JSON object"),
    ],
)
def test_a_bad_line_names_line_and_field(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_testset([json.dumps(GOOD), line])


def test_empty_or_missing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no cases"):
        parse_testset(["", "  "])
    with pytest.raises(InputError, match="not found"):
        load_testset(tmp_path / "none.jsonl")
