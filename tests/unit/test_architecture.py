"""The package's floors, as its folders show them: each folder imports only the folders on the
floors below it, nothing imports in a cycle, and the root holds at most four modules."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[2] / "src" / "graphgate"

# Bottom first. A folder may import its own modules and any folder on a lower floor, never
# one on its own floor or above (core's modules import one another: it is one folder).
FLOORS: list[set[str]] = [
    {"core"},  # records, text, dates, errors, input checks, settings, runs
    {"embed", "llm"},  # the model interfaces and their implementations
    {"store"},  # graph store protocols, registry and backends
    {"index", "query"},  # the indexing stages; retrieval and answers
    {"evaluate"},  # the evaluation harness (it runs query/)
    {"gates", "datasets"},  # quality gates (they read evaluations); dataset loaders
    {"app"},  # the composition root: Workspace, its parts, background work, read models
    {"serve", "integrations"},  # HTTP, MCP and the web page; the framework retrievers
    {"cli"},  # the command line over app/ (and `graphgate serve`)
]
FLOOR = {folder: level for level, floor in enumerate(FLOORS) for folder in floor}


def _folder(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0] if len(parts) > 1 else "(root)"


def _target(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "graphgate":
        return None
    return parts[1] if len(parts) > 1 else "(root)"


def import_graph() -> dict[str, set[str]]:
    """Folder -> folders it imports, lazy imports inside functions included: a cycle through
    a lazy import is a cycle in the design all the same."""
    graph: dict[str, set[str]] = defaultdict(set)
    for file in SRC.rglob("*.py"):
        me = _folder(file)
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


def floor_violations(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{a} (floor {FLOOR[a]}) imports {b} (floor {FLOOR[b]})"
        for a, targets in sorted(graph.items())
        if a != "(root)"
        for b in sorted(targets)
        if FLOOR[b] >= FLOOR[a]
    ]


def test_every_folder_is_on_a_floor() -> None:
    folders = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(FLOOR)


def test_the_root_holds_at_most_four_modules() -> None:
    modules = sorted(p.name for p in SRC.glob("*.py"))
    assert len(modules) <= 4, modules


def test_each_folder_imports_only_lower_floors() -> None:
    assert floor_violations(import_graph()) == []


def test_a_floor_violation_would_be_found() -> None:
    """The test above can fail: core importing query, or query importing index, is named."""
    graph = {"core": {"query"}, "query": {"index", "core"}, "index": {"core"}}
    assert floor_violations(graph) == [
        "core (floor 0) imports query (floor 3)",
        "query (floor 3) imports index (floor 3)",
    ]


def test_the_package_import_graph_has_no_cycle() -> None:
    graph = nx.DiGraph([(a, b) for a, targets in import_graph().items() for b in targets])
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"package cycles: {cycles}"


def test_a_cycle_would_be_found() -> None:
    graph = nx.DiGraph([("index", "query"), ("query", "index"), ("query", "core")])
    assert [sorted(c) for c in nx.simple_cycles(graph)] == [["index", "query"]]


def _core_module_imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for file in (SRC / "core").glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("graphgate."):
                found.add(str(node.module).removeprefix("graphgate.core."))
        graph[file.stem] = found
    return graph


def test_the_lowest_core_modules_import_nothing_of_graphgate() -> None:
    graph = _core_module_imports()
    assert graph["text"] == set() and graph["errors"] == set() and graph["dates"] == set()
    assert graph["inputs"] <= {"errors"}


def test_query_uses_the_store_protocol_not_a_backend() -> None:
    """Retrieval is typed against graphgate.store.base.GraphStore: a new backend needs no
    change in query/."""
    imported: set[str] = set()
    for file in (SRC / "query").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "graphgate.store"
            ):
                imported.add(str(node.module))
    assert imported == {"graphgate.store.base"}


# What reads a question's text: in query/, only the Question constructor calls these.
_ANALYSERS = {"names_in", "question_time", "time_of", "kind_of", "content_word_set"}
# The linker's reading of a question (spaCy), and embedding one (embedding evidence, as the
# offline reader does its sentences, reads no question).
_INDEX_READINGS = {"link", "mentions"}
_EMBEDDING = "embed"


def _callee(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _mentions_question(node: ast.Call) -> bool:
    """Whether a call's arguments are the question (a name or attribute called question,
    or a question's text)."""
    for arg in ast.walk(ast.Module(body=[ast.Expr(a) for a in node.args], type_ignores=[])):
        if isinstance(arg, ast.Name) and "question" in arg.id:
            return True
        if isinstance(arg, ast.Attribute) and "question" in arg.attr:
            return True
    return False


def question_readings(folder: Path) -> list[str]:
    """Calls in ``folder`` that analyse a question's text outside question.py (and the
    linker's own implementation in linking.py)."""
    found: list[str] = []
    for file in sorted(folder.glob("*.py")):
        if file.name == "question.py":
            continue
        for node in ast.walk(ast.parse(file.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = _callee(node)
            if file.name == "linking.py":
                continue  # the linker's own reading, which only question.py calls
            if (
                name in _INDEX_READINGS
                or (name == _EMBEDDING and _mentions_question(node))
                or (name in _ANALYSERS and (name != "content_word_set" or _mentions_question(node)))
            ):
                found.append(f"{file.name}:{node.lineno} {name}")
    return found


def test_query_reads_the_question_once() -> None:
    """Retrievers, the time and conflict steps and the answerers take a Question: none of
    them scans the question's text again (query/question.py is the one that does)."""
    assert question_readings(SRC / "query") == []


def test_a_second_reading_would_be_found(tmp_path: Path) -> None:
    (tmp_path / "mode.py").write_text(
        "def retrieve(self, question):\n"
        "    words = content_word_set(question.text)\n"
        "    links = self.index.linker.link(question.text)\n"
        "    spans = content_word_set(sentence)\n"
        "    vector = self.embedder.embed([question.text])\n"
        "    vectors = self.embedder.embed(sentences)\n"
    )
    assert question_readings(tmp_path) == [
        "mode.py:2 content_word_set",
        "mode.py:3 link",
        "mode.py:5 embed",
    ]
