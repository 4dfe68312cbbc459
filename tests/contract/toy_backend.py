"""A third store backend, written the way a new one would be: its own write side (graphs held
by an in-memory "server", one per run), its own read side over what it holds, registered from
this module with one ``with_backend`` call. It passes the contract suite, so the protocol is
all a backend needs; it answers no Cypher, and says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.errors import EmbeddingMismatchError, GraphgateError
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run
from graphgate.core.text import normalise_name, page_keys
from graphgate.core.types import (
    ARTIFACTS,
    SCHEMAS,
    Chunk,
    Community,
    CommunityReport,
    Conflict,
    Entity,
    Relationship,
    from_table,
    vectors_from_table,
)
from graphgate.store.base import (
    BuiltAhead,
    CypherRows,
    GraphStore,
    Hit,
    ProjectionEdges,
    SearchKind,
    StoreParent,
)
from graphgate.store.build import chunk_search_texts, entity_search_text, report_search_texts
from graphgate.store.text import memory_text_index

_VECTORS: dict[str, str] = {
    "chunk": "chunk_vectors",
    "entity": "entity_vectors",
    "entity_name": "entity_name_vectors",
    "community": "community_vectors",
}


class ToyBackend:
    name = "toy"
    external = True  # its graphs live outside the run's folder: pruning must drop them
    keyword_ahead = False

    def __init__(self) -> None:
        self.graphs: dict[str, dict[str, pa.Table]] = {}
        self.copies = 0  # updates that started from their parent's graph

    def place(self, run: Run, settings: Settings, parent: StoreParent | None) -> StoreRecord:
        copied = None
        if parent is not None and parent.record.backend == self.name:
            copied = parent.record.graph if parent.record.graph in self.graphs else None
        return StoreRecord(backend=self.name, graph=f"toy-{run.run_id}", copied_from=copied)

    def write(
        self,
        run: Run,
        record: StoreRecord,
        settings: Settings,
        tables: Mapping[str, pa.Table],
        parent: StoreParent | None,
        built_ahead: BuiltAhead,
    ) -> dict[str, int]:
        graph = str(record.graph)
        held = dict(self.graphs[record.copied_from]) if record.copied_from else {}
        self.copies += record.copied_from is not None
        try:
            for name, table in tables.items():
                if name in ARTIFACTS and not table.schema.equals(SCHEMAS[ARTIFACTS[name]]):
                    raise GraphgateError(f"table {name} is not a {name} artifact", "re-index")
            for name, table in tables.items():  # the difference: only what changed is replaced
                if name not in held or not held[name].equals(table):
                    held[name] = table
            self.graphs[graph] = held
            return toy_counts(held)
        except BaseException:
            self.graphs.pop(graph, None)
            raise

    def open(self, run: Run, record: StoreRecord, settings: Settings) -> GraphStore:
        tables = self.graphs.get(str(record.graph))
        if tables is None:
            raise GraphgateError(f"no toy graph {record.graph}", "index again")
        return ToyGraphStore(tables, settings.chunk.context_fields)

    def drop(self, records: Sequence[StoreRecord], settings: Settings) -> list[str]:
        dropped = sorted({str(r.graph) for r in records if r.graph in self.graphs})
        for graph in dropped:
            del self.graphs[graph]
        return dropped


def toy_counts(tables: Mapping[str, pa.Table]) -> dict[str, int]:
    def rows(name: str) -> int:
        return tables[name].num_rows if name in tables else 0

    entities = from_table(tables["entities"], Entity) if "entities" in tables else []
    communities = from_table(tables["communities"], Community) if "communities" in tables else []
    return {
        "Chunk": rows("chunks"),
        "Community": len(communities),
        "Document": rows("documents"),
        "Entity": len(entities),
        "IN_COMMUNITY": sum(len(c.members) for c in communities),
        "MENTIONS": sum(len(e.chunk_ids) for e in entities),
        "PARENT_OF": sum(1 for c in communities if c.parent is not None),
        "PART_OF": rows("chunks"),
        "RELATED": rows("relationships"),
    }


class ToyGraphStore:
    """Every answer from the tables the toy server holds, in plain Python and numpy."""

    def __init__(self, tables: Mapping[str, pa.Table], context_fields: Sequence[str]) -> None:
        def records(name: str, cls: type[Any]) -> list[Any]:
            return from_table(tables[name], cls) if name in tables else []

        self.tables = tables
        self._entities = {e.id: e for e in records("entities", Entity)}
        self._relationships = sorted(records("relationships", Relationship), key=lambda r: r.id)
        self._chunks = {c.id: c for c in records("chunks", Chunk)}
        self._communities = {c.id: c for c in records("communities", Community)}
        self._reports = {r.community_id: r for r in records("community_reports", CommunityReport)}
        self._conflicts = records("conflicts", Conflict)
        self._named: dict[str, list[str]] = defaultdict(list)
        for e in self._entities.values():
            for surface in {e.name, *e.aliases}:
                key = normalise_name(surface)
                if key and e.id not in self._named[key]:
                    self._named[key].append(e.id)
        self._vectors = {
            kind: vectors_from_table(tables[name])
            for kind, name in _VECTORS.items()
            if name in tables and tables[name].num_rows
        }
        documents = tables["documents"].to_pylist()
        self._pages: dict[str, list[str]] = defaultdict(list)
        for doc in sorted(documents, key=lambda d: d["id"]):
            for key in page_keys(doc["title"]):
                self._pages[key].append(doc["id"])
        self._documents = documents
        entity_rows = list(self._entities.values())
        self._text = {
            "chunk": memory_text_index(
                list(tables["chunks"]["id"].to_pylist()), chunk_search_texts(tables, context_fields)
            ),
            "entity": memory_text_index(
                [e.id for e in entity_rows],
                entity_search_text(
                    [e.name for e in entity_rows],
                    [e.aliases for e in entity_rows],
                    [e.description for e in entity_rows],
                ),
            ),
        }
        if "community_reports" in tables:
            reports = tables["community_reports"]
            self._text["community"] = memory_text_index(
                reports["community_id"].to_pylist(), report_search_texts(reports)
            )

    # -- entities and relationships ----------------------------------------------------------
    def entity(self, entity_id: str) -> Entity:
        return self._entities[entity_id]

    def entities(self) -> list[Entity]:
        return list(self._entities.values())

    def entity_ids_named(self, name: str) -> list[str]:
        return list(self._named.get(normalise_name(name), []))

    def entity_names(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self._named.items()}

    def relationships(self) -> list[Relationship]:
        return list(self._relationships)

    def conflicts(self) -> list[Conflict]:
        return list(self._conflicts)

    def relations_among(self, entity_ids: Collection[str]) -> list[Relationship]:
        keep = set(entity_ids)
        return [r for r in self._relationships if r.source_id in keep and r.target_id in keep]

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1) -> list[str]:
        start = set(entity_ids)
        frontier, seen = set(start), set(start)
        for _ in range(hops):
            step = {r.target_id for r in self._relationships if r.source_id in frontier}
            step |= {r.source_id for r in self._relationships if r.target_id in frontier}
            frontier = step - seen
            seen |= step
        return sorted(seen - start)

    def projection(self) -> ProjectionEdges:
        rels = self._relationships
        mentions = sorted((e.id, c) for e in self._entities.values() for c in e.chunk_ids)
        return ProjectionEdges(
            sorted(self._entities),
            [r.source_id for r in rels],
            [r.target_id for r in rels],
            [r.weight for r in rels],
            sorted(self._chunks),
            [e for e, _ in mentions],
            [c for _, c in mentions],
        )

    # -- chunks and documents ----------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunks[chunk_id]

    def chunks(self) -> list[Chunk]:
        return list(self._chunks.values())

    def chunk_vector(self, chunk_id: str) -> npt.NDArray[np.float32] | None:
        ids, matrix = self._vectors["chunk"]
        return matrix[ids.index(chunk_id)] if chunk_id in ids else None

    def chunk_similarities(
        self, chunk_ids: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> dict[str, float]:
        found = {c: self.chunk_vector(c) for c in chunk_ids}
        return {c: float(v @ vector) for c, v in found.items() if v is not None}

    def entities_in_chunk(self, chunk_id: str) -> list[str]:
        return [e.id for e in self._entities.values() if chunk_id in e.chunk_ids]

    def entity_pages(self, name: str) -> list[str]:
        return list(self._pages.get(normalise_name(name), []))

    def first_chunk(self, doc_id: str) -> str | None:
        mine = [c for c in self._chunks.values() if c.doc_id == doc_id]
        return min(mine, key=lambda c: c.index).id if mine else None

    def document_chunks(self, doc_id: str) -> list[str]:
        return [
            c.id for c in sorted(self._chunks.values(), key=lambda c: c.index) if c.doc_id == doc_id
        ]

    def documents_by(self, field: str) -> dict[str, list[str]]:
        import json

        out: dict[str, list[str]] = defaultdict(list)
        for doc in sorted(self._documents, key=lambda d: d["id"]):
            value = json.loads(doc["metadata_json"] or "{}").get(field)
            if isinstance(value, str) and value.strip():
                out[value.strip()].append(doc["id"])
        return dict(out)

    # -- communities ---------------------------------------------------------------------------
    def community(self, community_id: str) -> Community:
        return self._communities[community_id]

    def communities(self) -> list[Community]:
        return list(self._communities.values())

    def report(self, community_id: str) -> CommunityReport:
        return self._reports[community_id]

    def reports(self) -> list[CommunityReport]:
        return list(self._reports.values())

    # -- search --------------------------------------------------------------------------------
    def has_vector_index(self, kind: SearchKind) -> bool:
        return kind in self._vectors

    def vector_search(self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        ids, matrix = self._vectors[kind]
        if vector.shape[-1] != matrix.shape[1]:
            raise EmbeddingMismatchError(
                f"query vector has dimension {vector.shape[-1]}, the toy holds {matrix.shape[1]}",
                "embed with the run's model",
            )
        scores = matrix @ vector
        order = np.argsort(-scores, kind="stable")[:k]
        return [(ids[int(i)], float(scores[int(i)])) for i in order]

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]:
        return self._text[kind].search(query, k)

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> pa.Table:
        raise GraphgateError("the toy store answers no Cypher", "use a Cypher backend")

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        raise GraphgateError("the toy store answers no Cypher", "use a Cypher backend")

    def counts(self) -> dict[str, int]:
        return toy_counts(self.tables)

    def describe(self) -> dict[str, str]:
        return {"backend": "toy", "graph": "in memory"}

    def close(self) -> None:
        pass
