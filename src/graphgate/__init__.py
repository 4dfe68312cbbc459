"""graphgate: a GraphRAG engine in which every stage is measured.

The public names are imported on first use, so that a process which needs one module (the
parser worker, index/formats/worker.py) does not load the whole engine to start.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphgate.app.status import Status
    from graphgate.app.workspace import Workspace
    from graphgate.core.config import Settings
    from graphgate.core.config_sources import load_settings
    from graphgate.core.errors import GraphgateError
    from graphgate.index.pipeline import IndexReport
    from graphgate.query.base import Answer, Citation, RetrievalResult, Retriever

_PUBLIC = {
    "Answer": "graphgate.query.base",
    "Citation": "graphgate.query.base",
    "GraphgateError": "graphgate.core.errors",
    "IndexReport": "graphgate.index.pipeline",
    "RetrievalResult": "graphgate.query.base",
    "Retriever": "graphgate.query.base",
    "Settings": "graphgate.core.config",
    "Status": "graphgate.app.status",
    "Workspace": "graphgate.app.workspace",
    "load_settings": "graphgate.core.config_sources",
}
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


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'graphgate' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
