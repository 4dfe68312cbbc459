"""Synonym edges (index/synonyms.py): near name vectors joined only where the names may
corefer, with the embedder graphgate ships."""

from __future__ import annotations

import numpy as np
import pytest

from graphgate.core.config import EmbedSettings
from graphgate.embed.onnx_minilm import OnnxMiniLMEmbedder
from graphgate.index.synonyms import can_corefer, synonym_edges, synonyms_table


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(EmbedSettings())


@pytest.mark.parametrize(
    ("kind", "x", "y"),
    [
        ("PLACE", "NYC", "New York City"),
        ("PLACE", "New York City", "New York"),
        ("PLACE", "U.S.", "United States"),
        ("PLACE", "United Kingdom", "Britain"),
        ("PERSON", "Barack Obama", "Obama"),
        ("ORG", "Senate", "United States Senate"),
    ],
)
def test_names_that_may_name_one_thing(kind: str, x: str, y: str) -> None:
    assert can_corefer(kind, x, y) and can_corefer(kind, y, x)


@pytest.mark.parametrize(
    ("kind", "x", "y"),
    [
        ("PERSON", "John Smith", "Jane Smith"),  # a shared surname
        ("PERSON", "Mary Jones", "Robert Jones"),
        ("PERSON", "Bob", "Robert"),  # people need a word in common
        ("PLACE", "Virginia", "West Virginia"),  # a word of direction makes another place
        ("PLACE", "York", "New York"),
        ("ORG", "World Wrestling Federation", "National Wrestling Federation"),
        ("ORG", "WB", "WBL"),  # two acronyms
    ],
)
def test_names_that_name_different_things(kind: str, x: str, y: str) -> None:
    assert not can_corefer(kind, x, y) and not can_corefer(kind, y, x)


def test_near_names_are_joined_within_a_kind_and_never_across(
    embedder: OnnxMiniLMEmbedder,
) -> None:
    rows = [
        ("e1", "NYC", "GPE"),
        ("e2", "New York City", "LOC"),  # the parser's other reading of a place
        ("e3", "John Smith", "PERSON"),
        ("e4", "Jane Smith", "PERSON"),
        ("e5", "Smith", "PERSON"),
        ("e6", "1990", "DATE"),
        ("e7", "1991", "DATE"),
        ("e8", "New York City", "ORG"),  # a team named after the city is not the city
    ]
    ids, names, types = (list(column) for column in zip(*rows, strict=True))
    vectors = embedder.embed(names)
    edges = synonym_edges(ids, names, types, vectors, 0.8)
    pairs = {(e.a, e.b) for e in edges}
    assert ("e1", "e2") in pairs
    assert ("e3", "e4") not in pairs  # two people who share a surname
    assert ("e6", "e7") not in pairs  # values are never synonyms
    assert not {p for p in pairs if "e8" in p and ("e1" in p or "e2" in p)}  # across kinds
    assert all(e.a < e.b and 0.8 <= e.cosine <= 1.0 + 1e-6 for e in edges)
    # The same vectors give the same edges, in the same order.
    assert synonym_edges(ids, names, types, vectors.copy(), 0.8) == edges
    table = synonyms_table(edges)
    assert table.column_names == ["a", "b", "cosine"] and table.num_rows == len(edges)


def test_a_threshold_above_one_joins_nothing() -> None:
    vectors = np.eye(2, dtype=np.float32)[[0, 0]]
    assert synonym_edges(["a", "b"], ["NYC", "NYC"], ["GPE", "GPE"], vectors, 1.01) == []
