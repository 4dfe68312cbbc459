"""Builds the office renditions of the demo novel that tests/unit/test_formats.py reads.

    .venv/bin/python tests/data/build_documents.py [OUT_FOLDER]

Made by real tools, as users' files are: LibreOffice (Debian's ``libreoffice-writer-nogui``,
``-impress-nogui``, ``-calc-nogui``) converts an HTML rendition of data/demo/christmas_carol.txt
(its staves as headings, its list of characters as a table) to PDF (with bookmarks) and DOCX,
re-saves a deck written with python-pptx as PPTX, and converts the characters CSV to XLSX. The
files in this folder were made by this script; the test that runs it (when LibreOffice is
installed, as .ci/run installs it) checks that a fresh build reads the same.
"""

from __future__ import annotations

import csv
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOVEL = ROOT / "data" / "demo" / "christmas_carol.txt"
STAVE = re.compile(r"^STAVE (ONE|TWO|THREE|FOUR|FIVE)$")


def _title(text: str) -> str:
    return " ".join(word.capitalize() for word in text.split())


def novel_parts() -> tuple[list[tuple[str, str]], list[tuple[str, list[str]]]]:
    """(characters as (name, description), staves as (heading, paragraphs))."""
    raw = [b.strip() for b in re.split(r"\n\s*\n", NOVEL.read_text(encoding="utf-8")) if b.strip()]
    characters: list[tuple[str, str]] = []
    staves: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(raw):
        block = " ".join(raw[i].split())
        if STAVE.match(block):
            heading = f"Stave {_title(block.split()[1])}: {_title(raw[i + 1])}"
            staves.append((heading, []))
            i += 2
            continue
        if staves:
            staves[-1][1].append(block)
        elif block not in {"A CHRISTMAS CAROL", "CHARACTERS"}:
            entries = re.split(r"\.\n", raw[i])
            for entry in entries:
                name, _, description = " ".join(entry.split()).partition(", ")
                characters.append((name, description.rstrip(".")))
        i += 1
    return characters, staves


def write_html(path: Path) -> None:
    characters, staves = novel_parts()
    out = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>A Christmas Carol</title>",
        "<meta name='author' content='Charles Dickens'></head><body>",
        "<h1>A Christmas Carol</h1>",
        "<h2>Characters</h2>",
        "<table border='1'><tr><th>Name</th><th>Description</th></tr>",
    ]
    out += [f"<tr><td>{html.escape(n)}</td><td>{html.escape(d)}</td></tr>" for n, d in characters]
    out.append("</table>")
    for heading, paragraphs in staves:
        out.append(f"<h2>{html.escape(heading)}</h2>")
        out += [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    out.append("</body></html>")
    path.write_text("\n".join(out), encoding="utf-8")


def write_csv(path: Path) -> None:
    characters, _ = novel_parts()
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Name", "Description"])
        writer.writerows(characters)


def write_deck(path: Path) -> None:
    import pptx

    _, staves = novel_parts()
    deck = pptx.Presentation()
    for heading, paragraphs in staves:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = heading
        slide.placeholders[1].text_frame.text = paragraphs[0][:400]
        slide.notes_slide.notes_text_frame.text = paragraphs[1][:300]
    deck.core_properties.title = "A Christmas Carol in five staves"
    deck.core_properties.author = "Charles Dickens"
    deck.save(str(path))


def soffice(args: list[str], cwd: Path) -> None:
    program = shutil.which("soffice") or shutil.which("libreoffice")
    if program is None:
        raise SystemExit("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [program, f"-env:UserInstallation=file://{profile}", "--headless", *args],
            cwd=cwd,
            check=True,
            capture_output=True,
            timeout=300,
        )


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_html(work / "carol.html")
        write_csv(work / "characters.csv")
        write_deck(work / "staves-draft.pptx")
        writer = "--infilter=HTML (StarWriter)"
        soffice([writer, "--convert-to", "docx:MS Word 2007 XML", "carol.html"], work)
        soffice([writer, "--convert-to", "pdf:writer_pdf_Export", "carol.html"], work)
        soffice(["--convert-to", "xlsx", "characters.csv"], work)
        (work / "draft").mkdir()
        shutil.move(str(work / "staves-draft.pptx"), work / "draft" / "staves.pptx")
        soffice(["--convert-to", "pptx", "--outdir", str(work), "draft/staves.pptx"], work)
        for name in ("carol.pdf", "carol.docx", "characters.xlsx", "staves.pptx"):
            shutil.copy(work / name, out / name)
        shutil.copy(work / "characters.csv", out / "characters.csv")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "documents")
