"""Stage *chunk*: token windows with overlap that prefer to end at a sentence boundary."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

from graphgate.core.config import ChunkSettings
from graphgate.core.dates import document_date
from graphgate.core.types import Chunk, Document

_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]", re.UNICODE)
_SENTENCE_END = {".", "!", "?"}


def tokenize_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of word and punctuation tokens."""
    return [m.span() for m in _TOKEN.finditer(text)]


def chunk_id(doc_id: str, start: int, end: int) -> str:
    digest = hashlib.sha256(f"{doc_id}\x1f{start}\x1f{end}".encode()).hexdigest()
    return "c_" + digest[:16]


def chunk_document(doc: Document, settings: ChunkSettings) -> list[Chunk]:
    spans = tokenize_spans(doc.text)
    if not spans:
        return []
    dated = document_date(json.loads(doc.metadata_json or "{}"))
    day = dated.iso if dated is not None else None
    size = settings.size_tokens
    overlap = min(settings.overlap_tokens, size // 2)
    chunks: list[Chunk] = []
    begin = 0
    while begin < len(spans):
        end = min(begin + size, len(spans))
        if end < len(spans):
            end = _sentence_cut(doc.text, spans, begin, end, floor=begin + (size * 3) // 4)
        start_char, end_char = spans[begin][0], spans[end - 1][1]
        chunks.append(
            Chunk(
                id=chunk_id(doc.id, start_char, end_char),
                doc_id=doc.id,
                index=len(chunks),
                text=doc.text[start_char:end_char],
                start=start_char,
                end=end_char,
                n_tokens=end - begin,
                date=day,
            )
        )
        if end >= len(spans):
            break
        begin = max(end - overlap, begin + 1)
    return chunks


def _sentence_cut(text: str, spans: list[tuple[int, int]], begin: int, end: int, floor: int) -> int:
    """Pull ``end`` back to just after the last sentence end or paragraph break past ``floor``."""
    for i in range(end - 1, max(floor, begin + 1) - 1, -1):
        token = text[spans[i][0] : spans[i][1]]
        if token in _SENTENCE_END:
            return i + 1
        if i + 1 < len(spans) and "\n\n" in text[spans[i][1] : spans[i + 1][0]]:
            return i + 1
    return end


def chunk_documents(docs: Sequence[Document], settings: ChunkSettings) -> list[Chunk]:
    return [c for doc in docs for c in chunk_document(doc, settings)]
