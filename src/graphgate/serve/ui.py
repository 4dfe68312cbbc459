"""The web interface: one page and its scripts, served from the package, nothing from a CDN.

The page holds no data; its script reads the API with the token the reader enters, so the
interface can do exactly what that token may do over HTTP. Only the files shipped in
``serve/ui`` are served (looked up by name in a table built at start-up, never by joining a
client's path), with a content security policy that runs no inline script and loads nothing
from elsewhere: user text is put on the page as text, never as markup.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import Response

from graphgate.modes import QUERY_MODES

UI_DIR = Path(__file__).parent / "ui"
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".LICENSE": "text/plain; charset=utf-8",
}
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def shipped_files() -> dict[str, Path]:
    """Served name -> file, for every file under ``serve/ui`` with a known type."""
    return {
        path.relative_to(UI_DIR).as_posix(): path
        for path in sorted(UI_DIR.rglob("*"))
        if path.is_file() and (path.suffix in _TYPES or path.name.endswith(".LICENSE"))
    }


def _content_type(name: str) -> str:
    suffix = ".LICENSE" if name.endswith(".LICENSE") else Path(name).suffix
    return _TYPES[suffix]


def versioned_page(files: dict[str, Path]) -> str:
    """index.html with every shipped file's URL carrying its content hash (``?v=``), so a
    browser keeps each file until it changes, and the server's modes as the page's settings."""
    page = (UI_DIR / "index.html").read_text(encoding="utf-8")
    page = page.replace("{{MODES}}", ",".join(QUERY_MODES))
    for name, path in files.items():
        version = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        page = page.replace(f'"/ui/{name}"', f'"/ui/{name}?v={version}"')
    return page


def add_ui_routes(app: FastAPI) -> None:
    files = shipped_files()
    page = versioned_page(files)

    @app.get("/", name="ui", include_in_schema=False)
    def index() -> Response:
        headers = {**SECURITY_HEADERS, "cache-control": "no-cache"}
        return Response(page, media_type=_TYPES[".html"], headers=headers)

    @app.get("/ui/{name:path}", name="ui", include_in_schema=False)
    def asset(name: str, v: str = "") -> Response:
        version = v
        path = files.get(name)
        if path is None or name == "index.html":
            raise HTTPException(404, "no such file in the web interface")
        # Asked for by the page with its content hash: the same URL is always the same bytes.
        cache = "public, max-age=31536000, immutable" if version else "no-cache"
        return Response(
            path.read_bytes(),
            media_type=_content_type(name),
            headers={**SECURITY_HEADERS, "cache-control": cache},
        )
