"""Nearest-neighbour search: exact numpy below a size, usearch (HNSW, memory-mapped) above it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from graphgate.core.errors import EmbeddingMismatchError, GraphgateError
from graphgate.embed.base import Matrix
from graphgate.store.base import Hit


class ExactVectorIndex:
    def __init__(self, ids: Sequence[str], matrix: Matrix) -> None:
        self.ids = list(ids)
        self.matrix = matrix

    @property
    def dimension(self) -> int:
        return int(self.matrix.shape[1]) if self.matrix.ndim == 2 else 0

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        _check_dimension(vector, self.dimension)
        if not self.ids:
            return []
        scores = self.matrix @ vector.astype(np.float32)
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]
        return [(self.ids[i], float(scores[i])) for i in top]


class UsearchVectorIndex:
    def __init__(self, ids: Sequence[str], index: Any, dimension: int) -> None:
        self.ids = list(ids)
        self.index = index
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        return self._dimension

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, vector: npt.NDArray[np.float32], k: int) -> list[Hit]:
        _check_dimension(vector, self.dimension)
        matches = self.index.search(vector.astype(np.float32), min(k, len(self.ids)))
        return [
            (self.ids[int(key)], 1.0 - float(d))
            for key, d in zip(matches.keys, matches.distances, strict=True)
        ]


def _check_dimension(vector: npt.NDArray[np.float32], dimension: int) -> None:
    if vector.shape[-1] != dimension:
        raise EmbeddingMismatchError(
            f"query vector has dimension {vector.shape[-1]}, the index holds {dimension}",
            "use the embedding model the index was built with, or re-index",
        )


def build_vector_index(
    ids: Sequence[str], matrix: Matrix, folder: Path, exact_below: int
) -> ExactVectorIndex | UsearchVectorIndex:
    """Persist the index in ``folder`` (rebuilt from artifacts whenever that folder is missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ids.json").write_text(json.dumps(list(ids)))
    dim = int(matrix.shape[1]) if matrix.ndim == 2 else 0
    if len(ids) < exact_below:
        np.save(folder / "vectors.npy", matrix)
        (folder / "kind.txt").write_text("exact")
        return ExactVectorIndex(ids, matrix)
    from usearch.index import Index

    index = Index(ndim=dim, metric="cos", dtype="f32")
    index.add(np.arange(len(ids), dtype=np.uint64), matrix)
    index.save(str(folder / "index.usearch"))
    (folder / "kind.txt").write_text("usearch")
    return UsearchVectorIndex(ids, index, dim)


def open_vector_index(folder: Path) -> ExactVectorIndex | UsearchVectorIndex:
    ids = json.loads((folder / "ids.json").read_text())
    if (folder / "kind.txt").read_text() == "exact":
        return ExactVectorIndex(ids, np.load(folder / "vectors.npy"))
    from usearch.index import Index

    index = Index.restore(str(folder / "index.usearch"), view=True)
    if index is None:
        raise GraphgateError(f"cannot open {folder / 'index.usearch'}", "delete it to rebuild")
    return UsearchVectorIndex(ids, index, int(index.ndim))
