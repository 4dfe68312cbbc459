"""Anthropic's Messages API; structured output through a forced tool call."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from graphgate.llm.base import Completion, KeyedProvider, LLMError, Request, StreamItem, Usage
from graphgate.llm.http import post_events, post_json

API_VERSION = "2023-06-01"


class AnthropicLLM(KeyedProvider):
    provider = "anthropic"
    env_key = "ANTHROPIC_API_KEY"

    def _body(self, request: Request) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.settings.model,
            "system": request.system,
            "messages": [{"role": "user", "content": request.user}],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if request.schema is not None:
            body["tools"] = [
                {
                    "name": request.schema_name,
                    "description": "Record the answer.",
                    "input_schema": request.schema,
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": request.schema_name}
        return body

    def _target(self) -> dict[str, Any]:
        """The endpoint, the key and the settings' timeout and retries, as keyword arguments."""
        s = self.settings
        headers = {"anthropic-version": API_VERSION}
        key = self._key()
        if key:
            headers["x-api-key"] = key
        base = s.base_url.rstrip("/")
        return {
            "url": base + ("/messages" if base.endswith("/v1") else "/v1/messages"),
            "headers": headers,
            "timeout_s": s.timeout_s,
            "max_retries": s.max_retries,
            "backoff_s": s.backoff_s,
        }

    def complete(self, request: Request) -> Completion:
        s = self.settings
        payload = post_json(body=self._body(request), **self._target())
        try:
            blocks = payload["content"]
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
            tool = next((b for b in blocks if b.get("type") == "tool_use"), None)
            usage = payload.get("usage") or {}
            data = tool.get("input") if tool is not None else None
            return Completion(
                text=text,
                usage=Usage(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))),
                model=str(payload.get("model", s.model)),
                finish_reason=str(payload.get("stop_reason") or "end_turn"),
                data=data if isinstance(data, dict) else None,
            )
        except (KeyError, TypeError) as exc:
            raise LLMError(
                "Anthropic answer without content blocks",
                "point GRAPHGATE_LLM__BASE_URL at the Anthropic API",
            ) from exc

    def stream(self, request: Request) -> Iterator[StreamItem]:
        """``stream: true``: text deltas, or the forced tool's input JSON as it is written
        (``input_json_delta``), then the whole completion."""
        body = self._body(request) | {"stream": True}
        text: list[str] = []
        tool_json: list[str] = []
        usage_in = usage_out = 0
        model, finish = self.settings.model, "end_turn"
        stopped = False
        for event in post_events(body=body, **self._target()):
            kind = event.get("type")
            if kind == "error":
                error = event.get("error") or {}
                raise LLMError(
                    f"Anthropic stream error: {str(error.get('message', ''))[:200]}",
                    "retry later, or check the request",
                )
            if kind == "message_start":
                message = event.get("message") or {}
                model = str(message.get("model") or model)
                usage_in = int((message.get("usage") or {}).get("input_tokens", 0))
            elif kind == "content_block_delta":
                delta = event.get("delta") or {}
                if delta.get("type") == "text_delta" and delta.get("text"):
                    text.append(str(delta["text"]))
                    yield text[-1]
                elif delta.get("type") == "input_json_delta" and delta.get("partial_json"):
                    tool_json.append(str(delta["partial_json"]))
                    yield tool_json[-1]
            elif kind == "message_stop":
                stopped = True
            elif kind == "message_delta":
                finish = str((event.get("delta") or {}).get("stop_reason") or finish)
                usage_out = int((event.get("usage") or {}).get("output_tokens", usage_out))
        if not stopped:
            raise LLMError(
                "the model's stream ended before message_stop",
                "retry; check the server or a proxy between it and graphgate",
            )
        data: dict[str, Any] | None = None
        if tool_json:
            try:
                parsed = json.loads("".join(tool_json))
            except json.JSONDecodeError:
                parsed = None
            data = parsed if isinstance(parsed, dict) else None
        yield Completion(
            text="".join(text),
            usage=Usage(usage_in, usage_out),
            model=model,
            finish_reason=finish,
            data=data,
        )
