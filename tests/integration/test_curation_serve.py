"""Curation over a real loopback server: HTTP routes and MCP tools, with the write token."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx

from graphgate.app.curation import CURATION_FILE
from tests.serving import mcp_call, running_server, wait_for_job

TOKEN = "write-token-curate"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _tool(client: httpx.Client, name: str, arguments: dict[str, object]) -> dict[str, object]:
    response = mcp_call(client, "tools/call", {"name": name, "arguments": arguments}, AUTH)
    assert response.status_code == 200, response.text
    result: dict[str, object] = response.json()["result"]
    return result


def _text(result: dict[str, object]) -> str:
    return " ".join(c.get("text", "") for c in result["content"])  # type: ignore[attr-defined]


def test_edits_over_http_and_mcp(small_workspace_path: Path, tmp_path: Path) -> None:
    ws_path = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws_path)
    with running_server(ws_path, TOKEN) as (base, service), httpx.Client(base_url=base) as client:
        alias = {"op": "alias_add", "entity": "Tiny Tim", "names": ["Timothy Cratchit"]}
        assert client.post("/curation", json=alias).status_code == 401  # no token, no write
        started = client.post("/curation", json=alias, headers=AUTH)
        assert started.status_code == 202, started.text
        job = wait_for_job(base, started.json()["job"])
        assert job["state"] == "done", job
        assert job["result"]["outcome"]["applied"] is True
        assert job["result"]["run_id"] == service.ws.runs.current_id()
        hits = client.get("/entities", params={"q": "timothy cratchit"}).json()
        assert [h["name"] for h in hits] == ["Tiny Tim"]

        # Refused before it queues, naming the problem; nothing recorded.
        bad = {"op": "merge", "entity": "Tiny Tim", "names": ["Nobody Atall"]}
        refused = client.post("/curation", json=bad, headers=AUTH)
        assert refused.status_code == 404 and "Nobody Atall" in refused.json()["detail"]
        assert client.post("/curation", json={"op": "drop"}, headers=AUTH).status_code == 422
        shape = {"op": "rename", "entity": "Tiny Tim", "names": ["A", "B"]}
        assert client.post("/curation", json=shape, headers=AUTH).status_code == 422
        assert len((ws_path / CURATION_FILE).read_text().splitlines()) == 1

        # MCP: the same edits as tools.
        listed = _tool(client, "list_edits", {})
        assert "Timothy Cratchit" in _text(listed)
        done = _tool(
            client,
            "edit_graph",
            {"op": "relation_delete", "entity": "Tiny Tim", "target": "Bob Cratchit"},
        )
        assert not done.get("isError"), done
        state = json.loads(_text(done))
        assert state["state"] == "done" and state["result"]["outcome"]["applied"] is True
        wrong = _tool(client, "edit_graph", {"op": "split", "entity": "Tiny Tim", "names": ["x"]})
        assert wrong.get("isError") and "not a name of 'Tiny Tim'" in _text(wrong)

        reverted = client.post("/curation/revert", json={"n": 1}, headers=AUTH)
        assert wait_for_job(base, reverted.json()["job"])["state"] == "done"
        edits = client.get("/curation").json()
        assert [(e["n"], e["op"], e["reverted_by"], e["applied"]) for e in edits] == [
            (1, "alias_add", 3, None),
            (2, "relation_delete", None, True),
            (3, "revert", None, None),
        ]
        assert client.get("/entities", params={"q": "timothy cratchit"}).json() == []
        again = client.post("/curation/revert", json={"n": 1}, headers=AUTH)
        assert again.status_code == 422 and "reverted already" in again.json()["detail"]
