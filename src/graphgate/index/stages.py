"""Thin adapters that turn the pure stage functions into pipeline stages, and the pipelines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from graphgate.core.family_match import family_matcher
from graphgate.core.types import (
    SCHEMAS,
    Chunk,
    Community,
    CommunityReport,
    Conflict,
    Document,
    Entity,
    Mention,
    RawRelation,
    Relationship,
    TableRows,
    claims_from_json,
    column_values,
    from_table,
    to_table,
    vectors_from_table,
    vectors_table,
)
from graphgate.embed.base import Matrix, VectorRows, l2_normalise_in_place, mean_directions
from graphgate.index.cache import (
    CachedEmbedder,
    CachedReports,
    content_key,
)
from graphgate.index.chunk import chunk_documents
from graphgate.index.communities import detect, undirected_edges
from graphgate.index.curation import (
    curation_key,
    effective,
    kept_apart,
    with_statement_counts,
    without_deleted,
)
from graphgate.index.edges import edge_table, supersede_table
from graphgate.index.extract_stage import check_extraction, extract_stage
from graphgate.index.load import CorpusLoader, versioned
from graphgate.index.pipeline import IndexContext, Pipeline, Stage, StageOutput
from graphgate.index.resolve import EDGES_VERSION, EntityResolver, deleted_statements
from graphgate.index.resolve_update import ParentEdges, changed_chunks, combined, update_edges
from graphgate.index.summarize import CommunitySummarizer, Summarizer
from graphgate.index.synonyms import synonym_edges, synonyms_table
from graphgate.index.truth import (
    attribute_statements,
    find_conflicts,
    relation_statements,
)
from graphgate.index.update import changes_between
from graphgate.store.base import STORE_OPTIONAL, STORE_REQUIRED
from graphgate.store.build import chunk_search_texts


def load_stage(ctx: IndexContext, _: Mapping[str, pa.Table]) -> StageOutput:
    if ctx.documents is not None:
        documents = versioned(sorted(ctx.documents, key=lambda d: d.id), ctx.previous_documents)
        problems: list[dict[str, str]] = [p.__dict__ for p in ctx.load_problems]
    else:
        loader = CorpusLoader(ctx.settings.load)
        result = loader.load(ctx.corpus, ctx.previous_documents, reuse=ctx.reuse)
        documents, problems = result.documents, [p.__dict__ for p in result.problems]
    changes = changes_between(ctx.previous_documents, documents)
    return StageOutput(
        {"documents": to_table(documents, Document)},
        {"problems": problems, "changes": changes.as_dict()},
    )


def chunk_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    chunks = chunk_documents(from_table(tables["documents"], Document), ctx.settings.chunk)
    return StageOutput({"chunks": to_table(chunks, Chunk)})


def resolve_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    resolver = EntityResolver(ctx.settings.resolve, ctx.settings.extract.description_sentences)
    ids, matrix = vectors_from_table(tables["chunk_vectors"])
    # Read a batch at a time on each pass: never a record per mention or relation of the
    # whole corpus at once.
    relations = TableRows(tables["raw_relations"], RawRelation)
    result = resolver.resolve(
        TableRows(tables["mentions"], Mention),
        relations,
        VectorRows(ids, matrix),
        with_relationships=False,
        edits=ctx.curation,
    )
    chunks = tables["chunks"]
    dates = chunks.select(["id", "date"])
    functional = family_matcher(ctx.settings.truth).functional
    n_sentences = ctx.settings.extract.description_sentences
    edges = _edge_settings(ctx)
    parent = _parent_edges(ctx, edges)
    info: dict[str, Any] = {"merged_by_embedding": result.merged_by_embedding, "edges": edges}
    raw = tables["raw_relations"]
    if parent is None:
        made = edge_table(raw, result.key_to_id, n_sentences, dates)
        kept = None
    else:
        changed = changed_chunks(parent, chunks, raw)
        update = update_edges(
            parent, changed, raw, result.key_to_id, n_sentences, functional, dates
        )
        made, kept = update.remade, update.kept
        info["edges_kept"] = kept.num_rows
    table, info["superseded"] = supersede_table(made, functional)
    table, _ = without_deleted(table if kept is None else combined(kept, table), result.deleted)
    if ctx.curation:
        stated = deleted_statements(relations, result.key_to_id, result.deleted)
        outcomes = with_statement_counts(result.outcomes, stated)
        info["curation"] = [o.as_dict() for o in outcomes]
    return StageOutput(
        {"entities": result.entity_table, "relationships": table},
        info,
    )


def _edge_settings(ctx: IndexContext) -> str:
    """What a run's edges depend on besides their inputs: a parent's rows are kept only if
    it was made the same way (and by this version of the aggregation)."""
    truth = ctx.settings.truth.model_dump_json()
    sentences = str(ctx.settings.extract.description_sentences)
    edits = effective(ctx.curation)  # an edge deleted or a name moved by the user
    curated = (curation_key(edits),) if edits else ()
    return content_key(EDGES_VERSION, sentences, truth, *curated)


def _parent_edges(ctx: IndexContext, edges: str) -> ParentEdges | None:
    """The parent run's edges and what they were made from, when an update may keep them."""
    parent = ctx.parent
    if parent is None or not ctx.reuse:
        return None
    resolved = parent.manifest().stage("resolve")
    if resolved is None or resolved.info.get("edges") != edges:
        return None
    names = ("chunks", "raw_relations", "entities", "relationships")
    if not all(parent.has_artifact(n) for n in names):
        return None
    found = {n: parent.read_artifact(n) for n in names}
    if not found["relationships"].schema.equals(SCHEMAS[Relationship]):
        return None
    return ParentEdges(**found)


