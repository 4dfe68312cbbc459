"""``graphgate serve`` (HTTP API + /metrics) and ``graphgate mcp`` (MCP over stdio)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
    app.command("mcp")(mcp_command)


def serve_command(
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
) -> None:
    """Serve the index over HTTP. Writes need GRAPHGATE_SERVE_TOKEN; reads need
    GRAPHGATE_SERVE_READ_TOKEN when it is set."""
    import uvicorn

    from graphgate.serve.http import create_app
    from graphgate.serve.service import Service

    service = Service(
        workspace,
        os.environ.get("GRAPHGATE_SERVE_TOKEN"),
        os.environ.get("GRAPHGATE_SERVE_READ_TOKEN"),
    )
    try:
        uvicorn.run(create_app(service), host=host, port=port, log_level="warning")
    finally:
        service.close()


def mcp_command(workspace: WorkspaceOpt = DEFAULT_WORKSPACE) -> None:
    """Serve the index to an agent over the Model Context Protocol (stdio)."""
    from graphgate.serve.mcp_server import build_mcp
    from graphgate.serve.service import Service

    service = Service(workspace, None)
    try:
        build_mcp(service).run("stdio")
    finally:
        service.close()
