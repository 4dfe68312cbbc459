"""graphgate: a GraphRAG engine in which every stage is measured."""

from graphgate.config import Settings
from graphgate.config_sources import load_settings
from graphgate.errors import GraphgateError
from graphgate.index.pipeline import IndexReport
from graphgate.query.base import Answer, Citation, RetrievalResult, Retriever
from graphgate.status import Status
from graphgate.workspace import Workspace

__all__ = [
    "Answer",
    "Citation",
    "GraphgateError",
    "IndexReport",
    "RetrievalResult",
    "Retriever",
    "Settings",
    "Status",
    "Workspace",
    "load_settings",
]
