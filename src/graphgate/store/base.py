"""The storage interfaces. A backend stores and retrieves; ranking algorithms live in query/."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.config import Settings
from graphgate.core.manifest import StoreRecord
from graphgate.core.runs import Run
from graphgate.core.types import Chunk, Community, CommunityReport, Conflict, Entity, Relationship

# entity_name: the bare names of the entities whose names were embedded (entity linking).
SearchKind = Literal["chunk", "entity", "entity_name", "community"]
Hit = tuple[str, float]
# The artifacts a run's store is written from (the graph stage's inputs): these always, ...
STORE_REQUIRED = ("documents", "chunks", "chunk_vectors")
# ... and these when the pipeline made them (a vector-only run has no entities).
STORE_OPTIONAL = (
    "entities",
    "relationships",
    "entity_vectors",
    "entity_name_vectors",
    "communities",
    "community_reports",
    "community_vectors",
    "conflicts",
)
STORE_ARTIFACTS = STORE_REQUIRED + STORE_OPTIONAL
# Whether the keyword index of a kind ("chunk", "entity") was built ahead in the run's store
# folder while other stages ran (the embedded store keeps it instead of building it again).
BuiltAhead = Callable[[str], bool]


def nothing_built_ahead(kind: str) -> bool:
    return False


class VectorIndex(Protocol):
    @property
    def dimension(self) -> int: ...

    def __len__(self) -> int: ...

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[Hit]: ...


class TextIndex(Protocol):
    def __len__(self) -> int: ...

    def search(self, query: str, k: int) -> list[Hit]: ...


@dataclass(frozen=True)
class CypherRows:
    """A read query's columns and its rows, read from the database one at a time: a caller
    stops reading at its own row, byte or time limit, whatever the statement's LIMIT."""

    columns: list[str]
    rows: Iterator[list[Any]]


@dataclass(frozen=True)
class ProjectionEdges:
    """The entity graph as parallel arrays, for algorithms that need all of it at once
    (personalised PageRank): every entity id, and each relationship's ends and weight."""

    node_ids: list[str]
    source_ids: list[str]
    target_ids: list[str]
    weights: list[float]
    # Every chunk id, and the mentions as parallel arrays (an entity, a chunk it is in): the
    # passages of graph mode's walk (query/passage_walk.py).
    chunk_ids: list[str] = field(default_factory=list)
    mention_entity_ids: list[str] = field(default_factory=list)
    mention_chunk_ids: list[str] = field(default_factory=list)