def conflicts_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """Statements that cannot both hold, each side with where it was said (index/truth.py)."""
    chunks = from_table(tables["chunks"], Chunk)
    entities = from_table(tables["entities"], Entity)
    truth = ctx.settings.truth
    families = family_matcher(truth)
    statements = attribute_statements(chunks, entities, families)
    relationships = tables["relationships"]
    # Posts and relations an attribute does not already state ("headquarters" is read as an
    # attribute, so its edges would state each side twice).
    stated = {f.name for f in families.attributes}
    asked = {
        p: one for p, one in families.functional.items() if families.family_name(p) not in stated
    }
    functional = relationships.filter(
        pc.is_in(relationships["predicate"], pa.array(sorted(asked), pa.string()))
    )  # only these can conflict; most edges are not, and building them all costs time
    statements += relation_statements(
        from_table(functional, Relationship), asked, {c.id: c for c in chunks}, families
    )
    found = find_conflicts(statements, {e.id: e for e in entities}, truth.tolerance)
    info = {"statements": len(statements), "conflicts": len(found)}
    return StageOutput({"conflicts": to_table(found, Conflict)}, info)


def _embed(ctx: IndexContext, name: str, texts: list[str], limit: int) -> tuple[Matrix, int]:
    """The texts' vectors, and how many came from the content cache."""

    def embed_misses(missing: list[str]) -> Matrix:
        """In groups of a few batches (the progress bar moves per group), the texts sorted by
        length first, so each batch pads to nearly its own length (benchmarks/embed_batches.py:
        the vectors are the same, the stage faster)."""
        advance = ctx.progress(name, len(missing))
        group = max(ctx.settings.embed.batch_size * 4, 1)
        order = sorted(range(len(missing)), key=lambda i: len(missing[i]))
        groups = [order[start : start + group] for start in range(0, len(order), group)]
        texts = [[missing[i] for i in idx] for idx in groups]
        out = np.zeros((len(missing), ctx.embedder.dimension), dtype=np.float32)
        matrices = ctx.executor.embed(ctx.embedder, texts, limit, advance)
        for idx, matrix in zip(groups, matrices, strict=True):
            out[idx] = matrix
        return out

    cached = CachedEmbedder(ctx.embedder, ctx.cache, ctx.reuse)
    return cached.embed(texts, limit, embed_misses), cached.hits


def _embed_info(ctx: IndexContext) -> dict[str, Any]:
    return {"model": ctx.embedder.model, "dimension": ctx.embedder.dimension}


def embed_chunks_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """A chunk is embedded in its context (title, source, date: ``chunk.context_fields``)."""
    # The same texts the chunks are keyword-indexed by, made from columns (not records).
    texts = chunk_search_texts(tables, ctx.settings.chunk.context_fields)
    matrix, reused = _embed(ctx, "embed chunks", texts, ctx.settings.embed.max_tokens)
    del texts
    table = vectors_table(tables["chunks"]["id"].to_pylist(), matrix)
    return StageOutput({"chunk_vectors": table}, _embed_info(ctx) | {"reused": reused})


