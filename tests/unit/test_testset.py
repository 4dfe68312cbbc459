from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphgate.core.errors import InputError
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
        # Issue 27, item 10: a date that is none, and a time range no date answers, by line.
        (json.dumps({**GOOD, "id": "e", "as_of": "yesterday"}), "line 2: field 'as_of'.*yesterday"),
        (json.dumps({**GOOD, "id": "f", "as_of": "March 0 2016"}), "line 2: field 'as_of'"),
        (
            json.dumps({**GOOD, "id": "g", "question": "Who ruled from 2005 to 2004?"}),
            "line 2: field 'question'.*ends before it starts",
        ),
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


def test_a_testset_in_utf16_with_a_byte_order_mark_is_read_like_a_corpus(tmp_path: Path) -> None:
    text = json.dumps(GOOD, ensure_ascii=False) + "\n"
    for encoding in ("utf-16", "utf-8-sig", "utf-32"):
        path = tmp_path / f"{encoding}.jsonl"
        path.write_bytes(text.encode(encoding))
        assert load_testset(path)[0].id == "q1", encoding
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(text.replace("Who?", "Qui é?").encode("latin-1"))
    with pytest.raises(InputError, match="not valid UTF-8") as refused:
        load_testset(latin)
    assert str(latin) in refused.value.fix  # the fix names the file to convert


def test_a_question_over_the_limit_is_refused_by_line() -> None:
    long = {**GOOD, "id": "h", "question": "x" * 50}
    with pytest.raises(InputError, match="line 2: the question has 50 characters"):
        parse_testset([json.dumps(GOOD), json.dumps(long)], max_question_chars=40)
