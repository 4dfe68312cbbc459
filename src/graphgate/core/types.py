"""Typed records that flow between stages, and their Arrow schemas (the Parquet artifacts)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import (
    Any,
    Generic,
    Literal,
    Protocol,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

import pyarrow as pa

_STR_LIST = pa.list_(pa.string())
# The predicate of same-sentence co-occurrence edges (not a parsed relation).
COOCCURS = "co_occurs_with"
# Entity type of a common-noun node ("boy", "ball"), from extract.concepts.
CONCEPT = "CONCEPT"


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
    # Where pages and sections begin in ``text`` (index/formats/layout.py): {"pages": [offset,
    # …], "sections": [[offset, [heading, …]], …]}; "{}" for a text without either.
    layout_json: str = "{}"


@dataclass(frozen=True)
class Chunk:
    id: str
    doc_id: str
    index: int
    text: str
    start: int  # character offset into the document text
    end: int
    n_tokens: int
    date: str | None = None  # its document's date (dates.document_date), at its precision
    page: int = 0  # the 1-based page (PDF page, slide) it starts on; 0 where there are none
    page_breaks: list[int] = field(default_factory=list)  # offsets in it where a page begins
    section: list[str] = field(default_factory=list)  # the heading path it lies under


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
    observed_at: str | None = None  # the latest date of the documents that state it


@dataclass(frozen=True)
class Conflict:
    """Two statements that cannot both hold: one subject, a functional relation or a numeric
    attribute, different values, overlapping time. Each side keeps where it was said (document,
    chunk, character span of the sentence in the document) and the document's date."""

    id: str
    kind: str  # "relation" | "attribute"
    subject_id: str
    subject: str
    about: str  # the predicate or the attribute ("height")
    a_value: str
    a_chunk_id: str
    a_doc_id: str
    a_start: int
    a_end: int
    a_text: str
    a_date: str | None
    b_value: str
    b_chunk_id: str
    b_doc_id: str
    b_start: int
    b_end: int
    b_text: str
    b_date: str | None


@dataclass(frozen=True)
class Community:
    """One cluster of entities at one level of the hierarchy (level 0 is the coarsest)."""

    id: str
    level: int
    parent: str | None
    children: list[str]
    members: list[str]  # entity ids
    size: int


ClaimKind = Literal["entity", "edge", "chunk", "generated"]


@dataclass(frozen=True)
class Claim:
    """One statement of a community report and what it rests on: an entity's description
    (``ref`` = entity id), an edge (edge id), a source sentence (chunk id), or a sentence a model
    wrote (``generated``; ``ref`` = community id, ``chunk_id`` = the member chunk that supports
    it best). ``chunk_id`` is where a reader can check it."""

    text: str
    kind: ClaimKind
    ref: str
    chunk_id: str | None = None


_CLAIM_FIELDS = tuple(f.name for f in dataclasses.fields(Claim))


def claims_to_json(claims: Sequence[Claim]) -> str:
    # Field by field: dataclasses.asdict deep-copies, a third of summarizing a large graph.
    return json.dumps(
        [{name: getattr(c, name) for name in _CLAIM_FIELDS} for c in claims], ensure_ascii=False
    )


def claims_from_json(text: str) -> list[Claim]:
    """A report's stored claims (``[]`` for an empty or unreadable field)."""
    try:
        rows = json.loads(text or "[]")
        return [Claim(**row) for row in rows]
    except (json.JSONDecodeError, TypeError):
        return []


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
    claims_json: str  # [Claim] as JSON (claims_to_json / claims_from_json)


@dataclass(frozen=True)
class CommunityNode:
    """A community as the graph holds it: the cluster and its report in one node."""

    id: str
    level: int
    parent: str | None
    size: int
    title: str
    summary: str
    rating: float
    chunk_ids: list[str]
    doc_ids: list[str]


