"""The OpenAI chat API over graphgate, for the clients teams already run (Open WebUI, LibreChat,
Dify, any OpenAI SDK): ``GET /v1/models`` lists one model per query mode (``graphgate-hybrid``,
…) and ``POST /v1/chat/completions`` answers the last user message with that mode, streamed as
the OpenAI chunk format when asked.

The answer's text carries its citation markers; the whole cited answer (citations with
document, span and page, entities, edges, run id) rides beside ``choices`` in a ``graphgate``
object (in the last chunk when streamed). The client's API key is the bearer token, decided by
the one access table; every error, authentication's included, has OpenAI's shape
(``{"error": {"message", "type", "param", "code"}}``).
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Iterator
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from graphgate.core.errors import GraphgateError
from graphgate.core.modes import QUERY_MODES
from graphgate.query.base import Turn
from graphgate.query.events import Answered, AnswerText, QueryEvent, QueryEvents
from graphgate.serve import sse
from graphgate.serve.openai_errors import error_body
from graphgate.serve.service import Service

MODEL_PREFIX = "graphgate-"
# Earlier turns given to a model answerer: the latest ones, each cut to a length.
MAX_TURNS = 10
MAX_TURN_CHARS = 4000


class TextPart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: Literal["text"]
    text: str


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[TextPart] | None = None

    def text(self) -> str:
        if isinstance(self.content, list):
            return "\n".join(part.text for part in self.content)
        return self.content or ""


class ChatRequest(BaseModel):
    """What graphgate reads of a chat completion request; sampling parameters (temperature,
    max_tokens, …) are accepted and not used: the answer is the configured answerer's."""

    model_config = ConfigDict(extra="ignore")
    model: str = Field(min_length=1, max_length=100)
    messages: list[ChatMessage] = Field(min_length=1, max_length=200)
    stream: bool = False
    n: int = Field(1, ge=1, le=1)


class OpenAIError(Exception):
    def __init__(
        self, status: int, message: str, kind: str, code: str | None, param: str | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.code, self.param = (
            status, message, kind, code, param,
        )  # fmt: skip


def model_names() -> list[str]:
    return [MODEL_PREFIX + mode for mode in QUERY_MODES]


def add_openai_routes(app: FastAPI, service: Service) -> None:
    @app.exception_handler(OpenAIError)
    async def openai_error(_: Request, exc: OpenAIError) -> JSONResponse:
        body = error_body(exc.message, exc.kind, exc.code, exc.param)
        return JSONResponse(body, status_code=exc.status)

    @app.get("/v1/models", name="v1.models")
    def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [
                {"id": name, "object": "model", "created": 0, "owned_by": "graphgate"}
                for name in model_names()
            ],
        }

    @app.post("/v1/chat/completions", name="v1.chat.completions", response_model=None)
    async def chat(request: Request) -> dict[str, Any] | StreamingResponse:
        body = _chat_request(await request.body())
        mode = _mode_of(body.model)
        question, history = _conversation(body.messages)
        # The query runs on worker threads, as a plain route's would; its retrieval before any
        # reply, so that a bad question or a missing index gets its status.
        events = await run_in_threadpool(service.query_stream, question, mode, None, None, history)
        first = await run_in_threadpool(next, events)
        reply = Reply(body.model)
        if body.stream:
            return sse.response(reply.chunks(first, events))
        try:
            answered = await run_in_threadpool(_last_answer, events)
        finally:
            events.close()
        return reply.completion(answered)


class Reply:
    """One answer in OpenAI's shapes: a ``chat.completion``, or its ``chat.completion.chunk``s."""

    def __init__(self, model: str) -> None:
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())
        self.model = model

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def completion(self, answer: dict[str, Any]) -> dict[str, Any]:
        message = {"role": "assistant", "content": answer["answer"], "refusal": None}
        return {
            **self._head("chat.completion"),
            "choices": [
                {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
            ],
            "usage": None,  # a model answerer's tokens are in the server's metrics
            "system_fingerprint": answer["run_id"],
            "graphgate": answer,
        }

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {**self._head("chat.completion.chunk"), "choices": [choice]}

    def chunks(self, first: QueryEvent, events: QueryEvents) -> Iterator[str]:
        """The role first, the text as it is written, then the finish with the cited answer;
        an answer that fails midway ends with an error event (what the OpenAI SDK raises)."""
        try:
            yield sse.event(self._chunk({"role": "assistant", "content": ""}))
            for item in itertools.chain([first], events):
                if isinstance(item, AnswerText):
                    yield sse.event(self._chunk({"content": item.text}))
                elif isinstance(item, Answered):
                    answer = item.answer.to_dict()
                    last = self._chunk({}, "stop") | {"system_fingerprint": answer["run_id"]}
                    yield sse.event(last | {"graphgate": answer})
            yield sse.event("[DONE]")
        except GraphgateError as exc:
            yield sse.event(error_body(f"{exc.problem}; {exc.fix}", "server_error"))
        except Exception as exc:  # the stream has begun: its end says it failed
            problem = f"the answer failed midway ({type(exc).__name__}); retry the question"
            yield sse.event(error_body(problem, "server_error"))
        finally:
            events.close()


def _chat_request(raw: bytes) -> ChatRequest:
    try:
        return ChatRequest.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        # Where and why, never the value sent: request text is not echoed back.
        message = f"invalid request: {where or 'body'}: {first.get('msg', '')}"[:300]
        raise OpenAIError(400, message, "invalid_request_error", "invalid_request", where) from exc


def _mode_of(model: str) -> str:
    mode = model.removeprefix(MODEL_PREFIX)
    if not model.startswith(MODEL_PREFIX) or mode not in QUERY_MODES:
        raise OpenAIError(
            404,
            f"unknown model; use one of {', '.join(model_names())} (GET /v1/models)",
            "invalid_request_error",
            "model_not_found",
            "model",
        )
    return mode


def _conversation(messages: list[ChatMessage]) -> tuple[str, list[Turn]]:
    """The last user message is the question; the turns before it, the history."""
    last = max((i for i, m in enumerate(messages) if m.role == "user"), default=None)
    if last is None or not messages[last].text().strip():
        raise OpenAIError(
            400,
            "no user message to answer; end messages with a user message that asks something",
            "invalid_request_error",
            "invalid_request",
            "messages",
        )
    history = [
        Turn(m.role, m.text()[:MAX_TURN_CHARS]) for m in messages[:last] if m.text().strip()
    ][-MAX_TURNS:]
    return messages[last].text(), history


def _last_answer(events: QueryEvents) -> dict[str, Any]:
    for item in events:
        if isinstance(item, Answered):
            return item.answer.to_dict()
    raise AssertionError("a query's events end with its answer")
