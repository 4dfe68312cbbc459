"""The embedder interface."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


@runtime_checkable
class HoldsMemory(Protocol):
    """An embedder that keeps memory between calls and can hand it back (the ONNX one)."""

    def release_memory(self) -> None: ...


class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows; ``model`` and ``dimension`` go in the manifest."""

    @property
    def model(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str], max_tokens: int | None = None) -> Matrix: ...


def l2_normalise(matrix: Matrix) -> Matrix:
    return l2_normalise_in_place(matrix.astype(np.float32))


# Rows of a matrix gathered or squared at once (mean_directions, l2_normalise_in_place).
_GATHER_ROWS = 8192


def l2_normalise_in_place(matrix: Matrix) -> Matrix:
    """Each row to unit length, in ``matrix`` itself (a zero row stays zero: its norm is taken
    as 1); the same values as :func:`l2_normalise`, without a copy of the matrix: a norm
    squares its rows into a temporary, so rows are taken a batch at a time."""
    for start in range(0, len(matrix), _GATHER_ROWS):
        rows = matrix[start : start + _GATHER_ROWS]
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        rows /= norms
    return matrix


def mean_directions(groups: Sequence[Sequence[int]], matrix: Matrix) -> Matrix:
    """The unit mean of each group of ``matrix`` rows (given by index; a zero vector for an
    empty group), all at once instead of a call per group (thousands per update). A row
    depends only on its group's rows, in order, so a group gets the same vector whatever the
    others are."""
    out = np.zeros((len(groups), matrix.shape[1]), dtype=np.float32)
    single = [i for i, g in enumerate(groups) if len(g) == 1]
    # Most groups (an entity seen in one chunk): the row is its own mean, copied a batch at a
    # time (gathered all at once, a second entity-sized matrix for a moment).
    for start in range(0, len(single), _GATHER_ROWS):
        batch = single[start : start + _GATHER_ROWS]
        out[batch] = matrix[[groups[i][0] for i in batch]]
    several = [i for i, g in enumerate(groups) if len(g) > 1]
    # In batches of whole groups: gathering every group's rows at once held a copy of a row
    # per mention (a name met in a thousand passages, a thousand rows).
    start = 0
    while start < len(several):
        end, taken = start, 0
        while end < len(several) and (taken < _GATHER_ROWS or end == start):
            taken += len(groups[several[end]])
            end += 1
        batch = several[start:end]
        sizes = np.array([len(groups[i]) for i in batch], dtype=np.int64)
        rows = np.fromiter(itertools.chain.from_iterable(groups[i] for i in batch), np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        sums = np.add.reduceat(matrix[rows], starts, axis=0)
        out[batch] = sums / sizes[:, None].astype(np.float32)
        start = end
    # In place: no copy of a matrix with a row per entity; an empty group's row stays zero.
    return l2_normalise_in_place(out)


class VectorRows(Mapping[str, Matrix]):
    """Vectors by id over one matrix, a row per id: no array object per vector and no
    second matrix (:attr:`matrix` and :attr:`row` are there for code that gathers rows)."""

    def __init__(self, ids: Sequence[str], matrix: Matrix) -> None:
        self.matrix = matrix
        self.row = {key: i for i, key in enumerate(ids)}

    def __getitem__(self, key: str) -> Matrix:
        vector: Matrix = self.matrix[self.row[key]]
        return vector

    def __iter__(self) -> Iterator[str]:
        return iter(self.row)

    def __len__(self) -> int:
        return len(self.row)
