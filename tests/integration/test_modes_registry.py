"""One registry of query modes: every entry point reads it, every mode has a retriever."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from graphgate.cli import build_app
from graphgate.core.config_sources import load_settings
from graphgate.core.errors import ConfigError
from graphgate.core.modes import DEFAULT_EVAL_MODES, QUERY_MODES
from graphgate.query.modes import RETRIEVERS
from graphgate.serve.http import EvalRequest, create_app
from graphgate.serve.mcp_server import build_mcp
from graphgate.serve.service import Service


def test_every_mode_has_a_retriever() -> None:
    assert set(RETRIEVERS) == set(QUERY_MODES)


def test_cli_http_mcp_and_settings_read_the_registry(
    small_workspace_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    app = build_app()
    help_text = " ".join(runner.invoke(app, ["query", "--help"]).stdout.split())
    assert all(mode in help_text for mode in QUERY_MODES)
    bad = runner.invoke(app, ["query", "hi", "--mode", "psychic", "-w", str(tmp_path)])
    assert bad.exit_code == 2 and "hybrid" in bad.stderr
    eval_help = " ".join(runner.invoke(app, ["eval", "run", "--help"]).stdout.split())
    assert ",".join(DEFAULT_EVAL_MODES) in eval_help

    shutil.copytree(small_workspace_path, tmp_path / "ws")
    service = Service(tmp_path / "ws")
    try:
        schema = create_app(service, mcp=False).openapi()
        query = schema["components"]["schemas"]["QueryRequest"]["properties"]["mode"]
        assert query["anyOf"][0]["enum"] == list(QUERY_MODES)
        assert EvalRequest(testset="t").modes == list(DEFAULT_EVAL_MODES)

        async def tool_defaults() -> str:
            tools = {t.name: t for t in await build_mcp(service).list_tools()}
            return str(tools["evaluate"].input_schema["properties"]["modes"]["default"])

        assert anyio.run(tool_defaults) == ",".join(DEFAULT_EVAL_MODES)
    finally:
        service.close()

    monkeypatch.setenv("GRAPHGATE_QUERY__MODE", "psychic")
    with pytest.raises(ConfigError, match=r"query\.mode"):
        load_settings(tmp_path / "ws")
