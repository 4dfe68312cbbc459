"""Document-set changes: what an update adds, changes and removes, and the document set after.

An update never patches a run: it is a new run over the updated document set, where the
content caches (index/cache.py, the LLM response cache) make unchanged content cost nothing
and the global steps (resolution, Leiden, reports) run over the whole graph, so the result
equals a rebuild of that document set.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from graphgate.core.config import LoadSettings
from graphgate.core.errors import DocumentNotFoundError, InputError
from graphgate.core.inputs import check_document_id
from graphgate.core.runs import Run
from graphgate.core.types import Document, from_table
from graphgate.index.load import CorpusLoader, LoadProblem, LoadResult
from graphgate.index.pipeline import IndexReport


@dataclass(frozen=True)
class DocumentChanges:
    added: list[str]
    changed: list[str]
    removed: list[str]
    unchanged: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def summary(self) -> str:
        return f"+{len(self.added)} ~{len(self.changed)} -{len(self.removed)} ={self.unchanged}"


def changes_between(before: Mapping[str, Document], after: Sequence[Document]) -> DocumentChanges:
    """By id and content hash; ids in sorted order."""
    now = {d.id: d for d in after}
    added = sorted(i for i in now if i not in before)
    changed = sorted(i for i in now if i in before and before[i].sha256 != now[i].sha256)
    removed = sorted(i for i in before if i not in now)
    return DocumentChanges(added, changed, removed, len(now) - len(added) - len(changed))


def documents_of(run: Run) -> list[Document]:
    return from_table(run.read_artifact("documents"), Document)


def documents_by_id(run: Run | None) -> dict[str, Document]:
    """A run's documents by id ({} for no run, or one without documents yet)."""
    if run is None or not run.has_artifact("documents"):
        return {}
    return {d.id: d for d in documents_of(run)}


def with_documents(current: Sequence[Document], new: Sequence[Document]) -> list[Document]:
    """The current set with ``new`` added, a document of the same id replaced; by id."""
    merged = {d.id: d for d in current}
    merged.update({d.id: d for d in new})
    return [merged[i] for i in sorted(merged)]


def require_ids(doc_ids: Sequence[str]) -> None:
    """A delete names one document or more: an empty one would make a run that changes nothing."""
    if not doc_ids:
        raise InputError("no document ids to delete", "name one or more documents; nothing changed")


def without_documents(current: Sequence[Document], doc_ids: Sequence[str]) -> list[Document]:
    """The current set less ``doc_ids``; an id it does not hold is an error (nothing is done)."""
    require_ids(doc_ids)
    have = {d.id for d in current}
    unknown = sorted(set(doc_ids) - have)
    if unknown:
        shown = ", ".join(repr(i) for i in unknown[:5])
        raise DocumentNotFoundError(
            f"no document {shown} in the current run" + (" (and more)" if len(unknown) > 5 else ""),
            "use the id a document was indexed under (its file name, or its JSONL id); "
            "nothing changed",
        )
    kept = [d for d in current if d.id not in set(doc_ids)]
    if not kept:
        raise InputError(
            "deleting every document would leave an empty index",
            "index a new corpus instead; nothing changed",
        )
    return kept


def read_new_documents(paths: Sequence[Path], settings: LoadSettings) -> LoadResult:
    """The documents of ``paths`` to add, with what was skipped; an id given by two of them is
    an error."""
    loader = CorpusLoader(settings)
    new: dict[str, Document] = {}
    problems: list[LoadProblem] = []
    for path in paths:
        loaded = loader.load(path)
        problems += loaded.problems
        for doc in loaded.documents:
            if doc.id in new:
                raise InputError(
                    f"document id {doc.id!r} comes from more than one of the paths",
                    "add each document once; nothing changed",
                )
            new[doc.id] = doc
    return LoadResult(list(new.values()), problems)


def read_uploaded_files(files: Sequence[tuple[str, bytes]], settings: LoadSettings) -> LoadResult:
    """Uploaded (file name, bytes) read as the files of a corpus folder are, each under its
    name: written to a private folder the loader reads (PDF and Office files through the parser
    worker, with its limits), then removed. A name that is a path, hidden, repeated or of a
    format the loader does not read is refused before anything is written."""
    check_uploads(files, settings)
    with tempfile.TemporaryDirectory(prefix="graphgate-upload-") as folder:

        def named(where: str) -> str:
            return where.replace(folder + "/", "upload:").replace(folder, "the upload")

        for name, data in files:
            (Path(folder) / name).write_bytes(data)
        try:
            loaded = CorpusLoader(settings).load(Path(folder))
        except InputError as exc:
            raise InputError(named(exc.problem), named(exc.fix) + "; nothing changed") from None

    documents = [replace(d, source_path=named(d.source_path)) for d in loaded.documents]
    problems = [replace(p, source=named(p.source)) for p in loaded.problems]
    return LoadResult(documents, problems)


def check_uploads(files: Sequence[tuple[str, bytes]], settings: LoadSettings) -> None:
    """Upload names and sizes, checked before anything is written or queued."""
    if not files:
        raise InputError("no files to add", "send one or more files; nothing changed")
    names: set[str] = set()
    for name, data in files:
        _check_upload_name(name, settings)
        if name in names:
            raise InputError(f"file {name!r} is sent twice", "send each file once; nothing changed")
        names.add(name)
        if len(data) > settings.max_document_bytes:
            raise InputError(
                f"{name}: {len(data) / 1e6:.1f} MB is over load.max_document_bytes "
                f"({settings.max_document_bytes / 1e6:.1f} MB)",
                "split the document, or raise GRAPHGATE_LOAD__MAX_DOCUMENT_BYTES; nothing changed",
            )


def _check_upload_name(name: str, settings: LoadSettings) -> None:
    plain = bool(name) and name not in {".", ".."} and not ({"/", "\\", "\x00"} & set(name))
    if not plain or name.startswith("."):
        raise InputError(
            f"upload file name {name[:80]!r} is not a plain file name",
            "name each file without folders or a leading dot (report.pdf); nothing changed",
        )
    check_document_id(name)
    suffix = Path(name).suffix.lower()
    if suffix != ".jsonl" and suffix not in settings.extensions:
        raise InputError(
            f"{name}: {suffix or 'a file without an extension'} is not a format graphgate reads "
            f"(load.extensions: {', '.join(settings.extensions)}, and .jsonl)",
            "convert it to PDF, Word, text, Markdown or HTML; nothing changed",
        )


def unchanged_by(current: Sequence[Document], after: Sequence[Document]) -> bool:
    """The same ids with the same text, title and metadata (a new date is a change): an
    update that would change nothing. Where a file was read from is history, not content."""

    def content(docs: Sequence[Document]) -> dict[str, tuple[str, str, str]]:
        return {d.id: (d.sha256, d.title, d.metadata_json) for d in docs}

    return content(current) == content(after)


def unchanged_report(parent: Run, documents: int, problems: Sequence[LoadProblem]) -> IndexReport:
    """An add that changes nothing makes no run: the report names the current one."""
    manifest = parent.manifest()
    return IndexReport(
        parent.run_id,
        manifest.pipeline or "graph",
        [],
        [p.__dict__ for p in problems],
        dict(manifest.counts),
        0.0,
        {"added": [], "changed": [], "removed": [], "unchanged": documents},
        new_run=False,
    )
