"""JSON over HTTP with timeouts, retries with exponential backoff (honouring Retry-After) on
rate limits and server errors, and errors that say what to fix."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from graphgate.llm.base import LLMError

RETRYABLE = {408, 409, 425, 429, 500, 502, 503, 504, 529}


def post_json(
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    timeout_s: float,
    max_retries: int,
    backoff_s: float,
    sleep: Any = time.sleep,
) -> dict[str, Any]:
    data = json.dumps(body).encode()
    attempt = 0
    while True:
        request = urllib.request.Request(
            url, data=data, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:
                payload: dict[str, Any] = json.loads(response.read())
                return payload
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
        except json.JSONDecodeError as exc:
            raise LLMError(f"{url} answered with invalid JSON", "check the server") from exc
        attempt += 1


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
