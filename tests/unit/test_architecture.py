"""The package import graph of src/graphgate: acyclic, and the text layer imports nothing."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[2] / "src" / "graphgate"


def _unit(path: Path) -> str:
    """A package (graphgate/index/...) or a top-level module (graphgate/workspace.py)."""
    parts = path.relative_to(SRC).with_suffix("").parts
    return parts[0] if parts[0] != "__init__" else "(root)"


def _target(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "graphgate":
        return None
    return parts[1] if len(parts) > 1 else "(root)"


def import_graph() -> dict[str, set[str]]:
    """Every import, lazy ones inside functions included: a cycle through a lazy import is a
    cycle in the design all the same."""
    graph: dict[str, set[str]] = defaultdict(set)
    for file in SRC.rglob("*.py"):
        me = _unit(file)
        graph[me]
        for node in ast.walk(ast.parse(file.read_text())):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                target = _target(name)
                if target is not None and target != me:
                    graph[me].add(target)
    return dict(graph)


def test_the_package_import_graph_has_no_cycle() -> None:
    graph = nx.DiGraph([(a, b) for a, targets in import_graph().items() for b in targets])
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"package cycles: {cycles}"


def test_a_cycle_would_be_found() -> None:
    """The test above can fail: the same search on a graph with a cycle finds it."""
    graph = nx.DiGraph([("index", "query"), ("query", "index"), ("query", "text")])
    assert [sorted(c) for c in nx.simple_cycles(graph)] == [["index", "query"]]


def test_base_layers_import_only_what_lies_below_them() -> None:
    graph = import_graph()
    assert graph["text"] == set()
    assert graph["errors"] == set()
    assert graph["inputs"] <= {"errors"}
    assert "workspace" not in graph["evaluate"]
    assert not graph["query"] & {"index", "evaluate", "gates", "workspace"}
    assert not graph["index"] & {"query", "evaluate", "gates", "workspace"}


def test_query_uses_the_store_protocol_not_a_backend() -> None:
    """Retrieval is typed against graphgate.store.base.GraphStore: a server backend needs no
    change in query/."""
    imported: set[str] = set()
    for file in (SRC / "query").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "graphgate.store"
            ):
                imported.add(str(node.module))
    assert imported == {"graphgate.store.base"}
