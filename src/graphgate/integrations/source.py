"""Where a framework retriever's passages come from: a :class:`Workspace` in this process, or
a graphgate server (``POST /retrieve`` with a bearer token). Both give the same JSON shape
(:meth:`graphgate.query.events.Retrieval.to_dict`), so a retriever reads them alike."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from graphgate.core.errors import GraphgateError, InputError

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace


class RemoteError(GraphgateError):
    """The server refused or failed a retrieval (its reason and fix, when it gave them)."""


def retrieve(
    workspace: Workspace | None,
    url: str | None,
    token: str | None,
    question: str,
    mode: str | None,
    top_k: int | None,
    timeout_s: float,
) -> dict[str, Any]:
    """One retrieval from the workspace, or from the server at ``url``."""
    if (workspace is None) == (url is None):
        raise InputError(
            "a graphgate retriever needs a workspace or a server url, not both",
            "pass workspace=Workspace(path), or url='http://host:8000' (and token=...)",
        )
    if workspace is not None:
        return workspace.retrieve(question, mode, top_k).to_dict()
    import httpx

    assert url is not None
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"question": question, "mode": mode, "top_k": top_k}
    try:
        response = httpx.post(
            url.rstrip("/") + "/retrieve", json=body, headers=headers, timeout=timeout_s
        )
    except httpx.HTTPError as exc:
        raise RemoteError(
            f"cannot reach the graphgate server at {url} ({type(exc).__name__})",
            "start it (graphgate serve) or fix the url",
        ) from exc
    if response.status_code != 200:
        detail: Any = None
        with contextlib.suppress(ValueError):
            detail = response.json()
        problem = detail.get("detail") if isinstance(detail, dict) else None
        fix = detail.get("fix") if isinstance(detail, dict) else None
        raise RemoteError(
            f"the graphgate server answered HTTP {response.status_code}: "
            f"{problem if isinstance(problem, str) else 'no reason given'}",
            fix if isinstance(fix, str) else "check the token and the request",
        )
    payload: dict[str, Any] = response.json()
    return payload


def passage_metadata(retrieval: dict[str, Any], passage: dict[str, Any]) -> dict[str, Any]:
    """A passage's citation as a framework document's metadata: where it is (document, span,
    page, section), how it ranked, the run it came from, and the graph's view of it (the
    retrieved entities it names, the retrieved edges it supports)."""
    text = str(passage["text"]).lower()
    entities = [e["name"] for e in retrieval.get("entities", []) if e["name"].lower() in text]
    edges = [
        f"{e['source']} {e['predicate']} {e['target']}"
        for e in retrieval.get("edges", [])
        if passage["chunk_id"] in e.get("chunk_ids", [])
    ]
    return {
        "chunk_id": passage["chunk_id"],
        "doc_id": passage["doc_id"],
        "start": passage["start"],
        "end": passage["end"],
        "page": passage.get("page"),
        "section": list(passage.get("section") or []),
        "date": passage.get("date"),
        "score": passage["score"],
        "rank": passage["rank"],
        "run_id": retrieval["run_id"],
        "mode": retrieval["mode"],
        "entities": entities,
        "edges": edges,
    }
