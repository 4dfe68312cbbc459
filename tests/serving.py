"""A real graphgate server on a free loopback port, for tests (same limits as `graphgate serve`)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from graphgate.serve.http import create_app, server_config
from graphgate.serve.service import Service


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str, tries: int = 600) -> None:
    """Until ``base``/healthz answers (a server starting in a thread or another process)."""
    for _ in range(tries):
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{base}/healthz did not answer 200 within {tries} tries")


def wait_for_job(base: str, job_id: str, timeout_s: float = 120) -> dict[str, Any]:
    """Poll ``GET /jobs/{id}`` (a new connection each time) until the job has ended."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        state: dict[str, Any] = httpx.get(f"{base}/jobs/{job_id}", timeout=30).json()
        if state["state"] not in {"queued", "running"}:
            return state
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish within {timeout_s:g} s")


@contextmanager
def running_server(
    ws_path: Path,
    write_token: str | None = None,
    read_token: str | None = None,
    **overrides: Any,
) -> Iterator[tuple[str, Service]]:
    """(base URL, service) of a server answering until the block ends."""
    service = Service(ws_path, write_token, read_token, **overrides)
    port = free_port()
    server = uvicorn.Server(server_config(create_app(service), service, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    wait_until_up(base)
    try:
        yield base, service
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        service.close()


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def mcp_call(
    client: httpx.Client, method: str, params: dict[str, Any], headers: dict[str, str]
) -> httpx.Response:
    """One JSON-RPC request to the stateless MCP endpoint (no session needed)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return client.post("/mcp", json=body, headers={**MCP_HEADERS, **headers})
