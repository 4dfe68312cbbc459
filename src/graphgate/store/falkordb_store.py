"""The server backend of :class:`~graphgate.store.base.GraphStore`: one run's graph on FalkorDB.

Every answer comes from the server: lookups, the retrievers' graph work (neighbourhoods, edges
among entities, chunk cosines) and vector search (FalkorDB's own indexes), as parameterised
read-only Cypher. Keyword search ranks exactly as the embedded store does by default (a bm25s
index this process builds from the texts on the server when it first needs it);
``store.keyword_search = "server"`` asks FalkorDB's full-text index instead. A run's graph
never changes once it is complete, so what a process has read (a whole list, the name table,
an entity by id) is kept for the life of the opened store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.errors import EmbeddingMismatchError, GraphgateError, QueryTimeoutError
from graphgate.core.text import normalise_name
from graphgate.core.types import (
    GRAPH_TABLE,
    Chunk,
    Community,
    CommunityReport,
    Conflict,
    Entity,
    Relationship,
)
from graphgate.store.base import CypherRows, Hit, ProjectionEdges, SearchKind
from graphgate.store.falkordb_client import FalkorDBServer
from graphgate.store.falkordb_write import graph_counts
from graphgate.store.text import Bm25TextIndex, memory_text_index

# Search kind -> (label, vector property), as falkordb_content.VECTOR_INDEXES creates them.
VECTOR_PROPERTY = {
    "chunk": ("Chunk", "embedding"),
    "entity": ("Entity", "embedding"),
    "entity_name": ("Entity", "name_embedding"),
    "community": ("Community", "embedding"),
}
_TEXT_LABEL = {"chunk": "Chunk", "entity": "Entity", "community": "Community"}
_WORD = re.compile(r"[a-z0-9]+")
_HIDDEN = {"embedding", "name_embedding", "search_text", "name_keys", "page_keys", "ordinal"}


def _returns(variable: str, label: str) -> tuple[str, list[str]]:
    """``RETURN`` items for a record stored under ``label`` and the record's field names."""
    table = GRAPH_TABLE[label]
    renames = dict(table.rename)
    fields = table.fields()
    items = ", ".join(f"{variable}.{renames.get(f, f)}" for f in fields)
    return items, fields


_ENTITY = _returns("e", "Entity")
_CHUNK = _returns("c", "Chunk")
_RELATED_PROPS = [f for f in GRAPH_TABLE["RELATED"].fields() if f != "id"]
_RELATED_ITEMS = ", ".join(f"r.{f}" for f in _RELATED_PROPS)
_RELATED = (
    "MATCH (a:Entity)-[r:RELATED]->(b:Entity) {where} "
    f"RETURN r.id, a.id, b.id, {_RELATED_ITEMS} ORDER BY r.id"
)
_REL_FIELDS = ["id", "source_id", "target_id", *_RELATED_PROPS]
_COMMUNITY = "c.id, c.level, c.parent, c.children, c.members, c.size"
_REPORT = (
    "c.id, c.report_level, c.title, c.summary, c.key_entities, c.key_relationships, c.rating, "
    "c.chunk_ids, c.doc_ids, c.claims_json"
)

_LIST_FIELDS = {
    "aliases",
    "chunk_ids",
    "doc_ids",
    "children",
    "members",
    "key_entities",
    "key_relationships",
}


def _lists(values: list[Any], fields: list[str], cls: type[Any]) -> Any:
    """A record from a row, a missing list property read as an empty list."""
    row: dict[str, Any] = dict(zip(fields, values, strict=True))
    empty: dict[str, list[str]] = {f: [] for f, v in row.items() if v is None and f in _LIST_FIELDS}
    return cls(**{**row, **empty})


