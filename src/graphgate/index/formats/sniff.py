"""What a file is by its bytes, not its name, and whether an Office archive is safe to open.

A PDF renamed ``.docx`` or a Word file saved as ``.pdf`` is named for what it is, and an
Office file (a zip of XML parts) is checked before any parser sees it: its members' unpacked
size against ``load.max_unpacked_bytes`` (a zip bomb), and every XML part for a DOCTYPE, which
an Office file never has and an external-entity attack needs.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from graphgate.index.formats.layout import FormatProblem

# Kind -> the words a message uses and the extension its file should have.
KINDS = {
    "pdf": ("a PDF", ".pdf"),
    "docx": ("a Word document", ".docx"),
    "pptx": ("a PowerPoint deck", ".pptx"),
    "xlsx": ("an Excel workbook", ".xlsx"),
    "epub": ("an EPUB book", ".epub"),
    "zip": ("a zip archive", ".zip"),
    "ole": ("an old binary Office file (Word 97–2003, Excel 97–2003 or PowerPoint 97–2003)", ""),
    "text": ("a text file", ".txt"),
}
SUFFIX_KIND = {".pdf": "pdf", ".docx": "docx", ".pptx": "pptx", ".xlsx": "xlsx", ".epub": "epub"}
_ZIP_PARTS = (
    ("word/document.xml", "docx"),
    ("ppt/presentation.xml", "pptx"),
    ("xl/workbook.xml", "xlsx"),
)
_XML_HEAD = 4096


def sniff(head: bytes, path: Path) -> str:
    """The kind of a file from its first bytes (and, for a zip, its member names)."""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "ole"
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
                if "mimetype" in names and archive.read("mimetype")[:40].strip() == (
                    b"application/epub+zip"
                ):
                    return "epub"
        except (zipfile.BadZipFile, OSError, ValueError):
            return "zip"
        for member, kind in _ZIP_PARTS:
            if member in names:
                return kind
        return "zip"
    return "text"


def check_kind(path: Path, expected: str) -> None:
    """Refuses a file whose bytes are not what its extension says."""
    with path.open("rb") as handle:
        head = handle.read(2048)
    if not head:
        raise FormatProblem("the file is empty", "remove it or export it again")
    actual = sniff(head, path)
    if actual == expected:
        return
    said, suffix = KINDS[expected]
    is_, right = KINDS[actual]
    fix = (
        f"rename it to {path.stem}{right} if that is what it is"
        if right and actual != "zip"
        else f"export it again as {said}"
    )
    if actual == "ole":
        fix = f"save it as {said} ({suffix}) from the program that made it"
    raise FormatProblem(f"the file is {is_}, not {said} (its extension says {suffix})", fix)


def check_archive(path: Path, max_unpacked_bytes: int) -> None:
    """An Office or EPUB archive that is safe to open: readable, not a zip bomb, no XML part
    declaring a DOCTYPE (entities). Declared sizes bound what zipfile will inflate, so checking
    them before reading is enough."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            unpacked = sum(m.file_size for m in members)
            if unpacked > max_unpacked_bytes:
                raise FormatProblem(
                    f"its parts would unpack to {unpacked / 1e6:.0f} MB, over "
                    f"load.max_unpacked_bytes ({max_unpacked_bytes / 1e6:.0f} MB): a zip bomb, "
                    "or a document too large to read",
                    "split the document, or raise GRAPHGATE_LOAD__MAX_UNPACKED_BYTES if it is "
                    "genuine",
                )
            for member in members:
                if member.flag_bits & 0x1:
                    raise FormatProblem(
                        "it is encrypted with a password",
                        "save a copy without the password, or skip it",
                    )
                if not member.filename.endswith((".xml", ".rels", ".xhtml", ".opf", ".ncx")):
                    continue
                with archive.open(member) as part:
                    head = part.read(_XML_HEAD).upper()
                if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                    raise FormatProblem(
                        f"its part {member.filename} declares XML entities (a DOCTYPE), which an "
                        "Office file never does: it may be an external-entity attack",
                        "export the document again from the program that made it, or skip it",
                    )
    except zipfile.BadZipFile as exc:
        raise FormatProblem(
            f"it is not a readable zip archive ({exc}); an Office file is one",
            "export it again, or check that the copy is complete",
        ) from exc
