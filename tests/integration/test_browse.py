"""Browsing over HTTP: entities, communities, chunks, documents, runs, gate trends and
evaluations, as the web interface reads them; unknown or hostile ids are 404s; the interface's
page and scripts are the package's own files, nothing from elsewhere."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from graphgate import Workspace
from graphgate.serve.ui import UI_DIR, shipped_files
from tests.conftest import write_fred_testset
from tests.serving import running_server


@pytest.fixture(scope="module")
def browse(
    small_workspace_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[httpx.Client, Path]]:
    root = tmp_path_factory.mktemp("browse")
    shutil.copytree(small_workspace_path, root / "ws")
    with Workspace(root / "ws") as ws:
        ws.evaluate(write_fred_testset(root / "fred.jsonl"), "vector,local", root / "eval-out")
    with running_server(root / "ws", "W") as (base, _), httpx.Client(base_url=base) as client:
        yield client, root / "ws"


def test_entities_by_name_then_a_page_with_spans_edges_and_communities(
    browse: tuple[httpx.Client, Path],
) -> None:
    client, _ = browse
    hits = client.get("/entities", params={"q": "scrooge"}).json()
    names = [h["name"] for h in hits]
    assert "Ebenezer Scrooge" in names and all("scrooge" in n.lower() for n in names)
    page = client.get(f"/entities/{hits[0]['id']}").json()
    assert page["name"] == hits[0]["name"]
    for mention in page["mentions"]:
        document = client.get("/document", params={"id": mention["doc_id"]}).json()
        assert document["text"][mention["start"] : mention["end"]] == mention["text"]
    assert page["mentions"], "a named entity is written somewhere"
    assert page["edges"] and all(
        page["id"] in (e["source_id"], e["target_id"]) for e in page["edges"]
    )
    assert page["graph"]["nodes"][0]["id"] == page["id"]
    drawn = {n["id"] for n in page["graph"]["nodes"]}
    assert all(e["source_id"] in drawn and e["target_id"] in drawn for e in page["graph"]["edges"])
    levels = [c["level"] for c in page["communities"]]
    assert levels == sorted(levels) and levels
    community = client.get(f"/communities/{page['communities'][-1]['id']}").json()
    assert page["id"] in {m["id"] for m in community["members"]}
    if community["parent"]:
        parent = client.get(f"/communities/{community['parent']['id']}").json()
        assert community["id"] in {c["id"] for c in parent["children"]}


def test_chunks_and_documents(browse: tuple[httpx.Client, Path]) -> None:
    client, _ = browse
    listing = client.get("/documents").json()
    assert listing["total"] == 3 and [d["id"] for d in listing["items"]] == sorted(
        d["id"] for d in listing["items"]
    )
    assert client.get("/documents", params={"q": "FRED"}).json()["total"] == 1
    assert client.get("/documents", params={"offset": 2, "limit": 5}).json()["items"][0]["id"]
    document = client.get("/document", params={"id": "fred.html"}).json()
    assert document["chunks"]
    for ref in document["chunks"]:
        chunk = client.get("/chunk", params={"id": ref["id"]}).json()
        assert chunk["doc_id"] == "fred.html" and chunk["title"] == document["title"]
        assert document["text"][chunk["start"] : chunk["end"]] == chunk["text"]


def test_runs_gate_trends_and_evaluations(browse: tuple[httpx.Client, Path]) -> None:
    client, _ = browse
    runs = client.get("/runs").json()
    current = [r for r in runs if r["current"]]
    assert len(current) == 1 and current[0]["status"] == "complete"
    gates = client.get(f"/runs/{current[0]['run_id']}/gates").json()
    assert len(gates["gates"]) == 8
    trends = client.get("/gates/trends").json()
    keys = {(t["gate"], t["metric"]) for t in trends}
    assert ("data", "lineage_coverage") in keys and ("graph", "hub_share") in keys
    lineage = next(t for t in trends if t["metric"] == "lineage_coverage")
    assert lineage["fail_below"] == 1.0 and lineage["direction"] == "higher"
    assert [p["run_id"] for p in lineage["points"]] == [r["run_id"] for r in runs]
    listed = client.get("/evaluations").json()
    assert len(listed) == 1 and listed[0]["modes"] == ["local", "vector"]
    assert listed[0]["testset"] == "fred.jsonl"  # the file's name, not where it lies
    one = client.get(f"/evaluations/{listed[0]['run_id']}/{listed[0]['eval_id']}").json()
    assert len(one["records"]) == 2 and one["summary"]["cases"] == 1
    assert "settings" not in one["summary"]


@pytest.mark.parametrize(
    "path",
    [
        "/entities/e_nope",
        "/communities/k_nope",
        "/chunk?id=c_nope",
        "/document?id=nope.txt",
        "/runs/..%2F..%2F/gates",
        "/runs/20990101-000000000-abcdef/gates",
        "/evaluations/x/y",
        "/ui/../pyproject.toml",
        "/ui/vendor/missing.js",
        "/ui/index.html",
    ],
)
def test_unknown_or_hostile_ids_are_404(browse: tuple[httpx.Client, Path], path: str) -> None:
    client, _ = browse
    response = client.get(path)
    assert response.status_code == 404, response.text


def test_a_hostile_evaluation_id_is_not_a_path(browse: tuple[httpx.Client, Path]) -> None:
    client, ws = browse
    run_id = client.get("/runs").json()[-1]["run_id"]
    secret = ws / "runs" / run_id / "secret"
    secret.mkdir()
    (secret / "summary.json").write_text("{}")
    assert client.get(f"/evaluations/{run_id}/..%2Fsecret").status_code == 404


def test_the_page_loads_only_its_own_files(browse: tuple[httpx.Client, Path]) -> None:
    client, _ = browse
    page = client.get("/")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    referenced = re.findall(r'(?:src|href)="(/ui/[^"]+)"', page.text)
    assert len(referenced) >= 9
    for ref in referenced:
        asset = client.get(ref)
        assert asset.status_code == 200, ref
        assert asset.headers["content-type"].startswith(("text/javascript", "text/css"))
    files = shipped_files()
    assert "vendor/cytoscape.LICENSE" in files and "vendor/chart.js.LICENSE.md" in files
    for name, path in files.items():
        if name.endswith(".js") and not name.startswith("vendor/"):
            text = path.read_text(encoding="utf-8")
            assert "innerHTML" not in text and "eval(" not in text, name
            assert not re.search(r"https?://", text), f"{name} reaches outside the server"
    assert not re.search(r"https?://", (UI_DIR / "index.html").read_text(encoding="utf-8"))
