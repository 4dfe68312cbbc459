"""Every route answers only the hosts it is meant for (DNS rebinding), and any document id,
slashes included, can be deleted over HTTP and MCP (issue 27, items 6 and 7)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest

from graphgate import Workspace
from graphgate.serve.guard import allowed_hosts, host_of
from tests.serving import mcp_call, running_server, wait_for_job

TOKEN = "hosts-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# A request from each transport and kind of route: reads, a write, the page, MCP, health.
REQUESTS = (
    ("GET", "/healthz", None),
    ("GET", "/status", None),
    ("GET", "/documents", None),
    ("GET", "/", None),
    ("POST", "/query", {"question": "Who is Fred Holywell?"}),
    ("POST", "/documents", {"documents": [{"id": "x", "text": "text"}]}),
    ("POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
)
MCP = {"Accept": "application/json, text/event-stream"}


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    return tmp_path / "ws"


def test_host_header_parsing() -> None:
    assert host_of("127.0.0.1:8000") == "127.0.0.1"
    assert host_of("[::1]:8000") == "[::1]"
    assert host_of("LocalHost") == "localhost"
    assert host_of("evil.example") == "evil.example"
    assert allowed_hosts([], "0.0.0.0") == {"localhost", "127.0.0.1", "[::1]", "0.0.0.0"}
    assert allowed_hosts([], "::1") == {"localhost", "127.0.0.1", "[::1]"}
    assert allowed_hosts(["Graph.Example", "::1"], "127.0.0.1") == {"graph.example", "[::1]"}


def test_every_route_refuses_a_foreign_host(ws: Path) -> None:
    with running_server(ws, TOKEN) as (base, _), httpx.Client(base_url=base, timeout=30) as c:
        before = (ws / "CURRENT").read_text()
        for method, path, body in REQUESTS:
            for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example"):
                response = c.request(method, path, json=body, headers={**AUTH, **MCP, "Host": host})
                assert response.status_code == 421, (method, path, host, response.text)
                assert "evil" not in response.text  # the value sent is not echoed
            allowed = c.request(method, path, json=body, headers={**AUTH, **MCP})
            assert allowed.status_code in {200, 202}, (method, path, allowed.text)
        for host in ("localhost", "127.0.0.1:1234", "[::1]:8000"):
            assert c.get("/status", headers={"Host": host}).status_code == 200
        job = c.get("/jobs").json()[0]["id"]
        assert wait_for_job(base, job)["state"] == "done"
        assert (ws / "CURRENT").read_text() != before  # the allowed write went through


def test_configured_hosts_are_answered_and_others_refused(ws: Path) -> None:
    with (
        # 127.0.0.1 too: the test's own requests (and its wait for the server) use it.
        running_server(ws, TOKEN, serve={"allowed_hosts": ["graph.internal", "127.0.0.1"]}) as (
            base,
            _,
        ),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        assert client.get("/status", headers={"Host": "graph.internal:8000"}).status_code == 200
        assert client.get("/status", headers={"Host": "localhost"}).status_code == 421
        tools = mcp_call(client, "tools/list", {}, {**AUTH, "Host": "graph.internal"})
        assert tools.status_code == 200  # the MCP mount follows the same rule
    with (
        running_server(ws, TOKEN, serve={"allowed_hosts": ["*"]}) as (base, _),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        assert client.get("/status", headers={"Host": "anything.example"}).status_code == 200


NESTED = {
    "notes/old.md": "Old Joe keeps a rag shop in London.",
    "notes/deep/er.md": "Mrs Dilber washes for Scrooge in London.",
    "a/../b.md": "Topper courts the plump sister at Fred's party.",
    "why?.md": "Caroline owes money to Scrooge.",
}


def test_an_id_with_slashes_is_deleted_over_http_and_mcp(ws: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "nested.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in NESTED.items()),
        encoding="utf-8",
    )
    with Workspace(ws) as workspace:
        workspace.add([corpus])
    with running_server(ws, TOKEN) as (base, _), httpx.Client(base_url=base, timeout=60) as c:
        jobs = [
            c.delete("/documents/notes/old.md", headers=AUTH),
            c.delete("/documents", params={"id": "a/../b.md"}, headers=AUTH),
            c.delete("/documents", params={"id": "why?.md"}, headers=AUTH),
        ]
        for response in jobs:
            assert response.status_code == 202, response.text
            assert wait_for_job(base, response.json()["job"])["state"] == "done"
        params = {"name": "delete_documents", "arguments": {"doc_ids": ["notes/deep/er.md"]}}
        tool = mcp_call(c, "tools/call", params, AUTH).json()["result"]
        assert not tool.get("isError"), tool
        assert c.delete("/documents/notes/none.md", headers=AUTH).status_code == 404
        ids = {d["id"] for d in c.get("/documents", params={"limit": 500}).json()["items"]}
    assert not ids & set(NESTED)
    assert ids == {"scrooge.txt", "family.md", "fred.html"}
