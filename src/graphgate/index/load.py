"""Stage *load*: a folder of text files or a JSONL file becomes the Document table."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from graphgate.core.config import LoadSettings
from graphgate.core.errors import InputError
from graphgate.core.inputs import check_document_id, check_unicode_tree, decode_text
from graphgate.core.types import Document
from graphgate.index.formats import BINARY_SUFFIXES, DocumentParser, FormatProblem, ParsedDocument
from graphgate.index.formats.limits import ReadLimits
from graphgate.index.formats.markup import (
    front_matter,
    html_document,
    html_to_text,
    markdown_sections,
)
from graphgate.index.formats.sheets import read_csv


@dataclass(frozen=True)
class LoadProblem:
    """A file or line that could not be read; kept in the manifest so nothing is lost silently."""

    source: str
    problem: str
    fix: str

    def message(self) -> str:
        return f"{self.source}: {self.problem} — {self.fix}"


__all__ = ["CorpusLoader", "LoadProblem", "LoadResult", "front_matter", "html_to_text", "versioned"]

# Formats people keep documents in, named as people say (for a file the settings leave out).
_FORMATS = {
    ".pdf": "a PDF",
    ".docx": "a Word document",
    ".doc": "a Word 97–2003 document",
    ".pptx": "a PowerPoint deck",
    ".xlsx": "an Excel workbook",
    ".xls": "an Excel 97–2003 workbook",
    ".csv": "a CSV table",
    ".epub": "an EPUB book",
    ".ppt": "a PowerPoint 97–2003 deck",
    ".odt": "an OpenDocument text",
    ".rtf": "an RTF document",
}


@dataclass(frozen=True)
class LoadResult:
    documents: list[Document]
    problems: list[LoadProblem]


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _unicode_problem(row: dict[str, object], what: str) -> str | None:
    """A lone surrogate (a broken \\uD8xx escape) in any field: not writable as UTF-8."""
    try:
        check_unicode_tree(row, what)
    except InputError as exc:
        return exc.problem
    return None


class CorpusLoader:
    """Reads a corpus path (or documents given as records); problems are collected or raised
    according to ``on_error``. Every entry point loads through here, so a file or line that
    is skipped is named the same way by ``index``, ``add``, ``POST /documents`` and MCP."""

    def __init__(self, settings: LoadSettings) -> None:
        self.settings = settings

    def load(
        self, path: Path, previous: Mapping[str, Document] | None = None, reuse: bool = True
    ) -> LoadResult:
        """``previous``: the documents indexed before, for their versions; with ``reuse`` a
        PDF or Office file whose bytes they hold already is taken from them, not read again."""
        if not path.exists():
            raise InputError(f"corpus path not found: {path}", "check the path and try again")
        before = previous or {}
        source = self._iter_documents(path, before if reuse else {})
        return self._collect(source, str(path), before)

    def load_records(
        self, records: Sequence[Mapping[str, object]], source: str = "document"
    ) -> LoadResult:
        """Documents given as ``{id, text, title?, metadata?}`` records (an upload): each is
        checked as a JSONL line is, and named ``{source} N`` (from 1) with its id."""
        items = (
            self._record_document(dict(record), self._record_place(source, n, record), source)
            for n, record in enumerate(records, start=1)
        )
        return self._collect(items, f"the {len(records)} {source}s given", None)

    def _collect(
        self,
        items: Iterable[Document | LoadProblem],
        what: str,
        previous: Mapping[str, Document] | None,
    ) -> LoadResult:
        problems: list[LoadProblem] = []
        docs: list[Document] = []
        for item in items:
            if isinstance(item, LoadProblem):
                if self.settings.on_error == "fail":
                    raise InputError(f"{item.source}: {item.problem}", item.fix)
                problems.append(item)
            else:
                docs.append(item)
        seen: set[str] = set()
        for doc in docs:
            if doc.id in seen:
                raise InputError(
                    f"duplicate document id {doc.id!r} in {what}",
                    "give every document a unique id",
                )
            seen.add(doc.id)
        if not docs:
            raise InputError(
                f"no readable documents in {what}"
                + (f" ({len(problems)} skipped: {problems[0].message()})" if problems else ""),
                problems[0].fix
                if problems
                else f"add files ending in {', '.join(self.settings.extensions)} or a .jsonl file",
            )
        docs.sort(key=lambda d: d.id)
        return LoadResult(versioned(docs, previous or {}), problems)

    def _iter_documents(
        self, path: Path, previous: Mapping[str, Document]
    ) -> Iterator[Document | LoadProblem]:
        with DocumentParser(self.settings) as parser:
            if path.is_file():
                if path.suffix == ".jsonl":
                    yield from self._read_jsonl(path)
                else:
                    yield self._read_file(path, path.name, parser, previous)
                return
            files = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            for file in files:
                rel = file.relative_to(path).as_posix()
                if file.suffix == ".jsonl":
                    yield from self._read_jsonl(file)
                elif file.suffix.lower() in self.settings.extensions:
                    yield self._read_file(file, rel, parser, previous)
                else:  # never skipped in silence: a PDF a team expected indexed is a lost document
                    yield self._not_read(rel, file.suffix.lower())

    def _not_read(self, where: str, suffix: str) -> LoadProblem:
        kind = _FORMATS.get(suffix, f"a {suffix} file" if suffix else "a file without an extension")
        readable = suffix in BINARY_SUFFIXES or suffix == ".csv"
        return LoadProblem(
            where,
            f"{kind} is not read (load.extensions: {', '.join(self.settings.extensions)})",
            f"add {suffix} to load.extensions (graphgate reads it)"
            if readable
            else "convert it to PDF, Word, text, Markdown or HTML; or, if it is plain text, add "
            "its extension to load.extensions",
        )

    def _too_large(self, where: str, size: int) -> LoadProblem | None:
        if size > self.settings.max_document_bytes:
            return LoadProblem(
                where,
                f"{_size(size)} is over load.max_document_bytes "
                f"({_size(self.settings.max_document_bytes)})",
                "split the document, or raise GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES",
            )
        return None

    def _read_file(
        self,
        file: Path,
        doc_id: str,
        parser: DocumentParser,
        previous: Mapping[str, Document],
    ) -> Document | LoadProblem:
        suffix = file.suffix.lower()
        try:
            check_document_id(doc_id)
            size = file.stat().st_size
            if (big := self._too_large(str(file), size)) is not None:
                return big
            data = file.read_bytes()
            if suffix in BINARY_SUFFIXES:
                digest = hashlib.sha256(data).hexdigest()
                before = previous.get(doc_id)
                if before is not None and before.sha256 == digest:
                    return Document(**{**before.__dict__, "source_path": str(file)})
                parsed = parser.parse(file)
            else:
                parsed = self._read_text(decode_text(data), suffix)
                digest = _sha256(parsed.text)
        except FormatProblem as exc:
            return LoadProblem(str(file), exc.problem, exc.fix)
        except InputError as exc:
            return LoadProblem(str(file), exc.problem, exc.fix)
        except OSError as exc:
            return LoadProblem(str(file), f"cannot read: {exc.strerror}", "check permissions")
        if not parsed.text.strip():
            return LoadProblem(str(file), "empty document", "remove it or add text")
        return Document(
            doc_id,
            parsed.title or file.stem,
            parsed.text,
            digest,
            1,
            size,
            str(file),
            json.dumps(parsed.metadata, sort_keys=True, ensure_ascii=False),
            parsed.layout_json(),
        )

    def _read_text(self, text: str, suffix: str) -> ParsedDocument:
        if suffix in {".html", ".htm"}:
            title, body, metadata, sections = html_document(text)
            return ParsedDocument(body, title, metadata, sections=sections)
        if suffix in {".md", ".markdown"}:
            metadata, body = front_matter(text)
            title = metadata.pop("title", "")
            return ParsedDocument(body, title, metadata, sections=markdown_sections(body))
        if suffix == ".csv":
            return read_csv(text, ReadLimits.of(self.settings))
        return ParsedDocument(text)

    def _read_jsonl(self, file: Path) -> Iterator[Document | LoadProblem]:
        try:
            text = decode_text(file.read_bytes())
        except InputError as exc:
            yield LoadProblem(str(file), exc.problem, exc.fix)
            return
        except OSError as exc:
            yield LoadProblem(str(file), f"cannot read: {exc.strerror}", "check permissions")
            return
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{file}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                yield LoadProblem(where, f"malformed JSON ({exc.msg})", "fix or remove the line")
                continue
            if not isinstance(row, dict):
                yield LoadProblem(where, "line is not a JSON object", "write {id, title, text}")
                continue
            yield self._record_document(row, where, "line")

    @staticmethod
    def _record_place(source: str, number: int, record: Mapping[str, object]) -> str:
        doc_id = record.get("id")
        named = f" (id {str(doc_id)[:80]!r})" if isinstance(doc_id, str | int) else ""
        return f"{source} {number}{named}"

    def _record_document(
        self, row: dict[str, object], where: str, what: str
    ) -> Document | LoadProblem:
        """One JSONL line or uploaded record as a document, or the problem that skips it."""
        if (broken := _unicode_problem(row, f"the {what}")) is not None:
            return LoadProblem(where, broken, "fix the \\uD8xx escape (surrogates come in pairs)")
        body = row.get("text")
        if not isinstance(body, str) or not body.strip():
            return LoadProblem(where, "missing or empty 'text' field", "add a non-empty text")
        if "\x00" in body:
            return LoadProblem(where, "text contains a NUL character", "remove it")
        doc_id = row.get("id")
        if not isinstance(doc_id, str | int) or isinstance(doc_id, bool) or str(doc_id) == "":
            return LoadProblem(where, "missing 'id' field", "add a unique string id")
        try:
            check_document_id(str(doc_id))
        except InputError as exc:
            return LoadProblem(where, exc.problem, exc.fix)
        size = len(body.encode("utf-8"))
        if (big := self._too_large(where, size)) is not None:
            return big
        metadata = row.get("metadata") or {}
        if not isinstance(metadata, dict):
            return LoadProblem(where, "'metadata' is not a JSON object", "write metadata as {...}")
        return Document(
            id=str(doc_id),
            title=str(row.get("title") or doc_id),
            text=body,
            sha256=_sha256(body),
            version=1,
            byte_size=size,
            source_path=where,
            metadata_json=json.dumps(metadata, sort_keys=True, ensure_ascii=False),
        )


def versioned(docs: list[Document], previous: Mapping[str, Document]) -> list[Document]:
    """A document keeps its version while its content is unchanged and bumps it otherwise."""
    out: list[Document] = []
    for doc in docs:
        before = previous.get(doc.id)
        if before is None:
            out.append(doc)
        else:
            version = before.version if before.sha256 == doc.sha256 else before.version + 1
            out.append(Document(**{**doc.__dict__, "version": version}))
    return out
