"""One string field of a JSON object read while the model is still writing it, so a structured
answer (``{"answer": "...", "short_answer": ...}``) can be shown as it is generated."""

from __future__ import annotations

import json
import re

_HEX = frozenset("0123456789abcdefABCDEF")


class JsonFieldStream:
    """Feed the pieces of a JSON text; each call returns the newly decoded characters of the
    top-level string field ``key`` (escapes decoded; an escape cut between pieces waits for
    the next). Nothing is returned before the field starts or after its closing quote."""

    def __init__(self, key: str) -> None:
        self._opening = re.compile(r'"' + re.escape(key) + r'"\s*:\s*"')
        self._buffer = ""
        self._at: int | None = None  # where the value's unread characters start
        self.done = False

    def feed(self, piece: str) -> str:
        self._buffer += piece
        if self.done:
            return ""
        if self._at is None:
            found = self._opening.search(self._buffer)
            if found is None:
                return ""
            self._at = found.end()
        raw, self._at, self.done = _scan(self._buffer, self._at)
        # strict=False: a model may write a raw line break inside the string.
        return json.loads(f'"{raw}"', strict=False) if raw else ""


def _scan(text: str, at: int) -> tuple[str, int, bool]:
    """The raw (still escaped) characters from ``at`` that form whole characters, where the
    scan stopped, and whether it reached the closing quote."""
    i = at
    while i < len(text):
        c = text[i]
        if c == '"':
            return text[at:i], i + 1, True
        if c != "\\":
            i += 1
            continue
        if i + 1 >= len(text):
            break
        if text[i + 1] != "u":
            i += 2
            continue
        if i + 6 > len(text) or not set(text[i + 2 : i + 6]) <= _HEX:
            break
        code = int(text[i + 2 : i + 6], 16)
        if 0xD800 <= code < 0xDC00:  # a high surrogate: its low half must come with it
            if i + 8 > len(text):
                break
            if text[i + 6 : i + 8] == "\\u":
                if i + 12 > len(text):
                    break
                if set(text[i + 8 : i + 12]) <= _HEX:
                    i += 12
                    continue
        i += 6
    return text[at:i], i, False
