"""PDF and Office files through every entry point: indexed from a folder, cited with page and
section by `query --json`, uploaded over HTTP as multipart (with the write token only), and
kept by a sync when their bytes are unchanged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from graphgate import Workspace
from graphgate.core.types import Document, from_table
from tests.pdf_pages import pdf_page_texts
from tests.serving import running_server, wait_for_job

DOCUMENTS = Path(__file__).resolve().parents[1] / "data" / "documents"
TOKEN = "documents-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def office_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("office")
    corpus = root / "corpus"
    corpus.mkdir()
    for name in ("carol.pdf", "staves.pptx", "characters.xlsx"):
        shutil.copy(DOCUMENTS / name, corpus / name)
    with Workspace(root / "ws") as ws:
        ws.index(corpus)
    return root / "ws"


def test_query_json_cites_the_page_and_section_the_text_is_on(office_workspace: Path) -> None:
    from graphgate.cli import build_app

    pages = pdf_page_texts(DOCUMENTS / "carol.pdf")
    questions = [
        "Who is Bob Cratchit's employer?",
        "What does the Ghost of Jacob Marley warn Scrooge about?",
        "Which of the Cratchit children is ill?",
        "Who is Mrs. Dilber?",
    ]
    checked = 0
    for question in questions:
        result = CliRunner().invoke(
            build_app(),
            ["query", question, "--json", "-w", str(office_workspace), "--mode", "hybrid"],
        )
        assert result.exit_code == 0, result.output
        answer = json.loads(result.stdout)
        for citation in answer["citations"]:
            assert isinstance(citation["section"], list)
            if citation["doc_id"] != "carol.pdf":
                continue
            text = " ".join(citation["text"].split())
            # The cited text starts on the page named (a sentence may run onto the next page).
            assert text[:40] in pages[citation["page"] - 1], (citation["page"], text[:60])
            assert citation["section"][0] == "A Christmas Carol"
            checked += 1
    assert checked >= 4


def test_citations_of_a_deck_name_their_slide(office_workspace: Path) -> None:
    """Every sentence of the deck, cited, is placed on its slide under its slide's title (the
    answerer rarely cites the deck here: the novel's PDF holds the same sentences)."""
    import pptx

    from graphgate.core.text import sentence_spans
    from graphgate.query.base import Citation, placed

    with Workspace(office_workspace) as ws:
        loaded = ws.loaded()
        chunks = [c for c in loaded.store.chunks() if c.doc_id == "staves.pptx"]
        titles = {
            n: str(slide.shapes.title.text_frame.text)
            for n, slide in enumerate(pptx.Presentation(str(DOCUMENTS / "staves.pptx")).slides, 1)
        }
        citations = [
            Citation(1, c.id, c.doc_id, c.start + a, c.start + b, c.text[a:b])
            for c in chunks
            for a, b in sentence_spans(c.text)
        ]
        shown = placed(citations, loaded.layout)
    assert {c.page for c in shown} == {1, 2, 3, 4, 5}
    for citation in shown:
        assert citation.page is not None
        assert citation.section == [titles[citation.page]]
        assert citation.place().startswith(f"staves.pptx p. {citation.page} — ")


