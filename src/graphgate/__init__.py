"""graphgate: a GraphRAG engine in which every stage is measured."""

from graphgate.app.status import Status
from graphgate.app.workspace import Workspace
from graphgate.core.config import Settings
from graphgate.core.config_sources import load_settings
from graphgate.core.errors import GraphgateError
from graphgate.index.pipeline import IndexReport
from graphgate.query.base import Answer, Citation, RetrievalResult, Retriever

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
