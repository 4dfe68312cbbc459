"""Checks for what users hand in, shared by every entry point (CLI, HTTP, MCP, Python API).

One function per kind of input, so that ``--top-k 0`` is refused the same way by the command
line, a request body and an MCP tool call, and so that each refusal names the fix.
"""

from __future__ import annotations

import codecs
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from graphgate.core.errors import InputError

# More chunks than this is no longer retrieval: it is reading the corpus.
MAX_TOP_K = 100
MAX_DOCUMENT_ID_CHARS = 512
_SURROGATE = re.compile("[\ud800-\udfff]")
# Control characters (C0, DEL, C1) and the bidirectional controls: in an id they split a
# printed table row in two, or show a name reversed (U+202E) in a terminal or a page.
_UNSHOWABLE_ID = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


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


def check_question(question: str, max_chars: int) -> str:
    """A question any entry point may pass on: not empty, valid Unicode, at most ``max_chars``
    (``query.max_question_chars``) characters."""
    if not question.strip():
        raise InputError("the question is empty", "ask a question")
    if len(question) > max_chars:
        raise InputError(
            f"the question has {len(question)} characters; query.max_question_chars allows "
            f"{max_chars}",
            "ask a shorter question, or raise query.max_question_chars "
            "(GRAPHGATE_QUERY__MAX_QUESTION_CHARS)",
        )
    return check_unicode(question, "the question")


def check_document_id(doc_id: str) -> str:
    """A document id as every table, page and command shows it: 1-512 characters, no control
    or direction character, valid Unicode."""
    if not doc_id:
        raise InputError("the document id is empty", "give every document a non-empty id")
    if len(doc_id) > MAX_DOCUMENT_ID_CHARS:
        raise InputError(
            f"the document id has {len(doc_id)} characters (at most {MAX_DOCUMENT_ID_CHARS})",
            "use a shorter id or file name",
        )
    found = _UNSHOWABLE_ID.search(doc_id) or _SURROGATE.search(doc_id)
    if found is not None:
        char = found.group()
        name = unicodedata.name(char, "a control character")
        raise InputError(
            f"the document id {doc_id!r} holds U+{ord(char):04X} ({name.lower()}) at "
            f"character {found.start()}",
            "rename the file or change the id: control and direction characters break the "
            "tables and pages that show ids",
        )
    return doc_id


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


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(raw: bytes) -> str:
    """Text of a file: UTF-8, or UTF-16/32 when a byte-order mark says so; a binary file is
    refused. The problem text does not name the file: the caller does."""
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), "utf-8")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        if b"\x00" in raw:
            raise InputError(
                "a binary file (NUL bytes)",
                "remove it from the corpus or convert it to text",
            ) from exc
        raise InputError(
            f"not valid {encoding.upper().replace('-SIG', '')} (byte {exc.start})",
            "convert it, e.g. `iconv -f latin1 -t utf-8 FILE > FILE.utf8`",
        ) from exc
    if "\x00" in text:
        raise InputError(
            f"a binary file (NUL character at {text.index(chr(0))})",
            "remove it from the corpus or convert it to text",
        )
    return text


def read_text_file(path: Path, what: str) -> str:
    """A text file the user named (questions, a test set, gold triples): UTF-8, or UTF-16/32
    with a byte-order mark, as corpora are read."""
    if not path.exists():
        raise InputError(f"{what} not found: {path}", "check the path")
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder", "name a file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror}", "check permissions") from exc
    try:
        return decode_text(raw)
    except InputError as exc:
        fix = exc.fix.replace("FILE", str(path), 1)
        raise InputError(f"{what} {path} is {exc.problem}", fix) from exc


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


def read_questions(
    lines: Sequence[str], max_chars: int | None = None, source: str = "the file"
) -> list[tuple[str | None, str]]:
    """(id, question) from plain lines or test-set JSONL lines ({"id", "question"}); with
    ``max_chars`` each question is checked as :func:`check_question` does, by line."""
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
            question, qid = row["question"], str(row["id"]) if "id" in row else None
        else:
            question, qid = text, None
        if max_chars is not None:
            try:
                check_question(question, max_chars)
            except InputError as exc:
                raise InputError(f"{source} line {n}: {exc.problem}", exc.fix) from exc
        out.append((qid, question))
    return out
