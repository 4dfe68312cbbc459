"""Browsing an index: entities, communities, chunks and documents as a reader sees them.

The web interface and any client page through the graph with these views; they read the
current run's store and artifacts only (nothing here writes), and every lookup by id raises
:class:`~graphgate.core.errors.NotFoundError` with the id's kind, so a transport can answer 404.
The lists a reader walks (entity names, community membership, documents) are read once per
loaded index and kept by the :class:`Explorer`.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import cached_property
from typing import Any

import pyarrow.parquet as pq
from typing_extensions import TypedDict

from graphgate.core.errors import NotFoundError
from graphgate.core.text import normalise_name
from graphgate.core.types import (
    Chunk,
    Community,
    CommunityReport,
    Document,
    Entity,
    Relationship,
    claims_from_json,
    from_table,
    table_rows,
)
from graphgate.query.loaded import LoadedIndex

MAX_GRAPH_NODES = 500
_MAX_MENTION_CHUNKS = 50


class NodeView(TypedDict):
    id: str
    name: str
    type: str


class EdgeView(TypedDict):
    id: str
    source_id: str
    source: str
    predicate: str
    target_id: str
    target: str
    weight: float
    chunk_ids: list[str]
    valid_from: str | None
    valid_to: str | None


class GraphView(TypedDict):
    nodes: list[NodeView]
    edges: list[EdgeView]
    truncated: bool  # more neighbours exist than were drawn


class MentionView(TypedDict):
    chunk_id: str
    doc_id: str
    start: int  # character offsets of the name in the document
    end: int
    text: str  # the name as written
    context: str  # the chunk text around it


class CommunityRef(TypedDict):
    id: str
    level: int
    title: str
    size: int


class EntityView(TypedDict):
    id: str
    name: str
    type: str
    aliases: list[str]
    description: str
    mention_count: int
    doc_ids: list[str]
    mentions: list[MentionView]
    edges: list[EdgeView]  # the entity's own edges
    graph: GraphView  # the entity and its neighbours
    communities: list[CommunityRef]  # coarsest level first


class CommunityView(TypedDict):
    id: str
    level: int
    title: str
    summary: str
    rating: float | None
    claims: list[dict[str, Any]]
    members: list[NodeView]
    parent: CommunityRef | None
    children: list[CommunityRef]
    graph: GraphView


class ChunkView(TypedDict):
    id: str
    doc_id: str
    title: str
    index: int
    text: str
    start: int
    end: int
    date: str | None


class DocumentSummary(TypedDict):
    id: str
    title: str
    byte_size: int
    version: int


class DocumentPage(TypedDict):
    total: int
    offset: int
    items: list[DocumentSummary]


class DocumentView(TypedDict):
    id: str
    title: str
    text: str
    metadata: dict[str, Any]
    chunks: list[dict[str, int | str]]


class EntityHit(TypedDict):
    id: str
    name: str
    type: str
    aliases: list[str]
    mention_count: int


class Explorer:
    """Views of one loaded index (its run and store)."""

    def __init__(self, loaded: LoadedIndex) -> None:
        self.loaded = loaded

    @property
    def run_id(self) -> str:
        return self.loaded.run.run_id

    # -- what is read once -------------------------------------------------------------------
    @cached_property
    def _entities(self) -> dict[str, Entity]:
        return {e.id: e for e in self.loaded.store.entities()}

    @cached_property
    def _communities(self) -> dict[str, Community]:
        return {c.id: c for c in self.loaded.store.communities()}

    @cached_property
    def _reports(self) -> dict[str, CommunityReport]:
        return {r.community_id: r for r in self.loaded.store.reports()}

    @cached_property
    def _membership(self) -> dict[str, list[str]]:
        """entity id -> the communities holding it, coarsest level first."""
        out: dict[str, list[str]] = defaultdict(list)
        for community in sorted(self._communities.values(), key=lambda c: (c.level, c.id)):
            for member in community.members:
                out[member].append(community.id)
        return out

    @cached_property
    def _documents(self) -> list[DocumentSummary]:
        """What a listing shows of every document (their texts stay on disk), by id."""
        run = self.loaded.run
        if not run.has_artifact("documents"):
            return []
        columns = ["id", "title", "byte_size", "version"]
        rows = table_rows(pq.read_table(run.artifact_path("documents"), columns=columns))
        return sorted(
            (
                DocumentSummary(
                    id=r["id"], title=r["title"], byte_size=r["byte_size"], version=r["version"]
                )
                for r in rows
            ),
            key=lambda d: d["id"],
        )

    @cached_property
    def _document_index(self) -> dict[str, DocumentSummary]:
        return {d["id"]: d for d in self._documents}

    def _document(self, doc_id: str) -> Document | None:
        """One document read whole from the run's artifact."""
        if doc_id not in self._document_index:
            return None
        path = self.loaded.run.artifact_path("documents")
        found = from_table(pq.read_table(path, filters=[("id", "=", doc_id)]), Document)
        return found[0] if found else None

    @cached_property
    def _chunks_by_document(self) -> dict[str, list[Chunk]]:
        out: dict[str, list[Chunk]] = defaultdict(list)
        for chunk in self.loaded.store.chunks():
            out[chunk.doc_id].append(chunk)
        return out

    # -- entities ----------------------------------------------------------------------------
    def search_entities(self, query: str, limit: int = 20) -> list[EntityHit]:
        """Entities whose name or an alias contains ``query`` (normalised): exact names first,
        then names that start with it, then the rest; the most mentioned first within each."""
        wanted = normalise_name(query)
        if not wanted:
            return []
        ranked: list[tuple[int, int, str, Entity]] = []
        for entity in self._entities.values():
            keys = [normalise_name(n) for n in (entity.name, *entity.aliases)]
            if any(k == wanted for k in keys):
                rank = 0
            elif any(k.startswith(wanted) for k in keys):
                rank = 1
            elif any(wanted in k for k in keys):
                rank = 2
            else:
                continue
            ranked.append((rank, -entity.mention_count, entity.name, entity))
        ranked.sort(key=lambda r: r[:3])
        return [
            {
                "id": e.id,
                "name": e.name,
                "type": e.type,
                "aliases": list(e.aliases),
                "mention_count": e.mention_count,
            }
            for *_, e in ranked[:limit]
        ]

    def entity(self, entity_id: str, max_nodes: int = 60) -> EntityView:
        entity = self._entity(entity_id)
        store = self.loaded.store
        among = store.relations_among([entity.id, *store.neighbours([entity.id], hops=1)])
        own = sorted(
            (r for r in among if entity.id in (r.source_id, r.target_id)),
            key=lambda r: (-r.weight, r.id),
        )
        return {
            "id": entity.id,
            "name": entity.name,
            "type": entity.type,
            "aliases": list(entity.aliases),
            "description": entity.description,
            "mention_count": entity.mention_count,
            "doc_ids": list(entity.doc_ids),
            "mentions": self._mentions(entity),
            "edges": [self._edge(r) for r in own],
            "graph": self._neighbourhood(entity.id, own, among, max_nodes),
            "communities": [self._community_ref(c) for c in self._membership.get(entity.id, [])],
        }

    def _entity(self, entity_id: str) -> Entity:
        found = self._entities.get(entity_id)
        if found is None:
            raise NotFoundError(f"no entity {entity_id!r} in run {self.run_id}", "search by name")
        return found

    def _mentions(self, entity: Entity) -> list[MentionView]:
        """Where the entity's name or an alias is written in the chunks that mention it."""
        names = sorted({entity.name, *entity.aliases}, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(n) for n in names if n), re.IGNORECASE)
        out: list[MentionView] = []
        for chunk_id in entity.chunk_ids[:_MAX_MENTION_CHUNKS]:
            chunk = self.loaded.store.chunk(chunk_id)
            for match in pattern.finditer(chunk.text):
                lo, hi = match.span()
                out.append(
                    {
                        "chunk_id": chunk.id,
                        "doc_id": chunk.doc_id,
                        "start": chunk.start + lo,
                        "end": chunk.start + hi,
                        "text": match.group(0),
                        "context": chunk.text[max(0, lo - 80) : hi + 80],
                    }
                )
        return out

    def _edge(self, r: Relationship) -> EdgeView:
        return {
            "id": r.id,
            "source_id": r.source_id,
            "source": self._name(r.source_id),
            "predicate": r.predicate,
            "target_id": r.target_id,
            "target": self._name(r.target_id),
            "weight": r.weight,
            "chunk_ids": list(r.chunk_ids),
            "valid_from": r.valid_from,
            "valid_to": r.valid_to,
        }

    def _name(self, entity_id: str) -> str:
        found = self._entities.get(entity_id)
        return found.name if found else entity_id

    def _node(self, entity_id: str) -> NodeView:
        found = self._entities.get(entity_id)
        if found is None:
            return {"id": entity_id, "name": entity_id, "type": ""}
        return {"id": found.id, "name": found.name, "type": found.type}

    def _neighbourhood(
        self,
        centre: str,
        own: list[Relationship],
        among: list[Relationship],
        max_nodes: int,
    ) -> GraphView:
        """The centre and its strongest neighbours (``own`` is strongest first), with every
        edge among them taken from ``among`` (the edges among the centre and all neighbours)."""
        max_nodes = max(1, min(max_nodes, MAX_GRAPH_NODES))
        order = dict.fromkeys(
            [centre, *(r.target_id if r.source_id == centre else r.source_id for r in own)]
        )
        chosen = list(order)[:max_nodes]
        drawn = set(chosen)
        return {
            "nodes": [self._node(i) for i in chosen],
            "edges": [
                self._edge(r) for r in among if r.source_id in drawn and r.target_id in drawn
            ],
            "truncated": len(order) > max_nodes,
        }

    def subgraph(self, entity_ids: list[str], truncated: bool = False) -> GraphView:
        """These entities and every relationship among them."""
        ids = list(dict.fromkeys(entity_ids))[:MAX_GRAPH_NODES]
        edges = self.loaded.store.relations_among(ids)
        return {
            "nodes": [self._node(i) for i in ids],
            "edges": [self._edge(r) for r in edges],
            "truncated": truncated or len(entity_ids) > len(ids),
        }

    # -- communities -------------------------------------------------------------------------
    def _community_ref(self, community_id: str) -> CommunityRef:
        community = self._communities[community_id]
        report = self._reports.get(community_id)
        title = report.title if report else f"community {community_id}"
        return {
            "id": community.id,
            "level": community.level,
            "title": title,
            "size": community.size,
        }

    def community(self, community_id: str, max_nodes: int = 150) -> CommunityView:
        community = self._communities.get(community_id)
        if community is None:
            raise NotFoundError(
                f"no community {community_id!r} in run {self.run_id}", "open one from an entity"
            )
        report = self._reports.get(community_id)
        members = sorted(
            community.members,
            key=lambda m: (-self._entities[m].mention_count, m) if m in self._entities else (0, m),
        )
        return {
            "id": community.id,
            "level": community.level,
            "title": report.title if report else f"community {community.id}",
            "summary": report.summary if report else "",
            "rating": report.rating if report else None,
            "claims": [c.__dict__ for c in claims_from_json(report.claims_json)] if report else [],
            "members": [self._node(m) for m in members],
            "parent": self._community_ref(community.parent) if community.parent else None,
            "children": [
                self._community_ref(c) for c in community.children if c in self._communities
            ],
            "graph": self.subgraph(members[: max(1, min(max_nodes, MAX_GRAPH_NODES))]),
        }

    # -- text ----------------------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> ChunkView:
        try:
            chunk = self.loaded.store.chunk(chunk_id)
        except KeyError:
            raise NotFoundError(
                f"no chunk {chunk_id!r} in run {self.run_id}", "cite a chunk of the current run"
            ) from None
        document = self._document_index.get(chunk.doc_id)
        return {
            "id": chunk.id,
            "doc_id": chunk.doc_id,
            "title": document["title"] if document else chunk.doc_id,
            "index": chunk.index,
            "text": chunk.text,
            "start": chunk.start,
            "end": chunk.end,
            "date": chunk.date,
        }

    def documents(self, query: str = "", offset: int = 0, limit: int = 50) -> DocumentPage:
        """Documents in id order; with ``query``, those whose id or title contains it."""
        wanted = query.casefold().strip()
        found = [
            d
            for d in self._documents
            if not wanted or wanted in d["id"].casefold() or wanted in d["title"].casefold()
        ]
        page = found[max(0, offset) : max(0, offset) + max(1, limit)]
        items = [DocumentSummary(**d) for d in page]  # copies: the cached list stays as read
        return {"total": len(found), "offset": max(0, offset), "items": items}

    def document(self, doc_id: str) -> DocumentView:
        document = self._document(doc_id)
        if document is None:
            raise NotFoundError(f"no document {doc_id!r} in run {self.run_id}", "list documents")
        try:
            metadata = json.loads(document.metadata_json or "{}")
        except json.JSONDecodeError:
            metadata = {}
        return {
            "id": document.id,
            "title": document.title,
            "text": document.text,
            "metadata": metadata if isinstance(metadata, dict) else {},
            "chunks": [
                {"id": c.id, "index": c.index, "start": c.start, "end": c.end}
                for c in sorted(self._chunks_by_document.get(doc_id, []), key=lambda c: c.index)
            ],
        }
