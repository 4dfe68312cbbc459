"""The MCP server: an agent can inspect, query, re-index, gate and evaluate through tools alone.

Each tool first asks the service whether its caller may run it. Over streamable HTTP the caller
was identified by the server's guard from the request's bearer token; over stdio, which has no
headers, the caller is identified once from ``GRAPHGATE_MCP_TOKEN`` in the environment (as the
MCP specification advises for stdio), against the same tokens and the same table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from graphgate.core.errors import GraphgateError
from graphgate.core.modes import DEFAULT_EVAL_MODES
from graphgate.index.curation import REVERT, CurationEdit
from graphgate.serve.auth import Access, Caller
from graphgate.serve.guard import ACCESS_KEY
from graphgate.serve.jobs import Job
from graphgate.serve.service import DocumentIn, Service


def build_mcp(service: Service, stdio_caller: Caller | None = None) -> MCPServer:
    server = MCPServer("graphgate", instructions="GraphRAG over a graphgate workspace.")

    def allow(ctx: Context, tool: str) -> None:
        request = ctx.request_context.request
        if request is None:
            caller = stdio_caller or Caller(Access.NONE)
        else:
            caller = request.scope.get(ACCESS_KEY) or Caller(Access.NONE)
        try:
            service.authorize(f"mcp.{tool}", caller)
        except GraphgateError as exc:
            raise ToolError(f"{exc.problem} — fix: {exc.fix}") from exc

    def failed(exc: GraphgateError) -> ToolError:
        return ToolError(f"{exc.problem} — fix: {exc.fix}" if exc.fix else exc.problem)

    def finished(start: Callable[[], Job]) -> dict[str, Any]:
        """Start a write job, wait for it, and return its state (a refused start is an error)."""
        try:
            job = start().wait()
        except GraphgateError as exc:
            raise failed(exc) from exc
        return job.as_dict()

    @server.tool()
    def get_server_status(ctx: Context) -> dict[str, Any]:
        """Entities, relationships, communities, embedding model and dimension."""
        allow(ctx, "get_server_status")
        with service.views_lock:
            st = service.ws.status()
            recorded = st.embedding
            mismatch = bool(recorded) and (
                recorded.get("model") != service.ws.embedder.model
                or recorded.get("dimension") != service.ws.embedder.dimension
            )
        return {
            "entities": st.counts.get("Entity", 0),
            "relationships": st.counts.get("RELATED", 0),
            "communities": st.counts.get("Community", 0),
            "embedding_model": recorded.get("model"),
            "embedding_dimension": recorded.get("dimension"),
            "has_dimension_mismatch": mismatch,
            "current_run": st.current_run,
            "healthy": st.healthy,
        }

    @server.tool()
    def query_graph(
        ctx: Context,
        query: str,
        mode: str | None = None,
        top_k: int | None = None,
        as_of: str | None = None,
    ) -> dict[str, Any]:
        """Retrieve and answer: entities, relationships, text chunks and references. Modes:
        vector, local, graph, hybrid, global (default: the server's query.mode). ``as_of``
        (2016, 2016-03-31, 'March 2016') answers for that date."""
        allow(ctx, "query_graph")
        try:
            out = service.query(query, mode, top_k, as_of)
        except GraphgateError as exc:
            raise failed(exc) from exc
        return {
            "short_answer": out["short_answer"],
            "answer": out["answer"],
            "entities": out["entities"],
            "relationships": out["edges"],
            "text_chunks": out["chunks"],
            "references": out["citations"],
            "time": out["time"],
        }

    @server.tool()
    def reingest_from_file(ctx: Context, path: str) -> dict[str, Any]:
        """Index a corpus file or folder below the server's allowed paths into a new run
        (waits for it to finish)."""
        allow(ctx, "reingest_from_file")
        return finished(lambda: service.reindex(path))

    @server.tool()
    def add_documents(ctx: Context, documents: list[DocumentIn]) -> dict[str, Any]:
        """Add documents ({id, text, title?, metadata?}; an indexed id is replaced) in a new run
        that reuses everything already indexed (waits for it to finish)."""
        allow(ctx, "add_documents")
        return finished(lambda: service.add_documents([d.model_dump() for d in documents]))

    @server.tool()
    def delete_documents(ctx: Context, doc_ids: list[str]) -> dict[str, Any]:
        """Remove documents by id in a new run (waits for it to finish)."""
        allow(ctx, "delete_documents")
        return finished(lambda: service.delete_documents(doc_ids))

    @server.tool()
    def list_edits(ctx: Context) -> list[dict[str, Any]]:
        """The edits made to the graph, in order: in force or reverted, and whether the
        current run applied each (and why not)."""
        allow(ctx, "list_edits")
        try:
            return service.curation_edits()
        except GraphgateError as exc:
            raise failed(exc) from exc

    @server.tool()
    def edit_graph(
        ctx: Context,
        op: Literal["merge", "rename", "split", "alias_add", "relation_delete"],
        entity: str,
        names: list[str] | None = None,
        target: str = "",
        predicate: str | None = None,
    ) -> dict[str, Any]:
        """Correct the graph; the edit is kept through every later update. merge: the
        entities ``names`` into ``entity``; rename: ``entity`` to ``names[0]``; split: the
        names ``names`` off ``entity``; alias_add: ``names[0]`` as an alias of ``entity``;
        relation_delete: the edges between ``entity`` and ``target`` (of ``predicate`` only,
        if given). Waits for the new run."""
        allow(ctx, "edit_graph")
        edit = CurationEdit(0, op, entity, tuple(names or ()), target, predicate)
        return finished(lambda: service.curate(edit))

    @server.tool()
    def revert_edit(ctx: Context, n: int) -> dict[str, Any]:
        """Undo edit ``n`` (see list_edits) in a new run. Waits for it."""
        allow(ctx, "revert_edit")
        return finished(lambda: service.curate(CurationEdit(0, REVERT, reverts=n)))

    @server.tool()
    def run_gates(ctx: Context) -> dict[str, Any]:
        """The eight quality gates on the current run: verdict per gate."""
        allow(ctx, "run_gates")
        try:
            with service.views_lock:
                report = service.ws.gates()
        except GraphgateError as exc:
            raise failed(exc) from exc
        return {
            "verdict": report.verdict,
            "notes": report.notes,
            "gates": {r.gate: r.verdict for r in report.results},
        }

    @server.tool()
    def evaluate(
        ctx: Context, testset: str, modes: str = ",".join(DEFAULT_EVAL_MODES)
    ) -> dict[str, Any]:
        """Run a test set below the server's allowed paths and return the evaluation summary."""
        allow(ctx, "evaluate")
        try:
            job = service.evaluate(testset, modes).wait()
        except GraphgateError as exc:
            raise failed(exc) from exc
        if job.state == "failed" or job.result is None:
            raise ToolError(job.error or "the evaluation failed")
        summary = job.result["summary"]
        return {
            "overall_verdict": summary["overall_verdict"],
            "verdicts": summary["verdicts"],
            "modes": {m: d["overall"] for m, d in summary["modes"].items()},
        }

    return server