def embed_entities_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """An entity's vector is its name's embedding plus the mean of the passages describing it.

    The passages are the chunks its description sentences come from, already embedded, so an
    entity costs one short embedding instead of a long one (the graph index stays close to
    vector-only cost) while keeping what the description says about it.
    """
    entities = tables["entities"].select(["id", "name", "aliases", "chunk_ids"])
    ids, matrix = vectors_from_table(tables["chunk_vectors"])
    row = {cid: i for i, cid in enumerate(ids)}
    # Names are embedded for entities seen in more than ``embed.entity_name_min_chunks`` - 1
    # chunks (or with aliases); the rest keep their passage's vector alone.
    chunk_lists = entities["chunk_ids"].to_pylist()
    aliased = pc.fill_null(pc.list_value_length(entities["aliases"]), 0).to_numpy()
    min_chunks = ctx.settings.embed.entity_name_min_chunks
    named = [
        i
        for i, (chunk_ids, n) in enumerate(zip(chunk_lists, aliased, strict=True))
        if n or len(chunk_ids) >= min_chunks
    ]
    entity_ids = entities["id"].to_pylist()
    names = entities["name"].to_pylist()
    name_matrix, reused = (
        _embed(
            ctx, "embed entities", [names[i] for i in named], ctx.settings.embed.entity_max_tokens
        )
        if named
        else (np.zeros((0, ctx.embedder.dimension), dtype=np.float32), 0)
    )
    del entities, names
    # The sum of name and context, normalised, in place: one entity-sized matrix at a time.
    combined = mean_directions([[row[c] for c in ch if c in row] for ch in chunk_lists], matrix)
    del chunk_lists, matrix
    combined[named] += name_matrix
    l2_normalise_in_place(combined)
    table = vectors_table(entity_ids, combined)
    del combined
    # The bare name vectors too: entity linking matches a question's mention against names.
    name_table = vectors_table([entity_ids[i] for i in named], name_matrix)
    return StageOutput(
        {"entity_vectors": table, "entity_name_vectors": name_table},
        _embed_info(ctx) | {"reused": reused},
    )


def synonyms_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """Entities resolution kept apart whose names embed alike and may corefer
    (index/synonyms.py): graph mode's walk joins them."""
    ids, matrix = vectors_from_table(tables["entity_name_vectors"])
    entities = tables["entities"].select(["id", "name", "type", "aliases"])
    row = {eid: i for i, eid in enumerate(entities["id"].to_pylist())}
    names, types = entities["name"].to_pylist(), entities["type"].to_pylist()
    keep = [i for i, eid in enumerate(ids) if eid in row]
    cosine = ctx.settings.resolve.synonym_cosine
    edges = (
        synonym_edges(
            [ids[i] for i in keep],
            [names[row[ids[i]]] for i in keep],
            [types[row[ids[i]]] for i in keep],
            matrix[keep],
            cosine,
        )
        if cosine <= 1.0 and keep
        else []
    )
    apart = kept_apart(ctx.curation, entities)  # the user split them: never one thing again
    edges = [e for e in edges if (e.a, e.b) not in apart]
    return StageOutput({"entity_synonyms": synonyms_table(edges)}, {"synonyms": len(edges)})


def communities_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    relationships = tables["relationships"]
    edges = undirected_edges(
        *(column_values(relationships[c]) for c in ("source_id", "target_id", "weight"))
    )
    settings, seed = ctx.settings.communities, ctx.settings.seed
    ids = tables["entities"]["id"].to_pylist()
    chosen = detect(ids, edges, settings, seed)
    levels = sorted({c.level for c in chosen})
    # How stable the partition is across seeds is the community gate's to measure (it reruns
    # Leiden under more seeds: half this stage's time, off the path to the run answering).
    info = {"levels": {str(level): sum(c.level == level for c in chosen) for level in levels}}
    return StageOutput({"communities": to_table(chosen, Community)}, info)


def configured_summarizer(ctx: IndexContext) -> Summarizer:
    """``communities.summarizer``'s: extractive (reusing unchanged reports), or the model's."""
    if ctx.settings.communities.summarizer == "llm":
        from graphgate.index.summarize_llm import LlmCommunitySummarizer

        return LlmCommunitySummarizer(ctx.settings.communities, ctx.llm)
    return CommunitySummarizer(ctx.settings.communities, CachedReports(ctx.cache, ctx.reuse))


def summarize_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    summarizer = ctx.summarizer or configured_summarizer(ctx)
    names = ("communities", "entities", "relationships", "chunks")
    if isinstance(summarizer, CommunitySummarizer):
        reports = summarizer.summarize_tables(*(tables[name] for name in names))
    else:
        reports = summarizer.summarize(
            from_table(tables["communities"], Community),
            from_table(tables["entities"], Entity),
            from_table(tables["relationships"], Relationship),
            from_table(tables["chunks"], Chunk),
        )
    info = {
        "summarizer": summarizer.name,
        "failed_reports": summarizer.failed,
        "reused": summarizer.reused,
    }
    return StageOutput({"community_reports": to_table(reports, CommunityReport)}, info)


