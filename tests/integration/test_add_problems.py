"""What an add cannot index is named, on every entry point, by the one loader report (issue 27,
items 2, 8, 11 and 12): the CLI prints it, the manifest keeps it, the job and the JSON answer
carry it; nothing is dropped without a word, and a write that changes nothing makes no run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner, Result

from tests.serving import mcp_call, running_server, wait_for_job

TOKEN = "add-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
runner = CliRunner()


def _cli(args: list[str]) -> Result:
    from graphgate.cli import build_app

    result = runner.invoke(build_app(), args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    return tmp_path / "ws"


def _runs(ws: Path) -> set[str]:
    return {p.name for p in (ws / "runs").iterdir()}


def _bad_folder(folder: Path) -> dict[str, str]:
    """One good file and one good line beside every kind of bad input; what each bad one is
    reported as (its source, ending)."""
    folder.mkdir()
    (folder / "good.txt").write_text("Ada Lane runs the Quill Press in York.", encoding="utf-8")
    (folder / "nul.txt").write_bytes(b"Ada\x00Lane\x00" * 10)
    (folder / "empty.txt").write_text("   \n", encoding="utf-8")
    (folder / "big.txt").write_bytes(b"word " * 2_000_001)  # just over 10 MB
    (folder / "tab\tname.txt").write_text("A name with a tab in it.", encoding="utf-8")
    lines = [
        json.dumps({"id": "fine", "text": "Bo Reed works for the Quill Press."}),
        '{"id": "broken", "text": ',
        json.dumps({"id": "no-text", "title": "nothing"}),
        '{"id": "surrogate", "text": "bad \\ud800 escape"}',
        json.dumps({"id": "evil\u202etxt.exe", "text": "A reversed name."}),
        json.dumps({"id": "two\nlines", "text": "A name in two rows."}),
    ]
    (folder / "docs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    jsonl = folder / "docs.jsonl"
    return {
        "nul": str(folder / "nul.txt"),
        "empty": str(folder / "empty.txt"),
        "big": str(folder / "big.txt"),
        "tab": str(folder / "tab\tname.txt"),
        "malformed": f"{jsonl}:2",
        "no text": f"{jsonl}:3",
        "surrogate": f"{jsonl}:4",
        "bidi": f"{jsonl}:5",
        "newline": f"{jsonl}:6",
    }


def test_cli_add_names_every_skipped_input(ws: Path, tmp_path: Path) -> None:
    expected = _bad_folder(tmp_path / "in")
    result = _cli(["add", str(tmp_path / "in"), "-w", str(ws), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    sources = {p["source"]: p for p in report["problems"]}
    assert set(sources) == set(expected.values()), sources
    assert "max_document_bytes" in sources[expected["big"]]["problem"]
    assert "binary" in sources[expected["nul"]]["problem"]
    assert "U+202E" in sources[expected["bidi"]]["problem"]
    assert "U+000A" in sources[expected["newline"]]["problem"]
    assert "U+0009" in sources[expected["tab"]]["problem"]
    # The same list on stderr (one line each), and in the run's manifest.
    assert result.stderr.count("skipped") == len(expected)
    manifest = json.loads((ws / "runs" / report["run_id"] / "manifest.json").read_text())
    assert manifest["load_problems"] == report["problems"]
    assert report["changes"]["added"] == ["fine", "good.txt"]


def test_messages_name_the_real_problem_and_fix(ws: Path, tmp_path: Path) -> None:
    """A corpus of only a too-large file, or only a Latin-1 one: the fix is that problem's,
    not "add files ending in .txt"; nothing changes."""
    before = _runs(ws)
    big = tmp_path / "big"
    big.mkdir()
    (big / "huge.txt").write_bytes(b"x" * 2_000)
    latin = tmp_path / "latin"
    latin.mkdir()
    (latin / "old.txt").write_bytes("café crème".encode("latin-1"))
    env = {"GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES": "1000"}
    from graphgate.cli import build_app

    too_big = runner.invoke(build_app(), ["add", str(big), "-w", str(ws)], env=env)
    assert too_big.exit_code == 2
    assert "MAX_DOCUMENT_BYTES" in too_big.stderr and "ending in" not in too_big.stderr
    not_utf8 = _cli(["add", str(latin), "-w", str(ws)])
    assert not_utf8.exit_code == 2
    assert "iconv" in not_utf8.stderr and "ending in" not in not_utf8.stderr
    assert _runs(ws) == before


def test_readding_identical_content_and_an_empty_delete_make_no_run(
    ws: Path, small_corpus: Path
) -> None:
    before = _runs(ws)
    current = (ws / "CURRENT").read_text()
    same = _cli(["add", str(small_corpus / "fred.html"), "-w", str(ws), "--json"])
    assert same.exit_code == 0
    report = json.loads(same.stdout)
    assert report["new_run"] is False and report["run_id"] == current
    assert report["changes"]["unchanged"] == 3
    plain = _cli(["add", str(small_corpus / "fred.html"), "-w", str(ws)])
    assert "nothing changed" in plain.stdout
    assert _runs(ws) == before and (ws / "CURRENT").read_text() == current


def _job(base: str, job: str) -> dict[str, Any]:
    return wait_for_job(base, job)


def test_http_and_mcp_adds_report_skipped_documents_without_server_paths(ws: Path) -> None:
    with (
        running_server(ws, TOKEN) as (base, _),
        httpx.Client(base_url=base, timeout=60, headers=AUTH) as client,
    ):
        documents = [
            {"id": "ok", "text": "Ada Lane runs the Quill Press in York."},
            {"id": "blank", "text": "   "},
            {"id": "nul", "text": "a\u0000b"},
        ]
        job = client.post("/documents", json={"documents": documents}).json()["job"]
        state = _job(base, job)
        assert state["state"] == "done", state
        problems = {p["source"]: p["problem"] for p in state["result"]["problems"]}
        assert problems == {
            "document 2 (id 'blank')": "missing or empty 'text' field",
            "document 3 (id 'nul')": "text contains a NUL character",
        }
        manifest = ws / "runs" / state["result"]["run_id"] / "manifest.json"
        assert json.loads(manifest.read_text())["load_problems"] == state["result"]["problems"]
        # Only bad documents: the job fails, naming them by place, never a temporary path.
        job = client.post("/documents", json={"documents": documents[1:]}).json()["job"]
        failed = _job(base, job)
        assert failed["state"] == "failed"
        assert "document 1 (id 'blank')" in failed["error"] and "/tmp" not in failed["error"]
        # The same documents again: nothing changed, no run made.
        runs = _runs(ws)
        again = _job(base, client.post("/documents", json={"documents": documents}).json()["job"])
        assert again["result"]["new_run"] is False and _runs(ws) == runs
        # Ids with control or direction characters are refused before anything queues.
        for bad in ("evil\u202etxt", "two\nrows", "nul\u0000"):
            body = {"documents": [{"id": bad, "text": "Some text."}]}
            refused = client.post("/documents", json=body)
            assert refused.status_code == 422, refused.text
        # MCP: the same report; an empty delete is refused, and makes no run.
        params = {"name": "add_documents", "arguments": {"documents": documents[:2]}}
        tool = mcp_call(client, "tools/call", params, AUTH).json()["result"]
        answer = json.loads(tool["content"][0]["text"])
        assert answer["result"]["problems"][0]["source"] == "document 2 (id 'blank')"
        params = {"name": "delete_documents", "arguments": {"doc_ids": []}}
        tool = mcp_call(client, "tools/call", params, AUTH).json()["result"]
        assert tool["isError"] and "no document ids" in tool["content"][0]["text"]
        assert _runs(ws) == runs


def test_an_empty_workspace_409_does_not_name_the_server_path(tmp_path: Path) -> None:
    empty = tmp_path / "secret-place" / "ws"
    empty.mkdir(parents=True)
    with running_server(empty, TOKEN) as (base, _):
        response = httpx.post(f"{base}/query", json={"question": "Who?"}, timeout=30)
        assert response.status_code == 409
        assert "secret-place" not in response.text and str(tmp_path) not in response.text
