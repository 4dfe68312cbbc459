"""Reading model output that is almost JSON (extraction, reports, generated queries)."""

from __future__ import annotations

import json
import re
from typing import Any


class InvalidAnswer(ValueError):
    """A model's answer that cannot be used as asked (no JSON object, wrong shape)."""


def lenient_json(text: str) -> dict[str, Any]:
    """Parse model output that is almost JSON: code fences, prose around it, trailing commas,
    raw control characters (line breaks) inside strings."""
    body = re.sub(r"^```(?:json)?|```$", "", text.strip(), flags=re.MULTILINE).strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise InvalidAnswer("no JSON object in the answer")
    body = re.sub(r",\s*([}\]])", r"\1", body[start : end + 1])
    try:
        value = json.loads(body, strict=False)  # raw line breaks inside strings too
    except json.JSONDecodeError as exc:
        raise InvalidAnswer(f"malformed JSON: {exc.msg}") from exc
    if not isinstance(value, dict):
        raise InvalidAnswer("the answer is not a JSON object")
    return value
