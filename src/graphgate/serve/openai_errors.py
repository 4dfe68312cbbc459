"""Errors in the OpenAI API's shape (``{"error": {"message", "type", "param", "code"}}``), for
every refusal under ``/v1/``: the guard's (authentication, limits) and the routes' alike."""

from __future__ import annotations

from typing import Any

OPENAI_PREFIX = "/v1/"


def error_body(
    message: str, kind: str, code: str | None = None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def error_of_status(status: int, problem: str, fix: str | None) -> dict[str, Any]:
    """A graphgate refusal (the guard's, an exception handler's) in OpenAI's shape."""
    message = f"{problem}; {fix}" if fix else problem
    kind, code = {
        401: ("authentication_error", "invalid_api_key"),
        403: ("permission_error", "forbidden"),
        404: ("invalid_request_error", "not_found"),
        409: ("invalid_request_error", "conflict"),
        503: ("server_error", "unavailable"),
    }.get(status, ("invalid_request_error", None))
    if status in (408, 413, 421):
        code = {408: "timeout", 413: "request_too_large", 421: "misdirected_request"}[status]
    return error_body(message, kind, code)


def is_openai_path(path: str) -> bool:
    return path.startswith(OPENAI_PREFIX)
