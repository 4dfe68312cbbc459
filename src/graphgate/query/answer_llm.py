"""Answers written by the configured model from the retrieved context alone, citing it inline."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from graphgate.llm.base import Completion, LLMError, Request
from graphgate.llm.client import LLMClient
from graphgate.llm.json_stream import JsonFieldStream
from graphgate.llm.lenient import InvalidAnswer, lenient_json
from graphgate.query.answer import answered_by_rows, rows_answer
from graphgate.query.base import Answer, Citation, RetrievalResult, Turn

SYSTEM = (
    "Answer the question using only the context. Cite every statement with the marker of the "
    "passage or report it comes from, like [C1] or [K2]. If the context does not answer the "
    'question, say so. Reply with a JSON object: "answer" is your cited answer; '
    '"short_answer" is the answer in a few words (a name, a date, a number, yes or no), or '
    "null when the context does not answer the question."
)
_MARKER = re.compile(r"\[(C|K)(\d+)\]")
# The answer's shape: the cited text, and the short answer scored as readers are scored.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "short_answer": {"type": ["string", "null"]},
    },
    "required": ["answer", "short_answer"],
    "additionalProperties": False,
}


def parse_answer(text: str, data: dict[str, Any] | None = None) -> tuple[str, str | None]:
    """The model's cited answer and short answer, from its structured reply (``data``: a tool
    call's input) or its text; a reply that is not the asked JSON is the answer itself, with no
    short answer (never a guess at one)."""
    if data is None:
        try:
            data = lenient_json(text)
        except InvalidAnswer:
            return text, None
    answer, short = data.get("answer"), data.get("short_answer")
    if not isinstance(answer, str):
        return text, None
    if not isinstance(short, str) or not short.strip():
        return answer, None
    return answer, " ".join(short.split())[:200]


class LLMAnswerer:
    def __init__(self, client: LLMClient, max_tokens: int = 512) -> None:
        self.client = client
        self.max_tokens = max_tokens
        self.name = f"llm:{client.llm.model}"

    def prompt(self, result: RetrievalResult, history: Sequence[Turn] = ()) -> str:
        parts = [f"[C{i}] ({c.doc_id}) {c.text}" for i, c in enumerate(result.chunks, start=1)]
        for i, k in enumerate(result.communities, start=1):
            points = " ".join(p.text for p in k.points)
            parts.append(f"[K{i}] (community {k.title}) {points}")
        facts = [
            f"{e.source} {e.predicate.replace('_', ' ')} {e.target}" for e in result.edges[:10]
        ]
        if facts:
            parts.append("Facts: " + "; ".join(facts))
        marker = {c.id: i for i, c in enumerate(result.chunks, start=1)}
        for conflict in result.conflicts:
            a, b = conflict.sides
            parts.append(
                f"Sources disagree on the {conflict.about.replace('_', ' ')} of "
                f"{conflict.subject}: [C{marker.get(a.chunk_id, '?')}] says {a.value}, "
                f"[C{marker.get(b.chunk_id, '?')}] says {b.value}. Say that they disagree and "
                "cite both; do not pick one."
            )
        for held in result.holders:
            span = f"from {held.valid_from or '?'} to {held.valid_to or 'now'}"
            cited = ", ".join(f"[C{marker[c]}]" for c in held.chunk_ids if c in marker)
            post = held.predicate.removesuffix("_of").replace("_", " ")
            parts.append(
                f"Held then: {held.source} was {post} of {held.target} ({span}) {cited}".rstrip()
            )
        when = ""
        if result.time is not None:
            when = (
                f"\nTime: the question asks about {result.time.label}; answer for that time, from "
                "what the context says held then, and say which time you answer for."
            )
        earlier = ""
        if history:
            turns = "\n".join(f"{t.role}: {t.content}" for t in history)
            earlier = f"\n\nConversation so far (for what the question refers to):\n{turns}"
        return (
            "Context:\n" + "\n\n".join(parts) + earlier
            + f"\n\nQuestion: {result.question}{when}"
        )  # fmt: skip

    def request(self, result: RetrievalResult, history: Sequence[Turn] = ()) -> Request:
        return Request(SYSTEM, self.prompt(result, history), SCHEMA, "answer", self.max_tokens)

    def answer(self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()) -> Answer:
        if answered_by_rows(result):  # the rows are the answer; no second call needed
            return rows_answer(result, run_id)
        completion = self.client.complete(self.request(result, history))
        return self._answer(completion, result, run_id)

    def stream(
        self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()
    ) -> Iterator[str | Answer]:
        """The cited answer's text as the model writes it, then the whole :class:`Answer`
        (the same as :meth:`answer` gives for the same completion)."""
        if answered_by_rows(result):
            answer = rows_answer(result, run_id)
            yield answer.answer
            yield answer
            return
        field = JsonFieldStream("answer")
        shown: list[str] = []
        completion: Completion | None = None
        for item in self.client.stream(self.request(result, history)):
            if isinstance(item, Completion):
                completion = item
            elif piece := field.feed(item):
                shown.append(piece)
                yield piece
        if completion is None:
            raise LLMError("the model's stream ended without a completion", "retry the question")
        answer = self._answer(completion, result, run_id)
        # A reply that was not the asked JSON (or that the stream's reading lost) is shown whole,
        # or what was not yet shown of it.
        said = "".join(shown)
        if answer.answer.startswith(said) and len(answer.answer) > len(said):
            yield answer.answer[len(said) :]
        yield answer

    def _answer(self, completion: Completion, result: RetrievalResult, run_id: str) -> Answer:
        text, short = parse_answer(completion.text, completion.data)
        citations: list[Citation] = []
        seen: dict[str, int] = {}
        for kind, number in _MARKER.findall(text):
            key = f"{kind}{number}"
            index = int(number) - 1
            if key in seen:
                continue
            if kind == "C" and 0 <= index < len(result.chunks):
                c = result.chunks[index]
                citations.append(
                    Citation(len(citations) + 1, c.id, c.doc_id, c.start, c.end, c.text)
                )
            elif kind == "K" and 0 <= index < len(result.communities) and result.chunks:
                k = result.communities[index]
                chunk = next(
                    (c for c in result.chunks if any(p.chunk_id == c.id for p in k.points)),
                    result.chunks[0],
                )
                citations.append(
                    Citation(
                        len(citations) + 1,
                        chunk.id,
                        chunk.doc_id,
                        chunk.start,
                        chunk.end,
                        chunk.text,
                        k.id,
                    )
                )
            else:
                continue
            seen[key] = citations[-1].marker
        return Answer(
            result.question, result.mode, text, citations, result, self.name, run_id,
            short_answer=short,
        )  # fmt: skip
