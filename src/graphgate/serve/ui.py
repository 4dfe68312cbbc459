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

from graphgate.core.modes import QUERY_MODES

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
        if path.is_file() and path.suffix in _TYPES
    }


def versioned_page(contents: dict[str, bytes]) -> str:
    """index.html with every shipped file's URL carrying its content hash (``?v=``), so a
    browser keeps each file until it changes, and the server's modes as the page's settings."""
    page = contents["index.html"].decode("utf-8")
    page = page.replace("{{MODES}}", ",".join(QUERY_MODES))
    for name, data in contents.items():
        version = hashlib.sha256(data).hexdigest()[:12]
        page = page.replace(f'"/ui/{name}"', f'"/ui/{name}?v={version}"')
    return page


def add_ui_routes(app: FastAPI) -> None:
    # Read once: the files ship with the package and do not change while it runs.
    contents = {name: path.read_bytes() for name, path in shipped_files().items()}
    page = versioned_page(contents)

    @app.get("/", name="ui", include_in_schema=False)
    def index() -> Response:
        headers = {**SECURITY_HEADERS, "cache-control": "no-cache"}
        return Response(page, media_type=_TYPES[".html"], headers=headers)

    @app.get("/ui/{name:path}", name="ui", include_in_schema=False)
    def asset(name: str, v: str = "") -> Response:
        data = contents.get(name)
        if data is None or name == "index.html":
            raise HTTPException(404, "no such file in the web interface")
        # Asked for by the page with its content hash: the same URL is always the same bytes.
        cache = "public, max-age=31536000, immutable" if v else "no-cache"
        return Response(
            data,
            media_type=_TYPES[Path(name).suffix],
            headers={**SECURITY_HEADERS, "cache-control": cache},
        )
