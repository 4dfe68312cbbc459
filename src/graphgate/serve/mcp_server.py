"""The MCP server: an agent can inspect, query, re-index, gate and evaluate through tools alone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from graphgate.serve.service import Service


def build_mcp(service: Service) -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("graphgate", instructions="GraphRAG over a graphgate workspace.")

    @server.tool()
    def get_server_status() -> dict[str, Any]:
        """Entities, relationships, communities, embedding model and dimension."""
        with service.query_lock:
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
    def query_graph(query: str, mode: str = "hybrid", top_k: int = 5) -> dict[str, Any]:
        """Retrieve and answer: entities, relationships, text chunks and references."""
        out = service.query(query, mode, top_k)
        return {
            "answer": out["answer"],
            "entities": out["entities"],
            "relationships": out["edges"],
            "text_chunks": out["chunks"],
            "references": out["citations"],
        }

    @server.tool()
    def reingest_from_file(path: str) -> dict[str, Any]:
        """Index a corpus file or folder into a new run (waits for it to finish)."""
        job = service.reindex(Path(path))
        while job.state in {"queued", "running"}:
            time.sleep(0.2)
        return job.as_dict()

    @server.tool()
    def run_gates() -> dict[str, Any]:
        """The eight quality gates on the current run: verdict per gate."""
        with service.query_lock:
            report = service.ws.gates()
        return {
            "verdict": report.verdict,
            "notes": report.notes,
            "gates": {r.gate: r.verdict for r in report.results},
        }

    @server.tool()
    def evaluate(testset: str, modes: str = "vector,hybrid") -> dict[str, Any]:
        """Run a test set and return the evaluation summary."""
        job = service.evaluate(Path(testset), [m.strip() for m in modes.split(",") if m.strip()])
        while job.state in {"queued", "running"}:
            time.sleep(0.2)
        if job.state == "failed" or job.result is None:
            return {"error": job.error}
        summary = job.result["summary"]
        return {
            "overall_verdict": summary["overall_verdict"],
            "verdicts": summary["verdicts"],
            "modes": {m: d["overall"] for m, d in summary["modes"].items()},
        }

    return server
