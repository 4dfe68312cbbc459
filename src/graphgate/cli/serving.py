"""``graphgate serve`` (web interface, API, MCP, metrics) and ``graphgate mcp`` (MCP on stdio)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from graphgate.cli.common import DEFAULT_WORKSPACE, WorkspaceOpt, console, errors

# The names the first release documented, still honoured (they take precedence when set).
_LEGACY_WRITE = "GRAPHGATE_SERVE_TOKEN"
_LEGACY_READ = "GRAPHGATE_SERVE_READ_TOKEN"
MCP_TOKEN = "GRAPHGATE_MCP_TOKEN"


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
    app.command("mcp")(mcp_command)


def serve_command(
    workspace: WorkspaceOpt = DEFAULT_WORKSPACE,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Server processes on one port (default: serve.workers, which is 2 on two or "
            "more cores); each follows the current run and holds its own copy of it; with "
            "store.backend = falkordb they share the server's graph.",
        ),
    ] = None,
) -> None:
    """Serve the index over HTTP: the web interface at /, the API, MCP at /mcp. Writes need
    the write token
    (GRAPHGATE_SERVE__WRITE_TOKEN); reads need the read token when one is set
    (GRAPHGATE_SERVE__READ_TOKEN)."""
    import uvicorn

    from graphgate.app.workspace import Workspace
    from graphgate.serve.workers import worker_count

    with errors(), Workspace(workspace) as ws:  # bad settings fail here, before any worker
        workers = workers or worker_count(ws.settings.serve.workers)
    if workers > 1:
        from graphgate.serve.workers import serve_workers

        console().print(
            f"graphgate: web interface and API at http://{host}:{port}/ (MCP at /mcp), "
            f"{workers} processes"
        )
        serve_workers(
            workspace,
            host,
            port,
            workers,
            os.environ.get(_LEGACY_WRITE),
            os.environ.get(_LEGACY_READ),
        )
        return

    from graphgate.serve.http import create_app, server_config
    from graphgate.serve.service import Service
    from graphgate.serve.workers import limit_blas

    with errors():
        service = Service(workspace, os.environ.get(_LEGACY_WRITE), os.environ.get(_LEGACY_READ))
    limit_blas(service.settings.blas_threads)
    console().print(f"graphgate: web interface and API at http://{host}:{port}/ (MCP at /mcp)")
    try:
        app = create_app(service, host=host)
        uvicorn.Server(server_config(app, service, host, port)).run()
    finally:
        service.close()


def mcp_command(workspace: WorkspaceOpt = DEFAULT_WORKSPACE) -> None:
    """Serve the index to an agent over the Model Context Protocol (stdio). Reads follow the
    server's read token; writes need GRAPHGATE_MCP_TOKEN set to the write token."""
    from graphgate.serve.mcp_server import build_mcp
    from graphgate.serve.service import Service

    with errors():
        service = Service(workspace, os.environ.get(_LEGACY_WRITE), os.environ.get(_LEGACY_READ))
    caller = service.auth.identify(os.environ.get(MCP_TOKEN) or None)
    try:
        build_mcp(service, caller).run("stdio")
    finally:
        service.close()