# -- one schema: the records above are the only declaration of every table ------------------
_ARROW = {str: pa.string(), int: pa.int64(), float: pa.float64()}
_GRAPH = {str: "STRING", int: "INT64", float: "DOUBLE"}


def _field_types(cls: type[Any]) -> list[tuple[str, Any]]:
    """(name, element type, is list) per field; ``X | None`` is a nullable X."""
    hints = get_type_hints(cls)
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        args = [a for a in get_args(hint) if a is not type(None)]
        if get_origin(hint) is list:
            out.append((f.name, (args[0], True)))
        elif args:  # Optional[X]
            out.append((f.name, (args[0], False)))
        else:
            out.append((f.name, (hint, False)))
    return out


def arrow_schema(cls: type[Any]) -> pa.Schema:
    """The Arrow schema of a record type (the Parquet artifact's columns, in field order)."""
    return pa.schema(
        [
            (name, pa.list_(_ARROW[base]) if is_list else _ARROW[base])
            for name, (base, is_list) in _field_types(cls)
        ]
    )


@dataclass(frozen=True)
class GraphTable:
    """A node or edge table of the graph, derived from a record: which fields, named how.

    Edges name their end labels and carry the record's other fields as properties (an edge
    without a record has none). Renames avoid Cypher keywords (``index``, ``start``, ``end``).
    """

    label: str
    record: type[Any] | None = None
    drop: tuple[str, ...] = ()
    rename: tuple[tuple[str, str], ...] = ()
    ends: tuple[str, str] | None = None  # (from label, to label) for an edge

    def columns(self) -> list[tuple[str, str]]:
        """(column name in the graph, graph type) in the record's field order."""
        if self.record is None:
            return []
        renames = dict(self.rename)
        return [
            (renames.get(name, name), f"{_GRAPH[base]}[]" if is_list else _GRAPH[base])
            for name, (base, is_list) in _field_types(self.record)
            if name not in self.drop
        ]

    def fields(self) -> list[str]:
        """The record's fields this table keeps, in order (before renaming)."""
        if self.record is None:
            return []
        return [f.name for f in dataclasses.fields(self.record) if f.name not in self.drop]

    def ddl(self) -> str:
        cols = ", ".join(f"{name} {kind}" for name, kind in self.columns())
        if self.ends is None:
            return f"CREATE NODE TABLE IF NOT EXISTS {self.label}({cols}, PRIMARY KEY(id))"
        ends = f"FROM {self.ends[0]} TO {self.ends[1]}"
        return f"CREATE REL TABLE IF NOT EXISTS {self.label}({ends}{', ' + cols if cols else ''})"


GRAPH_TABLES: tuple[GraphTable, ...] = (
    GraphTable("Document", Document, drop=("text", "metadata_json", "layout_json")),
    GraphTable(
        "Chunk",
        Chunk,
        rename=(("index", "position"), ("start", "start_char"), ("end", "end_char")),
    ),
    GraphTable("Entity", Entity),
    GraphTable("RELATED", Relationship, drop=("source_id", "target_id"), ends=("Entity", "Entity")),
    GraphTable("Community", CommunityNode),
    GraphTable("MENTIONS", ends=("Chunk", "Entity")),
    GraphTable("IN_COMMUNITY", ends=("Entity", "Community")),
    GraphTable("PARENT_OF", ends=("Community", "Community")),
    GraphTable("PART_OF", ends=("Chunk", "Document")),
)
GRAPH_TABLE = {t.label: t for t in GRAPH_TABLES}
NODE_LABELS = tuple(t.label for t in GRAPH_TABLES if t.ends is None)
REL_TYPES = tuple(t.label for t in GRAPH_TABLES if t.ends is not None)

_RECORDS = (
    Document,
    Chunk,
    Mention,
    RawRelation,
    Entity,
    Relationship,
    Community,
    CommunityReport,
    CommunityNode,
    Conflict,
)
SCHEMAS: dict[type[Any], pa.Schema] = {cls: arrow_schema(cls) for cls in _RECORDS}

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
    "conflicts": Conflict,
}

