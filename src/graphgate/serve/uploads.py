"""``POST /documents`` bodies: JSON records, or files as multipart/form-data (what a browser's
file input and ``curl -F file=@report.pdf`` send). The guard has bounded the body already; here
each part must be a file, and the number of parts is bounded."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.datastructures import UploadFile

from graphgate.core.errors import InputError

MAX_FILES = 1000
# The OpenAPI description of the route's two bodies (the route reads the request itself).
DOCUMENTS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/DocumentsRequest"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "description": "PDF, Word, PowerPoint, Excel, CSV, text, Markdown, "
                            "HTML or JSONL files; each is indexed under its file name.",
                        }
                    },
                }
            },
        },
    }
}


def is_multipart(request: Request) -> bool:
    return request.headers.get("content-type", "").lower().startswith("multipart/form-data")


async def uploaded_files(request: Request, max_part_bytes: int) -> list[tuple[str, bytes]]:
    """(file name, bytes) of each file part; a part that is not a file is refused."""
    try:
        form = await request.form(
            max_files=MAX_FILES, max_fields=MAX_FILES, max_part_size=max_part_bytes
        )
    except Exception as exc:  # Starlette's MultiPartException and parser errors
        raise InputError(
            f"the multipart body cannot be read ({str(exc)[:200]})",
            f"send at most {MAX_FILES} files as multipart/form-data parts; nothing changed",
        ) from exc
    files: list[tuple[str, bytes]] = []
    try:
        for field, value in form.multi_items():
            if not isinstance(value, UploadFile):
                raise InputError(
                    f"form field {field[:40]!r} is not a file",
                    "send only file parts (-F file=@report.pdf); nothing changed",
                )
            files.append((value.filename or "", await value.read()))
    finally:
        await form.close()
    return files


def validated(model: Any, raw: bytes) -> Any:
    """A JSON body checked as FastAPI checks one (the standard library's parser, then the
    model), with its 422 answer on error: a lone surrogate reaches the model's Unicode check."""
    try:
        value = json.loads(raw) if raw else None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        position = exc.pos if isinstance(exc, json.JSONDecodeError) else exc.start
        raise RequestValidationError(
            [{"type": "json_invalid", "loc": ("body", position), "msg": "JSON decode error"}]
        ) from exc
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from exc
