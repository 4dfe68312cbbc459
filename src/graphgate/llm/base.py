"""The LLM interface and what every provider returns."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from graphgate.core.config import LLMSettings
from graphgate.core.errors import ConfigError


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage
    model: str
    finish_reason: str = "stop"
    cached: bool = False
    data: dict[str, Any] | None = field(default=None)  # structured output, when requested


@dataclass(frozen=True)
class Request:
    """One call: a system prompt, a user prompt and, optionally, a JSON schema to answer in."""

    system: str
    user: str
    schema: dict[str, Any] | None = None
    schema_name: str = "answer"
    max_tokens: int = 2048
    temperature: float = 0.0


class LLMError(ConfigError):
    """A provider failed in a way retrying will not fix (auth, unknown model, bad request)."""


# What a streamed call yields: pieces of the model's output as they arrive (its text, or the
# JSON of its structured answer), then one Completion equal to what ``complete`` returns.
StreamItem = str | Completion


class LLM(Protocol):
    provider: str
    model: str

    def complete(self, request: Request) -> Completion: ...

    def stream(self, request: Request) -> Iterator[StreamItem]: ...


class KeyedProvider:
    """Shared by the HTTP providers: settings, model, and the key from settings or ``env_key``."""

    provider = ""
    env_key = ""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.model = settings.model

    def _key(self) -> str | None:
        if self.settings.api_key is not None:
            return self.settings.api_key.get_secret_value()
        return os.environ.get(self.env_key)
