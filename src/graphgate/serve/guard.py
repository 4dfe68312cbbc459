"""The ASGI middleware in front of everything the server answers, mounts included.

Every HTTP request — API routes and the MCP endpoint alike — must name an allowed host in its
``Host`` header (a page on another origin reaches a loopback server through DNS rebinding, and
its requests then carry the attacker's host name), is named as an operation, authenticated and
decided by :class:`~graphgate.serve.auth.Authenticator` before the app sees it, and its body is
read here with a byte limit and a time limit, whatever the client declares (``Content-Length``
or chunked). The app then reads the body from memory.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.routing import Match, Mount, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphgate.serve.auth import AccessDenied, Authenticator
from graphgate.serve.openai_errors import OPENAI_PREFIX, error_of_status

ACCESS_KEY = "graphgate.caller"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def allowed_hosts(configured: list[str], bound: str) -> frozenset[str]:
    """``serve.allowed_hosts``, or by default the bound address and the loopback names;
    lower case, IPv6 addresses in brackets as a Host header writes them. "*" allows any."""
    if configured:
        return frozenset(_bracketed(h.strip().lower()) for h in configured if h.strip())
    return frozenset({*LOOPBACK_HOSTS, _bracketed(bound.lower())})


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def host_of(header: str) -> str:
    """The host of a ``Host`` header without its port: ``[::1]:8000`` -> ``[::1]``."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class _TooLarge(Exception):
    pass


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        router: Router,
        authenticator: Authenticator,
        hosts: frozenset[str],
        max_body_bytes: int,
        body_timeout_s: float,
    ) -> None:
        self.app = app
        self.router = router
        self.authenticator = authenticator
        self.hosts = hosts
        self.max_body_bytes = max_body_bytes
        self.body_timeout_s = body_timeout_s

    def operation(self, scope: Scope) -> str:
        """The access-table name of what this request reaches: a route's name, or ``mcp``."""
        partial = None
        for route in self.router.routes:
            match, _ = route.matches(scope)
            if match == Match.FULL:
                return "mcp" if isinstance(route, Mount) else str(getattr(route, "name", ""))
            if match == Match.PARTIAL and partial is None:  # the path, another method: 405
                partial = str(getattr(route, "name", ""))
        return partial or "mcp"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # nothing is served over websockets: refuse
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if "*" not in self.hosts and host_of(headers.get("host", "")) not in self.hosts:
            # The value sent is not echoed: request text never comes back in a reply.
            detail = {
                "detail": "the Host header names a host this server does not answer for",
                "fix": "use the address the server was started on, or list the host in "
                "serve.allowed_hosts (GRAPHGATE_SERVE__ALLOWED_HOSTS)",
            }
            await _reply(send, 421, detail, {"connection": "close"}, scope["path"])
            return
        caller = self.authenticator.identify_header(headers.get("authorization"))
        try:
            self.authenticator.decide(self.operation(scope), caller)
        except AccessDenied as exc:
            extra = {"www-authenticate": "Bearer"} if exc.status == 401 else {}
            denial = {"detail": exc.problem, "fix": exc.fix}
            await _reply(send, exc.status, denial, extra, scope["path"])
            return
        scope[ACCESS_KEY] = caller
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._too_large(send, scope["path"])
            return
        body: list[bytes] = []
        try:
            with anyio.fail_after(self.body_timeout_s):
                tail = await self._read_body(receive, body)
        except _TooLarge:
            await self._too_large(send, scope["path"])
            return
        except TimeoutError:
            await _reply(
                send,
                408,
                {"detail": f"request body not received within {self.body_timeout_s:g} s"},
                {"connection": "close"},
                scope["path"],
            )
            return
        await self.app(scope, _replay(b"".join(body), tail, receive), send)

    async def _read_body(self, receive: Receive, parts: list[bytes]) -> Message | None:
        """Reads up to the limit; returns a disconnect message if the client went away."""
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _TooLarge
            parts.append(chunk)
            if not message.get("more_body", False):
                return None

    async def _too_large(self, send: Send, path: str) -> None:
        await _reply(
            send,
            413,
            {"detail": f"request body over {self.max_body_bytes} bytes"},
            {"connection": "close"},
            path,
        )


def _replay(body: bytes, tail: Message | None, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            if tail is not None:
                return tail
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _reply(
    send: Send, status: int, payload: dict[str, Any], headers: dict[str, str], path: str = ""
) -> None:
    if path.startswith(OPENAI_PREFIX):  # the OpenAI-compatible API refuses in OpenAI's shape
        payload = error_of_status(status, payload["detail"], payload.get("fix"))
    content = json.dumps(payload).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": content})