def embed_communities_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    """A report's vector: with ``embed.community_vectors = "claims"`` (default) the mean of the
    vectors of the chunks its claims rest on (already embedded: no model call), else its title
    and first claims embedded (``"embed"``, a model call per report: README, Measured)."""
    reports = from_table(tables["community_reports"], CommunityReport)
    if ctx.settings.embed.community_vectors == "embed":
        texts = [f"{r.title}. {r.summary}" for r in reports]
        matrix, _ = _embed(ctx, "embed reports", texts, ctx.settings.embed.report_max_tokens)
    else:
        ids, chunk_matrix = vectors_from_table(tables["chunk_vectors"])
        row = {cid: i for i, cid in enumerate(ids)}
        groups = []
        for r in reports:
            rests_on = [c.chunk_id for c in claims_from_json(r.claims_json) if c.chunk_id]
            groups.append([row[c] for c in rests_on or r.chunk_ids if c in row])
        matrix = mean_directions(groups, chunk_matrix)
    table = vectors_table([r.community_id for r in reports], matrix)
    return StageOutput({"community_vectors": table}, _embed_info(ctx))


def graph_stage(ctx: IndexContext, tables: Mapping[str, pa.Table]) -> StageOutput:
    counts = ctx.stores.write(ctx.run, ctx.settings, tables, ctx.reuse, ctx.built_ahead)
    return StageOutput({}, {"store_counts": counts, "backend": ctx.settings.store.backend})


_LOAD = Stage("load", (), ("documents",), load_stage)
_CHUNK = Stage("chunk", ("documents",), ("chunks",), chunk_stage)
_EXTRACT = Stage(
    "extract",
    ("chunks",),
    ("mentions", "raw_relations"),
    extract_stage,
    check=check_extraction,
    pause_gc=False,  # an LLM extractor may take hours
)
_RESOLVE = Stage(
    "resolve",
    ("mentions", "raw_relations", "chunk_vectors", "chunks"),
    ("entities", "relationships"),
    resolve_stage,
    dictionary_columns=("sentence",),
)
_EMBED_CHUNKS = Stage(
    "embed_chunks",
    ("chunks", "documents"),
    ("chunk_vectors",),
    embed_chunks_stage,
    pause_gc=False,  # a remote embedder may take hours over a large corpus
)
_EMBED_ENTITIES = Stage(
    "embed_entities",
    ("entities", "chunk_vectors"),
    ("entity_vectors", "entity_name_vectors"),
    embed_entities_stage,
    reads_as_needed=True,  # each read once: the tables go as their columns are taken
)
_SYNONYMS = Stage(
    "synonyms", ("entities", "entity_name_vectors"), ("entity_synonyms",), synonyms_stage
)
_CONFLICTS = Stage(
    "conflicts", ("chunks", "entities", "relationships"), ("conflicts",), conflicts_stage
)
_COMMUNITIES = Stage(
    "communities", ("entities", "relationships"), ("communities",), communities_stage
)
_SUMMARIZE = Stage(
    "summarize",
    ("communities", "entities", "relationships", "chunks"),
    ("community_reports",),
    summarize_stage,
)
_EMBED_COMMUNITIES = Stage(
    "embed_communities",
    ("community_reports", "chunk_vectors"),
    ("community_vectors",),
    embed_communities_stage,
)
_GRAPH = Stage(
    "graph",
    STORE_REQUIRED,
    (),
    graph_stage,
    optional_inputs=STORE_OPTIONAL,
    reads_as_needed=True,  # every artifact, each once: held one at a time
)

PIPELINES: dict[str, Pipeline] = {
    "graph": Pipeline(
        "graph",
        (
            _LOAD,
            _CHUNK,
            _EXTRACT,
            _EMBED_CHUNKS,
            _RESOLVE,
            _EMBED_ENTITIES,  # before conflicts: the gate worker starts its work after it
            _SYNONYMS,
            _CONFLICTS,
            _COMMUNITIES,
            _SUMMARIZE,
            _EMBED_COMMUNITIES,
            _GRAPH,
        ),
    ),
    # The baseline every graph index is compared with: no extraction, no entities.
    "vector": Pipeline("vector", (_LOAD, _CHUNK, _EMBED_CHUNKS, _GRAPH)),
}
