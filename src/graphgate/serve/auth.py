"""Who may do what: one access table for every operation of every transport.

HTTP routes, the MCP tools (over streamable HTTP and stdio) and any later UI name their
operation here. A transport only establishes *who* is calling (a bearer token from a header, or
from the environment where the transport has no headers, as MCP over stdio); the decision is
always :meth:`Authenticator.decide` on this table. An operation missing from the table is
refused, so a new route or tool without a decision cannot be reached.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from enum import IntEnum

from graphgate.core.errors import GraphgateError


class Access(IntEnum):
    NONE = 0
    READ = 1
    WRITE = 2


# operation -> the access it needs. "metrics" is READ unless serve.metrics_public.
POLICY: dict[str, Access] = {
    "healthz": Access.NONE,
    "openapi": Access.READ,
    "metrics": Access.READ,
    "status": Access.READ,
    "query": Access.READ,
    "query.stream": Access.READ,
    "retrieve": Access.READ,
    # The OpenAI-compatible API (graphgate.serve.openai_api): its API key is the bearer token.
    "v1.models": Access.READ,
    "v1.chat.completions": Access.READ,
    "runs": Access.READ,
    "gates": Access.READ,
    "job": Access.READ,
    "jobs": Access.READ,
    # Browsing the index and its history (graphgate.serve.browse_routes).
    "entities": Access.READ,
    "entity": Access.READ,
    "community": Access.READ,
    "chunk": Access.READ,
    "documents.list": Access.READ,
    "document": Access.READ,
    "gates.run": Access.READ,
    "gates.trends": Access.READ,
    "evaluations": Access.READ,
    "evaluation": Access.READ,
    # The web interface's page and its scripts: no data, so no token; what it shows comes
    # from the routes above, with the token the reader gives it.
    "ui": Access.NONE,
    "documents.add": Access.WRITE,
    "documents.delete": Access.WRITE,
    "eval": Access.WRITE,
    # Curation (graphgate.serve.curation_routes): the list is a read, an edit a write.
    "curation.list": Access.READ,
    "curation.edit": Access.WRITE,
    "curation.revert": Access.WRITE,
    # Any read of the whole graph, hence the write token (and off unless serve.cypher).
    "cypher": Access.WRITE,
    # The MCP endpoint itself (connecting at all), then each tool.
    "mcp": Access.READ,
    "mcp.get_server_status": Access.READ,
    "mcp.query_graph": Access.READ,
    "mcp.run_gates": Access.READ,
    "mcp.reingest_from_file": Access.WRITE,
    "mcp.add_documents": Access.WRITE,
    "mcp.delete_documents": Access.WRITE,
    "mcp.evaluate": Access.WRITE,
    "mcp.list_edits": Access.READ,
    "mcp.edit_graph": Access.WRITE,
    "mcp.revert_edit": Access.WRITE,
}


class AccessDenied(GraphgateError):
    """401: no or wrong credential; 403: the credential may not do this, or writes are off."""

    def __init__(self, status: int, problem: str, fix: str) -> None:
        super().__init__(problem, fix)
        self.status = status


@dataclass(frozen=True)
class Caller:
    """What a transport learned about whoever is calling, before any decision."""

    access: Access
    bad_credential: bool = False
    presented: bool = True  # False: no credential at all


class Authenticator:
    """Bearer tokens to access: the write token writes and reads, the read token reads.

    Without a read token reads are open; without a write token writes are off for everyone.
    A credential that matches neither token is refused outright, even where none is needed
    beyond NONE, so a typo in a client's token is reported instead of silently downgraded.
    """

    def __init__(
        self, write_token: str | None, read_token: str | None, metrics_public: bool = False
    ) -> None:
        self.write_token = write_token or None
        self.read_token = read_token or None
        self.metrics_public = metrics_public

    def identify(self, token: str | None) -> Caller:
        if token is None:
            return Caller(Access.NONE if self.read_token else Access.READ, presented=False)
        if self.write_token and hmac.compare_digest(token.encode(), self.write_token.encode()):
            return Caller(Access.WRITE)
        if self.read_token and hmac.compare_digest(token.encode(), self.read_token.encode()):
            return Caller(Access.READ)
        return Caller(Access.NONE, bad_credential=True)

    def identify_header(self, authorization: str | None) -> Caller:
        """From an ``Authorization: Bearer <token>`` header (absent: no credential)."""
        if authorization is None:
            return self.identify(None)
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return Caller(Access.NONE, bad_credential=True)
        return self.identify(token.strip())

    def required(self, operation: str) -> Access | None:
        if operation == "metrics" and self.metrics_public:
            return Access.NONE
        return POLICY.get(operation)

    def decide(self, operation: str, caller: Caller) -> None:
        """Return when ``caller`` may perform ``operation``; raise :class:`AccessDenied` if not."""
        needed = self.required(operation)
        if needed is None:
            raise AccessDenied(
                403,
                f"operation {operation!r} has no access decision",
                "add it to graphgate.serve.auth.POLICY",
            )
        if needed == Access.NONE:
            return
        if caller.bad_credential:
            raise AccessDenied(
                401, "wrong or malformed bearer token", "send `Authorization: Bearer <token>`"
            )
        if caller.access >= needed:
            return
        if needed == Access.WRITE and self.write_token is None:
            raise AccessDenied(
                403,
                "writes are disabled on this server",
                "start it with a write token (GRAPHGATE_SERVE__WRITE_TOKEN)",
            )
        if not caller.presented:
            raise AccessDenied(
                401, f"{operation} needs a bearer token", "send `Authorization: Bearer <token>`"
            )
        raise AccessDenied(403, f"{operation} needs the write token", "send the write token")
