"""The HTTP API over real loopback HTTP, /metrics parsed, and the MCP server through the SDK."""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from graphgate import Workspace
from tests.serving import running_server

TOKEN = "write-token-123"


@pytest.fixture()
def api(small_workspace_path: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    ws_path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws_path)
    with running_server(ws_path, TOKEN) as (base, _):
        yield base, ws_path


def test_query_status_runs_gates_and_schema(api: tuple[str, Path]) -> None:
    base, _ = api
    with httpx.Client(base_url=base, timeout=30) as client:
        out = client.post(
            "/query", json={"question": "Who does Bob Cratchit work for?", "mode": "local"}
        ).json()
        assert out["mode"] == "local" and out["citations"] and out["entities"]
        assert set(out) >= {"answer", "citations", "entities", "edges", "chunks", "timings_ms"}
        status = client.get("/status").json()
        assert status["healthy"] and status["counts"]["Document"] == 3
        gates = client.get("/gates").json()
        assert len(gates["gates"]) == 8
        # /runs shows the verdict stored for the run, the one /gates computes for it.
        runs = client.get("/runs").json()
        assert [(r["run_id"], r["status"], r["verdict"], r["current"]) for r in runs] == [
            (status["current_run"], "complete", gates["verdict"], True)
        ]
        schema = client.get("/openapi.json").json()
        assert "/query" in schema["paths"]
        deleting = schema["paths"]["/documents/{doc_id}"]["delete"]["responses"]
        assert {"202", "404"} <= set(deleting)


def test_bad_requests_get_4xx_and_change_nothing(api: tuple[str, Path]) -> None:
    base, ws_path = api
    before = (ws_path / "CURRENT").read_text()
    with httpx.Client(base_url=base, timeout=30) as client:
        assert (
            client.post(
                "/query", content=b"{not json", headers={"Content-Type": "application/json"}
            ).status_code
            == 422
        )
        assert client.post("/query", json={"question": "x" * 10_000_000}).status_code == 413
        assert client.post("/query", json={"question": "x" * 5000}).status_code == 422
        assert client.post("/query", json={"question": "hi", "mode": "psychic"}).status_code == 422
        late = client.post("/query", json={"question": "Who is Fred?", "as_of": "someday"})
        assert late.status_code == 422 and "YYYY-MM-DD" in late.json()["detail"]
        dated = client.post("/query", json={"question": "Who is Fred?", "as_of": "1843"}).json()
        assert dated["time"]["label"] == "as of 1843"
        docs = {"documents": [{"id": "n", "text": "New text."}]}
        assert client.post("/documents", json=docs).status_code == 401
        assert (
            client.post(
                "/documents", json=docs, headers={"Authorization": "Bearer wrong"}
            ).status_code
            == 401
        )
        missing = client.delete("/documents/x", headers={"Authorization": f"Bearer {TOKEN}"})
        assert missing.status_code == 404 and "no document 'x'" in missing.json()["detail"]
        assert client.delete("/documents/fred.html").status_code == 401
        injection = "x' }) MATCH (n) DETACH DELETE n //"
        out = client.post("/query", json={"question": injection, "mode": "graph"})
        assert out.status_code == 200
        assert client.get("/status").json()["counts"]["Document"] == 3
    assert (ws_path / "CURRENT").read_text() == before


def _wait_answering(client: httpx.Client, poll: str) -> int:
    """Poll a job to its end while asking a question between polls; every answer is a 200."""
    answered, state = 0, "queued"
    deadline = time.time() + 120
    while state in {"queued", "running"} and time.time() < deadline:
        out = client.post("/query", json={"question": "Who is Fred Holywell?", "mode": "vector"})
        assert out.status_code == 200
        answered += 1
        state = client.get(poll).json()["state"]
    assert state == "done", client.get(poll).json()
    return answered


