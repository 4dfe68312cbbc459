"""The LangChain and LlamaIndex retrievers with the real packages, over a local workspace and
over a server (the same passages either way, with their citations in the metadata)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphgate import Workspace
from graphgate.integrations.source import RemoteError
from tests.serving import running_server

READ = "read-token-R"
QUESTION = "Who does Bob Cratchit work for?"


@pytest.fixture(scope="module")
def server(
    small_workspace_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("frameworks")
    shutil.copytree(small_workspace_path, root / "ws")
    with running_server(root / "ws", "write-W", READ) as (base, _):
        yield base, root / "ws"


def test_langchain_retriever_local_and_remote(server: tuple[str, Path]) -> None:
    pytest.importorskip("langchain_core", reason="the langchain extra is not installed")
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from graphgate.integrations.langchain import GraphgateRetriever

    base, path = server
    with Workspace(path) as ws:
        local = GraphgateRetriever(workspace=ws, mode="hybrid", top_k=2)
        assert isinstance(local, BaseRetriever)
        docs = local.invoke(QUESTION)
        expected = ws.retrieve(QUESTION, "hybrid", 2)
    remote = GraphgateRetriever(url=base, token=READ, mode="hybrid", top_k=2)
    assert [d.page_content for d in remote.invoke(QUESTION)] == [d.page_content for d in docs]
    assert len(docs) == 2 and all(isinstance(d, Document) for d in docs)
    assert [d.metadata["chunk_id"] for d in docs] == [p.chunk_id for p in expected.passages]
    first = docs[0].metadata
    assert first["doc_id"] and first["end"] > first["start"] and first["rank"] == 1
    assert first["run_id"] == expected.run_id and first["mode"] == "hybrid"
    assert any(d.metadata["entities"] for d in docs)
    assert "Cratchit" in " ".join(d.page_content for d in docs)
    with pytest.raises(RemoteError, match="HTTP 401"):
        GraphgateRetriever(url=base, token="wrong", mode="hybrid").invoke(QUESTION)


def test_llama_index_retriever_local_and_remote(server: tuple[str, Path]) -> None:
    pytest.importorskip("llama_index.core", reason="the llamaindex extra is not installed")
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import MetadataMode, NodeWithScore

    from graphgate.integrations.llama_index import GraphgateRetriever

    base, path = server
    with Workspace(path) as ws:
        local = GraphgateRetriever(workspace=ws, mode="local", top_k=3)
        assert isinstance(local, BaseRetriever)
        nodes = local.retrieve(QUESTION)
    remote = GraphgateRetriever(url=base, token=READ, mode="local", top_k=3).retrieve(QUESTION)
    assert [n.node.node_id for n in remote] == [n.node.node_id for n in nodes]
    assert len(nodes) == 3 and all(isinstance(n, NodeWithScore) for n in nodes)
    scores = [n.score for n in nodes]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    node = nodes[0].node
    assert node.metadata["doc_id"] and node.metadata["rank"] == 1
    shown = node.get_content(metadata_mode=MetadataMode.LLM)
    assert node.metadata["doc_id"] in shown and "chunk_id" not in shown
    with pytest.raises(Exception, match="workspace or a server url"):
        GraphgateRetriever().retrieve(QUESTION)
