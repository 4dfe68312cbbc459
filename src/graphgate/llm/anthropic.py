"""Anthropic's Messages API; structured output through a forced tool call."""

from __future__ import annotations

from typing import Any

from graphgate.llm.base import Completion, KeyedProvider, LLMError, Request, Usage
from graphgate.llm.http import post_json

API_VERSION = "2023-06-01"


class AnthropicLLM(KeyedProvider):
    provider = "anthropic"
    env_key = "ANTHROPIC_API_KEY"

    def complete(self, request: Request) -> Completion:
        s = self.settings
        body: dict[str, Any] = {
            "model": s.model,
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
        headers = {"anthropic-version": API_VERSION}
        key = self._key()
        if key:
            headers["x-api-key"] = key
        base = s.base_url.rstrip("/")
        url = base + ("/messages" if base.endswith("/v1") else "/v1/messages")
        payload = post_json(url, body, headers, s.timeout_s, s.max_retries, s.backoff_s)
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