def test_multipart_upload_needs_the_token_and_indexes_the_files(
    office_workspace: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(office_workspace, ws)
    runs_before = sorted(p.name for p in (ws / "runs").iterdir())
    files = [
        ("file", ("carol.docx", (DOCUMENTS / "carol.docx").read_bytes())),
        ("file", ("characters.csv", (DOCUMENTS / "characters.csv").read_bytes())),
    ]
    with running_server(ws, TOKEN) as (base, _):
        refused = httpx.post(f"{base}/documents", files=files, timeout=30)
        assert refused.status_code == 401
        assert sorted(p.name for p in (ws / "runs").iterdir()) == runs_before
        bad_name = [("file", ("../escape.pdf", b"%PDF-1.4"))]
        said = httpx.post(f"{base}/documents", files=bad_name, headers=AUTH, timeout=30)
        assert said.status_code == 422 and "not a plain file name" in said.json()["detail"]
        field = httpx.post(f"{base}/documents", data={"x": "1"}, files=files, headers=AUTH)
        assert field.status_code == 422 and "is not a file" in field.json()["detail"]
        unread = [("file", ("old.doc", b"\xd0\xcf\x11\xe0"))]
        said = httpx.post(f"{base}/documents", files=unread, headers=AUTH, timeout=30)
        assert said.status_code == 422 and "not a format graphgate reads" in said.json()["detail"]
        assert sorted(p.name for p in (ws / "runs").iterdir()) == runs_before
        started = httpx.post(f"{base}/documents", files=files, headers=AUTH, timeout=30)
        assert started.status_code == 202, started.text
        job = wait_for_job(base, started.json()["job"], timeout_s=300)
        assert job["state"] == "done", job
        listed = httpx.get(f"{base}/documents").json()
        assert {d["id"] for d in listed["items"]} == {
            "carol.pdf",
            "staves.pptx",
            "characters.xlsx",
            "carol.docx",
            "characters.csv",
        }
        answer = httpx.post(
            f"{base}/query", json={"question": "Who is Mrs. Dilber?", "mode": "vector"}, timeout=60
        ).json()
    placed = [c for c in answer["citations"] if c["doc_id"] == "carol.docx"]
    assert all(c["page"] is None and c["section"][0] == "A Christmas Carol" for c in placed)
    with Workspace(ws) as reopened:
        docs = {
            d.id: d
            for d in from_table(reopened.runs.current().read_artifact("documents"), Document)
        }
    assert docs["carol.docx"].source_path == "upload:carol.docx"


def test_a_sync_keeps_an_unchanged_pdf_and_reads_a_changed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pypdf import PdfReader, PdfWriter

    from graphgate.index.formats import DocumentParser

    parsed: list[str] = []
    parse = DocumentParser.parse

    def counted(self: DocumentParser, path: Path) -> object:
        parsed.append(path.name)
        return parse(self, path)

    monkeypatch.setattr(DocumentParser, "parse", counted)

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(DOCUMENTS / "staves.pptx", corpus / "staves.pptx")
    writer = PdfWriter()
    for page in PdfReader(DOCUMENTS / "carol.pdf").pages[:3]:
        writer.add_page(page)
    writer.add_metadata({"/Title": "A Christmas Carol", "/Author": "Charles Dickens"})
    with (corpus / "carol.pdf").open("wb") as handle:
        writer.write(handle)
    with Workspace(tmp_path / "ws") as ws:
        ws.index(corpus)
        first = {
            d.id: d for d in from_table(ws.runs.current().read_artifact("documents"), Document)
        }
        writer.add_metadata({"/Author": "C. Dickens"})  # new bytes, same text
        with (corpus / "carol.pdf").open("wb") as handle:
            writer.write(handle)
        parsed.clear()
        report = ws.index(corpus)  # a sync: the index made equal to the folder
        after = {
            d.id: d for d in from_table(ws.runs.current().read_artifact("documents"), Document)
        }
        assert parsed == ["carol.pdf"]  # the deck's bytes are unchanged: not read again
        parsed.clear()
        ws.index(corpus, full=True)
        assert sorted(parsed) == ["carol.pdf", "staves.pptx"]  # --full reads everything
    assert report.changes is not None
    assert report.changes["changed"] == ["carol.pdf"] and report.changes["unchanged"] == 1
    assert after["staves.pptx"].version == first["staves.pptx"].version == 1
    assert after["carol.pdf"].version == 2
    assert json.loads(after["carol.pdf"].metadata_json)["author"] == "C. Dickens"
    assert after["carol.pdf"].sha256 != first["carol.pdf"].sha256
