"""JSON over HTTP with timeouts, retries with exponential backoff (honouring Retry-After) on
rate limits and server errors, and errors that say what to fix; server-sent events read as
they arrive (retried only until the first byte: a stream cut midway is an error, never a
silently shorter answer)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from graphgate.llm.base import LLMError

RETRYABLE = {408, 409, 425, 429, 500, 502, 503, 504, 529}


def _open(
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    timeout_s: float,
    max_retries: int,
    backoff_s: float,
    sleep: Any,
) -> Any:
    """The open response of the first attempt the server accepted."""
    data = json.dumps(body).encode()
    attempt = 0
    while True:
        request = urllib.request.Request(
            url, data=data, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        try:
            return urllib.request.urlopen(request, timeout=timeout_s)
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:300]
            if exc.code in (401, 403):
                raise LLMError(
                    f"{url}: HTTP {exc.code} — the API key was refused",
                    "set GRAPHGATE_LLM__API_KEY (or the provider's key variable)",
                ) from exc
            if exc.code == 404:
                raise LLMError(
                    f"{url}: HTTP 404 — unknown model or endpoint ({detail})",
                    "check GRAPHGATE_LLM__MODEL and GRAPHGATE_LLM__BASE_URL",
                ) from exc
            if exc.code not in RETRYABLE or attempt >= max_retries:
                raise LLMError(
                    f"{url}: HTTP {exc.code} ({detail})",
                    "check the request and the provider's status",
                ) from exc
            wait = _retry_after(exc.headers.get("Retry-After")) if exc.headers else None
            sleep(wait if wait is not None else backoff_s * 2**attempt)
        except (urllib.error.URLError, TimeoutError) as exc:
            if attempt >= max_retries:
                raise LLMError(
                    f"cannot reach {url}: {exc}",
                    "start the model server or fix GRAPHGATE_LLM__BASE_URL",
                ) from exc
            sleep(backoff_s * 2**attempt)
        attempt += 1


def post_json(
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    timeout_s: float,
    max_retries: int,
    backoff_s: float,
    sleep: Any = time.sleep,
) -> dict[str, Any]:
    with _open(url, body, headers, timeout_s, max_retries, backoff_s, sleep) as response:
        try:
            payload: dict[str, Any] = json.loads(response.read())
        except json.JSONDecodeError as exc:
            raise LLMError(f"{url} answered with invalid JSON", "check the server") from exc
        except (OSError, TimeoutError) as exc:
            raise LLMError(f"{url}: the answer was cut off ({exc})", "retry later") from exc
    return payload


def post_events(
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    timeout_s: float,
    max_retries: int,
    backoff_s: float,
    sleep: Any = time.sleep,
) -> Iterator[dict[str, Any]]:
    """The JSON ``data:`` payloads of a server-sent event stream, in order, until ``[DONE]``
    or the end of the stream; ``timeout_s`` bounds each wait for the next bytes."""
    response = _open(url, body, headers | {"Accept": "text/event-stream"}, timeout_s,
                     max_retries, backoff_s, sleep)  # fmt: skip
    with response:
        try:
            for raw in response:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not line.startswith("data:"):
                    continue  # event names, comments, keep-alives, blank separators
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    event = json.loads(data)
                except json.JSONDecodeError as exc:
                    raise LLMError(
                        f"{url} streamed an event that is not JSON", "check the server"
                    ) from exc
                if isinstance(event, dict):
                    yield event
        except (OSError, TimeoutError) as exc:
            raise LLMError(f"{url}: the stream was cut off ({exc})", "retry later") from exc


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
