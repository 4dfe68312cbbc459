"""Stage *chunk*: token windows with overlap that prefer to end at a sentence boundary and
never run across a section boundary."""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Sequence

from graphgate.core.config import ChunkSettings
from graphgate.core.dates import document_date
from graphgate.core.layout import Layout, SectionStart, parse_layout
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
    """Windows within each section (a section shorter than ``chunk.section_min_tokens`` joins
    the next), each knowing its page, the pages that begin inside it, and its heading path."""
    spans = tokenize_spans(doc.text)
    if not spans:
        return []
    dated = document_date(json.loads(doc.metadata_json or "{}"))
    day = dated.iso if dated is not None else None
    layout = parse_layout(doc.layout_json)
    chunks: list[Chunk] = []
    for first, last in _segments(spans, layout.sections, settings.section_min_tokens):
        for begin, end in _windows(doc.text, spans, first, last, settings):
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
                    page=layout.page_at(start_char) or 0,
                    page_breaks=[p for p in layout.pages if start_char < p < end_char],
                    section=_heading_path(layout, start_char, end_char),
                )
            )
    return chunks


def _windows(
    text: str, spans: list[tuple[int, int]], first: int, last: int, settings: ChunkSettings
) -> list[tuple[int, int]]:
    """Token windows [begin, end) over spans[first:last], with overlap, each preferring to end
    at a sentence end or a paragraph break."""
    size = settings.size_tokens
    overlap = min(settings.overlap_tokens, size // 2)
    out: list[tuple[int, int]] = []
    begin = first
    while begin < last:
        end = min(begin + size, last)
        if end < last:
            end = _sentence_cut(text, spans, begin, end, floor=begin + (size * 3) // 4)
        out.append((begin, end))
        if end >= last:
            break
        begin = max(end - overlap, begin + 1)
    return out


def _segments(
    spans: list[tuple[int, int]], sections: list[SectionStart], min_tokens: int
) -> list[tuple[int, int]]:
    """Token ranges no window crosses: one per section, a section (or the text before the
    first) shorter than ``min_tokens`` joined to the next, the last to the one before."""
    cuts = sorted({bisect.bisect_left(spans, (s.start, -1)) for s in sections} - {0})
    bounds = [0, *(c for c in cuts if c < len(spans)), len(spans)]
    segments: list[tuple[int, int]] = []
    begin = 0
    for end in bounds[1:]:
        if end - begin >= min_tokens:
            segments.append((begin, end))
            begin = end
    if begin < len(spans):
        if segments:
            segments[-1] = (segments[-1][0], len(spans))
        else:
            segments.append((begin, len(spans)))
    return segments


def _heading_path(layout: Layout, start: int, end: int) -> list[str]:
    """The headings every part of [start, end) lies under: the path of the section it starts
    in, cut to what it shares with each section that begins inside it."""
    path = layout.section_at(start)
    for section in layout.sections:
        if start < section.start < end:
            shared = 0
            while shared < min(len(path), len(section.path)) and (
                path[shared] == section.path[shared]
            ):
                shared += 1
            path = path[:shared]
    return path


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
