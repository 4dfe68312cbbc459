from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphgate.core.config import LoadSettings
from graphgate.core.errors import InputError
from graphgate.core.types import Document
from graphgate.index.load import CorpusLoader, html_to_text


def _loader(**kw: object) -> CorpusLoader:
    return CorpusLoader(LoadSettings(**kw))  # type: ignore[arg-type]


def test_folder_of_txt_md_html(small_corpus: Path) -> None:
    result = _loader().load(small_corpus)
    assert [d.id for d in result.documents] == ["family.md", "fred.html", "scrooge.txt"]
    fred = next(d for d in result.documents if d.id == "fred.html")
    assert fred.title == "Fred"
    assert "color: red" not in fred.text and "nephew of Ebenezer Scrooge" in fred.text
    assert "Fred Holywell is" in fred.text
    for d in result.documents:
        assert len(d.sha256) == 64 and d.version == 1 and d.byte_size > 0
    assert result.problems == []


def test_jsonl_corpus_keeps_ids_titles_and_metadata(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    rows = [
        {"id": "a", "title": "A", "text": "Alpha text.", "metadata": {"k": 1}},
        {"id": 2, "text": "Beta text."},
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows))
    docs = _loader().load(f).documents
    assert [d.id for d in docs] == ["2", "a"]
    assert docs[1].title == "A" and json.loads(docs[1].metadata_json) == {"k": 1}
    assert docs[0].title == "2"


def test_missing_path() -> None:
    with pytest.raises(InputError, match="not found"):
        _loader().load(Path("/no/such/corpus"))


