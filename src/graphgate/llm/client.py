"""The one object the stages use: a provider plus a persistent cache, token accounting, cost
and a concurrency limit. Secrets never enter the cache key or the cache."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from graphgate.core.config import LLMSettings
from graphgate.core.errors import ConfigError
from graphgate.llm.base import LLM, Completion, Request, StreamItem, Usage

T = TypeVar("T")
R = TypeVar("R")


def build_llm(settings: LLMSettings) -> LLM:
    if settings.provider == "openai":
        from graphgate.llm.openai_compat import OpenAICompatibleLLM

        return OpenAICompatibleLLM(settings)
    if settings.provider == "anthropic":
        from graphgate.llm.anthropic import AnthropicLLM

        return AnthropicLLM(settings)
    raise ConfigError(
        "no LLM is configured",
        "set GRAPHGATE_LLM__PROVIDER=openai|anthropic and GRAPHGATE_LLM__MODEL",
    )


@dataclass(eq=False)  # scopes are told apart by identity, not by their counts
class Accounting:
    calls: int = 0
    cached: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0

    def add(self, usage: Usage, cost: float) -> None:
        self.calls += 1
        self.usage = self.usage + usage
        self.cost += cost

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cached": self.cached,
            **asdict(self.usage),
            "cost": round(self.cost, 6),
        }


class ResponseCache:
    """SQLite keyed by (provider, model, prompt, parameters); one file per workspace."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT)"
            )
        return self._db

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = (
                self._conn().execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
            )
        if row is None:
            return None
        data = json.loads(row[0])
        return Completion(
            data["text"],
            Usage(**data["usage"]),
            data["model"],
            data["finish_reason"],
            True,
            data.get("data"),
        )

    def put(self, key: str, completion: Completion) -> None:
        value = json.dumps(
            {
                "text": completion.text,
                "usage": asdict(completion.usage),
                "model": completion.model,
                "finish_reason": completion.finish_reason,
                "data": completion.data,
            }
        )
        with self._lock:
            self._conn().execute("INSERT OR REPLACE INTO responses VALUES (?, ?)", (key, value))
            self._conn().commit()

    def delete(self, key: str) -> None:
        with self._lock:
            self._conn().execute("DELETE FROM responses WHERE key = ?", (key,))
            self._conn().commit()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class LLMClient:
    def __init__(self, llm: LLM, settings: LLMSettings, cache: ResponseCache | None) -> None:
        self.llm = llm
        self.settings = settings
        self.cache = cache if settings.cache else None
        # Totals over this client's life (a server's metrics); runs and evaluations read the
        # scope they opened, so a long-lived process never writes cumulative totals into them.
        self.accounting = Accounting()
        self._scopes: list[Accounting] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def scope(self) -> Iterator[Accounting]:
        """Calls, tokens and cost spent until the block ends (one index run, one evaluation)."""
        spent = Accounting()
        with self._lock:
            self._scopes.append(spent)
        try:
            yield spent
        finally:
            with self._lock:
                self._scopes.remove(spent)

    def key(self, request: Request) -> str:
        material = json.dumps([self.llm.provider, self.llm.model, asdict(request)], sort_keys=True)
        return hashlib.sha256(material.encode()).hexdigest()

    def _cached(self, key: str) -> Completion | None:
        cached = self.cache.get(key) if self.cache is not None else None
        if cached is not None:
            with self._lock:
                for account in (self.accounting, *self._scopes):
                    account.cached += 1
        return cached

    def complete(self, request: Request) -> Completion:
        key = self.key(request)
        cached = self._cached(key)
        if cached is not None:
            return cached
        completion = self.llm.complete(request)
        self._spent(key, completion)
        return completion

    def stream(self, request: Request) -> Iterator[StreamItem]:
        """The model's output as it is written, then the completion; cached like ``complete``
        (a cached answer, or one asked for without streaming, comes in one piece)."""
        key = self.key(request)
        cached = self._cached(key)
        if cached is not None:
            whole = cached.text or (json.dumps(cached.data) if cached.data is not None else "")
            if whole:
                yield whole
            yield cached
            return
        for item in self.llm.stream(request):
            if isinstance(item, Completion):
                self._spent(key, item)
            yield item

    def _spent(self, key: str, completion: Completion) -> None:
        """Counts a completion the model made, and caches it unless it was cut short."""
        price = self.settings.prices.get(self.llm.model)
        usage = completion.usage
        cost = 0.0 if price is None else price.cost(usage.prompt_tokens, usage.completion_tokens)
        with self._lock:
            for account in (self.accounting, *self._scopes):
                account.add(completion.usage, cost)
        if self.cache is not None and completion.finish_reason not in {"length", "max_tokens"}:
            self.cache.put(key, completion)

    def forget(self, request: Request) -> None:
        """Drop a cached answer the caller could not use, so a re-run asks again."""
        if self.cache is not None:
            self.cache.delete(self.key(request))

    def parallel(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        progress: Callable[[int], None] | None = None,
    ) -> list[R]:
        """``fn`` over ``items`` with at most ``concurrency`` calls in flight; results in order."""

        def one(item: T) -> R:
            result = fn(item)
            if progress is not None:
                progress(1)
            return result

        with ThreadPoolExecutor(max_workers=self.settings.concurrency) as pool:
            return list(pool.map(one, items))
