"""A LangChain retriever over graphgate: ``Document``s with their citation in ``metadata``.

    from graphgate.integrations.langchain import GraphgateRetriever
    retriever = GraphgateRetriever(workspace=Workspace(".graphgate"), mode="hybrid")
    retriever = GraphgateRetriever(url="http://127.0.0.1:8000", token="...")  # a server

Needs the extra: ``pip install 'graphgate[langchain]'``.
"""

from __future__ import annotations

from typing import Any

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "graphgate.integrations.langchain needs langchain-core: pip install 'graphgate[langchain]'"
    ) from exc
from pydantic import ConfigDict, Field, SecretStr

from graphgate.integrations.source import passage_metadata, retrieve


class GraphgateRetriever(BaseRetriever):
    """Passages a graphgate retrieval mode finds for the query, best first."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    workspace: Any = Field(None, description="A graphgate Workspace (local use).")
    url: str | None = Field(None, description="A graphgate server's base URL (remote use).")
    token: SecretStr | None = Field(None, description="The server's read (or write) token.")
    mode: str | None = Field(None, description="Retrieval mode; None: query.mode.")
    top_k: int | None = Field(None, ge=1, le=100, description="Passages; None: query.top_k.")
    timeout_s: float = Field(60.0, gt=0, description="Seconds to wait for a server.")

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        token = self.token.get_secret_value() if self.token is not None else None
        found = retrieve(
            self.workspace, self.url, token, query, self.mode, self.top_k, self.timeout_s
        )
        return [
            Document(page_content=p["text"], metadata=passage_metadata(found, p), id=p["chunk_id"])
            for p in found["passages"]
        ]
