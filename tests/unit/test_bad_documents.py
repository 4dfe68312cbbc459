"""Hostile and broken documents: each is named with its fix and skipped (or stops the run with
on_error=fail), none hangs the loader or grows its memory past the bounds."""

from __future__ import annotations

import io
import shutil
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from graphgate.core.config import LoadSettings
from graphgate.core.errors import InputError
from graphgate.index.load import CorpusLoader, LoadResult

DOCUMENTS = Path(__file__).resolve().parents[1] / "data" / "documents"
CAROL_PDF = DOCUMENTS / "carol.pdf"
CAROL_DOCX = DOCUMENTS / "carol.docx"


def load_one(folder: Path, path: Path, **settings: object) -> LoadResult:
    """``path`` beside a good text file, so the load succeeds and reports the bad one."""
    (folder / "good.txt").write_text("Bob Cratchit is the clerk of Ebenezer Scrooge.")
    return CorpusLoader(LoadSettings(**settings)).load(folder)  # type: ignore[arg-type]


def only_problem(result: LoadResult) -> str:
    assert [d.id for d in result.documents] == ["good.txt"]
    assert len(result.problems) == 1
    return result.problems[0].message()


def one_page_pdf(pages: int = 1, repeat_content: int = 1) -> bytes:
    """Page 2 of the demo novel's PDF, ``pages`` times, its content stream repeated."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject

    writer = PdfWriter()
    source = PdfReader(CAROL_PDF).pages[1]
    first = writer.add_page(source)
    if repeat_content > 1:
        stream = DecodedStreamObject()
        stream.set_data(first.get_contents().get_data() * repeat_content)
        first.replace_contents(stream)
        first.compress_content_streams()
    for _ in range(pages - 1):
        writer.add_page(first)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_a_password_protected_pdf_names_the_password(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(CAROL_PDF))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-256")
    with (tmp_path / "locked.pdf").open("wb") as handle:
        writer.write(handle)
    said = only_problem(load_one(tmp_path, tmp_path / "locked.pdf"))
    assert "locked.pdf: it is encrypted with a password" in said
    assert "qpdf --decrypt" in said


def test_a_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(CAROL_PDF))
    writer.encrypt(user_password="", owner_password="owner", algorithm="AES-128")
    with (tmp_path / "restricted.pdf").open("wb") as handle:
        writer.write(handle)
    result = load_one(tmp_path, tmp_path / "restricted.pdf")
    assert result.problems == []
    doc = {d.id: d for d in result.documents}["restricted.pdf"]
    assert "Marley was dead, to begin with." in " ".join(doc.text.split())


def test_a_truncated_pdf_is_refused_not_read_in_part(tmp_path: Path) -> None:
    data = CAROL_PDF.read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 2])
    said = only_problem(load_one(tmp_path, tmp_path / "cut.pdf"))
    assert "cut.pdf: the PDF is cut short" in said and "download or export it again" in said


def test_a_corrupt_pdf_is_named_with_what_broke(tmp_path: Path) -> None:
    data = bytearray(CAROL_PDF.read_bytes())
    data[200 : len(data) - 200] = bytes(len(data) - 400)  # everything but the ends zeroed
    (tmp_path / "zeroed.pdf").write_bytes(bytes(data))
    said = only_problem(load_one(tmp_path, tmp_path / "zeroed.pdf"))
    assert said.startswith(str(tmp_path / "zeroed.pdf"))
    assert "export it again" in said or "cannot be read" in said


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        ("report.pdf", CAROL_DOCX, "the file is a Word document, not a PDF"),
        ("notes.docx", CAROL_PDF, "the file is a PDF, not a Word document"),
        ("deck.pptx", CAROL_DOCX, "the file is a Word document, not a PowerPoint deck"),
    ],
)
def test_a_file_whose_extension_lies_is_named_for_what_it_is(
    tmp_path: Path, name: str, source: Path, expected: str
) -> None:
    shutil.copy(source, tmp_path / name)
    said = only_problem(load_one(tmp_path, tmp_path / name))
    assert expected in said
    assert f"rename it to {Path(name).stem}{source.suffix}" in said


def _docx_with(tmp_path: Path, name: str, replace: dict[str, bytes]) -> Path:
    """The demo novel's DOCX with some of its parts replaced."""
    out = tmp_path / name
    with zipfile.ZipFile(CAROL_DOCX) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            data = replace.get(item.filename, source.read(item.filename))
            target.writestr(item.filename, data, compress_type=zipfile.ZIP_DEFLATED)
    return out


