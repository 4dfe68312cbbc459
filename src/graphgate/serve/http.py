"""The HTTP API: a thin FastAPI layer over the service; no user text reaches Cypher."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, Field
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from graphgate.errors import GraphgateError, IndexMissingError
from graphgate.serve.metrics import ServerMetrics
from graphgate.serve.service import Service

MAX_BODY_BYTES = 2_000_000
MAX_QUESTION_CHARS = 4_000

Mode = Literal["vector", "local", "graph", "hybrid", "global"]


class QueryRequest(BaseModel):
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    mode: Mode | None = None
    top_k: int | None = Field(None, ge=1, le=100)
    as_of: str | None = Field(None, description="Accepted; temporal filtering is not built yet.")


class DocumentIn(BaseModel):
    id: str = Field(min_length=1, max_length=512)
    title: str | None = None
    text: str = Field(min_length=1)
    metadata: dict[str, Any] = Field(default_factory=dict)


class DocumentsRequest(BaseModel):
    documents: list[DocumentIn] = Field(min_length=1, max_length=10_000)


def _default_modes() -> list[Mode]:
    return ["vector", "hybrid"]


class EvalRequest(BaseModel):
    testset: str = Field(description="Path of a test-set JSONL on the server.")
    modes: list[Mode] = Field(default_factory=_default_modes)


class _BodyLimit(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        length = request.headers.get("content-length")
        if length is not None and int(length) > MAX_BODY_BYTES:
            return JSONResponse({"detail": f"body over {MAX_BODY_BYTES} bytes"}, status_code=413)
        return await call_next(request)


def create_app(service: Service, mcp: bool = True) -> FastAPI:
    """The API; with ``mcp`` the MCP server also answers at ``/mcp`` (streamable HTTP)."""
    mcp_app: Any = None
    mcp_server: Any = None
    if mcp:
        from graphgate.serve.mcp_server import build_mcp

        mcp_server = build_mcp(service)
        mcp_app = mcp_server.streamable_http_app(
            streamable_http_path="/mcp", stateless_http=True, json_response=True
        )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if mcp_server is None:
            yield
            return
        async with mcp_server.session_manager.run():
            yield

    app = FastAPI(
        title="graphgate",
        version="0.1.0",
        lifespan=lifespan,
        description="GraphRAG with every stage measured.",
    )
    app.add_middleware(_BodyLimit)
    metrics = ServerMetrics()

    def token_check(expected: str | None, header: str | None) -> None:
        if expected is None:
            return
        if header != f"Bearer {expected}":
            raise HTTPException(
                401, "missing or wrong bearer token", headers={"WWW-Authenticate": "Bearer"}
            )

    def writer(authorization: Annotated[str | None, Header()] = None) -> None:
        if service.write_token is None:
            raise HTTPException(403, "writes are disabled: start the server with a write token")
        token_check(service.write_token, authorization)

    def reader(authorization: Annotated[str | None, Header()] = None) -> None:
        token_check(service.read_token, authorization)

    @app.exception_handler(GraphgateError)
    async def graphgate_error(_: Request, exc: GraphgateError) -> JSONResponse:
        code = 409 if isinstance(exc, IndexMissingError) else 400
        return JSONResponse({"detail": exc.problem, "fix": exc.fix}, status_code=code)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/status", dependencies=[Depends(reader)])
    def status() -> dict[str, Any]:
        with service.query_lock:
            return service.ws.status().to_dict()

    @app.post("/query", dependencies=[Depends(reader)])
    def query(body: QueryRequest) -> dict[str, Any]:
        started = time.perf_counter()
        out = service.query(body.question, body.mode, body.top_k)
        metrics.observe_query(
            out["mode"], time.perf_counter() - started, len(out["entities"]), len(out["chunks"])
        )
        return out

    @app.post("/documents", status_code=202, dependencies=[Depends(writer)])
    def add_documents(body: DocumentsRequest) -> dict[str, Any]:
        job = service.add_documents([d.model_dump() for d in body.documents])
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    @app.delete(
        "/documents/{doc_id}",
        status_code=501,
        dependencies=[Depends(writer)],
        responses={501: {"description": "Not implemented until incremental updates land."}},
    )
    def delete_document(doc_id: str) -> dict[str, str]:
        raise HTTPException(501, "deleting documents needs incremental updates (not built yet)")

    @app.post("/eval", status_code=202, dependencies=[Depends(writer)])
    def run_eval(body: EvalRequest) -> dict[str, Any]:
        path = Path(body.testset)
        if not path.is_file():
            raise HTTPException(422, f"test set not found on the server: {body.testset}")
        job = service.evaluate(path, list(body.modes))
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    @app.get("/jobs/{job_id}", dependencies=[Depends(reader)])
    def job(job_id: str) -> dict[str, Any]:
        found = service.jobs.get(job_id)
        if found is None:
            raise HTTPException(404, "no such job")
        return found.as_dict()

    @app.get("/runs", dependencies=[Depends(reader)])
    def runs() -> list[dict[str, Any]]:
        from graphgate.gates.runner import stored_gates

        return [
            {
                "run_id": r.run_id,
                "status": r.manifest().get("status"),
                "verdict": (stored_gates(r) or {}).get("verdict"),
            }
            for r in service.ws.list_runs()
        ]

    @app.get("/gates", dependencies=[Depends(reader)])
    def gates() -> dict[str, Any]:
        with service.query_lock:
            return service.ws.gates().as_dict()

    @app.get("/metrics")
    def prometheus() -> PlainTextResponse:
        with service.query_lock:
            metrics.refresh(service.ws)
        return PlainTextResponse(
            generate_latest(metrics.registry).decode(), media_type=CONTENT_TYPE_LATEST
        )

    if mcp_app is not None:
        # Mounted last, so the API's own routes match first; the MCP app serves /mcp.
        app.mount("/", mcp_app)
    return app
