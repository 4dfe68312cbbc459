"""The embedder interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows; ``model`` and ``dimension`` go in the manifest."""

    @property
    def model(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str], max_tokens: int | None = None) -> Matrix: ...


def l2_normalise(matrix: Matrix) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: Matrix = (matrix / norms).astype(np.float32)
    return normalised


def mean_direction(rows: Sequence[npt.NDArray[np.float32]], dimension: int) -> Matrix:
    """Unit mean of some vectors (a zero vector when there are none)."""
    if not rows:
        return np.zeros(dimension, dtype=np.float32)
    mean: Matrix = np.mean(np.vstack(rows), axis=0).astype(np.float32)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else mean
