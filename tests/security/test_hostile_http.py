"""Hostile requests to a real loopback server: big and slow bodies, slow headers, paths outside
the allowed folders, broken Unicode, and what error responses may show."""

from __future__ import annotations

import glob
import json
import select
import shutil
import socket
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.conftest import write_fred_testset
from tests.serving import mcp_call, running_server, wait_for_job

WRITE, READ = "write-W", "read-R"
AUTH = {"Authorization": f"Bearer {WRITE}"}


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    return tmp_path / "ws"


def _address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return str(parts.hostname), int(parts.port or 80)


def _response_ready(sock: socket.socket) -> bool:
    return bool(select.select([sock], [], [], 0)[0])


def test_chunked_body_is_cut_at_the_limit_on_bytes_read(ws: Path) -> None:
    """50 MB sent chunked (no Content-Length) without a token: 413 after ~the limit, not 422
    with the body echoed."""
    with running_server(ws, WRITE) as (base, _):
        sock = socket.create_connection(_address(base), timeout=10)
        sock.sendall(
            b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        piece = b"A" * 65536
        frame = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        sent = 0
        try:
            while sent < 50_000_000 and not _response_ready(sock):
                sock.sendall(frame)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass
        head = sock.recv(65536)
        sock.close()
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert b"AAAA" not in head
    assert sent < 20_000_000, f"the server read {sent} bytes before refusing"


def test_validation_errors_never_echo_the_body(ws: Path) -> None:
    with running_server(ws, WRITE) as (base, _), httpx.Client(base_url=base) as client:
        payload = "PAYLOAD-" * 1000
        response = client.post("/query", json={"question": payload})
        assert response.status_code == 422 and "PAYLOAD" not in response.text
        bad_mode = client.post("/query", json={"question": "hi", "mode": "PAYLOAD-mode"})
        assert bad_mode.status_code == 422 and "PAYLOAD" not in bad_mode.text


def test_lone_surrogates_are_422_not_500(ws: Path) -> None:
    body = b'{"question": "who is \\ud800 Fred?"}'
    doc = b'{"documents": [{"id": "d", "text": "bad \\udfff text"}]}'
    meta = b'{"documents": [{"id": "d", "text": "ok", "metadata": {"k": ["\\ud800"]}}]}'
    headers = {"Content-Type": "application/json"}
    with running_server(ws, WRITE) as (base, _), httpx.Client(base_url=base) as client:
        assert client.post("/query", content=body, headers=headers).status_code == 422
        for payload in (doc, meta):
            response = client.post("/documents", content=payload, headers={**headers, **AUTH})
            assert response.status_code == 422, response.text
            assert "unicode" in response.text.lower()


def test_slow_headers_are_cut_off(ws: Path) -> None:
    with running_server(ws, WRITE, serve={"header_timeout_s": 1.0}) as (base, _):
        sock = socket.create_connection(_address(base), timeout=10)
        started = time.monotonic()
        closed = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            try:
                if _response_ready(sock) and sock.recv(1024) == b"":
                    closed = True
                    break
            except ConnectionResetError:  # cut off with a reset rather than a FIN: cut off
                closed = True
                break
            time.sleep(0.2)
        sock.close()
    assert closed and time.monotonic() - started < 5


def test_slow_body_gets_408(ws: Path) -> None:
    with running_server(ws, WRITE, serve={"body_timeout_s": 1.0}) as (base, _):
        sock = socket.create_connection(_address(base), timeout=10)
        sock.sendall(
            b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"question"'
        )
        sock.settimeout(10)
        head = sock.recv(1024)
        sock.close()
    assert head.startswith(b"HTTP/1.1 408"), head


def test_reingest_reads_only_below_allowed_paths(ws: Path, tmp_path: Path) -> None:
    """The attack from the issue: no token, then with the write token, paths that escape."""
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "escape").symlink_to("/etc")
    before = (ws / "CURRENT").read_text()
    traversal = str(allowed / ".." / ".." / ".." / ".." / "etc" / "os-release")
    with (
        running_server(ws, WRITE) as (base, _),
        httpx.Client(base_url=base, timeout=60) as client,
    ):
        args = {"name": "reingest_from_file", "arguments": {"path": "/etc/os-release"}}
        anonymous = mcp_call(client, "tools/call", args, {}).json()["result"]
        assert anonymous["isError"] and "needs a bearer token" in anonymous["content"][0]["text"]
        off = mcp_call(client, "tools/call", args, AUTH).json()["result"]
        assert off["isError"] and "serve.allowed_paths" in off["content"][0]["text"]
    with (
        running_server(ws, WRITE, serve={"allowed_paths": [str(allowed)]}) as (base, _),
        httpx.Client(base_url=base, timeout=60) as client,
    ):
        for path in (traversal, str(allowed / "escape" / "os-release"), "/etc/os-release"):
            args = {"name": "reingest_from_file", "arguments": {"path": path}}
            result = mcp_call(client, "tools/call", args, AUTH).json()["result"]
            assert result["isError"] and "outside" in result["content"][0]["text"], path
        refused = client.post("/eval", json={"testset": traversal}, headers=AUTH)
        assert refused.status_code == 403
    assert (ws / "CURRENT").read_text() == before


