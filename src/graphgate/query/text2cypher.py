"""Cypher mode: the configured model writes one read query from the graph's schema; its rows
answer, cited by the chunks that support the entities and edges they name.

The model's query is untrusted input: it passes :func:`check_read_only` and runs on the
read-only connection within the row and time limits, exactly as a typed one. A query that
fails (refused, a database error, too slow) is sent back once with the reason; a second
failure leaves an empty result that says why, never a guess.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from graphgate.core.config import QuerySettings
from graphgate.core.errors import ConfigError, InputError
from graphgate.core.types import COOCCURS
from graphgate.llm.base import Request
from graphgate.llm.lenient import lenient_json
from graphgate.query.base import ModeRetriever, RetrievalResult
from graphgate.query.cypher import run_read_query
from graphgate.query.cypher_guard import graph_schema
from graphgate.query.loaded import LoadedIndex
from graphgate.query.question import Question
from graphgate.query.vector import chunk_hit, retrieved_edge, retrieved_entity

SYSTEM = (
    "You translate a question into ONE read-only Cypher query over the graph schema given. "
    "Use only the labels, relationship types and properties listed; relation meanings are in "
    "RELATED.predicate. Never write, load or call procedures. Return JSON: "
    '{"cypher": "<query>"}.'
)
EXAMPLES = """Examples:
Q: Who does Bob Cratchit work for?
{"cypher": "MATCH (a:Entity {name: 'Bob Cratchit'})-[r:RELATED]->(b:Entity) WHERE r.predicate = 'work_for' RETURN b.name AS employer"}
Q: How many organisations are mentioned?
{"cypher": "MATCH (e:Entity {type: 'ORG'}) RETURN count(e) AS organisations"}
Q: List the people related to London.
{"cypher": "MATCH (p:Entity {type: 'PERSON'})-[:RELATED]-(l:Entity {name: 'London'}) RETURN DISTINCT p.name AS person ORDER BY person"}"""  # noqa: E501
RETRY = "\n\nYour previous query was:\n{query}\nIt failed: {error}\nWrite a corrected query (JSON)."
SCHEMA = {
    "type": "object",
    "properties": {"cypher": {"type": "string"}},
    "required": ["cypher"],
    "additionalProperties": False,
}


class CypherRetriever:
    mode = "cypher"

    def __init__(self, index: LoadedIndex, settings: QuerySettings) -> None:
        if index.llm is None:
            raise ConfigError(
                "cypher mode needs a model to write the query",
                "configure llm.provider, llm.base_url and llm.model (see README: Real LLMs), "
                "or run a query yourself with `graphgate cypher`",
            )
        self.index = index
        self.settings = settings
        self.llm = index.llm

    def prompt(self, question: Question) -> str:
        store = self.index.store
        predicates = store.cypher(
            "MATCH ()-[r:RELATED]->() WHERE r.predicate <> $co RETURN r.predicate AS p, "
            "count(*) AS n ORDER BY n DESC, p LIMIT 30",
            {"co": COOCCURS},
        )
        types = store.cypher(
            "MATCH (e:Entity) RETURN e.type AS t, count(*) AS n ORDER BY n DESC, t LIMIT 12"
        )
        names = store.cypher(
            "MATCH (e:Entity) RETURN e.name AS name ORDER BY e.mention_count DESC, name LIMIT 8"
        )
        return (
            f"Schema: {json.dumps(graph_schema())}\n"
            f"RELATED.predicate values (most frequent): {predicates['p'].to_pylist()}\n"
            f"Entity.type values: {types['t'].to_pylist()}\n"
            f"Example Entity.name values: {names['name'].to_pylist()}\n\n"
            f"{EXAMPLES}\n\nQ: {question.text}\n"
        )

    def _ask(self, user: str) -> str:
        request = Request(SYSTEM, user, SCHEMA, "cypher", max_tokens=512)
        completion = self.llm.complete(request)
        data = completion.data
        if data is None:
            try:
                data = lenient_json(completion.text)
            except Exception:
                data = {}
        query = data.get("cypher") if isinstance(data, dict) else None
        if not isinstance(query, str) or not query.strip():
            self.llm.forget(request)
            raise InputError("the model's answer holds no query", "")
        return query.strip()

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        started = time.perf_counter()
        s = self.settings
        user = self.prompt(question)
        attempts: list[dict[str, str]] = []
        rows: list[dict[str, Any]] = []
        for _ in range(2):
            query = ""
            try:
                query = self._ask(user)
                found = run_read_query(
                    self.index.store,
                    query,
                    {},
                    s.cypher_max_rows,
                    s.cypher_timeout_s,
                    s.cypher_max_bytes,
                )
                attempts.append({"query": query, "error": ""})
                rows = found.rows
                break
            except InputError as exc:
                attempts.append({"query": query, "error": exc.problem})
                user = user + RETRY.format(query=query or "(none)", error=exc.problem)
        result = self._cited(question, rows, top_k or s.top_k_chunks)
        result.cypher = {"attempts": attempts, "rows": rows[:50], "answered": bool(rows)}
        result.timings_ms = {"cypher": (time.perf_counter() - started) * 1000}
        return result

    def _cited(self, question: Question, rows: list[dict[str, Any]], k: int) -> RetrievalResult:
        """Entities the rows name (by id or name), the edges among them and the entities the
        question names, and the chunks that support those edges first, then those that
        mention the row entities."""
        store = self.index.store
        if not rows:
            return RetrievalResult(question.text, self.mode)
        entity_ids: list[str] = []
        for row in rows:
            for value in row.values():
                for text in value if isinstance(value, list) else [value]:
                    if not isinstance(text, str):
                        continue
                    ids = [text] if text.startswith("e_") else store.entity_ids_named(text)
                    for eid in ids:
                        if eid not in entity_ids:
                            entity_ids.append(eid)
        entities = []
        for eid in entity_ids[: max(k * 4, 20)]:
            try:
                entities.append(store.entity(eid))
            except KeyError:
                continue
        asked = [link.entity_id for link in question.links]
        named = {e.id for e in entities}
        edges = [
            r
            for r in store.relations_among(named | set(asked))
            if r.source_id in named or r.target_id in named
        ][: self.settings.top_k_edges]
        chunk_ids: list[str] = []
        for source in [*(r.chunk_ids for r in edges), *(e.chunk_ids for e in entities)]:
            for cid in source:
                if cid not in chunk_ids:
                    chunk_ids.append(cid)
        chunks = [chunk_hit(store, cid, 1.0 / (1 + i)) for i, cid in enumerate(chunk_ids[:k])]
        return RetrievalResult(
            question.text,
            self.mode,
            chunks=chunks,
            entities=[retrieved_entity(e, 1.0) for e in entities[: self.settings.top_k_entities]],
            edges=[retrieved_edge(store, r, r.weight) for r in edges],
        )


class RoutedRetriever:
    """Hybrid with a model: counting and listing questions go to cypher first; when its
    query finds nothing (or fails twice), hybrid answers. The route is in the result."""

    mode = "hybrid"

    def __init__(self, cypher: CypherRetriever, hybrid: ModeRetriever) -> None:
        self.cypher = cypher
        self.hybrid = hybrid

    def retrieve(self, question: Question, top_k: int | None = None) -> RetrievalResult:
        if not question.asks_for_rows:
            result = self.hybrid.retrieve(question, top_k)
            return replace(result, route="hybrid")
        graph = self.cypher.retrieve(question, top_k)
        if graph.cypher and graph.cypher.get("answered"):
            return replace(graph, mode=self.mode, route="cypher")
        fallback = self.hybrid.retrieve(question, top_k)
        return replace(fallback, route="cypher->hybrid", cypher=graph.cypher)