def test_a_docx_zip_bomb_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    bomb = b"<w:document>" + b" " * 300_000_000 + b"</w:document>"
    _docx_with(tmp_path, "bomb.docx", {"word/document.xml": bomb})
    del bomb
    assert (tmp_path / "bomb.docx").stat().st_size < 1_000_000
    said = only_problem(load_one(tmp_path, tmp_path / "bomb.docx"))
    assert "would unpack to 300 MB, over load.max_unpacked_bytes (200 MB): a zip bomb" in said


def test_a_docx_declaring_external_entities_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(CAROL_DOCX) as source:
        body = source.read("word/document.xml").decode("utf-8")
    attack = body.replace(
        "?>",
        '?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        1,
    ).replace("Marley was dead", "&xxe; Marley was dead", 1)
    _docx_with(tmp_path, "xxe.docx", {"word/document.xml": attack.encode("utf-8")})
    said = only_problem(load_one(tmp_path, tmp_path / "xxe.docx"))
    assert "word/document.xml declares XML entities (a DOCTYPE)" in said
    assert "external-entity attack" in said


def test_a_2000_page_pdf_is_refused_by_its_page_count(tmp_path: Path) -> None:
    (tmp_path / "huge.pdf").write_bytes(one_page_pdf(pages=2000))
    started = time.monotonic()
    said = only_problem(load_one(tmp_path, tmp_path / "huge.pdf"))
    assert "2000 pages is over load.max_pages (1000)" in said
    assert "GRAPHGATE_LOAD__MAX_PAGES" in said
    assert time.monotonic() - started < 60  # counted, not read


def test_extracted_text_past_max_document_bytes_stops_the_reading(tmp_path: Path) -> None:
    (tmp_path / "long.pdf").write_bytes(one_page_pdf(pages=200))
    assert (tmp_path / "long.pdf").stat().st_size < 60_000  # 200 pages share one content stream
    result = load_one(tmp_path, tmp_path / "long.pdf", max_document_bytes=60_000)
    said = only_problem(result)
    assert "the extracted text is over load.max_document_bytes (60,000 characters) by page" in said
    assert "GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES" in said


def test_a_pdf_that_keeps_the_parser_busy_is_stopped_at_the_time_limit(tmp_path: Path) -> None:
    (tmp_path / "slow.pdf").write_bytes(one_page_pdf(repeat_content=150))
    (tmp_path / "z-after.pdf").write_bytes(one_page_pdf())
    started = time.monotonic()
    result = load_one(tmp_path, tmp_path / "slow.pdf", max_seconds_per_document=1.0)
    took = time.monotonic() - started
    said = {Path(p.source).name: p.message() for p in result.problems}
    assert list(said) == ["slow.pdf"]
    assert "took longer than load.max_seconds_per_document (1 s)" in said["slow.pdf"]
    # The next file gets a fresh worker, and is read.
    assert [d.id for d in result.documents] == ["good.txt", "z-after.pdf"]
    assert took < 30


def test_a_parser_past_its_memory_cap_is_reported(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject

    writer = PdfWriter()
    page = writer.add_page(PdfReader(CAROL_PDF).pages[1])
    stream = DecodedStreamObject()  # a 60 MB comment before the page's text, in 90 kB of file
    stream.set_data(b"%" + b"a" * 60_000_000 + b"\n" + page.get_contents().get_data())
    page.replace_contents(stream)
    page.compress_content_streams()
    with (tmp_path / "inflates.pdf").open("wb") as handle:
        writer.write(handle)
    assert (tmp_path / "inflates.pdf").stat().st_size < 500_000
    capped = load_one(tmp_path, tmp_path / "inflates.pdf", max_parser_memory_bytes=150_000_000)
    said = only_problem(capped)
    assert "needed more memory than load.max_parser_memory_bytes allows" in said
    assert "GRAPHGATE_LOAD__MAX_PARSER_MEMORY_BYTES" in said
    free = load_one(tmp_path, tmp_path / "inflates.pdf", max_parser_memory_bytes=0)
    assert "inflates.pdf" in {d.id for d in free.documents}  # the cap, not the file, stopped it


def test_on_error_fail_stops_the_load_at_the_first_bad_file(tmp_path: Path) -> None:
    data = CAROL_PDF.read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[:5000])
    with pytest.raises(InputError, match=r"cut\.pdf: the PDF is cut short") as err:
        load_one(tmp_path, tmp_path / "cut.pdf", on_error="fail")
    assert err.value.fix == "download or export it again"


