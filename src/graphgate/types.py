"""Typed records that flow between stages, and their Arrow schemas (the Parquet artifacts)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pyarrow as pa

_STR_LIST = pa.list_(pa.string())
# The predicate of same-sentence co-occurrence edges (not a parsed relation).
COOCCURS = "co_occurs_with"


@dataclass(frozen=True)
class Document:
    id: str
    title: str
    text: str
    sha256: str
    version: int
    byte_size: int
    source_path: str
    metadata_json: str = "{}"


@dataclass(frozen=True)
class Chunk:
    id: str
    doc_id: str
    index: int
    text: str
    start: int  # character offset into the document text
    end: int
    n_tokens: int


@dataclass(frozen=True)
class Mention:
    """One surface mention of an entity as the extractor saw it."""

    chunk_id: str
    doc_id: str
    name: str
    type: str
    sentence: str


@dataclass(frozen=True)
class RawRelation:
    """A relation between two surface names before entity resolution."""

    chunk_id: str
    doc_id: str
    source_name: str
    target_name: str
    predicate: str
    kind: str  # "svo" (dependency parse) or "cooccurrence"
    sentence: str
    valid_from: str | None = None
    valid_to: str | None = None


@dataclass(frozen=True)
class Entity:
    id: str
    name: str
    type: str
    description: str
    aliases: list[str] = field(default_factory=list)
    mention_count: int = 0
    chunk_ids: list[str] = field(default_factory=list)
    doc_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Relationship:
    id: str
    source_id: str
    target_id: str
    predicate: str
    kind: str
    weight: float
    description: str
    chunk_ids: list[str] = field(default_factory=list)
    doc_ids: list[str] = field(default_factory=list)
    valid_from: str | None = None
    valid_to: str | None = None


@dataclass(frozen=True)
class Community:
    """One cluster of entities at one level of the hierarchy (level 0 is the coarsest)."""

    id: str
    level: int
    parent: str | None
    children: list[str]
    members: list[str]  # entity ids
    size: int


@dataclass(frozen=True)
class CommunityReport:
    """What a community is about; every claim names the node, edge or chunk it rests on."""

    community_id: str
    level: int
    title: str
    summary: str
    key_entities: list[str]
    key_relationships: list[str]
    rating: float
    chunk_ids: list[str]
    doc_ids: list[str]
    claims_json: str  # [{"text", "kind": entity|edge|chunk, "ref", "chunk_id"}]


SCHEMAS: dict[type[Any], pa.Schema] = {
    Document: pa.schema(
        [
            ("id", pa.string()),
            ("title", pa.string()),
            ("text", pa.string()),
            ("sha256", pa.string()),
            ("version", pa.int64()),
            ("byte_size", pa.int64()),
            ("source_path", pa.string()),
            ("metadata_json", pa.string()),
        ]
    ),
    Chunk: pa.schema(
        [
            ("id", pa.string()),
            ("doc_id", pa.string()),
            ("index", pa.int64()),
            ("text", pa.string()),
            ("start", pa.int64()),
            ("end", pa.int64()),
            ("n_tokens", pa.int64()),
        ]
    ),
    Mention: pa.schema(
        [
            ("chunk_id", pa.string()),
            ("doc_id", pa.string()),
            ("name", pa.string()),
            ("type", pa.string()),
            ("sentence", pa.string()),
        ]
    ),
    RawRelation: pa.schema(
        [
            ("chunk_id", pa.string()),
            ("doc_id", pa.string()),
            ("source_name", pa.string()),
            ("target_name", pa.string()),
            ("predicate", pa.string()),
            ("kind", pa.string()),
            ("sentence", pa.string()),
            ("valid_from", pa.string()),
            ("valid_to", pa.string()),
        ]
    ),
    Entity: pa.schema(
        [
            ("id", pa.string()),
            ("name", pa.string()),
            ("type", pa.string()),
            ("description", pa.string()),
            ("aliases", _STR_LIST),
            ("mention_count", pa.int64()),
            ("chunk_ids", _STR_LIST),
            ("doc_ids", _STR_LIST),
        ]
    ),
    Relationship: pa.schema(
        [
            ("id", pa.string()),
            ("source_id", pa.string()),
            ("target_id", pa.string()),
            ("predicate", pa.string()),
            ("kind", pa.string()),
            ("weight", pa.float64()),
            ("description", pa.string()),
            ("chunk_ids", _STR_LIST),
            ("doc_ids", _STR_LIST),
            ("valid_from", pa.string()),
            ("valid_to", pa.string()),
        ]
    ),
    Community: pa.schema(
        [
            ("id", pa.string()),
            ("level", pa.int64()),
            ("parent", pa.string()),
            ("children", _STR_LIST),
            ("members", _STR_LIST),
            ("size", pa.int64()),
        ]
    ),
    CommunityReport: pa.schema(
        [
            ("community_id", pa.string()),
            ("level", pa.int64()),
            ("title", pa.string()),
            ("summary", pa.string()),
            ("key_entities", _STR_LIST),
            ("key_relationships", _STR_LIST),
            ("rating", pa.float64()),
            ("chunk_ids", _STR_LIST),
            ("doc_ids", _STR_LIST),
            ("claims_json", pa.string()),
        ]
    ),
}

# Artifact name -> record type: the Parquet files a run writes and their schemas.
ARTIFACTS: dict[str, type[Any]] = {
    "documents": Document,
    "chunks": Chunk,
    "mentions": Mention,
    "raw_relations": RawRelation,
    "entities": Entity,
    "relationships": Relationship,
    "communities": Community,
    "community_reports": CommunityReport,
}

R = TypeVar("R")


def to_table(rows: Sequence[Any], cls: type[Any]) -> pa.Table:
    """Rows of one record type as an Arrow table with that type's fixed schema."""
    return pa.Table.from_pylist([dataclasses.asdict(r) for r in rows], schema=SCHEMAS[cls])


def from_table(table: pa.Table, cls: type[R]) -> list[R]:
    return [cls(**row) for row in table.to_pylist()]


def vectors_table(ids: Sequence[str], vectors: Any) -> pa.Table:
    """Embeddings as (id, vector) with a fixed-size list column, so the dimension is typed."""
    import numpy as np

    matrix = np.asarray(vectors, dtype=np.float32)
    dim = int(matrix.shape[1]) if matrix.ndim == 2 else 0
    flat = pa.array(matrix.reshape(-1), type=pa.float32())
    column = (
        pa.FixedSizeListArray.from_arrays(flat, dim)
        if dim
        else pa.array([], type=pa.list_(pa.float32(), 0))
    )
    return pa.table({"id": pa.array(list(ids), type=pa.string()), "vector": column})


def vectors_from_table(table: pa.Table) -> tuple[list[str], Any]:
    import numpy as np

    ids = [str(x) for x in table.column("id").to_pylist()]
    column = table.column("vector").combine_chunks()
    dim = column.type.list_size
    values = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32)
    return ids, values.reshape(len(ids), dim)
