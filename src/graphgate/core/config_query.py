"""Settings of the graph store, of answering and evaluating, and of the model. Each field's
description is the reference's text (``graphgate settings``, docs/settings.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator

from graphgate.core.config_base import Section, check_base_url, redact_url
from graphgate.core.modes import DEFAULT_MODE, QUERY_MODES, modes_help


class StoreSettings(Section):
    backend: str = Field(
        "embedded",
        pattern=r"^[a-z][a-z0-9_]{0,31}$",
        description='Where runs are indexed into: "embedded" (a LadybugDB file in each '
        'run\'s folder), "falkordb" (one graph per run on a FalkorDB server, shared by every '
        "serving process), or a backend registered with the workspace. A run is always "
        "queried from the store it was written to (its manifest says which).",
    )
    url: str = Field(
        "redis://127.0.0.1:6379",
        description="The server, redis://[:password@]host:port[/db]; its password is never "
        "written to a manifest or a log.",
    )
    password: SecretStr | None = Field(
        None, description="The server's password, when the URL does not carry it."
    )
    graph: str = Field(
        "graphgate",
        pattern=r"^[A-Za-z0-9_.-]{1,64}$",
        description='Prefix of the run graphs\' names ("<graph>-<run id>").',
    )
    keep_graphs: int = Field(
        3,
        ge=1,
        description="Run graphs kept on the server: the current one and the newest complete "
        "runs before it.",
    )
    keyword_search: Literal["bm25", "server"] = Field(
        "bm25",
        description='Keyword search on a server: "bm25" ranks exactly as the embedded store '
        "does (each serving process builds the index from the server's text when it opens a "
        'run); "server" asks FalkorDB\'s full-text index (no per-process index, other '
        "rankings: README).",
    )
    retries: int = Field(
        3,
        ge=0,
        description="Retries of a server that does not answer before the request fails (HTTP 503).",
    )
    retry_backoff_s: float = Field(
        0.2, ge=0.0, description="Seconds before the first retry, doubled each time."
    )
    timeout_s: float = Field(30.0, gt=0.0, description="Seconds a server call may take.")
    copy_timeout_s: float = Field(
        3600.0,
        gt=0.0,
        description="Seconds copying the parent run's graph may take when an update starts "
        "(FalkorDB copies the whole graph and rebuilds its indexes: it grows with the graph).",
    )

    write_process_above: int = Field(
        2000,
        ge=0,
        description="The embedded store is written by a process of its own when a run has at "
        "least this many chunks (0: always). LadybugDB's bulk load and the search indexes take "
        "memory that grows with the graph and is not all given back after; a process that "
        "ends returns it, so the indexing or serving process keeps only its own. Below it, "
        "the calling process writes (starting another costs about a second).",
    )

    read_cache_mb: int = Field(
        64,
        ge=0,
        description="Pages of the embedded graph database a querying process keeps in memory "
        "(LadybugDB's buffer pool, per open run); pages beyond it are read again from the "
        "file (the operating system caches it). 0: LadybugDB's own default, most of the "
        "machine's memory, which lets a process grow with the graph it reads. At least 32: "
        "LadybugDB fails a query whose pages do not fit in the cache.",
    )

    @field_validator("read_cache_mb")
    @classmethod
    def _cache_large_enough(cls, value: int) -> int:
        if 0 < value < 32:
            raise ValueError(
                f"{value} MB is too small for LadybugDB's page cache: use 32 or more (or 0 for "
                "its default)"
            )
        return value

    def public_url(self) -> str:
        """The URL without its password: what logs, manifests and status may show."""
        return redact_url(self.url)


class QuerySettings(Section):
    mode: str = Field(DEFAULT_MODE, description=f"The default query mode: {modes_help()}.")
    top_k_chunks: int = Field(5, ge=1, description="Passages a query returns.")
    top_k_entities: int = Field(10, ge=1, description="Entities a query returns.")
    top_k_edges: int = Field(10, ge=0, description="Relations a query returns.")
    seed_entities: int = Field(
        8,
        ge=1,
        description="Local mode, when the question links to no entity: entity vectors and "
        "keyword matches that seed the walk.",
    )
    ppr_damping: float = Field(
        0.5, gt=0.0, lt=1.0, description="Personalised PageRank's damping factor."
    )
    dense_weight: float = Field(
        2.0,
        ge=0.0,
        description="Local mode: a chunk's score is its walk mass (scaled to 1) plus this "
        "times its cosine to the question (swept on HotpotQA: README).",
    )
    walk_passage_nodes: bool = Field(
        True,
        description="Graph mode walks passages as nodes beside entities and rank "
        "passages by the walk's mass (HippoRAG 2); off, they walk entities only and read "
        "passages off the entities reached, as local mode does.",
    )
    walk_damping: float = Field(
        0.3,
        gt=0.0,
        lt=1.0,
        description="Graph mode: the chance the walk over passages and entities "
        "goes on at each step rather than restart at the seeds (swept: README).",
    )
    walk_passage_seeds: int = Field(
        20,
        ge=0,
        description="Graph mode: the nearest passages by the question's vector that "
        "also seed the walk, each weighted by its cosine (0: only the linked entities do).",
    )
    walk_passage_weight: float = Field(
        1.0,
        ge=0.0,
        description="Graph mode: the share of the walk's restart given to the dense "
        "passage seeds, against the linked entities' share (swept: README).",
    )
    walk_synonym_weight: float = Field(
        1.0,
        ge=0.0,
        description="Graph mode: a synonym edge's weight is this times its cosine "
        "(0: no synonym edges); a relation's is the log of one plus its count, a mention's one "
        "over its entity's passage count. Synonyms are found at indexing "
        "(`resolve.synonym_cosine`).",
    )
    answer_sentences: int = Field(
        3, ge=1, description="Sentences of an offline (extractive) answer."
    )
    short_answers: bool = Field(
        True,
        description="The offline answer leads with a short answer (a name, a date, a number, "
        "yes or no) read out of the evidence by query/reader.py; off, the sentences only.",
    )
    reader_min_support: float = Field(
        0.55,
        ge=0.0,
        description="The offline reader abstains (short_answer null) when its best candidate's "
        "support is below this: the cosine of its sentence to the question plus half the share "
        "of the question's words it holds (swept on HotpotQA and MultiHop-RAG: README).",
    )
    reader_min_margin: float = Field(
        0.03,
        ge=0.0,
        description="The offline reader abstains when its second candidate scores within this "
        "of its best: of two near-equal readings of the evidence, either is a guess (swept on "
        "HotpotQA, MultiHop-RAG and TimeQA: README; 0 answers whenever support allows).",
    )
    reader_timed_evidence: bool = Field(
        True,
        description='A question asking over a period ("which team from 2005 to 2006") or '
        'of a time its main verb asks of ("got what title in 1962"; not "the film released '
        'in 1986") is answered by the offline reader only from sentences stating a time '
        "inside it, or a list row dated in it: an undated sentence (a page's present, \"X "
        'plays for Y") says nothing of that time, so with none dated the reader abstains '
        "(TimeQA: README). Off, undated sentences compete, scored lower.",
    )
    reader_side_similarity: float = Field(
        0.4,
        ge=-1.0,
        le=1.0,
        description="Yes/no questions: a side of the question counts as stated by the evidence "
        "when a retrieved sentence's cosine to it reaches this (or the sentence holds most of "
        "its words); every side stated answers yes, else no (swept on MultiHop-RAG: README).",
    )
    hybrid_route_cypher: bool = Field(
        True,
        description='With a model configured, hybrid sends counting and listing questions ("how '
        'many …", "list …") to cypher mode first, and answers by hybrid when the query '
        "finds nothing.",
    )
    cypher_max_rows: int = Field(
        1000,
        ge=1,
        le=100_000,
        description="Rows a read-only Cypher query returns (`graphgate cypher`, POST /cypher).",
    )
    cypher_timeout_s: float = Field(
        5.0,
        gt=0.0,
        le=600.0,
        description="Seconds a Cypher query may take, reading and converting its rows included.",
    )
    cypher_max_bytes: int = Field(
        10_000_000,
        ge=1_000,
        le=1_000_000_000,
        description="A Cypher answer's size in bytes (its rows as JSON): rows past it are not "
        "read, and the answer says it was truncated.",
    )
    max_question_chars: int = Field(
        4_000,
        ge=1,
        le=100_000,
        description="The longest question any entry point accepts (CLI, batch files, test "
        "sets, HTTP, MCP): a longer one is refused before it reaches the parser.",
    )
    answerer: Literal["extractive", "llm"] = Field(
        "extractive",
        description="extractive: offline, sentences of the retrieved passages; llm: the "
        "configured model answers from the retrieved context only.",
    )
    global_level: int | None = Field(
        None,
        description="Global mode: the community level mapped (None: the deepest level whose "
        "report count fits global_budget).",
    )
    global_budget: int = Field(
        40, ge=1, description="Global mode: reports a level may have to be chosen."
    )
    global_communities: int = Field(
        5, ge=1, description="Global mode: reports kept after the map step."
    )
    global_points: int = Field(
        3, ge=1, description="Global mode: claims taken from each kept report."
    )
    hybrid_head: int = Field(
        1,
        ge=0,
        description="Hybrid mode: fused chunks (graph, dense and BM25 rankings fused by "
        "reciprocal rank) placed before the pages the question names (swept on HotpotQA and "
        "MultiHop-RAG: README).",
    )
    hybrid_links: int = Field(
        3,
        ge=0,
        description="Hybrid mode: entity pages placed after the head, named by the question "
        "and linked from the top local chunks.",
    )
    hybrid_link_sources: int = Field(
        5, ge=1, description="Hybrid mode: top local chunks whose entities' pages are linked."
    )
    cover_fields: list[str] = Field(
        default_factory=lambda: ["source", "author"],
        description="Metadata a question may name (a source, an author): hybrid places the "
        "best chunk of each named value's documents after its head (MultiHop-RAG: README).",
    )
    hybrid_named_sources_first: bool = Field(
        True,
        description="Hybrid mode: after the best chunk of each source or author the question "
        "names (query.cover_fields), the best fused chunk of each of those sources' other "
        "documents comes before chunks of sources it does not name.",
    )
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion's constant k.")
    temporal: bool = Field(
        True,
        description="Rank what every mode retrieved at the time the question names (or "
        "as_of): facts not valid then dropped, contradicting passages last.",
    )
    temporal_period_passages: bool = Field(
        True,
        description='A question asking over a period ("from 1952 to 1954") also reads the '
        "passages of its best passage's document that date a time inside it, and they take "
        "that document's places first, one stating the very span first (with query.temporal).",
    )
    hybrid_graph_slots: int = Field(
        0,
        ge=0,
        description="Hybrid mode: then the best local (graph walk) chunks not yet placed, the "
        "second hop of a question whose bridge is not a page.",
    )
    link_fuzzy_min: float = Field(
        0.88,
        ge=0.5,
        le=1.0,
        description="Entity linking: a mention links to a name within this rapidfuzz ratio (0-1).",
    )
    link_embedding_min: float = Field(
        0.8,
        ge=0.0,
        le=1.0,
        description="Entity linking: a named mention no name matched links to an embedded "
        "entity name within this cosine.",
    )
    hybrid_communities: int = Field(
        2, ge=0, description="Hybrid mode: nearest community reports returned as context."
    )

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, value: str) -> str:
        if value not in QUERY_MODES:
            raise ValueError(f"unknown query mode {value!r}; use one of {modes_help()}")
        return value


class EvalSettings(Section):
    predicate_synonyms: dict[str, str] = Field(
        default_factory=dict,
        description='Relation synonyms for relationship recall, per dataset ("founded" -> '
        '"create"); relations are otherwise compared by the lemma of their first content '
        'word ("plays" ~ "play_with").',
    )
    entity_recall_thresholds: dict[str, float] = Field(
        default_factory=lambda: {
            "single_hop": 0.85,
            "temporal": 0.85,
            "multi_hop": 0.70,
            "contradiction": 0.70,
            "global": 0.70,
            "structured": 0.70,
        },
        description="Failure attribution, per question type: entity recall under this is a "
        "retrieval failure.",
    )
    relationship_recall_threshold: float = Field(
        0.80,
        ge=0.0,
        le=1.0,
        description="Failure attribution: relationship recall under this is a retrieval failure.",
    )
    targets: dict[str, float] = Field(
        default_factory=lambda: {
            "context_relevancy": 0.85,
            "grounding": 0.80,
            "answer_correctness": 0.80,
            "context_precision": 0.70,
            "citation_coverage": 0.95,
        },
        description="Target means by metric: at or above passes, within warn_band under it "
        "warns, lower fails.",
    )
    warn_band: float = Field(
        0.10, ge=0.0, description="How far under its target a mean only warns."
    )
    top_k: int = Field(10, ge=1, description="Passages retrieved per question when evaluating.")
    bootstrap_samples: int = Field(
        1000, ge=10, description="Paired bootstrap samples comparing a mode with the baseline."
    )
    judge: Literal["deterministic", "llm"] = Field(
        "deterministic",
        description="deterministic: answers scored by overlap with the gold answer and the "
        "evidence; llm: the configured model judges.",
    )
    judge_trials: int = Field(
        1, ge=1, description="LLM judge: verdicts per answer (the majority counts)."
    )


class ModelPrice(Section):
    input_per_mtok: float = Field(0.0, description="Currency units per million prompt tokens.")
    output_per_mtok: float = Field(0.0, description="Currency units per million completion tokens.")

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1e6


class LLMSettings(Section):
    """A chat model; ``provider = "none"`` (the default) keeps everything offline."""

    provider: Literal["none", "openai", "anthropic"] = Field(
        "none",
        description="none: offline; openai: any OpenAI-compatible endpoint (Ollama, vLLM, "
        "llama.cpp); anthropic: the Messages API.",
    )
    base_url: str = Field("http://localhost:11434/v1", description="The endpoint's base URL.")
    model: str = Field("", description="The model's name at the endpoint.")
    api_key: SecretStr | None = Field(
        None, description="The endpoint's key; never written to a manifest or a log."
    )
    timeout_s: float = Field(60.0, gt=0, description="Seconds a model call may take.")
    max_retries: int = Field(4, ge=0, description="Retries of a failed or rate-limited call.")
    backoff_s: float = Field(
        1.0, ge=0, description="Seconds before the first retry, doubled each time."
    )
    concurrency: int = Field(4, ge=1, description="Model calls in flight at once.")
    temperature: float = Field(0.0, description="Sampling temperature.")
    max_tokens: int = Field(2048, ge=1, description="Completion tokens a call may use.")
    cache: bool = Field(
        True,
        description="Keep responses by provider, model, prompt and parameters: an identical "
        "re-run makes no calls.",
    )
    prices: dict[str, ModelPrice] = Field(
        default_factory=dict, description="Prices by model name, for the cost reports."
    )

    _check_url = field_validator("base_url")(check_base_url)