def test_documents_are_added_and_deleted_while_queries_answer(api: tuple[str, Path]) -> None:
    base, ws_path = api
    before = (ws_path / "CURRENT").read_text()
    headers = {"Authorization": f"Bearer {TOKEN}"}
    belle = {"id": "belle.txt", "title": "Belle", "text": "Belle Fairfax married Edward Hunt."}
    with httpx.Client(base_url=base, timeout=60) as client:
        job = client.post("/documents", headers=headers, json={"documents": [belle]})
        assert job.status_code == 202
        assert _wait_answering(client, job.json()["poll"]) >= 1
        added = (ws_path / "CURRENT").read_text()
        assert added != before
        assert client.get("/status").json()["counts"]["Document"] == 4
        changes = client.get(job.json()["poll"]).json()["result"]["changes"]
        assert changes["added"] == ["belle.txt"] and changes["unchanged"] == 3
        cited = client.post("/query", json={"question": "Whom did Belle Fairfax marry?"}).json()
        assert "belle.txt" in {c["doc_id"] for c in cited["citations"]}
        # Without the token nothing is deleted.
        assert client.delete("/documents/belle.txt").status_code == 401
        assert (ws_path / "CURRENT").read_text() == added
        job = client.delete("/documents/belle.txt", headers=headers)
        assert job.status_code == 202
        _wait_answering(client, job.json()["poll"])
        assert client.get("/status").json()["counts"]["Document"] == 3
        after = client.post("/query", json={"question": "Whom did Belle Fairfax marry?"}).json()
        assert "belle.txt" not in {c["doc_id"] for c in after["citations"]}


def test_metrics_parse_with_prometheus_client(api: tuple[str, Path]) -> None:
    base, _ = api
    with httpx.Client(base_url=base, timeout=30) as client:
        client.post("/query", json={"question": "Who is Fred Holywell?", "mode": "hybrid"})
        text = client.get("/metrics").text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert families["graphgate_relationship_total"].samples[0].value > 0
    types = {s.labels["entity_type"] for s in families["graphgate_entity_total"].samples}
    assert "PERSON" in types
    buckets = [
        s
        for s in families["graphgate_retrieval_duration_seconds"].samples
        if s.name.endswith("_bucket") and s.labels["query_type"] == "hybrid"
    ]
    assert [b.labels["le"] for b in buckets][:2] == ["0.05", "0.1"] and buckets[-1].value == 1
    assert families["graphgate_entity_coverage_ratio"].samples[0].value == 1.0
    assert {s.labels["gate"] for s in families["graphgate_gate_verdict"].samples} >= {"data", "gen"}


def test_mcp_server_over_stdio(small_workspace_path: Path, tmp_path: Path) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    ws_path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws_path)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graphgate.cli", "mcp", "-w", str(ws_path)]
    )

    async def session() -> dict[str, dict[str, object]]:
        out: dict[str, dict[str, object]] = {}
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = {t.name for t in (await client.list_tools()).tools}
            assert tools >= {
                "get_server_status",
                "query_graph",
                "reingest_from_file",
                "run_gates",
                "evaluate",
            }
            for name, args in (
                ("get_server_status", {}),
                ("query_graph", {"query": "Who is Fred Holywell?"}),
                ("run_gates", {}),
            ):
                result = await client.call_tool(name, args)
                out[name] = json.loads(result.content[0].text)  # type: ignore[union-attr]
        return out

    out = anyio.run(session)
    assert out["get_server_status"]["entities"] > 0
    assert out["get_server_status"]["has_dimension_mismatch"] is False
    assert out["query_graph"]["references"] and out["query_graph"]["entities"]
    with Workspace(ws_path) as ws:
        direct = ws.gates()
    assert out["run_gates"]["verdict"] == direct.verdict
    assert out["run_gates"]["gates"] == {r.gate: r.verdict for r in direct.results}


def test_mcp_over_streamable_http_under_serve(api: tuple[str, Path]) -> None:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    base, _ = api

    async def session() -> dict[str, object]:
        async with streamable_http_client(base + "/mcp") as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as client:
                await client.initialize()
                result = await client.call_tool("get_server_status", {})
                return json.loads(result.content[0].text)  # type: ignore[union-attr,no-any-return]

    status = anyio.run(session)
    assert status["entities"] and status["has_dimension_mismatch"] is False
