"""What the gates read: one run's artifacts (and a few of its baseline's), loaded once."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import ValidationError

from graphgate.core.config import CommunitySettings, GateSettings
from graphgate.core.errors import InputError
from graphgate.core.runs import ArtifactRows, Run, replace_text
from graphgate.core.types import (
    Chunk,
    Community,
    CommunityReport,
    Conflict,
    Document,
    Entity,
    Relationship,
    Rows,
    from_table,
    vectors_from_table,
)
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.records import EvalSummary, parse_summary
from graphgate.gates.bands import comparability_key

Triple = tuple[str, str, str]


@dataclass
class GateContext:
    settings: GateSettings
    # The large artifacts are read from their files a batch at a time on each pass
    # (ArtifactRows): a gate keeps what it needs while it measures, so the gates' peak is
    # the largest one gate's, not every table and a record per row held for all eight.
    documents: Rows[Document] = field(default_factory=list)
    chunks: Rows[Chunk] = field(default_factory=list)
    entities: Rows[Entity] = field(default_factory=list)
    relationships: Rows[Relationship] = field(default_factory=list)
    communities: list[Community] = field(default_factory=list)
    reports: Rows[CommunityReport] = field(default_factory=list)
    # Across seeds (index/communities.py ``stability``): recorded by runs indexed before the
    # gate measured it, else measured by the gate with the run's own community settings.
    stability: dict[str, Any] | None = None
    community_settings: CommunitySettings | None = None
    seed: int = 0
    gold_triples: list[Triple] | None = None
    eval_summary: EvalSummary | None = None
    baseline: GateContext | None = None
    run_id: str = ""
    # The extract stage's report ({} while it has not reported); None when the run's pipeline
    # extracts nothing (vector-only), so entity counts are not judged there.
    extraction: dict[str, Any] | None = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    # Relations compared by meaning for the IE gate's "meaning" scores (None: by spelling).
    predicates: PredicateMatcher | None = None
    # The embedded entity names (ids, rows), for duplicates by meaning; None when not embedded.
    name_vectors: tuple[list[str], npt.NDArray[np.float32]] | None = None
    # What the extractor found before resolution: mentions by type, and raw relations by
    # kind (svo, cooccurrence); empty when the run kept no extraction artifacts.
    mention_types: dict[str, int] = field(default_factory=dict)
    relation_kinds: dict[str, int] = field(default_factory=dict)
    # The baseline indexed the same documents with the same index settings and seed: its
    # artifacts are what this run's must be again (the pipeline is deterministic).
    repeats_baseline: bool = False


def _counts(run: Run, name: str, column: str) -> dict[str, int]:
    """How often each value of ``column`` occurs in an artifact (one column read)."""
    if not run.has_artifact(name):
        return {}
    counted = run.read_artifact(name, [column]).column(column).value_counts()
    return {str(v["values"]): int(v["counts"]) for v in counted.to_pylist()}


def read_gold_triples(path: Path) -> list[Triple]:
    """JSONL: {"head", "relation", "tail"} a line, or {"triples": [[h, r, t], ...]} a line."""
    if not path.exists():
        raise InputError(f"gold triples not found: {path}", "check the path")
    triples: list[Triple] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path} line {number}: malformed JSON ({exc.msg})", "fix the line"
            ) from exc
        items = row.get("triples") if isinstance(row, dict) and "triples" in row else [row]
        for item in items or []:
            if isinstance(item, dict):
                item = [item.get("head"), item.get("relation"), item.get("tail")]
            if not (
                isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)
            ):
                raise InputError(
                    f"{path} line {number}: a triple needs head, relation and tail",
                    'write {"head": ..., "relation": ..., "tail": ...}',
                )
            triples.append((item[0], item[1], item[2]))
    return triples


def write_gold_triples(path: Path, triples: list[Triple]) -> None:
    """The gold triples a run is judged against, as :func:`read_gold_triples` reads them."""
    path.write_text(
        "".join(json.dumps({"head": h, "relation": r, "tail": t}) + "\n" for h, r, t in triples)
    )


def _name_vectors(run: Run) -> tuple[list[str], npt.NDArray[np.float32]] | None:
    if not run.has_artifact("entity_name_vectors"):
        return None
    ids, matrix = vectors_from_table(run.read_artifact("entity_name_vectors"))
    return (list(ids), matrix) if ids else None


def _table(run: Run, name: str, cls: type[Any]) -> list[Any]:
    return from_table(run.read_or_empty(name), cls)


_MEASURED_FROM = ("entities", "relationships")


def _artifacts_digest(run: Run) -> str:
    digest = hashlib.sha256()
    for name in _MEASURED_FROM:
        digest.update(run.artifact_path(name).read_bytes())
    return digest.hexdigest()


def _partition_digest(communities: Sequence[Community]) -> str:
    rows = [[c.id, c.level, c.parent, c.members] for c in communities]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def write_stability(run: Run, stability: dict[str, Any], partition: Sequence[Community]) -> None:
    """Kept with the digests of what it was measured from: the graph's artifacts and the
    partition compared across seeds (measured ahead, before the run's partition is written)."""
    record = {
        "measured_from": _artifacts_digest(run),
        "partition": _partition_digest(partition),
        "stability": stability,
    }
    replace_text(run.stability_path, json.dumps(record))


def read_stability(run: Run) -> dict[str, Any] | None:
    """The stability measured ahead of the gates, if it was measured from these artifacts and
    this run's partition (a stage re-run since leaves it behind)."""
    if not run.stability_path.exists() or not run.has_artifact("communities"):
        return None
    record = json.loads(run.stability_path.read_text())
    if record.get("measured_from") != _artifacts_digest(run):
        return None
    if record.get("partition") != _partition_digest(_table(run, "communities", Community)):
        return None
    stability: dict[str, Any] = record["stability"]
    return stability


def _community_settings(recorded: Any) -> CommunitySettings | None:
    """The settings a run's communities were detected with, as its manifest records them."""
    try:
        return CommunitySettings.model_validate(recorded) if isinstance(recorded, dict) else None
    except ValidationError:  # recorded by a version with other keys: not re-measurable
        return None


def load_context(
    run: Run,
    settings: GateSettings,
    baseline: Run | None = None,
    predicates: PredicateMatcher | None = None,
) -> GateContext:
    manifest = run.manifest()
    extracts = manifest.stage_names is None or "extract" in manifest.stage_names
    extract_stage, community_stage = manifest.stage("extract"), manifest.stage("communities")
    extraction: dict[str, Any] = extract_stage.info if extract_stage is not None else {}
    stability = community_stage.info.get("stability") if community_stage is not None else None
    if stability is None:
        stability = read_stability(run)
    gold = read_gold_triples(run.gold_triples_path) if run.gold_triples_path.exists() else None
    recorded = manifest.settings.get("communities")
    summary_path = run.eval_summary_path
    ctx = GateContext(
        settings=settings,
        documents=ArtifactRows(run, "documents", Document),
        chunks=ArtifactRows(run, "chunks", Chunk),
        entities=ArtifactRows(run, "entities", Entity),
        relationships=ArtifactRows(run, "relationships", Relationship),
        communities=_table(run, "communities", Community),
        reports=ArtifactRows(run, "community_reports", CommunityReport),
        conflicts=_table(run, "conflicts", Conflict),
        stability=stability,
        community_settings=_community_settings(recorded),
        seed=manifest.seed,
        gold_triples=gold,
        eval_summary=parse_summary(summary_path.read_text(), str(summary_path))
        if summary_path.exists()
        else None,
        run_id=run.run_id,
        extraction=extraction if extracts else None,
        predicates=predicates,
        name_vectors=_name_vectors(run),
        mention_types=_counts(run, "mentions", "type"),
        relation_kinds=_counts(run, "raw_relations", "kind"),
    )
    if baseline is not None:
        ctx.baseline = GateContext(
            settings=settings,
            documents=ArtifactRows(baseline, "documents", Document),
            communities=_table(baseline, "communities", Community),
            run_id=baseline.run_id,
            mention_types=_counts(baseline, "mentions", "type"),
        )
        ctx.repeats_baseline = baseline.manifest().seed == manifest.seed and (
            comparability_key(baseline) or "-"
        ) == comparability_key(run)
    return ctx
