"""Gates 1 and 2: data lineage and chunks."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext

OVERLAP_BINS = (0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)


class DataGate:
    """Stable ids, content hashes and versions; lineage of every entity and edge to a document."""

    name = "data"

    def measure(self, ctx: GateContext) -> GateResult:
        docs = {d.id: d for d in ctx.documents}
        missing = sum(
            1 for d in ctx.documents if not (d.id and len(d.sha256) == 64 and d.version >= 1)
        )
        lineages = itertools.chain(
            (e.doc_ids for e in ctx.entities), (r.doc_ids for r in ctx.relationships)
        )
        total = len(ctx.entities) + len(ctx.relationships)
        traced = sum(1 for ids in lineages if ids and all(d in docs for d in ids))
        # The same text under two ids (a folder ingested twice, a copy renamed): its facts count
        # twice and its passages crowd the results.
        by_content: dict[str, list[str]] = defaultdict(list)
        for d in ctx.documents:
            by_content[d.sha256].append(d.id)
        copies = [sorted(ids) for ids in by_content.values() if len(ids) > 1]
        metrics: dict[str, float | None] = {
            "documents": float(len(docs)),
            "missing_identity": float(missing),
            "lineage_coverage": traced / total if total else None,
            "duplicate_content_rate": sum(len(c) - 1 for c in copies) / len(docs) if docs else None,
        }
        details: dict[str, object] = {"duplicate_content": copies[: ctx.settings.samples]}
        if ctx.baseline is not None:
            before = {d.id: d.sha256 for d in ctx.baseline.documents}
            added = sorted(set(docs) - set(before))
            removed = sorted(set(before) - set(docs))
            changed = sorted(i for i in set(docs) & set(before) if docs[i].sha256 != before[i])
            metrics |= {
                "added": float(len(added)),
                "changed": float(len(changed)),
                "removed": float(len(removed)),
            }
            details |= {"added": added[:20], "changed": changed[:20], "removed": removed[:20]}
        return GateResult(self.name, metrics, details)


_SENTENCE_END = ".!?\"'”’)]:;…*"


def _document_shape(ctx: GateContext) -> dict[str, float | None]:
    """What the parser handed the chunker: chunks that end at a paragraph break (of those
    not last in their document: a parser that flattens paragraphs sends this to zero),
    documents whose text stops mid-sentence (a reader that stops early), and their mean
    length."""
    docs = {d.id: d for d in ctx.documents}
    last: dict[str, int] = {}
    for c in ctx.chunks:
        last[c.doc_id] = max(last.get(c.doc_id, 0), c.end)
    inner = [c for c in ctx.chunks if c.doc_id in docs and c.end < last[c.doc_id]]
    paragraph = sum(
        docs[c.doc_id].text[c.end : c.end + 4].lstrip(" \t").startswith("\n") for c in inner
    )
    texts = [d.text.rstrip() for d in ctx.documents]
    unfinished = sum(1 for t in texts if t and t[-1] not in _SENTENCE_END)
    return {
        "paragraph_end_rate": paragraph / len(inner) if inner else None,
        "unfinished_documents": unfinished / len(texts) if texts else None,
        "chars_per_document": float(np.mean([len(t) for t in texts])) if texts else None,
    }


def _distribution(values: list[float], prefix: str) -> dict[str, float | None]:
    if not values:
        return {f"{prefix}_{k}": None for k in ("min", "p5", "p50", "p95", "max")}
    a = np.asarray(values, dtype=float)
    return {
        f"{prefix}_min": float(a.min()),
        f"{prefix}_p5": float(np.percentile(a, 5)),
        f"{prefix}_p50": float(np.percentile(a, 50)),
        f"{prefix}_p95": float(np.percentile(a, 95)),
        f"{prefix}_max": float(a.max()),
    }


class ChunkGate:
    """Length distribution (the tail, not only the mean), overlaps, and whether chunk text and
    offsets still agree with the document and end where sentences or paragraphs end."""

    name = "chunk"

    def measure(self, ctx: GateContext) -> GateResult:
        docs = {d.id: d for d in ctx.documents}
        chunks = ctx.chunks
        metrics: dict[str, float | None] = {"chunks": float(len(chunks))}
        metrics |= _distribution([float(c.n_tokens) for c in chunks], "tokens")
        metrics |= _distribution([float(len(c.text)) for c in chunks], "chars")
        faithful = sum(
            1 for c in chunks if c.doc_id in docs and docs[c.doc_id].text[c.start : c.end] == c.text
        )
        at_boundary = 0
        for c in chunks:
            doc = docs.get(c.doc_id)
            after = doc.text[c.end : c.end + 2] if doc else ""
            at_boundary += c.text.rstrip()[-1:] in ".!?\"'”’" or after.startswith("\n") or not after
        metrics["offset_fidelity"] = faithful / len(chunks) if chunks else None
        metrics["boundary_rate"] = at_boundary / len(chunks) if chunks else None
        metrics |= _document_shape(ctx)
        by_doc: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for c in chunks:
            by_doc[c.doc_id].append((c.start, c.end))
        overlaps: list[float] = []
        for spans in by_doc.values():
            spans.sort()
            for (_, e1), (s2, e2) in itertools.pairwise(spans):
                overlaps.append(max(0, e1 - s2) / max(1, e2 - s2))
        counts = np.histogram(overlaps, bins=OVERLAP_BINS)[0] if overlaps else np.zeros(0)
        metrics["overlap_mean"] = float(np.mean(overlaps)) if overlaps else None
        labels = [f"{lo:g}-{hi:g}" for lo, hi in itertools.pairwise(OVERLAP_BINS)]
        details = {"overlap_histogram": {k: int(n) for k, n in zip(labels, counts, strict=False)}}
        return GateResult(self.name, metrics, details)
