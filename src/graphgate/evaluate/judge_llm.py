"""The LLM judge: answer correctness against the gold answer and key facts, by the configured
model at temperature 0, over repeated trials (majority vote). Grounding and citation coverage
stay deterministic, since they are checkable against the retrieved context."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from graphgate.evaluate.judge import DeterministicJudge, Judgement
from graphgate.evaluate.testset import TestCase
from graphgate.llm.base import Request
from graphgate.llm.client import LLMClient
from graphgate.query.base import Answer

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"correct": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["correct"],
}
SYSTEM = (
    "You grade answers. An answer is correct when it states the gold answer (or an "
    "equivalent) and contains the key facts; extra true detail is fine. Reply as JSON."
)


class LLMJudge:
    def __init__(self, client: LLMClient, trials: int = 1) -> None:
        self.client = client
        self.trials = trials
        self.name = f"llm:{client.llm.model}"
        self.fallback = DeterministicJudge()

    def judge(self, case: TestCase, answer: Answer) -> Judgement:
        base = self.fallback.judge(case, answer)
        if not case.answer and not case.key_facts:
            return base
        votes = [self._vote(case, answer, trial) for trial in range(self.trials)]
        counted = [v for v in votes if v is not None]
        correct = sum(counted) * 2 > len(counted) if counted else base.correct
        return replace(base, correct=correct)

    def _vote(self, case: TestCase, answer: Answer, trial: int) -> bool | None:
        user = (
            f"Question: {case.question}\nGold answer: {case.answer or '(none)'}\n"
            f"Also accepted: {', '.join(case.answer_aliases) or '(none)'}\n"
            f"Key facts: {'; '.join(case.key_facts) or '(none)'}\n"
            f"Answer to grade: {answer.answer}\n(trial {trial + 1})"
        )
        completion = self.client.complete(Request(SYSTEM, user, SCHEMA, "grade", 256, 0.0))
        data = completion.data
        if data is None:
            import json

            try:
                data = json.loads(completion.text)
            except json.JSONDecodeError:
                return None
        value = data.get("correct") if isinstance(data, dict) else None
        return value if isinstance(value, bool) else None
