from __future__ import annotations

import itertools

from graphgate.core.config import ChunkSettings
from graphgate.core.types import Document
from graphgate.index.chunk import chunk_document, tokenize_spans


def _doc(text: str) -> Document:
    return Document("d1", "t", text, "h", 1, len(text), "d1")


TEXT = " ".join(f"Sentence number {i} talks about topic {i % 7}." for i in range(200))


def test_offsets_point_into_the_document() -> None:
    doc = _doc(TEXT)
    chunks = chunk_document(doc, ChunkSettings(size_tokens=50, overlap_tokens=10))
    assert len(chunks) > 5
    for c in chunks:
        assert doc.text[c.start : c.end] == c.text
        assert c.n_tokens <= 50
    assert chunks[0].start == 0 and chunks[-1].end == len(doc.text)
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_consecutive_chunks_overlap_and_cover_everything() -> None:
    chunks = chunk_document(_doc(TEXT), ChunkSettings(size_tokens=50, overlap_tokens=10))
    for a, b in itertools.pairwise(chunks):
        assert b.start < a.end  # overlap
        assert b.start > a.start
    covered = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    spans = tokenize_spans(TEXT)
    assert all(s in covered for s, _ in spans)


def test_chunks_prefer_to_end_at_a_sentence_boundary() -> None:
    chunks = chunk_document(_doc(TEXT), ChunkSettings(size_tokens=50, overlap_tokens=0))
    assert all(c.text.endswith(".") for c in chunks)


def test_ids_are_stable_and_distinct() -> None:
    a = chunk_document(_doc(TEXT), ChunkSettings(size_tokens=40, overlap_tokens=5))
    b = chunk_document(_doc(TEXT), ChunkSettings(size_tokens=40, overlap_tokens=5))
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == len(a)
    c = chunk_document(_doc(TEXT), ChunkSettings(size_tokens=60, overlap_tokens=5))
    assert a[1].id != c[1].id


def test_short_and_blank_documents() -> None:
    assert chunk_document(_doc("   "), ChunkSettings()) == []
    one = chunk_document(_doc("Just one line"), ChunkSettings())
    assert len(one) == 1 and one[0].text == "Just one line"
