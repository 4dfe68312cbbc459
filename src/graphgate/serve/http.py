"""The HTTP API: a thin FastAPI layer over the service; no user text reaches Cypher.

Authentication, the body limit and timeouts live in :class:`~graphgate.serve.guard.Guard`,
which sits in front of every route and the MCP mount; each route's ``name`` is its operation
in :data:`graphgate.serve.auth.POLICY`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any

from anyio import to_thread
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import AfterValidator, BaseModel, Field, JsonValue

from graphgate.core.errors import (
    GraphgateError,
    IndexMissingError,
    InputError,
    NotFoundError,
    StoreUnavailableError,
    WriteConflictError,
)
from graphgate.core.inputs import MAX_DOCUMENT_ID_CHARS, MAX_TOP_K
from graphgate.core.modes import DEFAULT_EVAL_MODES, QUERY_MODES, modes_help
from graphgate.query.cypher_guard import MAX_QUERY_CHARS
from graphgate.query.events import Answered, AnswerText, QueryEvent, Retrieved
from graphgate.serve import sse
from graphgate.serve.auth import AccessDenied
from graphgate.serve.browse_routes import add_browse_routes
from graphgate.serve.curation_routes import add_curation_routes
from graphgate.serve.guard import Guard, allowed_hosts
from graphgate.serve.metrics import ServerMetrics
from graphgate.serve.openai_api import add_openai_routes
from graphgate.serve.openai_errors import error_of_status, is_openai_path
from graphgate.serve.service import DocumentIn, Service
from graphgate.serve.ui import add_ui_routes
from graphgate.serve.uploads import DOCUMENTS_BODY, is_multipart, uploaded_files, validated

_MAX_ERROR_CHARS = 300


def _mode(value: str | None) -> str | None:
    # The message names the valid modes, not the value sent: request text is never echoed.
    if value is not None and value not in QUERY_MODES:
        raise ValueError(f"unknown query mode; use one of {modes_help()}")
    return value


def _modes(value: list[str]) -> list[str]:
    """Known, not empty, each once."""
    for mode in value:
        _mode(mode)
    if not value:
        raise ValueError(f"name one or more modes: {modes_help()}")
    return list(dict.fromkeys(value))


_MODE_SCHEMA: dict[str, JsonValue] = {"enum": list[JsonValue](QUERY_MODES)}


class QueryRequest(BaseModel):
    # Its length is checked against query.max_question_chars, as on every entry point.
    question: str = Field(min_length=1)
    mode: Annotated[str | None, AfterValidator(_mode)] = Field(
        None, json_schema_extra={"anyOf": [_MODE_SCHEMA, {"type": "null"}]}
    )
    top_k: int | None = Field(None, ge=1, le=MAX_TOP_K)
    as_of: str | None = Field(
        None,
        max_length=40,
        description="Answer for this date (2016, 2016-03, 2016-03-31, 'March 2016'); default: "
        "the time the question names, if any.",
    )


class CypherRequest(BaseModel):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    params: dict[str, JsonValue] = Field(default_factory=dict, max_length=100)


class DocumentsRequest(BaseModel):
    documents: list[DocumentIn] = Field(min_length=1, max_length=10_000)


def _default_modes() -> list[str]:
    return list(DEFAULT_EVAL_MODES)


class EvalRequest(BaseModel):
    testset: str = Field(description="A test-set JSONL below serve.allowed_paths.")
    modes: Annotated[list[str], AfterValidator(_modes)] = Field(
        default_factory=_default_modes, json_schema_extra={"items": _MODE_SCHEMA}
    )


def create_app(service: Service, mcp: bool = True, host: str = "127.0.0.1") -> FastAPI:
    """The API for a server bound to ``host``; with ``mcp`` the MCP server also answers at
    ``/mcp`` (streamable HTTP). Every route and the MCP mount answer only the Host header
    values of ``serve.allowed_hosts`` (default: ``host`` and the loopback names)."""
    hosts = allowed_hosts(service.settings.allowed_hosts, host)
    mcp_app: Any = None
    mcp_server: Any = None
    if mcp:
        from mcp.server.transport_security import TransportSecuritySettings

        from graphgate.serve.mcp_server import build_mcp

        mcp_server = build_mcp(service)
        # The guard checks the Host header of every request, this mount's included, by one
        # rule; the SDK's own check (loopback names only) would refuse a host the rule allows.
        mcp_app = mcp_server.streamable_http_app(
            streamable_http_path="/mcp",
            stateless_http=True,
            json_response=True,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # Every synchronous route and MCP tool runs on this loop's default thread limiter.
        to_thread.current_default_thread_limiter().total_tokens = service.threads
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
        docs_url=None,  # the interactive pages load scripts from a CDN; the schema stays
        redoc_url=None,
    )
    limits = service.settings
    app.add_middleware(
        Guard,
        router=app.router,
        authenticator=service.auth,
        hosts=hosts,
        max_body_bytes=limits.max_body_bytes,
        body_timeout_s=limits.body_timeout_s,
    )
    metrics = ServerMetrics()

    def refusal(request: Request, status: int, problem: str, fix: str | None) -> JSONResponse:
        """``{detail, fix}``, or OpenAI's error shape under /v1/."""
        body: dict[str, Any] = {"detail": problem, "fix": fix}
        if is_openai_path(request.url.path):
            body = error_of_status(status, problem, fix)
        headers = {"Retry-After": "5"} if status == 503 else None
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(AccessDenied)
    async def denied(request: Request, exc: AccessDenied) -> JSONResponse:
        return refusal(request, exc.status, exc.problem, exc.fix)

    @app.exception_handler(GraphgateError)
    async def graphgate_error(request: Request, exc: GraphgateError) -> JSONResponse:
        # The graph server down is a 503: retry later.
        code = 409 if isinstance(exc, IndexMissingError | WriteConflictError) else 400
        if isinstance(exc, InputError):
            code = 404 if isinstance(exc, NotFoundError) else 422
        if isinstance(exc, StoreUnavailableError):
            code = 503
        if code == 422 and is_openai_path(request.url.path):
            code = 400  # OpenAI's status for a request it will not answer
        return refusal(request, code, exc.problem, exc.fix)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # Where and why, never the input itself: a request body is not echoed back.
        errors = [
            {
                "loc": [str(part) for part in err.get("loc", ())],
                "msg": str(err.get("msg", ""))[:_MAX_ERROR_CHARS],
                "type": str(err.get("type", "")),
            }
            for err in exc.errors()[:20]
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    @app.get("/healthz", name="healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/status", name="status")
    def status() -> dict[str, Any]:
        return service.status()

    @app.post("/query", name="query")
    def query(body: QueryRequest) -> dict[str, Any]:
        started = time.perf_counter()
        out = service.query(body.question, body.mode, body.top_k, body.as_of)
        metrics.observe_query(
            out["mode"], time.perf_counter() - started, len(out["entities"]), len(out["chunks"])
        )
        return out

    @app.post("/query/stream", name="query.stream")
    def query_stream(body: QueryRequest) -> StreamingResponse:
        """Server-sent events: ``retrieval`` (what was retrieved), ``text`` (pieces of the
        answer as they are written), ``answer`` (the cited answer, as ``POST /query`` gives
        it), or ``error`` if the answer failed midway. A bad request fails before the stream."""
        started = time.perf_counter()
        events = service.query_stream(body.question, body.mode, body.top_k, body.as_of)
        first = next(events)  # retrieval errors get their status, not a broken stream

        def stream() -> Iterator[str]:
            try:
                yield sse.event(_retrieved(first), "retrieval")
                for item in events:
                    if isinstance(item, AnswerText):
                        yield sse.event({"text": item.text}, "text")
                    elif isinstance(item, Answered):
                        out = item.answer.to_dict()
                        seconds = time.perf_counter() - started
                        metrics.observe_query(
                            out["mode"], seconds, len(out["entities"]), len(out["chunks"])
                        )
                        yield sse.event(out, "answer")
            except GraphgateError as exc:
                yield sse.event({"detail": exc.problem, "fix": exc.fix}, "error")
            except Exception as exc:  # the stream has begun: its end says it failed
                problem = f"the answer failed midway ({type(exc).__name__})"
                yield sse.event({"detail": problem, "fix": "retry the question"}, "error")
            finally:
                events.close()

        return sse.response(stream())

    @app.post("/retrieve", name="retrieve")
    def retrieve(body: QueryRequest) -> dict[str, Any]:
        """Retrieval alone: passages with their text and place, entities, edges (what the
        LangChain and LlamaIndex retrievers read)."""
        return service.retrieve(body.question, body.mode, body.top_k, body.as_of)

    @app.post("/cypher", name="cypher")
    def cypher(body: CypherRequest) -> dict[str, Any]:
        return service.cypher(body.query, dict(body.params))

    @app.post("/documents", status_code=202, name="documents.add", openapi_extra=DOCUMENTS_BODY)
    async def add_documents(request: Request) -> dict[str, Any]:
        """JSON ``{documents: [{id, text, title?, metadata?}]}``, or files as multipart."""
        if is_multipart(request):
            files = await uploaded_files(request, service.settings_load.max_document_bytes)
            job = service.add_files(files)
        else:
            body = validated(DocumentsRequest, await request.body())
            job = service.add_documents([d.model_dump() for d in body.documents])
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    not_held: dict[int | str, dict[str, Any]] = {
        404: {"description": "The current run holds no document with this id."}
    }

    @app.delete("/documents", status_code=202, name="documents.delete", responses=not_held)
    def delete_document_by_query(
        id: str = Query(min_length=1, max_length=MAX_DOCUMENT_ID_CHARS),
    ) -> dict[str, Any]:
        """Any id, slashes, dots and ``?`` included, URL-encoded as ``?id=``."""
        job = service.delete_documents([id])
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    # ``:path``: an id with slashes (a file in a subfolder, ``notes/old.md``) is one id.
    @app.delete(
        "/documents/{doc_id:path}", status_code=202, name="documents.delete", responses=not_held
    )
    def delete_document(doc_id: str) -> dict[str, Any]:
        job = service.delete_documents([doc_id])
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    @app.post("/eval", status_code=202, name="eval")
    def run_eval(body: EvalRequest) -> dict[str, Any]:
        job = service.evaluate(body.testset, list(body.modes))
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    @app.get("/gates", name="gates")
    def gates() -> dict[str, Any]:
        with service.views_lock:
            return service.ws.gates().as_dict()

    @app.get("/metrics", name="metrics")
    def prometheus() -> PlainTextResponse:
        with service.views_lock:
            metrics.refresh(service.ws)
        return PlainTextResponse(
            generate_latest(metrics.registry).decode(), media_type=CONTENT_TYPE_LATEST
        )

    add_browse_routes(app, service)
    add_curation_routes(app, service)
    add_openai_routes(app, service)
    add_ui_routes(app)
    if mcp_app is not None:
        # Mounted last, so the API's own routes match first; the MCP app serves /mcp.
        app.mount("/", mcp_app)
    return app


def _retrieved(event: QueryEvent) -> dict[str, Any]:
    assert isinstance(event, Retrieved), "a query's first event is its retrieval"
    return event.retrieval.to_dict()


def server_config(app: FastAPI, service: Service, host: str, port: int) -> Any:
    """uvicorn settings with the server's limits: header deadline, keep-alive, connections."""
    import uvicorn

    from graphgate.serve.protocol import protocol_with_deadline

    limits = service.settings
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol_with_deadline(limits.header_timeout_s),
        timeout_keep_alive=limits.keep_alive_s,
        limit_concurrency=limits.limit_concurrency,
    )
