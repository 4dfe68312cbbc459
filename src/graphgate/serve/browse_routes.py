"""Read-only routes for browsing an index and its history: what the web interface pages through.

Each route is a thin call into :mod:`graphgate.app.explore` or :mod:`graphgate.app.history`; ids a
client sends are looked up, never spliced into a path or a query, and an unknown one is a 404.
Every route's ``name`` is an operation in :data:`graphgate.serve.auth.POLICY` (all READ).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Query

from graphgate.app.explore import MAX_GRAPH_NODES
from graphgate.app.history import (
    evaluation,
    evaluations,
    gate_trends,
    run_gates_view,
    runs_overview,
)
from graphgate.serve.service import Service

_ID = Query(min_length=1, max_length=512)


def add_browse_routes(app: FastAPI, service: Service) -> None:
    registry = service.ws.runs

    @app.get("/entities", name="entities")
    def search_entities(
        q: str = Query(min_length=1, max_length=200),
        limit: int = Query(20, ge=1, le=200),
    ) -> list[dict[str, Any]]:
        return [dict(h) for h in service.explore(lambda x: x.search_entities(q, limit))]

    @app.get("/entities/{entity_id}", name="entity")
    def entity(entity_id: str, nodes: int = Query(60, ge=1, le=MAX_GRAPH_NODES)) -> dict[str, Any]:
        return dict(service.explore(lambda x: x.entity(entity_id, nodes)))

    @app.get("/communities/{community_id}", name="community")
    def community(
        community_id: str, nodes: int = Query(150, ge=1, le=MAX_GRAPH_NODES)
    ) -> dict[str, Any]:
        return dict(service.explore(lambda x: x.community(community_id, nodes)))

    @app.get("/chunk", name="chunk")
    def chunk(id: str = _ID) -> dict[str, Any]:
        return dict(service.explore(lambda x: x.chunk(id)))

    @app.get("/documents", name="documents.list")
    def documents(
        q: str = Query("", max_length=200),
        offset: int = Query(0, ge=0),
        limit: int = Query(50, ge=1, le=500),
    ) -> dict[str, Any]:
        return dict(service.explore(lambda x: x.documents(q, offset, limit)))

    @app.get("/document", name="document")
    def document(id: str = _ID) -> dict[str, Any]:
        return dict(service.explore(lambda x: x.document(id)))

    @app.get("/runs", name="runs")
    def runs() -> list[dict[str, Any]]:
        return [dict(r) for r in runs_overview(registry)]

    @app.get("/runs/{run_id}/gates", name="gates.run")
    def gates_of_run(run_id: str) -> dict[str, Any]:
        return run_gates_view(registry, run_id)

    @app.get("/gates/trends", name="gates.trends")
    def trends() -> list[dict[str, Any]]:
        return [dict(t) for t in gate_trends(registry, service.ws.settings.gates)]

    @app.get("/evaluations", name="evaluations")
    def list_evaluations() -> list[dict[str, Any]]:
        return [dict(e) for e in evaluations(registry)]

    @app.get("/evaluations/{run_id}/{eval_id}", name="evaluation")
    def one_evaluation(run_id: str, eval_id: str) -> dict[str, Any]:
        return evaluation(registry, run_id, eval_id)

    @app.get("/jobs", name="jobs")
    def jobs() -> list[dict[str, Any]]:
        return service.jobs.list()

    @app.get("/jobs/{job_id}", name="job")
    def job(job_id: str) -> dict[str, Any]:
        found = service.jobs.get(job_id)
        if found is None:
            raise HTTPException(404, "no such job")
        return found
