"""Every command that prints results takes --json, and what it prints parses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from graphgate.cli import build_app
from tests.conftest import write_fred_testset

# Commands that serve instead of printing a result.
_SERVERS = {"serve", "mcp"}


def _leaves(command: Any, prefix: str = "") -> dict[str, Any]:
    sub = getattr(command, "commands", None)
    if not sub:
        return {prefix.strip(): command}
    out: dict[str, Any] = {}
    for name, child in sub.items():
        out |= _leaves(child, f"{prefix} {name}")
    return out


def test_every_result_command_has_json() -> None:
    commands = _leaves(typer.main.get_command(build_app()))
    missing = [
        name
        for name, command in commands.items()
        if name not in _SERVERS and not any("--json" in p.opts for p in command.params)
    ]
    assert not missing, f"commands without --json: {missing}"
    assert {"eval run", "eval report", "runs prune", "gates baseline set"} <= set(commands)


def test_json_output_parses(small_workspace_path: Path, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(small_workspace_path, ws)
    w = ["-w", str(ws)]
    testset = write_fred_testset(tmp_path / "t.jsonl")
    run_id = (ws / "CURRENT").read_text()
    runner, app = CliRunner(), build_app()
    calls = [
        ["query", "Who is Fred Holywell?", "--json", *w],
        ["status", "--json", *w],
        ["runs", "--json", *w],
        ["gates", "--json", *w],
        ["gates", "baseline", "set", run_id, "--json", *w],
        ["eval", str(testset), "--modes", "vector", "--out", str(tmp_path / "e"), "--json", *w],
        ["eval", "report", str(tmp_path / "e"), "--json"],
        ["testset", "generate", "--n", "3", "--out", str(tmp_path / "g.jsonl"), "--json", *w],
        ["runs", "prune", "--json", *w],
    ]
    outputs = {}
    for args in calls:
        result = runner.invoke(app, args)
        assert result.exit_code in {0, 1}, (args, result.output)
        outputs[" ".join(args[:2])] = json.loads(result.stdout)
    assert outputs["runs --json"][0]["run_id"] == run_id
    assert outputs["eval report"]["modes"].keys() == {"vector"}
    assert outputs["runs prune"] == {"removed": []}
