"""What every section of the settings tree shares: unknown keys refused, URLs checked."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict

OnError = Literal["skip", "fail"]


class Section(BaseModel):
    """A section of the settings tree: an unknown key is an error, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


def check_base_url(url: str) -> str:
    """An http(s) URL with a host, parsed the way the HTTP client will parse it."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a valid URL ({exc})") from exc
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValueError(
            f"{url!r} is not an http(s) URL with a host, e.g. http://localhost:8000/v1"
        )
    return url


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (user names stay: they identify)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