def test_a_scan_without_a_text_layer_is_reported_or_read_by_tesseract(tmp_path: Path) -> None:
    import pypdfium2

    from graphgate.index.formats.ocr import ocr_missing

    document = pypdfium2.PdfDocument(str(CAROL_PDF))
    image = document[1].render(scale=200 / 72).to_pil().convert("L")
    document.close()
    image = image.crop((0, 0, image.width, image.height // 4))  # the top of the page: quicker
    image.save(tmp_path / "scan.pdf", "PDF", resolution=200.0)  # pixels only, as a scanner makes
    off = only_problem(load_one(tmp_path, tmp_path / "scan.pdf", ocr=False))
    assert "no text layer on pages 1 (a scan?); load.ocr is off" in off
    assert "install the `ocr` extra" in off and "tesseract-ocr" in off
    if ocr_missing() is not None:
        pytest.skip(f"OCR cannot run here: {ocr_missing()}")
    result = load_one(tmp_path, tmp_path / "scan.pdf")
    assert result.problems == []
    scanned = {d.id: d for d in result.documents}["scan.pdf"]
    words = set(scanned.text.split())
    assert {"Scrooge", "Marley"} <= words, scanned.text[:300]


def test_a_figure_page_among_text_pages_keeps_its_place_without_ocr(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    from graphgate.core.layout import parse_layout

    writer = PdfWriter()
    pages = PdfReader(CAROL_PDF).pages
    writer.add_page(pages[1])
    writer.add_blank_page()  # a page of pictures, no words
    writer.add_page(pages[2])
    with (tmp_path / "figures.pdf").open("wb") as handle:
        writer.write(handle)
    result = load_one(tmp_path, tmp_path / "figures.pdf")
    assert result.problems == []
    doc = {d.id: d for d in result.documents}["figures.pdf"]
    layout = parse_layout(doc.layout_json)
    assert len(layout.pages) == 3 and layout.pages[1] == layout.pages[2]  # page 2 is empty
    third = pages[2].extract_text().split()[0]
    assert layout.page_at(doc.text.index(third, layout.pages[2])) == 3


@pytest.fixture(scope="module")
def pypdf_samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample PDFs in pypdf's source distribution, from the package registry."""
    import subprocess
    import sys

    import pypdf

    folder = tmp_path_factory.mktemp("pypdf-sdist")
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            f"pypdf=={pypdf.__version__}",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--quiet",
            "-d",
            str(folder),
        ],
        capture_output=True,
        timeout=180,
    )
    archives = list(folder.glob("pypdf-*.tar.gz"))
    if got.returncode != 0 or not archives:
        pytest.skip(f"pypdf's source distribution could not be fetched: {got.stderr[-300:]!r}")
    samples = folder / "samples"
    samples.mkdir()
    with tarfile.open(archives[0]) as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith(".pdf") and "/resources/" in member.name:
                extracted = archive.extractfile(member)
                assert extracted is not None
                (samples / Path(member.name).name).write_bytes(extracted.read())
    return samples


@pytest.mark.slow
def test_pypdfs_odd_sample_files_are_read_or_named(pypdf_samples: Path) -> None:
    started = time.monotonic()
    result = CorpusLoader(LoadSettings(max_seconds_per_document=30)).load(pypdf_samples)
    took = time.monotonic() - started
    files = sorted(p.name for p in pypdf_samples.iterdir())
    read = {d.id for d in result.documents}
    named = {Path(p.source).name: p.message() for p in result.problems}
    assert sorted(read | set(named)) == files  # each one is a document or a named problem
    assert len(read) > len(files) / 2
    locked = [f for f in files if "user-password" in f and f.startswith(("r2", "r3", "r4"))]
    assert locked and all("encrypted with a password" in named[f] for f in locked)
    opened = [f for f in files if "empty-password" in f or "owner-password" in f]
    assert opened and all(f in read for f in opened)
    assert all(" — " in message for message in named.values())  # each says the fix
    assert took < 300
