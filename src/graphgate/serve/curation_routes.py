"""Routes for curation: the edits made to the graph, a new edit, a revert.

An edit or a revert is a write (the write token), applied like an upload: a job, in line with
the other writes, whose result names the new run and how the edit applied. Names are checked
as any user text is and compared after normalisation; none reaches a query.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, Field

from graphgate.index.curation import MAX_NAME_CHARS, REVERT, CurationEdit
from graphgate.serve.service import Service

Name = Field(min_length=1, max_length=MAX_NAME_CHARS)


class EditRequest(BaseModel):
    """One edit: ``merge`` (``names`` into ``entity``), ``rename`` (``names``: the new name),
    ``split`` (``names`` leave ``entity``), ``alias_add`` (``names``: the alias),
    ``relation_delete`` (between ``entity`` and ``target``, of ``predicate`` if given)."""

    op: Literal["merge", "rename", "split", "alias_add", "relation_delete"]
    entity: str = Name
    names: list[str] = Field(default_factory=list, max_length=100)
    target: str = Field("", max_length=MAX_NAME_CHARS)
    predicate: str | None = Field(None, min_length=1, max_length=MAX_NAME_CHARS)

    def edit(self) -> CurationEdit:
        return CurationEdit(0, self.op, self.entity, tuple(self.names), self.target, self.predicate)


class RevertRequest(BaseModel):
    n: int = Field(ge=1, le=10**9, description="The number of the edit to undo.")


def add_curation_routes(app: FastAPI, service: Service) -> None:
    @app.get("/curation", name="curation.list")
    def edits() -> list[dict[str, Any]]:
        """Every edit in order: in force or reverted, and how the current run applied it."""
        return service.curation_edits()

    @app.post("/curation", status_code=202, name="curation.edit")
    def edit(body: EditRequest) -> dict[str, Any]:
        job = service.curate(body.edit())
        return {"job": job.id, "poll": f"/jobs/{job.id}"}

    @app.post("/curation/revert", status_code=202, name="curation.revert")
    def revert(body: RevertRequest) -> dict[str, Any]:
        job = service.curate(CurationEdit(0, REVERT, reverts=body.n))
        return {"job": job.id, "poll": f"/jobs/{job.id}"}
