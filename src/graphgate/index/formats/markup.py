"""HTML and Markdown as text with sections: the headings (h1–h6, ``#`` lines) become section
paths at their offsets in the text that is stored, so citations can name the section."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from graphgate.core.layout import SectionStart, sections_of

# <meta name|property|itemprop=...> values kept as document metadata, by the key they fill.
_META = {
    "date": "date",
    "dc.date": "date",
    "dcterms.date": "date",
    "article:published_time": "date",
    "pubdate": "date",
    "publishdate": "date",
    "publish-date": "date",
    "datepublished": "date",
    "author": "author",
    "article:author": "author",
    "dc.creator": "author",
    "og:site_name": "source",
}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}


class _TextExtractor(HTMLParser):
    _SKIP = frozenset({"script", "style", "head", "title"})
    _BREAKS = frozenset({"p", "br", "div", "li", "tr", "section", "article", *_HEADINGS})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self.metadata: dict[str, str] = {}
        self.headings: list[tuple[int, str]] = []
        self._stack: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            values = {k.lower(): (v or "") for k, v in attrs}
            name = values.get("name") or values.get("property") or values.get("itemprop") or ""
            key = _META.get(name.lower())
            if key and values.get("content", "").strip() and key not in self.metadata:
                self.metadata[key] = values["content"].strip()
            return  # a void element: nothing nests in it
        self._stack.append(tag)
        if tag in self._BREAKS:
            self.parts.append("\n\n" if tag in _HEADINGS or tag == "p" else "\n")
        if tag in _HEADINGS:
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _HEADINGS and self._heading is not None:
            self.headings.append((_HEADINGS[tag], " ".join("".join(self._heading).split())))
            self._heading = None
            self.parts.append("\n\n")
        if tag in self._stack:
            while self._stack and self._stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if "title" in self._stack and not self.title:
            self.title = data.strip()
        if not any(t in self._SKIP for t in self._stack):
            self.parts.append(data)
            if self._heading is not None:
                self._heading.append(data)


def html_to_text(markup: str) -> tuple[str, str, dict[str, str]]:
    """(title, text, metadata) of an HTML page, scripts and styles removed; metadata from its
    <meta> date, author and site name."""
    title, text, metadata, _ = html_document(markup)
    return title, text, metadata


def html_document(markup: str) -> tuple[str, str, dict[str, str], list[SectionStart]]:
    """:func:`html_to_text` and the page's sections (from its h1–h6)."""
    parser = _TextExtractor()
    parser.feed(markup)
    text = html.unescape("".join(parser.parts))
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"[ \t]*\n[ \t]*", "\n", text)
    text = re.sub(r"\n\n+", "\n\n", text).strip()
    return parser.title, text, parser.metadata, locate_headings(text, parser.headings)


def locate_headings(text: str, headings: list[tuple[int, str]]) -> list[SectionStart]:
    """Sections of ``text`` from its headings in reading order, each found after the one
    before (a heading the text does not hold is left out)."""
    found: list[tuple[int, int, str]] = []
    at = 0
    for level, heading in headings:
        if not heading:
            continue
        pattern = r"\s+".join(re.escape(word) for word in heading.split())
        match = re.compile(pattern).search(text, at)
        if match is None:
            continue
        found.append((match.start(), level, heading))
        at = match.end()
    return sections_of(found)


_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_FRONT_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """(metadata, body) of a Markdown file: the ``key: value`` lines of a leading ``---`` block
    (scalars only; quotes removed), and the text after it."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    metadata: dict[str, str] = {}
    for line in match.group(1).splitlines():
        found = _FRONT_LINE.match(line)
        if found and found.group(2):
            metadata[found.group(1).lower()] = found.group(2).strip("\"'")
    return metadata, text[match.end() :]


def markdown_sections(text: str) -> list[SectionStart]:
    """Sections of a Markdown text from its ``#`` headings, outside fenced code blocks; the
    heading path drops the ``#`` marks and emphasis."""
    headings: list[tuple[int, int, str]] = []
    fenced = False
    offset = 0
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _ATX.match(line.rstrip("\r\n"))):
            title = re.sub(r"[*_`]+", "", match.group(2)).strip()
            if title:
                headings.append((offset + match.start(1), len(match.group(1)), title))
        offset += len(line)
    return sections_of(headings)
