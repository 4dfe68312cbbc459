"""The embedded graph store: LadybugDB for the graph, usearch and bm25s beside it."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.errors import GraphgateError, QueryTimeoutError
from graphgate.core.memory import release_memory
from graphgate.core.types import GRAPH_TABLES, NODE_LABELS, REL_TYPES
from graphgate.store.base import CypherRows, Hit, SearchKind, TextIndex, VectorIndex

# Derived from the records in types.py, the one declaration of every table.
SCHEMA = [t.ddl() for t in GRAPH_TABLES]
_ENDS = {t.label: t.ends for t in GRAPH_TABLES if t.ends is not None}
_UPSERT_BATCH = 2000
# A bulk load this large (Arrow bytes) is followed by a close and a reopen (_reopen); a small
# one is not worth a checkpoint.
_REOPEN_AFTER_BYTES = 4 << 20


class LadybugGraphStore:
    """Graph in ``folder/graph.lbug``; the search indexes are attached by the caller."""

    def __init__(self, folder: Path, read_only: bool = False, cache_mb: int = 0) -> None:
        self.folder = folder
        self.read_only = read_only
        self.cache_mb = cache_mb  # the buffer pool; 0: LadybugDB's default
        self._db: Any = None
        self._conn: Any = None  # the writer's
        self._readers: list[Any] = []  # a read-only store's, one per thread that queried
        self._local = threading.local()
        self._opening = threading.Lock()
        self._vectors: dict[str, VectorIndex] = {}
        self._texts: dict[str, TextIndex] = {}
        self._empty: set[str] = set()  # tables known empty without asking (a new database)

    @property
    def path(self) -> Path:
        return self.folder / "graph.lbug"

    def connection(self) -> Any:
        """The writer's one connection; for a read-only store, each thread's own (a
        connection is not safe to share between threads; the database is, so queries run
        side by side)."""
        if not self.read_only:
            if self._conn is None:
                import ladybug

                self._conn = ladybug.Connection(self._database())
                for statement in SCHEMA:
                    self._conn.execute(statement)
            return self._conn
        found = getattr(self._local, "connection", None)
        if found is None:
            import ladybug

            with self._opening:
                found = ladybug.Connection(self._database())
                self._readers.append(found)
            self._local.connection = found
        return found

    def _database(self) -> Any:
        if self._db is None:
            import ladybug

            if self.read_only and not self.path.exists():
                raise GraphgateError(f"no graph database at {self.path}", "run `graphgate index`")
            self.folder.mkdir(parents=True, exist_ok=True)
            if not self.read_only and not self.path.exists():
                self._empty = set(NODE_LABELS) | set(REL_TYPES)
            # A writer checkpoints once, on close, instead of after every bulk COPY (a sixth
            # of writing a run's graph).
            self._db = ladybug.Database(
                str(self.path),
                read_only=self.read_only,
                auto_checkpoint=self.read_only,
                buffer_pool_size=self.cache_mb << 20,
            )
        return self._db

    def close(self) -> None:
        try:
            if self._conn is not None and not self.read_only:
                self._conn.execute("CHECKPOINT")  # the file holds everything; no log remains
        finally:
            with self._opening:
                for connection in [self._conn, *self._readers]:
                    if connection is not None:
                        connection.close()
                if self._db is not None:
                    self._db.close()
                self._conn = self._db = None
                self._readers = []
                self._local = threading.local()
        self._empty = set()

    def attach_vector_index(self, kind: SearchKind, index: VectorIndex) -> None:
        self._vectors[kind] = index

    def attach_text_index(self, kind: SearchKind, index: TextIndex) -> None:
        self._texts[kind] = index

    def _execute(self, query: str, params: dict[str, Any] | None = None) -> pa.Table:
        result = self.connection().execute(query, params or {})
        return result.get_as_arrow()

    def _is_empty(self, label: str, rel: bool = False) -> bool:
        self.connection()
        if label in self._empty:
            return True
        pattern = f"()-[x:{label}]->()" if rel else f"(x:{label})"
        table = self._execute(f"MATCH {pattern} RETURN count(*) AS n")
        return int(table.column("n")[0].as_py()) == 0

    def _copy(self, label: str, table: pa.Table) -> None:
        # COPY FROM is the bulk path: orders of magnitude faster than UNWIND batches. The Arrow
        # table is read in place, passed as a parameter: no temporary file is written.
        self.connection().execute(f"COPY {label} FROM $rows", {"rows": table})
        self._empty.discard(label)
        if table.nbytes >= _REOPEN_AFTER_BYTES and not self.read_only:
            self._reopen()

    def _reopen(self) -> None:
        """LadybugDB holds several times the bytes of a bulk load until the database closes:
        after a large one it is closed (checkpointed) and opened again on the next call, so
        the loads of a graph's tables do not stack up (``benchmarks/scale.py``'s writer)."""
        empty = set(self._empty)
        self.close()
        release_memory()
        self._empty = empty

    def upsert_nodes(self, label: str, table: pa.Table) -> None:
        if label not in NODE_LABELS:
            raise ValueError(f"unknown node label {label!r}")
        if table.num_rows == 0:
            return
        if self._is_empty(label):
            self._copy(label, table)
            return
        props = [f for f in table.schema if f.name != "id"]
        sets = ", ".join(f"n.{f.name} = {_typed('row.' + f.name, f.type)}" for f in props)
        query = f"UNWIND $rows AS row MERGE (n:{label} {{id: row.id}}) SET {sets}"
        for batch in table.to_batches(_UPSERT_BATCH):
            self.connection().execute(query, {"rows": batch.to_pylist()})

    def upsert_edges(self, rel: str, table: pa.Table) -> None:
        """``table`` starts with ``from`` and ``to`` node ids, then the edge properties."""
        if rel not in _ENDS:
            raise ValueError(f"unknown relationship type {rel!r}")
        if table.num_rows == 0:
            return
        if self._is_empty(rel, rel=True):
            self._copy(rel, table)
            return
        src, dst = _ENDS[rel]
        props = [c for c in table.column_names if c not in {"from", "to"}]
        key = "{id: row.id}" if "id" in props else ""
        types = {f.name: f.type for f in table.schema}
        sets = ", ".join(f"r.{c} = {_typed('row.' + c, types[c])}" for c in props)
        query = (
            f"UNWIND $rows AS row MATCH (a:{src} {{id: row.`from`}}), (b:{dst} {{id: row.`to`}}) "
            f"MERGE (a)-[r:{rel} {key}]->(b)" + (f" SET {sets}" if sets else "")
        )
        for batch in table.to_batches(_UPSERT_BATCH):
            self.connection().execute(query, {"rows": batch.to_pylist()})

    def neighbours(self, ids: Sequence[str], hops: int = 1) -> list[str]:
        table = self._execute(
            f"MATCH (a:Entity)-[:RELATED*1..{int(hops)}]-(b:Entity) WHERE a.id IN $ids "
            "AND NOT b.id IN $ids RETURN DISTINCT b.id AS id ORDER BY id",
            {"ids": list(ids)},
        )
        return [str(x) for x in table.column("id").to_pylist()]

    def subgraph(self, ids: Sequence[str]) -> pa.Table:
        return self._execute(
            "MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE a.id IN $ids AND b.id IN $ids "
            "RETURN r.id AS id, a.id AS source_id, r.predicate AS predicate, b.id AS target_id, "
            "r.kind AS kind, r.weight AS weight, r.chunk_ids AS chunk_ids ORDER BY id",
            {"ids": list(ids)},
        )

    def all_edges(self) -> pa.Table:
        return self._execute(
            "MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id AS source_id, "
            "b.id AS target_id, r.weight AS weight"
        )

    def has_vector_index(self, kind: SearchKind) -> bool:
        return kind in self._vectors

    def vector_search(self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        if kind not in self._vectors:
            raise GraphgateError(f"no {kind} vector index attached", "re-run `graphgate index`")
        return self._vectors[kind].search(vector, k)

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]:
        if kind not in self._texts:
            raise GraphgateError(f"no {kind} text index attached", "re-run `graphgate index`")
        return self._texts[kind].search(query, k)

    def cypher(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> pa.Table:
        """Read-only Cypher: a store opened for querying refuses writes at the database level."""
        return self._read_query(query, params, timeout_s).get_as_arrow()

    def cypher_rows(
        self, query: str, params: dict[str, Any] | None = None, timeout_s: float | None = None
    ) -> CypherRows:
        result = self._read_query(query, params, timeout_s)

        def rows() -> Iterator[list[Any]]:
            try:
                while result.has_next():
                    yield list(result.get_next())
            finally:
                result.close()

        return CypherRows([str(c) for c in result.get_column_names()], rows())

    def _read_query(
        self, query: str, params: dict[str, Any] | None, timeout_s: float | None
    ) -> Any:
        """The database's result of a read query, run within ``timeout_s``."""
        if not self.read_only:
            raise GraphgateError(
                "cypher() is for read-only stores", "open the store with read_only=True"
            )
        connection = self.connection()
        if timeout_s is None:
            return connection.execute(query, params or {})
        connection.set_query_timeout(max(1, int(timeout_s * 1000)))
        try:
            return connection.execute(query, params or {})
        except RuntimeError as exc:
            if "interrupt" in str(exc).lower() or "timeout" in str(exc).lower():
                raise QueryTimeoutError(
                    f"the query ran past {timeout_s:g} s and was stopped",
                    "narrow the MATCH or add a LIMIT (query.cypher_timeout_s sets the limit)",
                ) from None
            raise
        finally:
            connection.set_query_timeout(0)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for label in NODE_LABELS:
            t = self._execute(f"MATCH (x:{label}) RETURN count(x) AS n")
            out[label] = int(t.column("n")[0].as_py())
        for rel in REL_TYPES:
            t = self._execute(f"MATCH ()-[x:{rel}]->() RETURN count(x) AS n")
            out[rel] = int(t.column("n")[0].as_py())
        return out


def remove_store(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def _typed(value: str, kind: pa.DataType) -> str:
    """A row value in an UNWIND, cast where its Python form loses the type: rows of empty
    lists read as STRING[], which an INT64[] property refuses."""
    if pa.types.is_list(kind) and pa.types.is_integer(kind.value_type):
        return f"CAST({value} AS INT64[])"
    return value
