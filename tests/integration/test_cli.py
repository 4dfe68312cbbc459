from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from graphgate.cli import build_app

runner = CliRunner()
app = build_app()


def _copy(small_workspace_path: Path, tmp_path: Path) -> str:
    dest = tmp_path / "ws"
    shutil.copytree(small_workspace_path, dest)
    return str(dest)


def test_query_json_has_the_documented_fields(small_workspace_path: Path, tmp_path: Path) -> None:
    ws = _copy(small_workspace_path, tmp_path)
    result = runner.invoke(
        app, ["query", "Who does Bob Cratchit work for?", "--mode", "local", "--json", "-w", ws]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["mode"] == "local"
    assert out["citations"] and {"chunk_id", "doc_id", "start", "end", "text"} <= set(
        out["citations"][0]
    )
    assert {"id", "name"} <= set(out["entities"][0])
    assert {"source", "predicate", "target"} <= set(out["edges"][0])
    assert {"id", "doc_id", "score"} <= set(out["chunks"][0])
    assert out["timings_ms"]["total"] > 0


def test_query_stream_prints_the_answer_as_it_comes(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    ws = _copy(small_workspace_path, tmp_path)
    question = ["query", "Who does Bob Cratchit work for?", "--mode", "local", "-w", ws]
    result = runner.invoke(app, [*question, "--stream", "--json"])
    assert result.exit_code == 0, result.output
    events = [json.loads(x) for x in result.stdout.splitlines()]
    assert events[0]["event"] == "retrieval" and events[0]["passages"]
    assert events[-1]["event"] == "answer" and len(events) >= 4
    texts = [e["text"] for e in events[1:-1] if e["event"] == "text"]
    assert "".join(texts) == events[-1]["answer"]
    plain = json.loads(runner.invoke(app, [*question, "--json"]).stdout)
    assert plain["answer"] == events[-1]["answer"]
    shown = runner.invoke(app, [*question, "--stream"])
    assert shown.exit_code == 0 and "[1]" in shown.stdout and "chars" in shown.stdout
    refused = runner.invoke(app, ["query", "--batch", "q.txt", "--stream", "-w", ws])
    assert refused.exit_code == 2 and "--stream" in refused.output


def test_batch_queries_print_one_json_object_a_line(
    small_workspace_path: Path, tmp_path: Path
) -> None:
    ws = _copy(small_workspace_path, tmp_path)
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "Who is Fred Holywell?"}\n'
        '{"id": "q2", "question": "Where is the counting-house?"}\n'
    )
    result = runner.invoke(app, ["query", "--batch", str(questions), "--mode", "vector", "-w", ws])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["q1", "q2"] and all(x["citations"] for x in lines)
    plain = tmp_path / "q.txt"
    plain.write_text("Who is Fred Holywell?\n\nWho is Tiny Tim?\n")
    result = runner.invoke(app, ["query", "--batch", str(plain), "-w", ws])
    assert len(result.stdout.splitlines()) == 2


def test_status_json(small_workspace_path: Path, tmp_path: Path) -> None:
    ws = _copy(small_workspace_path, tmp_path)
    result = runner.invoke(app, ["status", "--json", "-w", ws])
    assert result.exit_code == 0, result.output
    st = json.loads(result.stdout)
    assert st["healthy"] and st["counts"]["Document"] == 3
    assert st["embedding"]["model"] == "all-MiniLM-L6-v2-int8"
    assert st["current_run"]


def test_status_of_an_empty_workspace_fails(tmp_path: Path) -> None:
    result = runner.invoke(app, ["status", "-w", str(tmp_path / "none")])
    assert result.exit_code == 1


def test_index_reports_skipped_files_and_fails_on_request(
    small_corpus: Path, tmp_path: Path
) -> None:
    (small_corpus / "bad.txt").write_bytes(b"\xff\xfe\x00binary")
    ws = str(tmp_path / "ws")
    result = runner.invoke(app, ["index", str(small_corpus), "-w", ws, "--on-error", "fail"])
    assert result.exit_code == 2
    assert "bad.txt" in result.stderr and "fix:" in result.stderr
    assert not (tmp_path / "ws" / "CURRENT").exists()
    result = runner.invoke(app, ["index", str(small_corpus), "-w", ws, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"]["Document"] == 3
    assert [Path(p["source"]).name for p in report["problems"]] == ["bad.txt"]
    assert "skipped" in result.stderr


def test_bad_arguments_get_clear_errors(small_workspace_path: Path, tmp_path: Path) -> None:
    ws = _copy(small_workspace_path, tmp_path)
    missing = runner.invoke(app, ["index", str(tmp_path / "nope"), "-w", ws])
    assert missing.exit_code == 2 and "not found" in missing.stderr
    mode = runner.invoke(app, ["query", "hi there", "--mode", "psychic", "-w", ws])
    assert mode.exit_code == 2 and "unknown query mode" in mode.stderr
    neither = runner.invoke(app, ["query", "-w", ws])
    assert neither.exit_code == 2
    no_index = runner.invoke(app, ["query", "hello", "-w", str(tmp_path / "empty")])
    assert no_index.exit_code == 2 and "graphgate index" in no_index.stderr


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).parent / "graphgate"
    result = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "index" in result.stdout and "query" in result.stdout


def test_on_error_comes_from_the_workspace_config_unless_given(
    small_corpus: Path, tmp_path: Path
) -> None:
    (small_corpus / "bad.txt").write_bytes(b"\xff\xfe\x00binary")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "graphgate.toml").write_text('[load]\non_error = "fail"\n')
    result = runner.invoke(app, ["index", str(small_corpus), "-w", str(ws)])
    assert result.exit_code == 2 and "bad.txt" in result.stderr
    bad_value = runner.invoke(app, ["index", str(small_corpus), "-w", str(ws), "--on-error", "x"])
    # A bad option value is blamed on the option, not on the config file.
    assert bad_value.exit_code == 2 and "--on-error" in bad_value.stderr
    assert "graphgate.toml" not in bad_value.stderr
