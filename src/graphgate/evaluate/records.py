"""The evaluation's typed contracts: one result per (case, mode), and the summary of a run.

Both are JSON on disk (``results.jsonl``, ``summary.json``) and typed dictionaries in code, so
mypy checks every key a reader uses, and what is read back from disk is validated with the
same declaration (a clear error instead of a KeyError deep in a report).
"""

from __future__ import annotations

import json
from typing import Any, NotRequired

from pydantic import TypeAdapter, ValidationError

# pydantic validates TypedDicts from typing_extensions on Python < 3.12.
from typing_extensions import TypedDict

from graphgate.core.errors import InputError


class EvalRecord(TypedDict):
    case_id: str
    mode: str
    question_type: str
    difficulty: str | None
    question: str
    gold_answer: str | None
    answer: str
    short_answer: NotRequired[str | None]  # the answer in a few words; None: abstained
    metrics: dict[str, float | None]
    failure: str | None  # pass, retrieval/missed-retrieval/reasoning failure, unattributed
    retrieved_entities: list[str]
    retrieved_edges: list[list[str]]  # [source, predicate, target]
    retrieved_docs: list[str]
    gold_entities: list[str]
    gold_edges: list[list[str]]
    gold_docs: list[str]
    latency_ms: dict[str, float]  # retrieve, generate, retrieve.<step>
    extras: dict[str, Any]  # the test case's own fields beyond the format


class MetricStat(TypedDict):
    mean: float | None
    measured: int
    unmeasured: int


class GroupStats(TypedDict):
    cases: int
    metrics: dict[str, MetricStat]
    failures: dict[str, int]


class ModeSummary(TypedDict):
    overall: GroupStats
    by_type: dict[str, GroupStats]


class EvalSummary(TypedDict):
    cases: int
    modes: dict[str, ModeSummary]
    verdicts: dict[str, dict[str, str]]  # mode -> metric -> PASS/WARN/FAIL/UNMEASURED
    overall_verdict: str
    targets: dict[str, float]
    # Added by the run around the aggregates:
    latency_ms: NotRequired[dict[str, dict[str, float]]]  # mode -> p50 / p95
    comparison: NotRequired[dict[str, Any]]  # paired bootstrap against the baseline mode
    run_id: NotRequired[str]
    testset: NotRequired[str]
    generator: NotRequired[str]
    judge: NotRequired[str]
    llm: NotRequired[dict[str, Any] | None]  # calls, tokens and cost of this evaluation
    # The effective settings (secrets masked) and where each explicitly set key came from.
    settings: NotRequired[dict[str, Any]]
    settings_sources: NotRequired[dict[str, str]]


_RECORD = TypeAdapter(EvalRecord)
_SUMMARY = TypeAdapter(EvalSummary)


def parse_record(line: str, where: str) -> EvalRecord:
    try:
        return _RECORD.validate_json(line)
    except ValidationError as exc:
        raise InputError(
            f"{where}: not an evaluation result ({exc.errors()[0]['msg']})",
            "re-run the evaluation into a new folder",
        ) from exc


def parse_summary(text: str, where: str) -> EvalSummary:
    try:
        return _SUMMARY.validate_python(json.loads(text))
    except (ValidationError, json.JSONDecodeError) as exc:
        raise InputError(
            f"{where}: not an evaluation summary ({exc})", "re-run `graphgate eval`"
        ) from exc
