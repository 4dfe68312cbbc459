"""Stage *extract*: chunks to mentions and raw relations, through the configured executor,
with the offline extractor's results cached by chunk content."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

import pyarrow as pa

from graphgate.core.errors import ExtractionFailedError
from graphgate.core.family_match import family_matcher
from graphgate.core.types import Chunk, Mention, RawRelation, dicts_to_table, from_table
from graphgate.index.cache import (
    content_key,
    decode_extraction,
    encode_extraction,
    extractor_fingerprint,
)
from graphgate.index.pipeline import IndexContext, StageOutput
from graphgate.index.tenures import revise_extraction

# Chunks extracted (and turned into rows) per step of the offline extractor: its mentions and
# relations exist as records for one window of chunks at a time, then as Arrow columns.
_EXTRACT_WINDOW = 2048


def extract_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    chunks = from_table(tables["chunks"], Chunk)
    # The offline extractor's output depends on a chunk's text and its settings only, so it is
    # cached by those; the LLM extractor's answers are cached by request in the LLM cache.
    offline = ctx.extractor.name == "nlp"
    cache = ctx.cache if offline else None
    settings = ctx.settings.extract.model_dump_json(
        exclude={"batch_size", "processes", "parallel_from", "keep_workers"}  # how, not what
    )
    fingerprint = extractor_fingerprint(f"{ctx.extractor.name}/{ctx.extractor.revision}", settings)
    keys = [content_key(fingerprint, c.text) for c in chunks]
    found = cache.get_many("extraction", keys) if cache is not None and ctx.reuse else {}
    todo = sum(key not in found for key in keys)
    advance = ctx.progress("extract", todo)
    families = family_matcher(ctx.settings.truth)  # posts and relations by meaning
    # In windows of chunks, in order (a model's extractor in one: its report covers one call).
    window = _EXTRACT_WINDOW if offline else max(len(chunks), 1)
    mention_parts: list[pa.Table] = []
    relation_parts: list[pa.Table] = []
    for start in range(0, len(chunks), window):
        part = chunks[start : start + window]
        part_keys = keys[start : start + window]
        fresh = _extract_fresh(
            ctx, [c for c, k in zip(part, part_keys, strict=True) if k not in found], advance
        )
        if cache is not None and fresh:
            cache.put_many(
                "extraction",
                (
                    (key, encode_extraction(*fresh[c.id]))
                    for c, key in zip(part, part_keys, strict=True)
                    if c.id in fresh
                ),
            )
        # Rows as dicts, never records: a cached chunk's rows go from JSON to columns directly.
        mentions: list[dict[str, Any]] = []
        relations: list[dict[str, Any]] = []
        for chunk, key in zip(part, part_keys, strict=True):
            place = {"chunk_id": chunk.id, "doc_id": chunk.doc_id}
            unplaced = fresh[chunk.id] if chunk.id in fresh else decode_extraction(found[key])
            found_here, revised = revise_extraction(unplaced[0], unplaced[1], families)
            mentions += [{**m, **place} for m in found_here]
            relations += [{**r, **place} for r in revised]
        mention_parts.append(dicts_to_table(mentions, Mention))
        relation_parts.append(dicts_to_table(relations, RawRelation))
    report = ctx.extractor.report() if todo else {}
    mention_table = _concatenated(mention_parts, Mention)
    return StageOutput(
        {
            "mentions": mention_table,
            "raw_relations": _concatenated(relation_parts, RawRelation),
        },
        {
            "extractor": ctx.extractor.name,
            **report,
            "chunks": len(chunks),
            "reused": len(chunks) - todo,
            "failed_chunks": int(report.get("failed_chunks", 0)),
            "mentions": mention_table.num_rows,
        },
    )


def _extract_fresh(
    ctx: IndexContext, chunks: list[Chunk], advance: Callable[[int], None]
) -> dict[str, tuple[list[dict[str, object]], list[dict[str, object]]]]:
    """The executor's extraction of ``chunks``, by chunk id, without places (cacheable)."""
    if not chunks:
        return {}
    extraction = ctx.executor.extract(ctx.extractor, chunks, advance)
    per_chunk: dict[str, tuple[list[Mention], list[RawRelation]]] = {c.id: ([], []) for c in chunks}
    for m in extraction.mentions:
        per_chunk[m.chunk_id][0].append(m)
    for r in extraction.relations:
        per_chunk[r.chunk_id][1].append(r)
    return {chunk_id: _unplaced(*found_here) for chunk_id, found_here in per_chunk.items()}


def _concatenated(parts: list[pa.Table], cls: type) -> pa.Table:
    return pa.concat_tables(parts) if parts else dicts_to_table([], cls)


def _unplaced(
    mentions: list[Mention], relations: list[RawRelation]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """A chunk's extraction without its place (chunk and document id): reusable for any chunk
    with the same text."""
    drop = {"chunk_id", "doc_id"}
    return (
        [{k: v for k, v in asdict(m).items() if k not in drop} for m in mentions],
        [{k: v for k, v in asdict(r).items() if k not in drop} for r in relations],
    )


def check_extraction(ctx: IndexContext, output: StageOutput) -> None:
    """A graph run needs entities: too many failed chunks, or none found, stops it."""
    info = output.info
    chunks, failed = int(info["chunks"]), int(info["failed_chunks"])
    limit = ctx.settings.extract.max_failed_share
    if chunks and failed / chunks > limit:
        first = info.get("first_error")
        raise ExtractionFailedError(
            f"extraction failed on {failed} of {chunks} chunks ({failed / chunks:.0%}, over "
            f"extract.max_failed_share {limit:g})" + (f"; first error: {first}" if first else ""),
            "check that the model answers (llm.base_url, llm.model, the API key), or index with "
            "--extractor nlp; the previous run stays current",
        )
    if chunks and not info["mentions"]:
        raise ExtractionFailedError(
            f"the {info['extractor']} extractor found no entities in {chunks} chunks",
            "a graph index needs names: check the corpus is text with named things, set "
            "extract.concepts = true for texts about things, or index with --pipeline vector",
        )
