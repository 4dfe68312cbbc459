"""Checks for what users hand in, shared by every entry point (CLI, HTTP, MCP, Python API).

One function per kind of input, so that ``--top-k 0`` is refused the same way by the command
line, a request body and an MCP tool call, and so that each refusal names the fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from graphgate.errors import InputError

# More chunks than this is no longer retrieval: it is reading the corpus.
MAX_TOP_K = 100
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_top_k(top_k: int | None) -> int | None:
    """``None`` keeps the configured default; anything else must be 1..MAX_TOP_K."""
    if top_k is None:
        return None
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise InputError(
            f"top_k must be a whole number from 1 to {MAX_TOP_K} (got {top_k!r})",
            "pass --top-k between 1 and 100, or leave it out for the configured default",
        )
    return top_k


def surrogate_at(text: str) -> int | None:
    """Index of the first lone surrogate (``\\ud800`` from a bad JSON escape), or None."""
    found = _SURROGATE.search(text)
    return None if found is None else found.start()


def check_unicode(text: str, what: str) -> str:
    """Text that cannot be written as UTF-8 is refused before it reaches a table or a socket."""
    at = surrogate_at(text)
    if at is not None:
        raise InputError(
            f"{what} is not valid Unicode: lone surrogate {text[at]!r} at character {at}",
            "fix the \\uD8xx escape (a surrogate must come in a pair) or remove it",
        )
    return text


def check_unicode_tree(value: Any, what: str) -> Any:
    """``check_unicode`` over strings nested in dicts and lists (document metadata)."""
    if isinstance(value, str):
        check_unicode(value, what)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            check_unicode(str(key), f"{what} key")
            check_unicode_tree(item, f"{what}.{key}")
    elif isinstance(value, list | tuple):
        for item in value:
            check_unicode_tree(item, what)
    return value


def read_text_file(path: Path, what: str) -> str:
    """A UTF-8 text file the user named (questions, a test set, gold triples)."""
    if not path.exists():
        raise InputError(f"{what} not found: {path}", "check the path")
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder", "name a file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror}", "check permissions") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{what} {path} is not valid UTF-8 (byte {exc.start})",
            f"convert it, e.g. `iconv -f latin1 -t utf-8 {path} > fixed.jsonl`",
        ) from exc


def output_folder(path: Path, what: str) -> Path:
    """A folder the user wants results in: created if missing, refused if it is a file."""
    if path.exists() and not path.is_dir():
        raise InputError(
            f"{what} {path} is a file, not a folder", "name a folder (new or existing)"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"cannot create {what} {path}: {exc.strerror}", "name a folder you can write to"
        ) from exc
    return path


def output_file(path: Path, what: str) -> Path:
    """A file the user wants written: its folder is created; a folder in its place is refused."""
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder", "name a file, e.g. report.html")
    output_folder(path.parent, f"the folder of {what}")
    return path


def read_questions(lines: Sequence[str]) -> list[tuple[str | None, str]]:
    """(id, question) from plain lines or test-set JSONL lines ({"id", "question"})."""
    out: list[tuple[str | None, str]] = []
    for n, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if text.startswith("{"):
            try:
                row = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"line {n}: malformed JSON ({exc.msg})", "fix the line") from exc
            if not isinstance(row, dict) or not isinstance(row.get("question"), str):
                raise InputError(f"line {n}: no 'question' field", "add a question string")
            out.append((str(row["id"]) if "id" in row else None, row["question"]))
        else:
            out.append((None, text))
    return out
