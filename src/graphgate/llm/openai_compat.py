"""Any OpenAI-compatible chat endpoint: OpenAI, Ollama, vLLM, llama.cpp server, LM Studio."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from graphgate.llm.base import Completion, KeyedProvider, LLMError, Request, StreamItem, Usage
from graphgate.llm.http import post_events, post_json


class OpenAICompatibleLLM(KeyedProvider):
    provider = "openai"
    env_key = "OPENAI_API_KEY"

    def _body(self, request: Request) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        if request.schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.schema},
            }
        return body

    def _target(self) -> dict[str, Any]:
        """The endpoint, the key and the settings' timeout and retries, as keyword arguments."""
        s = self.settings
        key = self._key()
        return {
            "url": s.base_url.rstrip("/") + "/chat/completions",
            "headers": {"Authorization": f"Bearer {key}"} if key else {},
            "timeout_s": s.timeout_s,
            "max_retries": s.max_retries,
            "backoff_s": s.backoff_s,
        }

    def complete(self, request: Request) -> Completion:
        body = self._body(request)
        payload = post_json(body=body, **self._target())
        try:
            choice = payload["choices"][0]
            text = choice["message"].get("content") or ""
            return Completion(
                text=text,
                usage=_usage(payload.get("usage")),
                model=str(payload.get("model", self.settings.model)),
                finish_reason=str(choice.get("finish_reason") or "stop"),
                data=_json_or_none(text) if request.schema is not None else None,
            )
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMError(
                "chat completion without choices[0].message",
                "point GRAPHGATE_LLM__BASE_URL at an OpenAI-compatible /v1",
            ) from exc

    def stream(self, request: Request) -> Iterator[StreamItem]:
        """``stream: true``: the content deltas as they arrive, then the whole completion."""
        body = self._body(request) | {"stream": True, "stream_options": {"include_usage": True}}
        parts: list[str] = []
        usage: dict[str, Any] | None = None
        model, finish = self.settings.model, None
        for event in post_events(body=body, **self._target()):
            if not isinstance(event.get("choices"), list):
                raise LLMError(
                    "streamed chunk without choices",
                    "point GRAPHGATE_LLM__BASE_URL at an OpenAI-compatible /v1",
                )
            model = str(event.get("model") or model)
            usage = event.get("usage") or usage
            for choice in event["choices"][:1]:
                delta = choice.get("delta") or {}
                piece = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(piece, str) and piece:
                    parts.append(piece)
                    yield piece
                if choice.get("finish_reason"):
                    finish = str(choice["finish_reason"])
        if finish is None:  # no chunk said why it stopped: the stream was cut
            raise LLMError(
                "the model's stream ended before its last chunk (no finish_reason)",
                "retry; check the server or a proxy between it and graphgate",
            )
        text = "".join(parts)
        yield Completion(
            text=text,
            usage=_usage(usage),
            model=model,
            finish_reason=finish,
            data=_json_or_none(text) if request.schema is not None else None,
        )


def _usage(usage: Any) -> Usage:
    usage = usage if isinstance(usage, dict) else {}
    return Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))


def _json_or_none(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