def test_metrics_need_the_read_token_unless_public(ws: Path) -> None:
    with running_server(ws, WRITE, READ) as (base, _), httpx.Client(base_url=base) as client:
        assert client.get("/metrics").status_code == 401
        reader = {"Authorization": f"Bearer {READ}"}
        assert client.get("/metrics", headers=reader).status_code == 200
    with (
        running_server(ws, WRITE, READ, serve={"metrics_public": True}) as (base, _),
        httpx.Client(base_url=base) as client,
    ):
        assert client.get("/metrics").status_code == 200
        assert client.get("/status").status_code == 401


def test_status_does_not_show_the_server_path(ws: Path) -> None:
    with running_server(ws, WRITE) as (base, _), httpx.Client(base_url=base) as client:
        status = client.get("/status").json()
    assert status["workspace"] == ws.name
    assert str(ws.parent) not in json.dumps(status)


def test_top_k_is_checked_for_mcp_like_http(ws: Path) -> None:
    with (
        running_server(ws, WRITE) as (base, _),
        httpx.Client(base_url=base, timeout=60) as client,
    ):
        for top_k in (0, -1, 101):
            assert (
                client.post("/query", json={"question": "Fred?", "top_k": top_k}).status_code == 422
            )
            args = {"name": "query_graph", "arguments": {"query": "Fred?", "top_k": top_k}}
            result = mcp_call(client, "tools/call", args, {}).json()["result"]
            assert result["isError"] and "top_k" in result["content"][0]["text"]


def test_jobs_leave_nothing_in_tmp_and_keep_eval_results_with_the_run(
    ws: Path, tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    testset = write_fred_testset(allowed / "t.jsonl")
    pattern = str(Path(tempfile.gettempdir()) / "gg-*")
    before = set(glob.glob(pattern))
    with (
        running_server(ws, WRITE, serve={"allowed_paths": [str(allowed)]}) as (base, _),
        httpx.Client(base_url=base, timeout=120) as client,
    ):
        assert (
            client.post(
                "/eval", json={"testset": str(testset), "modes": []}, headers=AUTH
            ).status_code
            == 422
        )
        job = client.post(
            "/eval",
            json={"testset": str(testset), "modes": ["vector", "vector"]},
            headers=AUTH,
        ).json()
        result = wait_for_job(base, job["job"])
        assert result["state"] == "done", result["error"]
        assert list(result["result"]["summary"]["modes"]) == ["vector"]
        assert "out_dir" not in result["result"]
        docs = {"documents": [{"id": "belle.txt", "text": "Belle Fairfax married Edward Hunt."}]}
        index_job = client.post("/documents", json=docs, headers=AUTH).json()
        assert wait_for_job(base, index_job["job"])["state"] == "done"
    run = ws / "runs" / result["result"]["run_id"]
    assert (run / "evals" / job["job"] / "summary.json").exists()
    assert set(glob.glob(pattern)) == before
