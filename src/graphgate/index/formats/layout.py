"""What a document reader returns: the text, and where in it each page and section begins.

Every reader builds its text through :class:`TextBuilder`, so page and section offsets are
character offsets into exactly the text that is stored, chunked and cited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from graphgate.core.layout import SectionStart, layout_json, sections_of

T = TypeVar("T")


class FormatProblem(Exception):
    """A file a reader refuses: what is wrong with it and what to do."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(f"{problem} — {fix}")
        self.problem = problem
        self.fix = fix


@dataclass
class ParsedDocument:
    text: str
    title: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    pages: list[int] = field(default_factory=list)  # offset where page 1, 2, … begins
    sections: list[SectionStart] = field(default_factory=list)

    def layout_json(self) -> str:
        return layout_json(self.pages, self.sections)

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "title": self.title,
            "metadata": self.metadata,
            "pages": self.pages,
            "sections": [[s.start, s.path] for s in self.sections],
        }

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> ParsedDocument:
        return cls(
            text=str(row["text"]),
            title=str(row.get("title") or ""),
            metadata={str(k): str(v) for k, v in dict(row.get("metadata") or {}).items()},
            pages=[int(p) for p in row.get("pages") or []],
            sections=[
                SectionStart(int(s), [str(h) for h in p]) for s, p in row.get("sections") or []
            ],
        )


def opened(open_file: Callable[[], T], what: str, program: str) -> T:
    """``open_file()``, or the problem that names what the file is not: an Office library
    raises KeyError, ValueError, zip and XML errors alike on a broken file."""
    try:
        return open_file()
    except Exception as exc:
        raise FormatProblem(
            f"it cannot be read as {what} ({type(exc).__name__}: {str(exc)[:200]})",
            f"open and save it again in {program} or LibreOffice, or skip it",
        ) from exc


class TextBuilder:
    """Paragraphs joined by blank lines, with pages and headings recorded as they are added.

    ``limit`` bounds the text in characters: a reader that passes it stops with a problem, so
    a 2,000-page file cannot grow memory beyond ``load.max_document_bytes``."""

    def __init__(self, limit: int, what: str = "the extracted text") -> None:
        self.parts: list[str] = []
        self.length = 0
        self.limit = limit
        self.what = what
        self.pages: list[int] = []
        self.headings: list[tuple[int, int, str]] = []  # (offset, level, heading)

    def _separator(self) -> str:
        return "\n\n" if self.length else ""

    def new_page(self) -> None:
        """The next paragraph starts page ``len(pages) + 1``."""
        self.pages.append(self.length + len(self._separator()))

    def heading(self, text: str, level: int) -> None:
        """A heading of ``level`` (1 outermost) closes open sections at that level or deeper;
        its text is the first paragraph of its section."""
        if self.heading_here(text, level):
            self.paragraph(text)

    def heading_here(self, text: str, level: int) -> bool:
        """A section that starts with the next paragraph, its heading not in the text (a PDF
        outline entry the page does not print)."""
        text = " ".join(text.split())
        if not text:
            return False
        self.headings.append((self.length + len(self._separator()), level, text))
        return True

    def paragraph(self, text: str) -> None:
        text = clean_paragraph(text)
        if not text:
            return
        piece = self._separator() + text
        if self.length + len(piece) > self.limit:
            raise FormatProblem(
                f"{self.what} is over load.max_document_bytes ({self.limit:,} characters) "
                f"by page {len(self.pages) or 1}",
                "split the document, or raise GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES",
            )
        self.parts.append(piece)
        self.length += len(piece)

    def build(self, title: str = "", metadata: dict[str, str] | None = None) -> ParsedDocument:
        text = "".join(self.parts)
        # A page that ends the document with nothing on it starts past the text: drop it.
        pages = self.pages if self.pages else []
        while len(pages) > 1 and pages[-1] >= len(text):
            pages = pages[:-1]
        return ParsedDocument(text, title, metadata or {}, list(pages), sections_of(self.headings))


_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b]+")
_BLANKS = re.compile(r"\n\s*\n+")


def clean_paragraph(text: str) -> str:
    """Runs of spaces made one, blank lines inside a paragraph made one break, NULs removed
    (they cannot be stored), ends trimmed."""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    text = _SPACES.sub(" ", text)
    text = _BLANKS.sub("\n", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip()


def table_lines(rows: list[list[str]]) -> list[str]:
    """A table as one line per row, each cell after its column's header ("Name: Bob; Role:
    clerk"), so that a cell found by search still says what it is. The first row with any
    text is the header; a cell under an empty header is named by its column number."""
    cleaned = [[" ".join(str(c).split()) for c in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    if not cleaned:
        return []
    header, body = cleaned[0], cleaned[1:]
    if not body:
        return ["; ".join(c for c in header if c)]
    lines = []
    for row in body:
        cells = []
        for i, cell in enumerate(row):
            if not cell:
                continue
            name = header[i] if i < len(header) and header[i] else f"column {i + 1}"
            cells.append(f"{name}: {cell}")
        if cells:
            lines.append("; ".join(cells))
    return lines
