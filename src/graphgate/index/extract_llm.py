"""The LLM extractor: entities and relationships per chunk, as validated JSON.

Structured output is asked for (JSON schema / tool use). What comes back is validated; text
that is not quite JSON (code fences, trailing commas, prose around it) is repaired; a chunk
whose answer still fails is asked once more with the error, and what fails then is counted and
reported in the manifest — never silently turned into zero entities.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphgate.core.config import ExtractSettings, LLMSettings, Settings
from graphgate.core.types import Chunk, Mention, RawRelation
from graphgate.index.extract_base import Extraction, Progress
from graphgate.index.extract_nlp import NlpExtractor
from graphgate.llm.base import Completion, LLMError, Request
from graphgate.llm.client import Accounting, LLMClient
from graphgate.llm.lenient import InvalidAnswer, lenient_json

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string"},
                    "description": {"type": "string"},
                },
                "required": ["name", "type"],
            },
        },
        "relationships": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "source": {"type": "string"},
                    "predicate": {"type": "string"},
                    "target": {"type": "string"},
                    "description": {"type": "string"},
                    "weight": {"type": "number"},
                    "valid_from": {"type": ["string", "null"]},
                    "valid_to": {"type": ["string", "null"]},
                },
                "required": ["source", "predicate", "target"],
            },
        },
    },
    "required": ["entities", "relationships"],
}
SYSTEM = (
    "You extract a knowledge graph from text. Return only entities and relationships the text "
    "states. Entity types: {types}. A relationship's predicate is a short verb phrase in "
    "snake_case; weight is 0.1-1.0 (how strongly the text supports it); valid_from and valid_to "
    "are dates (YYYY or YYYY-MM-DD) only when the text states them, else null."
)
USER = "Named entities spotted by a tagger (hints, may be incomplete): {hints}\n\nText:\n{text}"
GLEAN = "\n\nAlready extracted: {done}\nReturn only entities and relationships that were missed."
RETRY = (
    "\n\nYour previous answer could not be used ({error}). Answer again with JSON that "
    "follows the schema exactly."
)


# Raised for an extraction answer that cannot be used (the shared lenient reader's error).
InvalidExtraction = InvalidAnswer


def validate(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    entities, relationships = data.get("entities"), data.get("relationships")
    if not isinstance(entities, list) or not isinstance(relationships, list):
        raise InvalidExtraction("'entities' and 'relationships' must be lists")
    good_entities = [
        e
        for e in entities
        if isinstance(e, dict)
        and isinstance(e.get("name"), str)
        and e["name"].strip()
        and isinstance(e.get("type"), str)
    ]
    good_relations = [
        r
        for r in relationships
        if isinstance(r, dict)
        and all(
            isinstance(r.get(k), str) and r[k].strip() for k in ("source", "predicate", "target")
        )
    ]
    if len(good_entities) < len(entities) or len(good_relations) < len(relationships):
        raise InvalidExtraction("items without name/type or source/predicate/target")
    return good_entities, good_relations


class LlmExtractor:
    name = "llm"
    revision = "1"

    def __init__(self, settings: ExtractSettings, client: LLMClient, hints: NlpExtractor) -> None:
        self.settings = settings
        self.client = client
        self.hints = hints
        self._counts: dict[str, int] = {}
        self._first_error: str | None = None
        self._spent = Accounting()
        self._lock = threading.Lock()

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {**self._counts, "llm": self._spent.as_dict()}
        if self._first_error is not None:
            out["first_error"] = self._first_error
        return out

    def close(self) -> None:
        self.hints.close()

    def _count(self, key: str) -> None:
        with self._lock:
            self._counts[key] = self._counts.get(key, 0) + 1

    def requests(self, chunks: Sequence[Chunk], hints: Sequence[list[str]]) -> list[Request]:
        system = SYSTEM.format(types=", ".join(self.settings.llm_entity_types))
        return [
            Request(
                system,
                USER.format(hints=", ".join(h) or "none", text=c.text),
                SCHEMA,
                "record_graph",
                self.client.settings.max_tokens,
                self.client.settings.temperature,
            )
            for c, h in zip(chunks, hints, strict=True)
        ]

    def extract(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> Extraction:
        self._first_error = None
        self._counts = {
            "chunks": len(chunks),
            "failed_chunks": 0,
            "repaired": 0,
            "retried": 0,
            "truncated": 0,
        }
        hints = self.hints.names(chunks)
        requests = self.requests(chunks, hints)
        with self.client.scope() as self._spent:
            results = self.client.parallel(
                self._one, list(zip(chunks, requests, strict=True)), progress
            )
        mentions = [m for ms, _ in results for m in ms]
        relations = [r for _, rs in results for r in rs]
        return Extraction(mentions, relations)

    def _ask(self, request: Request) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        try:
            return self._parse(self.client.complete(request))
        except InvalidExtraction:
            self.client.forget(request)  # never replay an unusable answer from the cache
            raise

    def _parse(self, completion: Completion) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        if completion.finish_reason in {"length", "max_tokens"}:
            self._count("truncated")
        if completion.data is not None:
            return validate(completion.data)
        try:
            data = json.loads(completion.text)
        except json.JSONDecodeError:
            data = lenient_json(completion.text)
            self._count("repaired")
        if not isinstance(data, dict):
            raise InvalidExtraction("the answer is not a JSON object")
        return validate(data)

    def _one(self, item: tuple[Chunk, Request]) -> tuple[list[Mention], list[RawRelation]]:
        chunk, request = item
        try:
            try:
                entities, relations = self._ask(request)
            except InvalidExtraction as exc:
                self._count("retried")
                entities, relations = self._ask(
                    Request(
                        request.system,
                        request.user + RETRY.format(error=exc),
                        request.schema,
                        request.schema_name,
                        request.max_tokens,
                        request.temperature,
                    )
                )
            for _ in range(self.settings.gleaning):
                done = json.dumps({"entities": [e["name"] for e in entities]}, ensure_ascii=False)
                more_e, more_r = self._ask(
                    Request(
                        request.system,
                        request.user + GLEAN.format(done=done),
                        request.schema,
                        request.schema_name,
                        request.max_tokens,
                        request.temperature,
                    )
                )
                entities, relations = entities + more_e, relations + more_r
        except (InvalidExtraction, LLMError) as exc:
            self._count("failed_chunks")
            with self._lock:
                if self._first_error is None:
                    self._first_error = f"{type(exc).__name__}: {exc}"[:500]
            return [], []
        return self._records(chunk, entities, relations)

    @staticmethod
    def _records(
        chunk: Chunk, entities: list[dict[str, Any]], relations: list[dict[str, Any]]
    ) -> tuple[list[Mention], list[RawRelation]]:
        mentions = [
            Mention(
                chunk.id,
                chunk.doc_id,
                e["name"].strip(),
                e["type"].strip().upper(),
                (e.get("description") or e["name"]).strip(),
            )
            for e in entities
        ]
        known = {m.name for m in mentions}
        out: list[RawRelation] = []
        for r in relations:
            source, target = r["source"].strip(), r["target"].strip()
            for name in (source, target):
                if name not in known:  # an end the model did not list: keep it, untyped
                    mentions.append(Mention(chunk.id, chunk.doc_id, name, "UNKNOWN", name))
                    known.add(name)
            predicate = re.sub(r"\W+", "_", r["predicate"].strip().lower()).strip("_")
            out.append(
                RawRelation(
                    chunk.id,
                    chunk.doc_id,
                    source,
                    target,
                    predicate or "related",
                    "llm",
                    (r.get("description") or "").strip(),
                    r.get("valid_from") or None,
                    r.get("valid_to") or None,
                )
            )
        return mentions, out


def estimate_extraction(
    chunks: Sequence[Chunk], settings: ExtractSettings, llm: LLMSettings
) -> dict[str, Any]:
    """Calls, tokens and cost of extracting ``chunks`` with the LLM extractor, before any call.

    Prompt tokens are counted as characters / 4 (the usual rule for English with GPT-style
    tokenizers); completion tokens are estimated at half the prompt's."""
    overhead = len(SYSTEM) + len(USER) + 40 * 12  # prompts, schema and ~40 hint names
    passes = 1 + settings.gleaning
    prompt = sum((overhead + len(c.text)) // 4 for c in chunks) * passes
    completion = prompt // 2
    price = llm.prices.get(llm.model)
    return {
        "chunks": len(chunks),
        "calls": len(chunks) * passes,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cost": None if price is None else price.cost(prompt, completion),
        "provider": llm.provider,
        "model": llm.model,
    }


def estimate_corpus(corpus: Path, settings: Settings) -> dict[str, Any]:
    """Calls, tokens and cost of indexing ``corpus`` with the configured extractor, before any
    call (zero for the offline extractor)."""
    from graphgate.index.chunk import chunk_documents
    from graphgate.index.load import CorpusLoader

    docs = CorpusLoader(settings.load).load(corpus).documents
    chunks = chunk_documents(docs, settings.chunk)
    numbers = estimate_extraction(chunks, settings.extract, settings.llm)
    if settings.extract.extractor != "llm":
        numbers |= {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0}
        numbers["note"] = (
            f"the configured extractor ({settings.extract.extractor}) makes no model calls; "
            "pass --extractor llm to estimate the LLM extractor"
        )
    return {"documents": len(docs), **numbers}
