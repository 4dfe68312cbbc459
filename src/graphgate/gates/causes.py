"""What a flagged metric means for the stage behind it, in words: the notes under a gates
report that name the likely cause ("the parser may be losing paragraph breaks"), beside the
reasons that give the numbers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphgate.gates.base import FAIL, WARN, GateResult

# "gate.metric" -> what its flag most likely means; {value} and {was} (the baseline's value,
# or "?") are filled in.
CAUSES: dict[str, str] = {
    "data.lineage_coverage": "{value:.1%} of entities and edges trace back to a document: a "
    "stage dropped or rewrote their documents (lineage lost)",
    "data.duplicate_content_rate": "{value:.1%} of documents repeat another's text under a new "
    "id: a folder ingested twice, or a copy renamed",
    "chunk.paragraph_end_rate": "chunks end at a paragraph break {value:.1%} of the time (was "
    "{was}): the parser may be losing paragraph breaks",
    "chunk.unfinished_documents": "{value:.1%} of documents end mid-sentence (was {was}): a "
    "reader that stops early, or truncated files",
    "chunk.overlap_mean": "chunks overlap by {value:.3f} of their length (was {was}): the "
    "chunk overlap changed",
    "ie.failed_chunk_share": "the extractor gave up on {value:.1%} of chunks (was {was}): "
    "answers that could not be read",
    "ie.type_shift": "{value:.1%} of mentions would have to change type to match the "
    "baseline's mix: the extractor finds other kinds of things (types narrowed, a prompt "
    "changed)",
    "ie.relations_per_1k_tokens": "{value:.3g} relations per 1,000 tokens (was {was}): the "
    "extractor relates less (relations or co-occurrence edges dropped)",
    "graph.hub_share": "one entity holds {value:.1%} of all edge ends (was {was}): a generic "
    "term or an over-merged entity became a hub",
    "community.repeated_partition_ari": "the same documents, index settings and seed as the "
    "baseline gave another partition (ARI {value:.3f}): something the settings do not record "
    "changed it (a stage's code, a seed that does not reach Leiden)",
    "hierarchy.levels": "the hierarchy has {value:g} levels (was {was}): levels collapsed or "
    "split further (communities.max_cluster_size)",
    "summary.hallucinated_claims": "{value:g} report claims are backed by no chunk, edge or "
    "description: the summarizer adds what no source says",
    "gen.citation_accuracy": "{value:.1%} of citations name a retrieved chunk that holds "
    "their span: answers cite the wrong chunk",
    "gen.latency_p50_ms": "the median answer takes {value:.0f} ms (was {was}): retrieval or "
    "the answerer got slower",
}


def _flagged(result: GateResult, metric: str) -> bool:
    return result.verdicts.get(metric) in {WARN, FAIL}


def cause_notes(
    results: Sequence[GateResult], baseline: dict[str, dict[str, Any]] | None
) -> list[str]:
    """A note per flagged metric whose cause is known, in gate order."""
    notes: list[str] = []
    for result in results:
        before = (baseline or {}).get(result.gate) or {}
        for metric, value in result.metrics.items():
            text = CAUSES.get(f"{result.gate}.{metric}")
            if text is None or value is None or not _flagged(result, metric):
                continue
            was = before.get(metric)
            notes.append(text.format(value=value, was=f"{was:.4g}" if was is not None else "?"))
    by_gate = {r.gate: r for r in results}
    graph, community = by_gate.get("graph"), by_gate.get("community")
    if graph is not None and _flagged(graph, "near_duplicate_rate"):
        was = ((baseline or {}).get("graph") or {}).get("near_duplicate_rate")
        samples = "; ".join(graph.details.get("near_duplicates", [])[:3])
        notes.append(
            "entity resolution leaves more likely duplicates apart: near-duplicate rate "
            f"{graph.metrics['near_duplicate_rate']:.4f}"
            + (f" (baseline {was:.4f})" if isinstance(was, float) else "")
            + f", e.g. {samples}"
        )
    if community is not None and _flagged(community, "baseline_ari_gap"):
        m = community.metrics
        notes.append(
            f"the partition moved from the baseline's (ARI {m['ari_vs_baseline']:.3f}) more than "
            f"a change of seed moves it (ARI {m['ari_min']:.3f}): the graph under it changed"
        )
    return notes
