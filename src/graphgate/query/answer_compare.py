"""Which way a comparison of two named options wins: by when (older, first) or by how much
(larger, more), and whether the least value wins ("Who was older, X or Y?")."""

from __future__ import annotations

import re
from typing import Literal

# Comparisons of two named options by a date or an amount: which way wins.
_EARLIER = re.compile(
    r"\b(old|older|oldest|first|earlier|earliest|before|elder|eldest|longer ago)\b", re.I
)
_LATER = re.compile(r"\b(young|younger|youngest|later|latest|last|newer|newest|recent)\b", re.I)
_MORE = re.compile(
    r"\b(more|most|larger|largest|bigger|biggest|higher|highest|taller|tallest|longer|longest|"
    r"greater|greatest|heavier|wider|deeper)\b",
    re.I,
)
_LESS = re.compile(
    r"\b(less|least|fewer|fewest|smaller|smallest|lower|lowest|shorter|shortest|lighter)\b", re.I
)


def comparison(text: str) -> tuple[Literal["date", "number"] | None, bool]:
    """Options compared by when (older, first) or how much (larger, more): by which value,
    and whether the least value wins."""
    if _EARLIER.search(text):
        return "date", True
    if _LATER.search(text):
        return "date", False
    if _LESS.search(text):
        return "number", True
    if _MORE.search(text):
        return "number", False
    return None, False