class FalkorDBGraphStore:
    def __init__(
        self, server: FalkorDBServer, graph: str, dimension: int, keyword_search: str = "bm25"
    ) -> None:
        self.server = server
        self.graph = graph
        self.dimension = dimension
        self.keyword_search = keyword_search
        self._keyword: dict[str, Bm25TextIndex] = {}
        self._entity: dict[str, Entity] = {}
        self._chunk: dict[str, Chunk] = {}
        self._lists: dict[str | tuple[str, str], Any] = {}
        self._vector_kinds: set[str] | None = None

    def _rows(self, cypher: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        rows: list[list[Any]] = self.server.query(self.graph, cypher, params).result_set
        return rows

    def _once(self, key: str | tuple[str, str], read: Any) -> Any:
        """``read()`` once per key for the life of this store (a run's graph never changes)."""
        if key not in self._lists:
            self._lists[key] = read()
        return self._lists[key]

    # -- entities and relationships --------------------------------------------------------
    def entity(self, entity_id: str) -> Entity:
        if entity_id not in self._entity:
            rows = self._rows(
                f"MATCH (e:Entity {{id: $id}}) RETURN {_ENTITY[0]}", {"id": entity_id}
            )
            if not rows:
                raise KeyError(entity_id)
            self._entity[entity_id] = _lists(rows[0], _ENTITY[1], Entity)
        return self._entity[entity_id]

    def entities(self) -> list[Entity]:
        def read() -> list[Entity]:
            rows = self._rows(f"MATCH (e:Entity) RETURN {_ENTITY[0]} ORDER BY e.ordinal")
            return [_lists(r, _ENTITY[1], Entity) for r in rows]

        return list(self._once("entities", read))

    def entity_ids_named(self, name: str) -> list[str]:
        # Entity linking asks this for every word run of a question: one read of the name
        # table (the run's graph never changes) instead of a scan per call.
        return list(self._names().get(normalise_name(name), []))

    def entity_names(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self._names().items()}

    def _names(self) -> dict[str, list[str]]:
        return self._key_table("names", "Entity", "e", "name_keys", "e.ordinal")

    def _key_table(
        self, key: str, label: str, var: str, keys: str, order: str
    ) -> dict[str, list[str]]:
        """``{key: [ids]}`` from a list property (normalised names, page keys), read once:
        linking asks for every word run of a question."""

        def read() -> dict[str, list[str]]:
            rows = self._rows(
                f"MATCH ({var}:{label}) WITH {var} ORDER BY {order} UNWIND {var}.{keys} AS key "
                f"RETURN key, collect({var}.id)"
            )
            return {str(k): [str(i) for i in ids] for k, ids in rows}

        table: dict[str, list[str]] = self._once(key, read)
        return table

    def relationships(self) -> list[Relationship]:
        def read() -> list[Relationship]:
            rows = self._rows(_RELATED.format(where=""))
            return [_lists(r, _REL_FIELDS, Relationship) for r in rows]

        return list(self._once("relationships", read))

    def conflicts(self) -> list[Conflict]:
        fields = [f for f in Conflict.__dataclass_fields__]
        items = ", ".join(f"c.{f}" for f in fields)

        def read() -> list[Conflict]:
            rows = self._rows(f"MATCH (c:Conflict) RETURN {items} ORDER BY c.id")
            return [Conflict(**dict(zip(fields, r, strict=True))) for r in rows]

        return list(self._once("conflicts", read))

    def relations_among(self, entity_ids: Collection[str]) -> list[Relationship]:
        where = "WHERE a.id IN $ids AND b.id IN $ids"
        rows = self._rows(_RELATED.format(where=where), {"ids": sorted(set(entity_ids))})
        return [_lists(r, _REL_FIELDS, Relationship) for r in rows]

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1) -> list[str]:
        rows = self._rows(
            f"MATCH (a:Entity)-[:RELATED*1..{int(hops)}]-(b:Entity) WHERE a.id IN $ids "
            "AND NOT b.id IN $ids RETURN DISTINCT b.id AS id ORDER BY id",
            {"ids": list(entity_ids)},
        )
        return [str(r[0]) for r in rows]

    def projection(self) -> ProjectionEdges:
        nodes = self._rows("MATCH (e:Entity) RETURN e.id ORDER BY e.id")
        edges = self._rows(
            "MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id, b.id, r.weight ORDER BY r.id"
        )
        chunks = self._rows("MATCH (c:Chunk) RETURN c.id ORDER BY c.id")
        mentions = self._rows(
            "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) RETURN e.id, c.id ORDER BY e.id, c.id"
        )
        return ProjectionEdges(
            [str(r[0]) for r in nodes],
            [str(r[0]) for r in edges],
            [str(r[1]) for r in edges],
            [float(r[2]) for r in edges],
            [str(r[0]) for r in chunks],
            [str(r[0]) for r in mentions],
            [str(r[1]) for r in mentions],
        )

    # -- text --------------------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk:
        if chunk_id not in self._chunk:
            rows = self._rows(f"MATCH (c:Chunk {{id: $id}}) RETURN {_CHUNK[0]}", {"id": chunk_id})
            if not rows:
                raise KeyError(chunk_id)
            self._chunk[chunk_id] = Chunk(*rows[0])
        return self._chunk[chunk_id]

    def chunks(self) -> list[Chunk]:
        def read() -> list[Chunk]:
            rows = self._rows(f"MATCH (c:Chunk) RETURN {_CHUNK[0]} ORDER BY c.ordinal")
            return [Chunk(*r) for r in rows]

        return list(self._once("chunks", read))

    def chunk_vector(self, chunk_id: str) -> npt.NDArray[np.float32] | None:
        rows = self._rows("MATCH (c:Chunk {id: $id}) RETURN c.embedding", {"id": chunk_id})
        if not rows or rows[0][0] is None:
            return None
        return np.asarray(rows[0][0], dtype=np.float32)

    def chunk_similarities(
        self, chunk_ids: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> dict[str, float]:
        if not chunk_ids:
            return {}
        rows = self._rows(
            "UNWIND $ids AS id MATCH (c:Chunk {id: id}) "
            "RETURN id, vec.cosineDistance(c.embedding, vecf32($vector))",
            {"ids": list(chunk_ids), "vector": vector.astype(float).tolist()},
        )
        return {str(i): 1.0 - float(d) for i, d in rows}

    def entities_in_chunk(self, chunk_id: str) -> list[str]:
        def read() -> list[str]:
            rows = self._rows(
                "MATCH (c:Chunk {id: $id})-[:MENTIONS]->(e:Entity) RETURN e.id ORDER BY e.ordinal",
                {"id": chunk_id},
            )
            return [str(r[0]) for r in rows]

        return list(self._once(("in_chunk", chunk_id), read))

    def entity_pages(self, name: str) -> list[str]:
        pages = self._key_table("pages", "Document", "d", "page_keys", "d.id")
        return list(pages.get(normalise_name(name), []))

    def first_chunk(self, doc_id: str) -> str | None:
        def read() -> str | None:
            rows = self._rows(
                "MATCH (c:Chunk {doc_id: $doc}) RETURN c.id ORDER BY c.position LIMIT 1",
                {"doc": doc_id},
            )
            return str(rows[0][0]) if rows else None

        first: str | None = self._once(("first_chunk", doc_id), read)
        return first

    def document_chunks(self, doc_id: str) -> list[str]:
        def read() -> list[str]:
            rows = self._rows(
                "MATCH (c:Chunk {doc_id: $doc}) RETURN c.id ORDER BY c.position", {"doc": doc_id}
            )
            return [str(row[0]) for row in rows]

        found: list[str] = self._once(("document_chunks", doc_id), read)
        return list(found)

    def documents_by(self, field: str) -> dict[str, list[str]]:
        def read() -> dict[str, dict[str, Any]]:
            rows = self._rows("MATCH (d:Document) RETURN d.id, d.metadata_json ORDER BY d.id")
            return {str(i): json.loads(m or "{}") for i, m in rows}

        metadata: dict[str, dict[str, Any]] = self._once("metadata", read)
        found: dict[str, list[str]] = {}
        for doc_id, values in metadata.items():
            value = values.get(field)
            if isinstance(value, str) and value.strip():
                found.setdefault(value.strip(), []).append(doc_id)
        return found

    # -- communities ---------------------------------------------------------------------------
    def community(self, community_id: str) -> Community:
        by_id: dict[str, Community] = self._once(
            "community_by_id", lambda: {c.id: c for c in self.communities()}
        )
        return by_id[community_id]

    def communities(self) -> list[Community]:
        def read() -> list[Community]:
            rows = self._rows(f"MATCH (c:Community) RETURN {_COMMUNITY} ORDER BY c.id")
            fields = list(Community.__dataclass_fields__)
            return [_lists(r, fields, Community) for r in rows]

        return list(self._once("communities", read))

    def report(self, community_id: str) -> CommunityReport:
        by_id: dict[str, CommunityReport] = self._once(
            "report_by_id", lambda: {r.community_id: r for r in self.reports()}
        )
        return by_id[community_id]

    def reports(self) -> list[CommunityReport]:
        def read() -> list[CommunityReport]:
            rows = self._rows(
                f"MATCH (c:Community) WHERE c.has_report RETURN {_REPORT} ORDER BY c.id"
            )
            fields = list(CommunityReport.__dataclass_fields__)
            return [_lists(r, fields, CommunityReport) for r in rows]

        return list(self._once("reports", read))

    # -- search --------------------------------------------------------------------------------
    def has_vector_index(self, kind: SearchKind) -> bool:
        if self._vector_kinds is None:
            rows = self._rows("CALL db.indexes() YIELD label, properties, types RETURN *")
            present = set()
            for label, _properties, types in rows:
                for prop, kinds in dict(types).items():
                    if "VECTOR" in kinds:
                        present.add((label, prop))
            self._vector_kinds = {k for k, lp in VECTOR_PROPERTY.items() if lp in present}
        return kind in self._vector_kinds

    def vector_search(self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        if vector.shape[-1] != self.dimension:
            raise EmbeddingMismatchError(
                f"query vector has dimension {vector.shape[-1]}, the index holds {self.dimension}",
                "use the embedding model the index was built with, or re-index",
            )
        if not self.has_vector_index(kind):
            raise GraphgateError(
                f"no {kind} vector index on the server", "re-run `graphgate index`"
            )
        label, prop = VECTOR_PROPERTY[kind]
        rows = self._rows(
            "CALL db.idx.vector.queryNodes($label, $prop, $k, vecf32($vector)) YIELD node, score "
            "RETURN node.id, score",
            {"label": label, "prop": prop, "k": int(k), "vector": vector.astype(float).tolist()},
        )
        # The server returns cosine distance; the embedded store, similarity.
        hits = [(str(i), 1.0 - float(d)) for i, d in rows]
        return sorted(hits, key=lambda h: (-h[1], h[0]))[:k]

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]:
        if kind not in _TEXT_LABEL:
            raise GraphgateError(f"no {kind} text index on the server", "re-run `graphgate index`")
        if self.keyword_search == "bm25":
            return self._bm25(kind).search(query, k)
        # Only plain words reach the full-text engine, joined by OR: the user's text is never
        # read as query syntax (prefixes, negation, field names).
        words = list(dict.fromkeys(_WORD.findall(query.lower())))
        if not words:
            return []
        rows = self._rows(
            "CALL db.idx.fulltext.queryNodes($label, $query) YIELD node, score "
            "RETURN node.id, score ORDER BY score DESC, node.id LIMIT $k",
            {"label": _TEXT_LABEL[kind], "query": "|".join(words), "k": int(k)},
        )
        return [(str(i), float(s)) for i, s in rows]

    def _bm25(self, kind: str) -> Bm25TextIndex:
        """The embedded store's keyword index, built from the texts on the server in the
        order the embedded store indexes them (so ties break alike)."""
        if kind not in self._keyword:
            order = {"Community": "WHERE n.has_report RETURN n.id, n.search_text ORDER BY n.id"}
            label = _TEXT_LABEL[kind]
            tail = order.get(label, "RETURN n.id, n.search_text ORDER BY n.ordinal")
            rows = self._rows(f"MATCH (n:{label}) {tail}")
            self._keyword[kind] = memory_text_index(
                [str(i) for i, _ in rows], [str(t or "") for _, t in rows]
            )
        return self._keyword[kind]

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> pa.Table:
        """Read-only Cypher (the server refuses writes); nodes and edges come back as their
        properties, without the vectors and search fields graphgate keeps on them."""
        found = self.cypher_rows(query, params, timeout_s)
        columns: dict[str, list[Any]] = {n: [] for n in found.columns}
        for row in found.rows:
            for name, value in zip(found.columns, row, strict=True):
                columns[name].append(value)
        return pa.table(columns) if found.columns else pa.table({})

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        """The server sends the whole result at once; its rows are converted as they are read."""
        from redis.exceptions import ResponseError

        try:
            result = self.server.query(self.graph, query, params, timeout_s=timeout_s)
        except ResponseError as exc:
            if "timed out" in str(exc).lower() and timeout_s is not None:
                raise QueryTimeoutError(
                    f"the query ran past {timeout_s:g} s and was stopped",
                    "narrow the MATCH or add a LIMIT (query.cypher_timeout_s sets the limit)",
                ) from None
            raise
        names = [str(h[1]) for h in result.header]
        rows = ([_plain(value) for value in row] for row in result.result_set)
        return CypherRows(names, rows)

    def counts(self) -> dict[str, int]:
        return graph_counts(self.server, self.graph)

    def describe(self) -> dict[str, str]:
        return {
            "backend": "falkordb",
            "url": self.server.url,
            "graph": self.graph,
            "server": self.server.version(),
        }

    def close(self) -> None:
        self.server.close()


def _plain(value: Any) -> Any:
    properties = getattr(value, "properties", None)
    if isinstance(properties, dict):
        return json.dumps(
            {k: v for k, v in properties.items() if k not in _HIDDEN}, sort_keys=True, default=str
        )
    return value