R = TypeVar("R")


def to_table(rows: Sequence[Any], cls: type[Any]) -> pa.Table:
    """Rows of one record type as an Arrow table with that type's fixed schema. Built column by
    column: the records are flat (lists of scalars at most), so no deep copy is needed."""
    schema = SCHEMAS[cls]
    columns = {name: [getattr(r, name) for r in rows] for name in schema.names}
    return pa.Table.from_pydict(columns, schema=schema)


def dicts_to_table(rows: Sequence[Mapping[str, Any]], cls: type[Any]) -> pa.Table:
    """:func:`to_table` for rows given as dicts (a field a row lacks takes its default)."""
    schema = SCHEMAS[cls]
    defaults = {
        f.name: f.default for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING
    }
    columns = {
        name: [r[name] for r in rows]
        if name not in defaults
        else [r.get(name, defaults[name]) for r in rows]
        for name in schema.names
    }
    return pa.Table.from_pydict(columns, schema=schema)


def column_values(column: pa.ChunkedArray) -> list[Any]:
    """A column as Python values, through NumPy where that is exact: ``to_pylist`` converts value
    by value and was the largest cost of reading artifacts (15x slower on 15k strings)."""
    if column.null_count and not pa.types.is_string(column.type):
        return list(column.to_pylist())  # NumPy would turn a missing number into NaN
    array = column.combine_chunks()
    if pa.types.is_list(array.type):
        # A slice's own values (``values`` is the whole child), with offsets from zero.
        values = column_values(pa.chunked_array([array.flatten()], array.type.value_type))
        offsets = array.offsets.to_numpy()
        return [values[a:b] for a, b in itertools.pairwise((offsets - offsets[0]).tolist())]
    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind):
        return list(array.to_numpy(zero_copy_only=False).tolist())
    return list(array.to_pylist())


def table_rows(table: pa.Table) -> list[dict[str, Any]]:
    """``table.to_pylist()``, through :func:`column_values` (the same rows, faster)."""
    names = table.column_names
    columns = [column_values(table.column(name)) for name in names]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def from_table(table: pa.Table, cls: type[R]) -> list[R]:
    names = table.column_names
    columns = [column_values(table.column(name)) for name in names]
    if names == [f.name for f in dataclasses.fields(cls)]:  # type: ignore[arg-type]
        return [cls(*values) for values in zip(*columns, strict=True)]
    return [cls(**dict(zip(names, values, strict=True))) for values in zip(*columns, strict=True)]


R_co = TypeVar("R_co", covariant=True)


class Rows(Protocol[R_co]):
    """Records that can be counted and iterated more than once: a list, :class:`TableRows`
    or ``core.runs.ArtifactRows`` (both make them a batch at a time on each pass)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[R_co]: ...


class TableRows(Generic[R]):
    """A table's rows as records, made a batch at a time whenever they are iterated (again
    for each pass): a stage that reads a large table row by row never holds a record per
    row of all of it, only one batch's."""

    def __init__(self, table: pa.Table, cls: type[R], batch_rows: int = 8192) -> None:
        self.table = table
        self.cls = cls
        self.batch_rows = batch_rows

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def __iter__(self) -> Iterator[R]:
        for start in range(0, self.table.num_rows, self.batch_rows):
            yield from from_table(self.table.slice(start, self.batch_rows), self.cls)


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
    return [str(x) for x in table.column("id").to_pylist()], vector_matrix(table)


def vector_matrix(table: pa.Table) -> Any:
    """A vectors table's ``vector`` column as a float32 matrix, a row per vector."""
    import numpy as np

    vectors = table.column("vector")
    # One chunk (an artifact read back) is used as it is: combining copies even one.
    column = vectors.chunk(0) if vectors.num_chunks == 1 else vectors.combine_chunks()
    values = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32)
    return values.reshape(table.num_rows, column.type.list_size)
