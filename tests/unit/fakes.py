"""Test doubles for swappable interfaces (never for the store, the model or the files)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from graphgate.embed.base import Matrix, l2_normalise


class BagOfWordsEmbedder:
    """Hashes words into a vector: texts that share words are close, as a real embedder's are."""

    model = "bag-of-words-test"
    dimension = 64

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str], max_tokens: int | None = None) -> Matrix:
        self.calls.append(list(texts))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
        return l2_normalise(out)
