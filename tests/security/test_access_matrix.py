"""Every route and every MCP tool, with no token, a wrong token, the read token and the write
token, over a real loopback server: the allowed/denied matrix, in one table.

A route or tool added without a row here fails ``test_every_route_and_tool_has_a_row``; one
missing from the access table is refused by the server (and fails the same test).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import Route

from graphgate.serve.auth import POLICY, Access
from graphgate.serve.http import create_app
from tests.serving import mcp_call, running_server

WRITE, READ = "write-token-W", "read-token-R"
CREDENTIALS = {
    "none": {},
    "wrong": {"Authorization": "Bearer not-a-token"},
    "read": {"Authorization": f"Bearer {READ}"},
    "write": {"Authorization": f"Bearer {WRITE}"},
}
Call = Callable[[httpx.Client, dict[str, str], Path], httpx.Response]

# Each request is harmless when allowed: it is refused after authentication (404, 422, 501) or
# only reads, so the matrix never changes the index.
ROUTES: dict[str, Call] = {
    "healthz": lambda c, h, _: c.get("/healthz", headers=h),
    "openapi": lambda c, h, _: c.get("/openapi.json", headers=h),
    "metrics": lambda c, h, _: c.get("/metrics", headers=h),
    "status": lambda c, h, _: c.get("/status", headers=h),
    "query": lambda c, h, _: c.post("/query", json={"question": "Who is Fred?"}, headers=h),
    "query.stream": lambda c, h, _: c.post(
        "/query/stream", json={"question": "Who is Fred?"}, headers=h
    ),
    "retrieve": lambda c, h, _: c.post("/retrieve", json={"question": "Who is Fred?"}, headers=h),
    "v1.models": lambda c, h, _: c.get("/v1/models", headers=h),
    "v1.chat.completions": lambda c, h, _: c.post(
        "/v1/chat/completions",
        json={"model": "graphgate-vector", "messages": [{"role": "user", "content": "Fred?"}]},
        headers=h,
    ),
    "runs": lambda c, h, _: c.get("/runs", headers=h),
    "gates": lambda c, h, _: c.get("/gates", headers=h),
    "job": lambda c, h, _: c.get("/jobs/nope", headers=h),
    "jobs": lambda c, h, _: c.get("/jobs", headers=h),
    "entities": lambda c, h, _: c.get("/entities", params={"q": "fred"}, headers=h),
    "entity": lambda c, h, _: c.get("/entities/e_nope", headers=h),
    "community": lambda c, h, _: c.get("/communities/k_nope", headers=h),
    "chunk": lambda c, h, _: c.get("/chunk", params={"id": "c_nope"}, headers=h),
    "documents.list": lambda c, h, _: c.get("/documents", headers=h),
    "document": lambda c, h, _: c.get("/document", params={"id": "fred.html"}, headers=h),
    "gates.run": lambda c, h, _: c.get("/runs/20990101-000000000-abcdef/gates", headers=h),
    "gates.trends": lambda c, h, _: c.get("/gates/trends", headers=h),
    "evaluations": lambda c, h, _: c.get("/evaluations", headers=h),
    "evaluation": lambda c, h, _: c.get("/evaluations/x/y", headers=h),
    "ui": lambda c, h, _: c.get("/ui/core.js", headers=h),
    "documents.add": lambda c, h, _: c.post("/documents", json={"documents": []}, headers=h),
    "documents.delete": lambda c, h, _: c.delete("/documents/x", headers=h),
    "eval": lambda c, h, _: c.post("/eval", json={"testset": "t.jsonl", "modes": []}, headers=h),
    "curation.list": lambda c, h, _: c.get("/curation", headers=h),
    "curation.edit": lambda c, h, _: c.post(
        "/curation", json={"op": "merge", "entity": "Nobody Atall", "names": ["X"]}, headers=h
    ),
    "curation.revert": lambda c, h, _: c.post("/curation/revert", json={"n": 99}, headers=h),
    "mcp": lambda c, h, _: mcp_call(c, "tools/list", {}, h),
    "cypher": lambda c, h, _: c.post(
        "/cypher", json={"query": "MATCH (e:Entity) RETURN count(e) AS n"}, headers=h
    ),
}
TOOLS: dict[str, Callable[[Path], dict[str, object]]] = {
    "get_server_status": lambda _: {},
    "query_graph": lambda _: {"query": "Who is Fred Holywell?", "mode": "vector"},
    "run_gates": lambda _: {},
    "reingest_from_file": lambda allowed: {"path": str(allowed / "missing")},
    "add_documents": lambda _: {"documents": []},
    "delete_documents": lambda _: {"doc_ids": ["no-such-document"]},
    "evaluate": lambda allowed: {"testset": str(allowed / "missing.jsonl")},
    "list_edits": lambda _: {},
    "edit_graph": lambda _: {"op": "rename", "entity": "Nobody Atall", "names": ["X"]},
    "revert_edit": lambda _: {"n": 99},
}
_DENIALS = ("needs a bearer token", "needs the write token", "wrong or malformed", "disabled")


def expected(operation: str, credential: str, write_token: bool, read_token: bool) -> bool:
    """True where the credential may perform the operation (the rule, written out)."""
    needed = POLICY[operation]
    if needed == Access.NONE:
        return True
    if credential == "wrong" or (credential == "read" and not read_token):
        return False  # a token the server was not given is a wrong token
    if needed == Access.WRITE:
        return write_token and credential == "write"
    return credential in {"read", "write"} if read_token else credential != "wrong"


@pytest.fixture(scope="module")
def server_ws(small_workspace_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("matrix")
    shutil.copytree(small_workspace_path, root / "ws")
    (root / "allowed").mkdir()
    return root


def _denied_http(response: httpx.Response) -> bool:
    return response.status_code in {401, 403}


def _denied_tool(response: httpx.Response) -> bool:
    if _denied_http(response):
        return True
    result = response.json()["result"]
    text = " ".join(c.get("text", "") for c in result.get("content", []))
    return bool(result.get("isError")) and any(d in text for d in _DENIALS)


@pytest.fixture(scope="module", params=["both tokens", "write token only"])
def matrix_server(
    request: pytest.FixtureRequest, server_ws: Path
) -> Iterator[tuple[str, bool, bool, Path]]:
    read = READ if request.param == "both tokens" else None
    allowed = server_ws / "allowed"
    with running_server(
        server_ws / "ws", WRITE, read, serve={"allowed_paths": [str(allowed)], "cypher": True}
    ) as (
        base,
        _,
    ):
        yield base, True, read is not None, allowed


def test_every_route_and_tool_has_a_row(small_workspace_path: Path, tmp_path: Path) -> None:
    import anyio

    from graphgate.serve.service import Service

    shutil.copytree(small_workspace_path, tmp_path / "ws")
    service = Service(tmp_path / "ws", WRITE)
    try:
        app = create_app(service)
        names = {r.name for r in app.routes if isinstance(r, APIRoute | Route)}
        assert names | {"mcp"} == set(ROUTES), "a route without a row in this matrix"
        tools = {t.name for t in anyio.run(create_app_tools, service)}
        assert tools == set(TOOLS), "an MCP tool without a row in this matrix"
        for operation in [*names, "mcp", *(f"mcp.{t}" for t in tools)]:
            assert operation in POLICY, f"{operation} has no access decision"
    finally:
        service.close()


async def create_app_tools(service: object) -> list[object]:
    from graphgate.serve.mcp_server import build_mcp

    return list(await build_mcp(service).list_tools())  # type: ignore[arg-type]


def test_http_matrix(matrix_server: tuple[str, bool, bool, Path]) -> None:
    base, write_token, read_token, allowed = matrix_server
    wrong_calls: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for operation, call in ROUTES.items():
            for credential, headers in CREDENTIALS.items():
                response = call(client, headers, allowed)
                allowed_here = expected(operation, credential, write_token, read_token)
                broken = response.status_code >= 500 and response.status_code != 501
                if allowed_here == _denied_http(response) or broken:
                    wrong_calls.append(f"{operation}/{credential}: {response.status_code}")
    assert not wrong_calls, wrong_calls


def test_mcp_tool_matrix(matrix_server: tuple[str, bool, bool, Path]) -> None:
    base, write_token, read_token, allowed = matrix_server
    wrong_calls: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for tool, arguments in TOOLS.items():
            for credential, headers in CREDENTIALS.items():
                response = mcp_call(
                    client, "tools/call", {"name": tool, "arguments": arguments(allowed)}, headers
                )
                ok = expected(f"mcp.{tool}", credential, write_token, read_token)
                ok = ok and expected("mcp", credential, write_token, read_token)
                if ok == _denied_tool(response):
                    wrong_calls.append(f"{tool}/{credential}: {response.text[:200]}")
    assert not wrong_calls, wrong_calls


def test_without_a_write_token_writes_are_off_for_everyone(
    server_ws: Path,
) -> None:
    with (
        running_server(server_ws / "ws", None, None) as (base, _),
        httpx.Client(base_url=base, timeout=60) as client,
    ):
        for credential in ("none", "write"):
            response = ROUTES["documents.add"](client, CREDENTIALS[credential], server_ws)
            assert response.status_code in {401, 403}
        refused = client.post(
            "/documents",
            json={"documents": [{"id": "n", "text": "New."}]},
            headers=CREDENTIALS["write"],
        )
        assert refused.status_code == 401  # a token nobody configured is a wrong token
        assert client.get("/status").status_code == 200  # reads stay open


def test_mcp_over_stdio_takes_its_token_from_the_environment(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    """stdio has no headers: the client's token comes from GRAPHGATE_MCP_TOKEN, checked against
    the same tokens and the same table as HTTP."""
    import os
    import sys

    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    shutil.copytree(small_workspace_path, tmp_path / "ws")

    async def reingest(client_token: str | None) -> str:
        env = {**os.environ, "GRAPHGATE_SERVE__WRITE_TOKEN": WRITE}
        env.pop("GRAPHGATE_MCP_TOKEN", None)
        if client_token is not None:
            env["GRAPHGATE_MCP_TOKEN"] = client_token
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "graphgate.cli", "mcp", "-w", str(tmp_path / "ws")],
            env=env,
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            result = await client.call_tool("reingest_from_file", {"path": "/etc/os-release"})
            assert result.is_error
            return str(result.content[0].text)  # type: ignore[union-attr]

    assert "needs a bearer token" in anyio.run(reingest, None)
    assert "wrong or malformed" in anyio.run(reingest, "guess")
    # The write token passes authentication; the path check comes next (no roots configured).
    assert "serve.allowed_paths" in anyio.run(reingest, WRITE)
