"""PDF, Word, PowerPoint, Excel and CSV read with their pages, sections and tables, from files
LibreOffice made (tests/data/build_documents.py)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from graphgate.core.config import ChunkSettings, LoadSettings
from graphgate.core.layout import parse_layout
from graphgate.core.types import Document
from graphgate.index.chunk import chunk_document
from graphgate.index.formats.layout import table_lines
from graphgate.index.formats.markup import html_document, markdown_sections
from graphgate.index.formats.pdf import pdf_date
from graphgate.index.load import CorpusLoader
from tests.pdf_pages import pdf_page_texts

DOCUMENTS = Path(__file__).resolve().parents[1] / "data" / "documents"
STAVES = [
    "Stave One: Marley's Ghost",
    "Stave Two: The First Of The Three Spirits",
    "Stave Three: The Second Of The Three Spirits",
    "Stave Four: The Last Of The Spirits",
    "Stave Five: The End Of It",
]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def loaded() -> dict[str, Document]:
    result = CorpusLoader(LoadSettings()).load(DOCUMENTS)
    assert result.problems == []
    return {d.id: d for d in result.documents}


def test_every_format_in_the_folder_is_read_with_its_title_and_author(
    loaded: dict[str, Document],
) -> None:
    assert set(loaded) == {
        "carol.pdf",
        "carol.docx",
        "staves.pptx",
        "characters.xlsx",
        "characters.csv",
    }
    for name in ("carol.pdf", "carol.docx"):
        doc = loaded[name]
        assert doc.title == "A Christmas Carol"
        assert json.loads(doc.metadata_json)["author"] == "Charles Dickens"
        assert "Marley was dead, to begin with." in squash(doc.text)
        assert "Bob Cratchit" in doc.text and "God bless Us, Every One!" in squash(doc.text)
    assert loaded["staves.pptx"].title == "A Christmas Carol in five staves"


def test_pdf_dates_become_metadata_the_time_features_read(loaded: dict[str, Document]) -> None:
    created = json.loads(loaded["carol.pdf"].metadata_json)["created"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00", created)
    chunks = chunk_document(loaded["carol.pdf"], ChunkSettings())
    assert chunks[0].date == created[:10]  # dates.document_date reads "created"
    assert pdf_date("D:20230926052605+02'00'") == "2023-09-26T05:26:05+02:00"
    assert pdf_date("D:202309") == "2023-09"
    assert pdf_date("D:20231301") is None and pdf_date("yesterday") is None


def test_pdf_pages_are_the_pages_the_text_is_on(loaded: dict[str, Document]) -> None:
    doc = loaded["carol.pdf"]
    pages = parse_layout(doc.layout_json).pages
    truth = pdf_page_texts(DOCUMENTS / "carol.pdf")
    assert len(pages) == len(truth) > 40
    assert pages == sorted(pages) and pages[0] == 0
    bounds = [*pages, len(doc.text)]
    for number in range(len(pages)):
        ours = squash(doc.text[bounds[number] : bounds[number + 1]])
        words = ours.split()
        # The first and last dozen words of our page N are on pdfium's page N.
        assert " ".join(words[:12]) in truth[number], number
        assert " ".join(words[-12:]) in truth[number], number


def test_pdf_and_word_sections_come_from_the_outline_and_the_headings(
    loaded: dict[str, Document],
) -> None:
    for name in ("carol.pdf", "carol.docx"):
        doc = loaded[name]
        sections = parse_layout(doc.layout_json).sections
        paths = [s.path for s in sections]
        assert paths == [
            ["A Christmas Carol"],
            ["A Christmas Carol", "Characters"],
            *[["A Christmas Carol", stave] for stave in STAVES],
        ], name
        for section in sections:  # each section starts at its heading, in the stored text
            assert squash(doc.text[section.start :]).startswith(section.path[-1])


def test_a_word_table_becomes_rows_that_keep_their_header(loaded: dict[str, Document]) -> None:
    text = loaded["carol.docx"].text
    assert "Name: Bob Cratchit; Description: clerk to Ebenezer Scrooge" in text
    assert "Name: Fan; Description: the sister of Scrooge" in text
    for name in ("characters.xlsx", "characters.csv"):
        rows = loaded[name].text
        assert "Name: Mrs. Dilber; Description: a laundress" in rows, name
    sections = parse_layout(loaded["characters.xlsx"].layout_json).sections
    assert [s.path for s in sections] == [["characters"]]  # the sheet


def test_slides_are_pages_and_their_titles_sections(loaded: dict[str, Document]) -> None:
    doc = loaded["staves.pptx"]
    layout = parse_layout(doc.layout_json)
    pages, sections = layout.pages, layout.sections
    assert len(pages) == 5
    assert [s.path for s in sections] == [[stave] for stave in STAVES]
    assert [s.start for s in sections] == pages
    assert "Marley was dead, to begin with." in doc.text  # body
    chunks = chunk_document(doc, ChunkSettings(size_tokens=400))
    assert [c.page for c in chunks] == [1, 2, 3, 4, 5]  # no chunk runs across a slide's section


def test_chunks_keep_to_their_section_and_know_their_page(loaded: dict[str, Document]) -> None:
    doc = loaded["carol.pdf"]
    layout = parse_layout(doc.layout_json)
    pages, sections = layout.pages, layout.sections
    chunks = chunk_document(doc, ChunkSettings())
    starts = [s.start for s in sections]
    for chunk in chunks:
        for start in (s for s in starts if chunk.start < s < chunk.end):
            before = max(s for s in [0, *starts] if s < start)
            joined = min(
                _tokens(doc.text, before, start, starts), _tokens(doc.text, start, None, starts)
            )
            assert joined < 50, "a chunk runs from one long section into another"
        assert chunk.page == sum(1 for p in pages if p <= chunk.start)
        assert chunk.page_breaks == [p for p in pages if chunk.start < p < chunk.end]
    for stave in STAVES:  # each stave is long: its first chunk starts at its heading
        start = next(s.start for s in sections if s.path[-1] == stave)
        first = next(c for c in chunks if c.section[-1:] == [stave])
        assert first.start == start and first.text.startswith(stave)
    assert chunks[0].section == ["A Christmas Carol"]  # title + "Characters" joined: common path


def _tokens(text: str, start: int, end: int | None, starts: list[int]) -> int:
    """Tokens from ``start`` to ``end`` (None: to the next section start or the end)."""
    if end is None:
        later = [s for s in starts if s > start]
        end = later[0] if later else len(text)
    return len(re.findall(r"\w+|[^\w\s]", text[start:end]))


def test_markdown_and_html_headings_are_sections() -> None:
    text = "# Guide\n\nIntro.\n\n## Install\n\npip.\n\n```\n# not a heading\n```\n\n## Use\n\nRun."
    sections = markdown_sections(text)
    assert [s.path for s in sections] == [["Guide"], ["Guide", "Install"], ["Guide", "Use"]]
    assert [text[s.start :].split("\n")[0] for s in sections] == ["# Guide", "## Install", "## Use"]
    title, body, _, html_sections = html_document(
        "<title>T</title><h1>People</h1><p>Bob is a clerk.</p><h2>Family &amp; friends</h2>"
        "<p>Tim.</p><h1>Places</h1><p>London.</p>"
    )
    assert title == "T"
    assert [s.path for s in html_sections] == [
        ["People"],
        ["People", "Family & friends"],
        ["Places"],
    ]
    assert body[html_sections[1].start :].startswith("Family & friends")


def test_table_lines_name_each_cell_by_its_header() -> None:
    assert table_lines([["Name", "Role", ""], ["Bob", "clerk", "x"], ["", "", ""]]) == [
        "Name: Bob; Role: clerk; column 3: x"
    ]
    assert table_lines([["only", "a header"]]) == ["only; a header"]
    assert table_lines([]) == []


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_a_fresh_libreoffice_build_reads_like_the_checked_in_files(
    tmp_path: Path, loaded: dict[str, Document]
) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_documents", DOCUMENTS.parent / "build_documents.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path / "fresh")
    fresh = {d.id: d for d in CorpusLoader(LoadSettings()).load(tmp_path / "fresh").documents}
    assert set(fresh) == set(loaded)
    for name, doc in fresh.items():
        fresh_sections = parse_layout(doc.layout_json).sections
        assert fresh_sections == parse_layout(loaded[name].layout_json).sections, name
        assert squash(doc.text) == squash(loaded[name].text), name
