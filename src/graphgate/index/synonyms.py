"""Synonym edges for the walk: entities whose name vectors are near, when they can corefer.

"NYC" and "New York City", "U.S." and "United States" are one thing the resolver kept apart;
joined by an edge, a walk that reaches one reaches the other. Near vectors are not enough:
names that share some words and differ in others are mostly different things of one kind
("World Wrestling Federation", "National Wrestling Federation"; "John Smith", "Jane Smith"),
and so are names that differ by a word of direction or age ("Virginia", "West Virginia"), two
acronyms ("WB", "WBL"), or two people without a word in common. Only entities of one kind are
compared (places with places: the small parser calls a city a GPE in one sentence and a LOC in
another), never dates, numbers or amounts ("1990" and "1991" embed alike).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from graphgate.core.text import normalise_name

# Kinds whose names are values, not things with other names.
_VALUES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
# Types that name the same kind of thing under the small parser's two readings.
_PLACES = {"GPE", "LOC", "FAC"}
_PERSON = "PERSON"
# Words that make a longer name another place or thing than the shorter one it contains.
_MODIFIERS = {
    "north",
    "south",
    "east",
    "west",
    "northern",
    "southern",
    "eastern",
    "western",
    "new",
    "old",
    "upper",
    "lower",
    "greater",
    "little",
    "central",
}
_ACRONYM = re.compile(r"^[A-Z&]{2,6}$")
# Name pairs compared per block, so a large kind never builds one huge matrix.
_BLOCK = 2048


@dataclass(frozen=True)
class SynonymEdge:
    a: str  # entity ids, a < b
    b: str
    cosine: float


def _kind(entity_type: str) -> str | None:
    if entity_type in _VALUES:
        return None
    return "PLACE" if entity_type in _PLACES else entity_type


def can_corefer(kind: str, x: str, y: str) -> bool:
    """Whether two names of one kind may name one thing, by their words alone."""
    wx, wy = set(normalise_name(x).split()), set(normalise_name(y).split())
    if not wx or not wy:
        return False
    if wx == wy:
        return True
    if (
        len(wx) == len(wy) == 1
        and _ACRONYM.match(x.replace(".", ""))
        and _ACRONYM.match(y.replace(".", ""))
    ):
        return False
    if not wx & wy:
        return kind != _PERSON
    smaller, larger = (wx, wy) if len(wx) <= len(wy) else (wy, wx)
    return smaller <= larger and not (larger - smaller) & _MODIFIERS


def synonym_edges(
    ids: Sequence[str],
    names: Sequence[str],
    types: Sequence[str],
    vectors: npt.NDArray[np.float32],
    min_cosine: float,
) -> list[SynonymEdge]:
    """Pairs of entities (rows of ``vectors``, unit length) of one kind whose names' cosine is
    at least ``min_cosine``; sorted, so the same index gives the same edges."""
    groups: dict[str, list[int]] = {}
    for row, entity_type in enumerate(types):
        kind = _kind(entity_type)
        if kind is not None:
            groups.setdefault(kind, []).append(row)
    out: list[SynonymEdge] = []
    for kind, rows in groups.items():
        if len(rows) < 2:
            continue
        matrix = vectors[rows]
        for start in range(0, len(rows), _BLOCK):
            block = matrix[start : start + _BLOCK] @ matrix.T
            for i, j in zip(*np.nonzero(block >= min_cosine), strict=True):
                x, y = rows[start + int(i)], rows[int(j)]
                if start + i >= j:
                    continue
                if not can_corefer(kind, names[x], names[y]):
                    continue
                a, b = sorted((ids[x], ids[y]))
                out.append(SynonymEdge(a, b, round(float(block[i, j]), 6)))
    out.sort(key=lambda e: (e.a, e.b))
    return out


def synonyms_table(edges: Sequence[SynonymEdge]) -> pa.Table:
    """The ``entity_synonyms`` artifact: one row per edge (ids ``a`` < ``b``, their cosine)."""
    return pa.table(
        {
            "a": pa.array([e.a for e in edges], pa.string()),
            "b": pa.array([e.b for e in edges], pa.string()),
            "cosine": pa.array([e.cosine for e in edges], pa.float32()),
        }
    )
