"""Extractions made elsewhere, imported instead of extracted (``extract.extractor = "import"``,
``graphgate index CORPUS --extractions FILE``): a team's own LLM pipeline, an OpenIE run.

Three formats, told apart by their shape:

- graphgate's JSONL, one object a document: ``{"doc_id", "entities": [{"name", "type"?,
  "description"?, "aliases"?}], "relations": [{"source", "predicate", "target",
  "description"?, "valid_from"?, "valid_to"?}]}``;
- HippoRAG's OpenIE JSON, ``{"docs": [{"title", "passage", "extracted_entities",
  "extracted_triples"}]}`` (a document is found by its title, or by its id);
- an MS GraphRAG output folder (``entities.parquet``, ``relationships.parquet``,
  ``text_units.parquet``): its relationships carry descriptions, not predicates, so they are
  imported as ``related`` with their description.

An entity is mentioned in every chunk of its document that names it (or one of its aliases,
as whole words, any case). A relation is placed in the chunks with a sentence naming both ends
(the chunks that state it), else in every chunk naming both, and counted as unplaced where no
chunk names both. Everything after extraction (resolution, communities, reports, gates,
updates) is unchanged; the IE gate scores imported triples as it scores extracted ones.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphgate.core.config_index import ExtractSettings
from graphgate.core.errors import InputError
from graphgate.core.text import normalise_name, sentence_spans
from graphgate.core.types import Chunk, Mention, RawRelation
from graphgate.index.extract_base import Extraction, Progress

_UNTYPED = "UNKNOWN"


@dataclass(frozen=True)
class ImportedEntity:
    name: str
    type: str
    description: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportedRelation:
    source: str
    predicate: str
    target: str
    description: str = ""
    valid_from: str | None = None
    valid_to: str | None = None


@dataclass
class ImportedDocument:
    entities: list[ImportedEntity] = field(default_factory=list)
    relations: list[ImportedRelation] = field(default_factory=list)


def read_extractions(path: Path) -> dict[str, ImportedDocument]:
    """Extractions by document id (or, from HippoRAG, by title); a malformed line or record
    is an error naming the file and the line."""
    if path.is_dir():
        return _msgraphrag(path)
    if not path.is_file():
        raise InputError(
            f"extractions file {path} does not exist",
            "pass --extractions with a JSONL (graphgate) or JSON (HippoRAG OpenIE) file, or "
            "an MS GraphRAG output folder",
        )
    text = path.read_text(encoding="utf-8")
    head = text.lstrip()[:1]
    if head == "{":
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None  # one object a line: graphgate's JSONL
        if isinstance(whole, dict) and isinstance(whole.get("docs"), list):
            return _hipporag(path, whole["docs"])
    return _jsonl(path, text)


def _jsonl(path: Path, text: str) -> dict[str, ImportedDocument]:
    out: dict[str, ImportedDocument] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not JSON ({exc.msg})", _FORMAT_FIX) from exc
        if not isinstance(record, dict) or not isinstance(record.get("doc_id"), str | int):
            raise InputError(f"{where}: an object with a doc_id is expected", _FORMAT_FIX)
        doc = out.setdefault(str(record["doc_id"]), ImportedDocument())
        for item in _list(record, "entities", where):
            doc.entities.append(_entity(item, where))
        for item in _list(record, "relations", where):
            doc.relations.append(_relation(item, where))
    return out


_FORMAT_FIX = (
    'one object a line: {"doc_id": ..., "entities": [{"name": ...}], "relations": '
    '[{"source": ..., "predicate": ..., "target": ...}]}'
)


def _list(record: dict[str, Any], key: str, where: str) -> list[Any]:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise InputError(f"{where}: {key} must be a list", _FORMAT_FIX)
    return value


def _text(item: dict[str, Any], key: str, where: str, required: bool = True) -> str:
    value = item.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise InputError(f"{where}: {key} must be a non-empty string", _FORMAT_FIX)
    return value.strip()


def _entity(item: Any, where: str) -> ImportedEntity:
    if not isinstance(item, dict):
        raise InputError(f"{where}: an entity must be an object with a name", _FORMAT_FIX)
    aliases = item.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise InputError(f"{where}: aliases must be a list of strings", _FORMAT_FIX)
    name = _text(item, "name", where)
    kind = _text(item, "type", where, required=False).upper() or _UNTYPED
    description = _text(item, "description", where, required=False)
    return ImportedEntity(name, kind, description, tuple(a.strip() for a in aliases if a.strip()))


def _relation(item: Any, where: str) -> ImportedRelation:
    if not isinstance(item, dict):
        raise InputError(f"{where}: a relation must be an object", _FORMAT_FIX)
    times = [item.get(k) for k in ("valid_from", "valid_to")]
    if any(t is not None and not isinstance(t, str) for t in times):
        raise InputError(f"{where}: valid_from / valid_to must be strings", _FORMAT_FIX)
    return ImportedRelation(
        _text(item, "source", where),
        _text(item, "predicate", where),
        _text(item, "target", where),
        _text(item, "description", where, required=False),
        times[0] or None,
        times[1] or None,
    )


def _hipporag(path: Path, docs: list[Any]) -> dict[str, ImportedDocument]:
    out: dict[str, ImportedDocument] = {}
    for number, item in enumerate(docs, start=1):
        where = f"{path}: docs[{number - 1}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: an object is expected", _HIPPO_FIX)
        key = item.get("title") or item.get("idx")
        if not isinstance(key, str | int) or key == "":
            raise InputError(f"{where}: a title is expected", _HIPPO_FIX)
        doc = out.setdefault(str(key), ImportedDocument())
        names = item.get("extracted_entities") or []
        triples = item.get("extracted_triples") or []
        if not isinstance(names, list) or not isinstance(triples, list):
            raise InputError(f"{where}: extracted_entities / _triples must be lists", _HIPPO_FIX)
        for name in names:
            if isinstance(name, str) and name.strip():
                doc.entities.append(ImportedEntity(name.strip(), _UNTYPED, ""))
        for triple in triples:
            if not (isinstance(triple, list) and len(triple) == 3):
                raise InputError(f"{where}: a triple is [subject, predicate, object]", _HIPPO_FIX)
            if all(isinstance(part, str) and part.strip() for part in triple):
                doc.relations.append(ImportedRelation(*(str(p).strip() for p in triple)))
    return out


_HIPPO_FIX = (
    'HippoRAG OpenIE output: {"docs": [{"title": ..., "passage": ..., '
    '"extracted_entities": [...], "extracted_triples": [[s, p, o], ...]}]}'
)


def _msgraphrag(folder: Path) -> dict[str, ImportedDocument]:
    """An MS GraphRAG output folder: ``entities.parquet`` (title, type, description,
    text_unit_ids), ``relationships.parquet`` (source, target, description, text_unit_ids)
    and ``text_units.parquet`` (id, document_ids or document_id); with ``documents.parquet``
    a document is known by its title (the file name graphgate indexed), else by its id."""
    import pyarrow.parquet as pq

    tables = {}
    for name in ("entities", "relationships", "text_units"):
        file = folder / f"{name}.parquet"
        if not file.is_file():
            raise InputError(f"{folder} has no {name}.parquet", _MSGRAPHRAG_FIX)
        tables[name] = pq.read_table(file).to_pylist()
    titles: dict[str, str] = {}
    if (folder / "documents.parquet").is_file():
        for row in pq.read_table(folder / "documents.parquet").to_pylist():
            titles[str(row["id"])] = str(row.get("title") or row["id"])
    unit_docs: dict[str, list[str]] = {}
    for row in tables["text_units"]:
        ids = row.get("document_ids") or ([row["document_id"]] if row.get("document_id") else [])
        unit_docs[str(row["id"])] = [titles.get(str(d), str(d)) for d in ids]
    out: dict[str, ImportedDocument] = {}

    def docs_of(row: dict[str, Any], where: str) -> list[ImportedDocument]:
        units = row.get("text_unit_ids") or []
        found = dict.fromkeys(d for u in units for d in unit_docs.get(str(u), []))
        if not found and units:
            raise InputError(f"{where}: its text units are not in text_units.parquet",
                             _MSGRAPHRAG_FIX)  # fmt: skip
        return [out.setdefault(d, ImportedDocument()) for d in found]

    for number, row in enumerate(tables["entities"]):
        where = f"{folder / 'entities.parquet'}: row {number}"
        name = str(row.get("title") or row.get("name") or "").strip()
        if not name:
            raise InputError(f"{where}: an entity needs a title", _MSGRAPHRAG_FIX)
        kind = str(row.get("type") or _UNTYPED).upper()
        for doc in docs_of(row, where):
            doc.entities.append(ImportedEntity(name, kind, str(row.get("description") or "")))
    for number, row in enumerate(tables["relationships"]):
        where = f"{folder / 'relationships.parquet'}: row {number}"
        source, target = (str(row.get(k) or "").strip() for k in ("source", "target"))
        if not source or not target:
            raise InputError(f"{where}: a relationship needs source and target", _MSGRAPHRAG_FIX)
        description = str(row.get("description") or "")
        for doc in docs_of(row, where):
            doc.relations.append(ImportedRelation(source, "related", target, description))
    return out


_MSGRAPHRAG_FIX = (
    "point --extractions at an MS GraphRAG output folder (entities.parquet, "
    "relationships.parquet, text_units.parquet)"
)


def _pattern(names: Sequence[str]) -> re.Pattern[str]:
    """Any of ``names`` as whole words, any case, longest first."""
    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


class ImportExtractor:
    """The :class:`~graphgate.index.extract_base.Extractor` over an extractions file."""

    name = "import"
    revision = "1"

    def __init__(self, settings: ExtractSettings) -> None:
        if not settings.import_path:
            raise InputError(
                'extract.extractor = "import" needs the extractions file',
                "pass --extractions FILE (or set extract.import_path)",
            )
        self.path = Path(settings.import_path)
        self._documents: dict[str, ImportedDocument] | None = None
        self._report: dict[str, Any] = {}

    def documents(self) -> dict[str, ImportedDocument]:
        """Read when extraction starts, so an edited file is read by the next run."""
        if self._documents is None:
            self._documents = read_extractions(self.path)
        return self._documents

    def extract(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> Extraction:
        self._documents = None  # each run reads the file as it is then
        documents = self.documents()
        by_doc: dict[str, list[Chunk]] = {}
        for chunk in chunks:
            by_doc.setdefault(chunk.doc_id, []).append(chunk)
        mentions: list[Mention] = []
        relations: list[RawRelation] = []
        missing: list[str] = []
        unplaced = 0
        for doc_id, doc_chunks in by_doc.items():
            imported = documents.get(doc_id)
            if imported is None:
                missing.append(doc_id)
            else:
                found, related, lost = _place(imported, doc_chunks)
                mentions += found
                relations += related
                unplaced += lost
            if progress is not None:
                progress(len(doc_chunks))
        self._report = {
            "documents_without_extractions": len(missing),
            "without_extractions": sorted(missing)[:20],
            "unplaced_relations": unplaced,
        }
        return Extraction(mentions, relations)

    def report(self) -> dict[str, Any]:
        return dict(self._report)

    def close(self) -> None:
        pass


def _place(
    doc: ImportedDocument, chunks: list[Chunk]
) -> tuple[list[Mention], list[RawRelation], int]:
    """The document's mentions and relations in its chunks; how many relations found none."""
    known = {n.lower(): e for e in doc.entities for n in (*e.aliases, e.name)}
    names: dict[str, list[str]] = {e.name: [e.name, *e.aliases] for e in doc.entities}
    for r in doc.relations:  # an end the extractions did not list is a name of its own
        for end in (r.source, r.target):
            if end.lower() not in known:
                names.setdefault(end, [end])
    names_of_entities = {e.name for e in doc.entities}
    patterns = {name: _pattern(all_names) for name, all_names in names.items()}
    # Per chunk: the names it mentions, with the sentence of the first mention.
    named: list[dict[str, str]] = []
    mentions: list[Mention] = []
    for chunk in chunks:
        here: dict[str, str] = {}
        for name, pattern in patterns.items():
            match = pattern.search(chunk.text)
            if match is None:
                continue
            here[name] = _sentence_at(chunk.text, match.start())
            entity = known.get(name.lower()) if name in names_of_entities else None
            kind = entity.type if entity is not None else _UNTYPED
            # What the extractions say of it, else the sentence that names it.
            sentence = (entity.description if entity is not None else "") or here[name]
            mentions.append(
                Mention(chunk.id, chunk.doc_id, _as_written(name, match), kind, sentence)
            )
        named.append(here)
    relations: list[RawRelation] = []
    lost = 0
    for r in doc.relations:
        source = known[r.source.lower()].name if r.source.lower() in known else r.source
        target = known[r.target.lower()].name if r.target.lower() in known else r.target
        both = [i for i, here in enumerate(named) if source in here and target in here]
        stating = [i for i in both if _states(chunks[i].text, patterns[source], patterns[target])]
        if not both:
            lost += 1
            continue
        predicate = re.sub(r"\W+", "_", r.predicate.lower()).strip("_") or "related"
        for i in stating or both:
            chunk = chunks[i]
            relations.append(
                RawRelation(
                    chunk.id,
                    chunk.doc_id,
                    source,
                    target,
                    predicate,
                    "import",
                    r.description or named[i][source],
                    r.valid_from,
                    r.valid_to,
                )
            )
    return mentions, relations, lost


def _as_written(name: str, match: re.Match[str]) -> str:
    """A name in capitals (MS GraphRAG writes every title so) as the text writes it, when that
    is the same name (an alias found stays the entity's name); resolution then names the
    entity by its most frequent spelling."""
    if not name.isupper():
        return name
    written = match.group()
    return written if normalise_name(written) == normalise_name(name) else name


def _sentence_at(text: str, offset: int) -> str:
    for start, end in sentence_spans(text):
        if start <= offset < end:
            return text[start:end]
    return text[:200]


def _states(text: str, source: re.Pattern[str], target: re.Pattern[str]) -> bool:
    """Whether one sentence of ``text`` names both ends."""
    return any(
        source.search(text, start, end) and target.search(text, start, end)
        for start, end in sentence_spans(text)
    )
