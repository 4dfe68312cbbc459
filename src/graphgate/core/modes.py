"""The query modes: one registry of names and what each does.

The CLI's help, the HTTP schema, MCP, the settings and the evaluation harness all read it;
``graphgate.query.modes`` builds each mode's retriever under the same names.
"""

from __future__ import annotations

from collections.abc import Iterable

from graphgate.core.errors import InputError

QUERY_MODES: dict[str, str] = {
    "vector": "dense similarity over chunks only (the baseline)",
    "local": "entities named in the question seed a personalised PageRank walk; chunks by walk "
    "mass and dense similarity",
    "graph": "one walk over passages and entities, from the entities the question names and "
    "the nearest passages; passages by walk mass",
    "hybrid": "local's best chunks, entity pages they link to, then local and vector fused by "
    "reciprocal rank",
    "global": "map-reduce over community reports",
    "cypher": "the configured LLM writes a read-only Cypher query from the graph's schema; its "
    "rows answer, cited by the chunks of the entities and edges they name (needs llm.provider)",
}
# hybrid won on multi-hop without losing single-hop (README, Measured).
DEFAULT_MODE = "hybrid"
# What `eval`, POST /eval and the MCP tool compare when no modes are named: the default mode
# against the baseline.
DEFAULT_EVAL_MODES = ("vector", DEFAULT_MODE)
# Modes that walk the graph: they need entities and edges.
GRAPH_MODES = frozenset({"local", "graph", "hybrid", "global", "cypher"})
# Modes that need the configured model to answer at all.
LLM_MODES = frozenset({"cypher"})


def modes_help() -> str:
    return ", ".join(QUERY_MODES)


def check_mode(mode: str | None) -> str | None:
    if mode is not None and mode not in QUERY_MODES:
        raise InputError(f"unknown query mode {mode!r}", f"use one of {modes_help()}")
    return mode


def parse_modes(modes: str | Iterable[str]) -> list[str]:
    """Comma-separated text or a list: known modes, each once, in the order given."""
    parts = modes.split(",") if isinstance(modes, str) else list(modes)
    chosen: list[str] = []
    for part in parts:
        mode = str(part).strip()
        if not mode:
            continue
        check_mode(mode)
        if mode not in chosen:
            chosen.append(mode)
    if not chosen:
        raise InputError(
            "no query modes given", f"name one or more of {modes_help()}, e.g. vector,hybrid"
        )
    return chosen
