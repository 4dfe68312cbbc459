"""Any OpenAI-compatible chat endpoint: OpenAI, Ollama, vLLM, llama.cpp server, LM Studio."""

from __future__ import annotations

import json
from typing import Any

from graphgate.llm.base import Completion, KeyedProvider, LLMError, Request, Usage
from graphgate.llm.http import post_json


class OpenAICompatibleLLM(KeyedProvider):
    provider = "openai"
    env_key = "OPENAI_API_KEY"

    def complete(self, request: Request) -> Completion:
        s = self.settings
        body: dict[str, Any] = {
            "model": s.model,
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
        key = self._key()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        payload = post_json(
            s.base_url.rstrip("/") + "/chat/completions",
            body,
            headers,
            s.timeout_s,
            s.max_retries,
            s.backoff_s,
        )
        try:
            choice = payload["choices"][0]
            text = choice["message"].get("content") or ""
            usage = payload.get("usage") or {}
            return Completion(
                text=text,
                usage=Usage(
                    int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
                ),
                model=str(payload.get("model", s.model)),
                finish_reason=str(choice.get("finish_reason") or "stop"),
                data=_json_or_none(text) if request.schema is not None else None,
            )
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMError(
                "chat completion without choices[0].message",
                "point GRAPHGATE_LLM__BASE_URL at an OpenAI-compatible /v1",
            ) from exc


def _json_or_none(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
