"""Server-sent events: how streamed answers leave the server (``POST /query/stream`` and the
OpenAI-compatible ``/v1/chat/completions`` with ``stream: true``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi.responses import StreamingResponse

# No caching, and no buffering by a proxy in front (nginx reads X-Accel-Buffering).
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def event(data: Any, name: str | None = None) -> str:
    """One event: an optional name, and its data as one line of JSON (or ``[DONE]``)."""
    body = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return (f"event: {name}\n" if name else "") + f"data: {body}\n\n"


def response(events: Iterator[str]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers=HEADERS)