class GraphStore(Protocol):
    """What retrieval, evaluation and the server read from an indexed graph.

    The embedded backend (LadybugDB with search indexes beside it) implements it today; a
    graph-database server implements the same contract (``tests/contract``) without any change
    to ``query/``. Lookups by id raise ``KeyError`` for an unknown id; lists of entities,
    relationships and chunks come in index order (relationships by id).
    """

    # -- entities and relationships --------------------------------------------------------
    def entity(self, entity_id: str) -> Entity: ...

    def entities(self) -> list[Entity]: ...

    def entity_ids_named(self, name: str) -> list[str]:
        """Entities whose name or alias normalises (core.text.normalise_name) as ``name``."""
        ...

    def entity_names(self) -> dict[str, list[str]]:
        """Every normalised name and alias, with the entities that carry it (entity linking
        matches question mentions against these keys, exactly and fuzzily)."""
        ...

    def relationships(self) -> list[Relationship]: ...

    def conflicts(self) -> list[Conflict]:
        """Statements that cannot both hold (index/truth.py), by id; empty for older runs."""
        ...

    def relations_among(self, entity_ids: Collection[str]) -> list[Relationship]:
        """Relationships with both ends in ``entity_ids``, by id."""
        ...

    def neighbours(self, entity_ids: Sequence[str], hops: int = 1) -> list[str]:
        """Entities within ``hops`` relationships of any of ``entity_ids`` (not those), by id."""
        ...

    def projection(self) -> ProjectionEdges: ...

    # -- text --------------------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk: ...

    def chunks(self) -> list[Chunk]: ...

    def chunk_vector(self, chunk_id: str) -> npt.NDArray[np.float32] | None: ...

    def chunk_similarities(
        self, chunk_ids: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> dict[str, float]:
        """Cosine of each chunk's vector to ``vector`` (unknown ids left out): computed where
        the vectors are, so a server sends numbers, not vectors."""
        ...

    def entities_in_chunk(self, chunk_id: str) -> list[str]: ...

    def entity_pages(self, name: str) -> list[str]:
        """Documents whose title normalises as ``name``, also less a trailing parenthesised
        qualifier (graphgate.core.text.page_keys): an entity's own pages, by id."""
        ...

    def first_chunk(self, doc_id: str) -> str | None: ...

    def document_chunks(self, doc_id: str) -> list[str]:
        """The document's chunk ids in their order in it (empty for an unknown document)."""
        ...

    def documents_by(self, field: str) -> dict[str, list[str]]:
        """Document ids by the value of one metadata field (string values only), by id."""
        ...

    # -- communities ---------------------------------------------------------------------------
    def community(self, community_id: str) -> Community: ...

    def communities(self) -> list[Community]: ...

    def report(self, community_id: str) -> CommunityReport: ...

    def reports(self) -> list[CommunityReport]: ...

    # -- search --------------------------------------------------------------------------------
    def has_vector_index(self, kind: SearchKind) -> bool: ...

    def vector_search(
        self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int
    ) -> list[Hit]: ...

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]: ...

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> pa.Table:
        """Read-only Cypher over the graph (the store refuses writes), stopped after
        ``timeout_s`` (:class:`~graphgate.core.errors.QueryTimeoutError`)."""
        ...

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        """:meth:`cypher` with the rows as an iterator (values as ``cypher`` gives them), for
        statements a user wrote: what is read is bounded by the reader."""
        ...

    def counts(self) -> dict[str, int]: ...

    def describe(self) -> dict[str, str]:
        """Where the graph lives, for status: the backend and its location (never a secret)."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class StoreParent:
    """The run an update builds on, with where its graph lives: a backend may copy it and
    write only what differs instead of writing every table again."""

    run: Run
    record: StoreRecord


class StoreBackend(Protocol):
    """One graph store implementation, on its write side and its read side: the composition
    root finds it by ``name`` (the ``store.backend`` setting, and the name a run's manifest
    records) in a :class:`~graphgate.store.registry.StoreBackends` registry.

    ``external`` backends keep a run's graph outside its folder (a server): removing the folder
    does not remove the graph, so pruning asks the backend to :meth:`drop` it."""

    name: str
    external: bool
    # Its keyword indexes live in the run's folder and may be built there ahead of the graph
    # stage, by the process that judges the gates (``built_ahead`` says which were).
    keyword_ahead: bool

    def place(self, run: Run, settings: Settings, parent: StoreParent | None) -> StoreRecord:
        """Where ``run``'s graph will live (recorded in the manifest before anything is
        written, so a killed write is found and dropped by the next prune)."""
        ...

    def write(
        self,
        run: Run,
        record: StoreRecord,
        settings: Settings,
        tables: Mapping[str, pa.Table],
        parent: StoreParent | None,
        built_ahead: BuiltAhead,
    ) -> dict[str, int]:
        """The run's tables into the store at ``record``; the node and edge counts. With a
        ``parent`` the backend may copy the parent's graph and write the difference; a write
        that fails leaves nothing a query could open."""
        ...

    def open(self, run: Run, record: StoreRecord, settings: Settings) -> GraphStore:
        """The run's graph for reading."""
        ...

    def drop(self, records: Sequence[StoreRecord], settings: Settings) -> list[str]:
        """Remove the graphs of ``records`` that exist (an external backend's pruning); the
        names removed."""
        ...
