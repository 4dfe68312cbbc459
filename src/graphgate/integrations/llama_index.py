"""A LlamaIndex retriever over graphgate: ``NodeWithScore``s whose nodes carry the citation in
their metadata (the document and page shown to the model; the rest kept out of its prompt).

    from graphgate.integrations.llama_index import GraphgateRetriever
    retriever = GraphgateRetriever(workspace=Workspace(".graphgate"), mode="hybrid")

Needs the extra: ``pip install 'graphgate[llamaindex]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "graphgate.integrations.llama_index needs llama-index-core: "
        "pip install 'graphgate[llamaindex]'"
    ) from exc

from graphgate.integrations.source import passage_metadata, retrieve

if TYPE_CHECKING:
    from graphgate.app.workspace import Workspace

# Shown to the model beside a passage's text; the rest is for the application.
_SHOWN = ("doc_id", "page", "section", "date")


class GraphgateRetriever(BaseRetriever):
    """Passages a graphgate retrieval mode finds for the query, best first."""

    def __init__(
        self,
        workspace: Workspace | None = None,
        url: str | None = None,
        token: str | None = None,
        mode: str | None = None,
        top_k: int | None = None,
        timeout_s: float = 60.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._workspace, self._url, self._token = workspace, url, token
        self._mode, self._top_k, self._timeout_s = mode, top_k, timeout_s

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = retrieve(
            self._workspace, self._url, self._token, query_bundle.query_str, self._mode,
            self._top_k, self._timeout_s,
        )  # fmt: skip
        nodes = []
        for p in found["passages"]:
            metadata = passage_metadata(found, p)
            hidden = [k for k in metadata if k not in _SHOWN]
            node = TextNode(
                id_=p["chunk_id"],
                text=p["text"],
                metadata=metadata,
                excluded_llm_metadata_keys=hidden,
                excluded_embed_metadata_keys=list(metadata),
            )
            nodes.append(NodeWithScore(node=node, score=p["score"]))
        return nodes
