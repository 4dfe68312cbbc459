"""Where a document's pages and sections begin in its stored text (``Document.layout_json``):
what chunks, citations and the web page read to say "report.pdf p. 3 — Section 3: People"."""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass

from graphgate.core.errors import InputError


@dataclass(frozen=True)
class SectionStart:
    start: int  # character offset of the heading in the text
    path: list[str]  # the headings from the outermost down to this one


@dataclass(frozen=True)
class Layout:
    pages: list[int]  # offset where page 1, 2, … begins; empty where the format has no pages
    sections: list[SectionStart]

    def page_at(self, offset: int) -> int | None:
        """The 1-based page holding ``offset``; None without pages."""
        return bisect.bisect_right(self.pages, offset) if self.pages else None

    def section_at(self, offset: int) -> list[str]:
        """The heading path of the section holding ``offset`` ([] before the first)."""
        at = bisect.bisect_right([s.start for s in self.sections], offset) - 1
        return list(self.sections[at].path) if at >= 0 else []


def parse_layout(layout_json: str) -> Layout:
    """A Document's ``layout_json``; no pages and no sections when it has none."""
    try:
        layout = json.loads(layout_json or "{}")
    except json.JSONDecodeError as exc:
        raise InputError(f"unreadable document layout ({exc.msg})", "re-index the corpus") from exc
    pages = [int(p) for p in layout.get("pages") or []]
    sections = [SectionStart(int(s), [str(h) for h in p]) for s, p in layout.get("sections") or []]
    return Layout(pages, sections)


def layout_json(pages: list[int], sections: list[SectionStart]) -> str:
    """What :func:`parse_layout` reads ("{}" for a text without pages or sections)."""
    layout: dict[str, object] = {}
    if pages:
        layout["pages"] = pages
    if sections:
        layout["sections"] = [[s.start, s.path] for s in sections]
    return json.dumps(layout, ensure_ascii=False, sort_keys=True)


def sections_of(headings: list[tuple[int, int, str]]) -> list[SectionStart]:
    """Sections from (offset, level, heading) in reading order: a heading closes the open ones
    at its level or deeper; of two at one offset (an outline entry over a printed heading) the
    later names the section."""
    sections: list[SectionStart] = []
    open_: list[tuple[int, str]] = []
    for start, level, heading in headings:
        while open_ and open_[-1][0] >= level:
            open_.pop()
        open_.append((level, heading))
        if sections and sections[-1].start == start:
            sections.pop()
        sections.append(SectionStart(start, [h for _, h in open_]))
    return sections
