"""The test-set format (JSONL, one case a line) and its strict loader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from graphgate.core.dates import parse_time, question_time
from graphgate.core.errors import InputError
from graphgate.core.inputs import check_question, read_text_file

# unanswerable: the corpus holds no answer (no gold documents); scored on answers, not recall.
# structured: a count or a list along one relation, answered best by a graph query.
QuestionType = Literal[
    "single_hop", "multi_hop", "temporal", "contradiction", "global", "unanswerable", "structured"
]
QUESTION_TYPES: tuple[str, ...] = (
    "single_hop",
    "multi_hop",
    "temporal",
    "contradiction",
    "global",
    "unanswerable",
    "structured",
)


class TestCase(BaseModel):
    """One question with its ground truth; unknown fields are kept and passed through."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __test__ = False  # not a pytest class

    id: str
    question: str = Field(min_length=1)
    question_type: QuestionType
    difficulty: Literal["easy", "medium", "hard"] | None = None
    answer: str | None = None
    answer_aliases: list[str] = Field(default_factory=list)
    key_facts: list[str] = Field(default_factory=list)
    gold_entities: list[str] = Field(default_factory=list)
    gold_edges: list[tuple[str, str, str]] = Field(default_factory=list)
    gold_docs: list[str] = Field(default_factory=list)
    as_of: str | None = None
    conflicting_answers: list[str] = Field(default_factory=list)

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_string(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value

    @field_validator("question")
    @classmethod
    def _question_time_reads(cls, value: str) -> str:
        question_time(value)  # a range that ends before it starts is refused here, by line
        return value

    @field_validator("as_of")
    @classmethod
    def _as_of_is_a_date(cls, value: str | None) -> str | None:
        if value is not None and value.strip():
            parse_time(value)  # "yesterday" is refused here, by line, before any case runs
        return value

    def extras(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def parse_testset(
    lines: list[str], source: str = "test set", max_question_chars: int | None = None
) -> list[TestCase]:
    """All cases or an error naming the first bad line and field: nothing is half-run. With
    ``max_question_chars`` (``query.max_question_chars``) a longer question is refused too."""
    cases: list[TestCase] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{source} line {number}: malformed JSON ({exc.msg})",
                "fix the line; see the test-set format in the README",
            ) from exc
        if not isinstance(row, dict):
            raise InputError(f"{source} line {number}: not a JSON object", "one case a line")
        try:
            case = TestCase.model_validate(row)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(x) for x in err["loc"]) or "(case)"
            raise InputError(
                f"{source} line {number}: field {field!r}: {err['msg']}",
                "fix the field; see the test-set format in the README",
            ) from exc
        if case.id in seen:
            raise InputError(f"{source} line {number}: duplicate id {case.id!r}", "ids are unique")
        if max_question_chars is not None:
            try:
                check_question(case.question, max_question_chars)
            except InputError as exc:
                raise InputError(f"{source} line {number}: {exc.problem}", exc.fix) from exc
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise InputError(f"{source} has no cases", "add one JSON case a line")
    return cases


def load_testset(path: Path, max_question_chars: int | None = None) -> list[TestCase]:
    lines = read_text_file(path, "test set").splitlines()
    return parse_testset(lines, str(path), max_question_chars)


def write_testset(cases: list[TestCase], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for case in cases:
            fh.write(
                json.dumps(case.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
                + "\n"
            )
