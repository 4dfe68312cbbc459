"""Settings of serving, of runs and of the quality gates. Each field's description is the
reference's text (``graphgate settings``, docs/settings.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr

from graphgate.core.config_base import Section


class ServeSettings(Section):
    """``graphgate serve`` and ``graphgate mcp``: who may do what, and how much a request may
    cost the server."""

    write_token: SecretStr | None = Field(
        None,
        description="Bearer token that reads and writes; without it writes are off.",
    )
    read_token: SecretStr | None = Field(
        None,
        description="Bearer token that reads: with one set, reads need it (or the write "
        "token); without one, reads are open.",
    )
    allowed_paths: list[str] = Field(
        default_factory=list,
        description="Folders on the server below which a client may name files "
        "(reingest_from_file, POST /eval test sets), resolved (symlinks, ..) before the "
        "check; empty: those tools are off.",
    )
    metrics_public: bool = Field(
        False,
        description="/metrics without a token even when a read token is set (for a scraper "
        "on a private network).",
    )
    cypher: bool = Field(
        False,
        description="POST /cypher, read-only Cypher for holders of the write token; off "
        "unless turned on.",
    )
    workers: int | None = Field(
        None,
        ge=1,
        le=64,
        description="Server processes on one port (graphgate serve --workers overrides it). "
        "None: 2 where the server may use two or more cores, else 1. Each process answers "
        "beside the others (the interpreter lock is per process) and holds its own copy of "
        "the run's read model, so each one adds that much memory.",
    )
    threads: int | None = Field(
        None,
        ge=1,
        le=256,
        description="Threads answering requests in each server process; requests past them "
        "wait their turn without holding a thread. None: 2 with the extractive answerer, whose "
        "Python work runs one thread at a time (more threads spent the two cores switching "
        "between them and answered fewer queries a second, benchmarks/serve_load.py), and 32 "
        "with query.answerer = llm, whose threads mostly wait for the model. For more cores, "
        "use serve --workers.",
    )
    embed_threads: int = Field(
        1,
        ge=1,
        description="ONNX runtime threads of the server's query embedder (embed.threads stays "
        "the indexing one): requests already run side by side, and one thread each answered "
        "more of them than two (benchmarks/serve_load.py).",
    )
    blas_threads: int | None = Field(
        1,
        ge=1,
        description="BLAS (OpenBLAS) threads of each server process, set when graphgate serve "
        "starts: requests already run side by side, and NumPy's products on a query's small "
        "arrays ran faster on one thread than on threads fighting the requests' own "
        "(benchmarks/serve_load.py); None leaves the library's default.",
    )
    max_body_bytes: int = Field(
        2_000_000, ge=1024, description="The largest request body accepted (HTTP 413 past it)."
    )
    body_timeout_s: float = Field(
        30.0, gt=0, description="Seconds a client may take to send its body."
    )
    header_timeout_s: float = Field(
        10.0, gt=0, description="Seconds a client may take to send its headers."
    )
    keep_alive_s: int = Field(5, ge=1, description="Seconds an idle connection is kept.")
    limit_concurrency: int = Field(
        256,
        ge=1,
        description="Connections at once; more get HTTP 503 instead of queueing without bound.",
    )
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description='Host header values answered (a name or address without the port; "*": '
        "any); empty: the bound address, localhost, 127.0.0.1 and [::1]. A page on another "
        "origin can reach a local server through DNS rebinding, and only its Host header "
        "tells it apart.",
    )


class RunSettings(Section):
    keep: int | None = Field(
        None,
        ge=1,
        description="Complete runs to keep, the newest (the current run and the baseline "
        "are always kept); None keeps every run. `graphgate runs prune` also removes "
        "interrupted and failed runs.",
    )
    pause_gc: bool = Field(
        True,
        description="Pause Python's cycle collector while a stage builds its records "
        "(restored after each; not while chunks are extracted or embedded): else it rescans "
        "them hundreds of times.",
    )
    write_wait_s: float | None = Field(
        3600.0,
        ge=0.0,
        description="Seconds a writer (index, add, delete, prune) waits for another one to "
        "finish before it is refused with nothing changed; 0 refuses at once, None waits as "
        "long as it takes.",
    )


class GateRule(Section):
    """How one metric is judged: hard bounds fail, a move from the baseline warns."""

    direction: Literal["higher", "lower", "stable", "info"] = Field(
        "info",
        description="Which way is better; stable: a move either way from the baseline is "
        "worse (info: reported, never judged).",
    )
    fail_below: float | None = Field(None, description="FAIL when the value is below this.")
    fail_above: float | None = Field(None, description="FAIL when the value is above this.")
    warn_below: float | None = Field(None, description="WARN when the value is below this.")
    warn_above: float | None = Field(None, description="WARN when the value is above this.")
    fail_jump: float | None = Field(
        None,
        description="FAIL when the value moves this much (absolute) in the bad direction from "
        "the baseline.",
    )
    warn_relative: float | None = Field(
        0.10,
        description="WARN when the value moves this much (relative to the baseline) in the bad "
        "direction.",
    )
    warn_min_change: float = Field(
        0.0,
        ge=0.0,
        description="A relative move warns only when it is also at least this large, in the "
        "metric's own unit: a latency that jitters by tens of milliseconds on a busy machine "
        "is no regression, however small its baseline.",
    )


def _default_rules() -> dict[str, GateRule]:
    r = GateRule
    return {
        "data.missing_identity": r(direction="lower", fail_above=0),
        "data.lineage_coverage": r(direction="higher", fail_below=1.0),
        "data.duplicate_content_rate": r(direction="lower", warn_above=0.0),
        "chunk.offset_fidelity": r(direction="higher", fail_below=1.0),
        "chunk.boundary_rate": r(direction="higher"),
        "chunk.overlap_mean": r(direction="stable", warn_relative=0.5),
        "chunk.tokens_p5": r(direction="higher", warn_relative=0.2),
        "chunk.tokens_p50": r(direction="higher", warn_relative=0.2),
        # A parser that loses paragraph breaks, or stops early.
        "chunk.paragraph_end_rate": r(direction="higher", warn_relative=0.25),
        "chunk.unfinished_documents": r(direction="lower", warn_relative=0.5),
        "chunk.chars_per_document": r(direction="stable", warn_relative=0.2),
        "ie.strict_f1": r(direction="higher"),
        "ie.relaxed_f1": r(direction="higher"),
        "ie.meaning_f1": r(direction="higher"),
        "ie.strict_recall": r(direction="higher"),
        "ie.relaxed_recall": r(direction="higher"),
        "ie.entity_f1": r(direction="higher"),
        "ie.type_violation_rate": r(direction="lower", fail_above=0.5),
        # The default of extract.max_failed_share: a run over it never becomes current.
        "ie.failed_chunk_share": r(direction="lower", fail_above=0.2),
        # Without gold: what the extractor finds per 1,000 tokens, and its mix of types.
        "ie.mentions_per_1k_tokens": r(direction="stable", warn_relative=0.15),
        "ie.relations_per_1k_tokens": r(direction="higher", warn_relative=0.2),
        "ie.type_shift": r(direction="lower", warn_above=0.05, fail_above=0.5, warn_relative=None),
        "graph.nodes": r(direction="higher", fail_below=1, warn_relative=None),
        # Per document, so a corpus that grows is compared like for like.
        "graph.entities_per_document": r(direction="stable", warn_relative=0.03),
        "graph.edges_per_document": r(direction="stable", warn_relative=0.05),
        "graph.orphan_rate": r(direction="lower", fail_jump=0.10),
        "graph.duplicate_rate": r(direction="lower", warn_relative=0.25),
        "graph.near_duplicate_rate": r(direction="lower", warn_relative=0.25),
        "graph.hub_share": r(direction="lower", warn_relative=0.5),
        "graph.components": r(direction="lower", warn_relative=0.25),
        "community.modularity": r(direction="higher"),
        "community.communities_per_document": r(direction="stable", warn_relative=0.1),
        "community.ari_min": r(direction="higher", fail_below=0.5),
        "community.nmi_min": r(direction="higher", fail_below=0.5),
        "community.ari_vs_baseline": r(direction="higher", fail_below=0.5, warn_relative=None),
        # How far the partition moved from the baseline's beyond what a change of seed moves it
        # (a floor: Leiden on a small graph has rare partitions a few seeds do not show).
        "community.baseline_ari_gap": r(
            direction="lower", warn_above=0.12, fail_above=0.3, warn_relative=None
        ),
        "community.repeated_partition_ari": r(
            direction="higher", warn_below=0.999, warn_relative=None
        ),
        "hierarchy.levels": r(direction="stable", warn_relative=0.2),
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
        # The median: a p95 over a few dozen questions is one or two of them. On a 2-core
        # machine an unchanged index answered the same 8 questions 30 ms slower at the median
        # and 230 ms slower at the p95 (one question) in a busy process: the floors.
        "gen.latency_p50_ms": r(direction="lower", warn_relative=0.5, warn_min_change=50.0),
        "gen.latency_p95_ms": r(direction="lower", warn_relative=1.0, warn_min_change=300.0),
        "gen.conflicts_surfaced": r(direction="higher", fail_below=0.95),
        # A false conflict is a wrong answer: any is a warning, one in twenty a failure.
        "gen.successions_as_conflicts": r(
            direction="lower", warn_above=0.0, fail_above=0.05, warn_relative=None
        ),
    }


class GateSettings(Section):
    rules: dict[str, GateRule] = Field(
        default_factory=dict,
        description='Rules by "gate.metric" (e.g. graph.orphan_rate); a metric not named here '
        "keeps its default rule.",
    )
    run_on_index: bool = Field(True, description="Judge every run's gates when it is indexed.")
    background_from_chunks: int = Field(
        300,
        ge=0,
        description="From this many chunks (0: always) a run's gates are judged in a second "
        "process while its graph store is written, on a machine with more than one core; "
        "below it the worker's start-up costs more than the overlap saves.",
    )
    ie_schema: dict[str, dict[str, list[str]]] = Field(
        default_factory=dict,
        description="Allowed subject and object entity types per predicate, for the IE gate's "
        'type check ({"founded": {"subject": ["PERSON"], "object": ["ORG"]}}).',
    )
    samples: int = Field(5, ge=0, description="Examples a gate shows of what it flagged.")
    history_min_runs: int = Field(
        3,
        ge=1,
        description="Comparable runs (the same documents and index settings, other seeds) a "
        "workspace must hold before a metric is judged by their band instead of the fixed "
        "rules' tolerance around the baseline.",
    )
    history_window: int = Field(
        5,
        ge=0,
        description="Without enough comparable runs (a corpus that changes between runs), "
        "the last this many runs with the same index settings make the bands of the metrics "
        "that do not count things; 0: fixed rules instead.",
    )
    history_margin: float = Field(
        0.02,
        ge=0.0,
        le=1.0,
        description="How far past the history band a value may lie, as a share of the band's "
        "centre (at least half the band's own width).",
    )
    near_duplicate_cosine: float = Field(
        0.95,
        ge=0.0,
        le=1.0,
        description="The Graph gate counts two entities of one type as likely duplicates when "
        "their embedded names are this close (beside acronyms, shared aliases and short forms "
        "in one document).",
    )

    def effective_rules(self) -> dict[str, GateRule]:
        return {**_default_rules(), **self.rules}


class TelemetrySettings(Section):
    """OpenTelemetry traces: a span per index stage and per query step (names, counts, run
    ids and timings; never document text, questions or tokens)."""

    otlp_endpoint: str | None = Field(
        None,
        description="OTLP/HTTP traces endpoint (e.g. http://127.0.0.1:4318/v1/traces); spans "
        "are exported there in batches. None: no spans are made (needs the telemetry extra: "
        "pip install 'graphgate[telemetry]').",
    )
    service_name: str = Field(
        "graphgate", min_length=1, description="The service.name resource of exported spans."
    )
