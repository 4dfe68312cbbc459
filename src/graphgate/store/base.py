"""The storage interfaces. A backend stores and retrieves; ranking algorithms live in query/."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
import pyarrow as pa

SearchKind = Literal["chunk", "entity", "community"]
Hit = tuple[str, float]


class VectorIndex(Protocol):
    @property
    def dimension(self) -> int: ...

    def __len__(self) -> int: ...

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[Hit]: ...


class TextIndex(Protocol):
    def __len__(self) -> int: ...

    def search(self, query: str, k: int) -> list[Hit]: ...


class GraphStore(Protocol):
    """What every graph backend offers: the embedded one now, a server (FalkorDB) later."""

    def upsert_nodes(self, label: str, table: pa.Table) -> None: ...

    def upsert_edges(self, rel: str, table: pa.Table) -> None: ...

    def neighbours(self, ids: Sequence[str], hops: int = 1) -> list[str]: ...

    def subgraph(self, ids: Sequence[str]) -> pa.Table: ...

    def has_vector_index(self, kind: SearchKind) -> bool: ...

    def vector_search(
        self, kind: SearchKind, vector: npt.NDArray[np.float32], k: int
    ) -> list[Hit]: ...

    def text_search(self, kind: SearchKind, query: str, k: int) -> list[Hit]: ...

    def cypher(self, query: str, params: dict[str, Any] | None = None) -> pa.Table: ...

    def counts(self) -> dict[str, int]: ...

    def close(self) -> None: ...