def test_empty_corpus(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no readable documents"):
        _loader().load(tmp_path)


def test_binary_non_utf8_empty_and_huge_files_are_reported_and_skipped(
    small_corpus: Path,
) -> None:
    (small_corpus / "image.txt").write_bytes(b"\x89PNG\x00\x00\x01binary")
    (small_corpus / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    (small_corpus / "empty.txt").write_text("   \n")
    with (small_corpus / "huge.txt").open("wb") as fh:  # 50 MB on a single line
        fh.write(b"word " * 10_000_000)
    result = _loader().load(small_corpus)
    assert len(result.documents) == 3
    problems = {Path(p.source).name: p for p in result.problems}
    assert "binary" in problems["image.txt"].problem
    assert "UTF-8" in problems["latin1.txt"].problem and "iconv" in problems["latin1.txt"].fix
    assert "empty" in problems["empty.txt"].problem
    assert "50.0 MB" in problems["huge.txt"].problem
    assert "MAX_DOCUMENT_BYTES" in problems["huge.txt"].fix


def test_on_error_fail_stops_at_the_first_bad_file(small_corpus: Path) -> None:
    (small_corpus / "latin1.txt").write_bytes(b"caf\xe9")
    with pytest.raises(InputError, match=r"latin1\.txt.*UTF-8"):
        _loader(on_error="fail").load(small_corpus)


def test_malformed_jsonl_line_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"id": "a", "text": "fine"}\n{"id": "b", "text": broken}\n{"id": "c"}\n')
    result = _loader().load(f)
    assert [d.id for d in result.documents] == ["a"]
    assert [p.source.rsplit(":", 1)[1] for p in result.problems] == ["2", "3"]
    assert "malformed JSON" in result.problems[0].problem
    assert "text" in result.problems[1].problem
    with pytest.raises(InputError, match="malformed JSON"):
        _loader(on_error="fail").load(f)


def test_duplicate_ids_are_an_error(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"id": "a", "text": "one"}\n{"id": "a", "text": "two"}\n')
    with pytest.raises(InputError, match="duplicate document id"):
        _loader().load(f)


def test_versions_bump_only_when_content_changes(small_corpus: Path) -> None:
    first = {d.id: d for d in _loader().load(small_corpus).documents}
    (small_corpus / "scrooge.txt").write_text("Scrooge changed his ways.")
    second = {d.id: d for d in _loader().load(small_corpus, first).documents}
    assert second["scrooge.txt"].version == 2
    assert second["family.md"].version == 1
    assert second["scrooge.txt"].sha256 != first["scrooge.txt"].sha256


def test_html_to_text_drops_scripts() -> None:
    title, text, _ = html_to_text("<title>T</title><script>var x=1;</script><p>Hi &amp; bye</p>")
    assert title == "T" and text == "Hi & bye"


def test_fail_messages_name_the_file_and_line_and_skip_messages_name_it_once(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "a", "text": "Good text."}\n{not json\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        CorpusLoader(LoadSettings(on_error="fail")).load(corpus)
    assert f"{corpus}:2" in exc.value.problem and "malformed JSON" in exc.value.problem
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "ok.txt").write_text("Fine.")
    (folder / "bin.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    problem = CorpusLoader(LoadSettings()).load(folder).problems[0]
    assert problem.message().count("bin.txt") == 1


def test_utf16_and_utf32_with_a_bom_are_text(tmp_path: Path) -> None:
    text = "Ebenezer Scrooge lives in London — café."
    for n, encoding in enumerate(("utf-16", "utf-16-be", "utf-32", "utf-8-sig")):
        folder = tmp_path / f"c{n}"
        folder.mkdir()
        raw = text.encode(encoding)
        if encoding == "utf-16-be":
            raw = b"\xfe\xff" + raw
        (folder / "a.txt").write_bytes(raw)
        result = CorpusLoader(LoadSettings()).load(folder)
        assert [d.text for d in result.documents] == [text], encoding


def test_a_nul_anywhere_marks_a_file_binary(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "ok.txt").write_text("Fine.")
    (folder / "late.txt").write_bytes(b"a" * 20_000 + b"\x00" + b"b" * 10)
    (tmp_path / "c" / "lines.jsonl").write_text('{"id": "n", "text": "nul \\u0000 here"}\n')
    result = CorpusLoader(LoadSettings()).load(folder)
    assert [d.id for d in result.documents] == ["ok.txt"]
    assert {Path(p.source.split(":")[0]).name for p in result.problems} == {
        "late.txt",
        "lines.jsonl",
    }
    assert all("\x00" not in d.text for d in result.documents)


def test_lone_surrogates_are_reported_with_file_and_line(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        '{"id": "a", "text": "Good text."}\n'
        '{"id": "b", "text": "bad \\ud800 escape"}\n'
        '{"id": "c", "text": "ok", "metadata": {"k": "\\udfff"}}\n',
        encoding="utf-8",
    )
    result = CorpusLoader(LoadSettings()).load(corpus)
    assert [d.id for d in result.documents] == ["a"]
    assert [p.source for p in result.problems] == [f"{corpus}:2", f"{corpus}:3"]
    assert all("surrogate" in p.problem for p in result.problems)
    with pytest.raises(InputError, match=r":2: .*surrogate"):
        CorpusLoader(LoadSettings(on_error="fail")).load(corpus)


def test_records_are_checked_as_lines_are_and_named_by_place() -> None:
    records = [
        {"id": "a", "text": "Ada Lane runs a press."},
        {"id": "b", "text": " "},
        {"id": "c\u202e", "text": "reversed"},
        {"id": 7, "text": "a number id", "metadata": {"date": "2020"}},
        {"id": "d", "text": "x", "metadata": ["not", "an", "object"]},
    ]
    result = _loader().load_records(records)
    assert [d.id for d in result.documents] == ["7", "a"]
    assert [p.source for p in result.problems] == [
        "document 2 (id 'b')",
        "document 3 (id 'c\\u202e')",
        "document 5 (id 'd')",
    ]
    with pytest.raises(InputError, match=r"no readable documents.*document 1 \(id 'b'\)") as err:
        _loader().load_records(records[1:2])
    assert err.value.fix == "add a non-empty text"  # the problem's own fix, not a generic one


def test_an_update_that_changes_nothing_is_told_apart_from_a_new_date() -> None:
    from graphgate.index.update import unchanged_by

    def dated(year: str) -> list[Document]:
        record = {"id": "a", "text": "Same text.", "metadata": {"date": year}}
        return _loader().load_records([record]).documents

    assert unchanged_by(dated("2010"), dated("2010"))
    assert not unchanged_by(dated("2010"), dated("2011"))
    assert not unchanged_by(dated("2010"), [])


def test_files_of_other_formats_are_reported_never_skipped_in_silence(
    small_corpus: Path,
) -> None:
    (small_corpus / "report.pdf").write_bytes(b"%PDF-1.4\n%broken")
    (small_corpus / "notes.docx").write_bytes(b"PK\x03\x04")
    (small_corpus / "README").write_text("plain text without an extension")
    (small_corpus / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500))
    result = _loader().load(small_corpus)
    assert [d.id for d in result.documents] == ["family.md", "fred.html", "scrooge.txt"]
    said = {Path(p.source).name: p.problem for p in result.problems}
    extensions = ".txt, .md, .html, .htm, .pdf, .docx, .pptx, .xlsx, .csv"
    assert said == {
        "README": f"a file without an extension is not read (load.extensions: {extensions})",
        "old.doc": f"a Word 97–2003 document is not read (load.extensions: {extensions})",
        "notes.docx": "the file is a zip archive, not a Word document (its extension says .docx)",
        "report.pdf": "the PDF is cut short (it does not end with %%EOF): an incomplete copy",
    }
    narrow = _loader(extensions=[".txt", ".md", ".html", ".htm"]).load(small_corpus)
    fixes = {Path(p.source).name: p.fix for p in narrow.problems}
    assert fixes["report.pdf"] == "add .pdf to load.extensions (graphgate reads it)"
    assert "convert it to PDF, Word" in fixes["old.doc"]
    widened = _loader(extensions=[".txt", ".md", ".html", ".htm", ""]).load(small_corpus)
    assert "README" in {d.id for d in widened.documents}
