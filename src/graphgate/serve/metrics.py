"""Prometheus metrics on a registry of the app's own (no process-global state)."""

from __future__ import annotations

from collections import Counter

from prometheus_client import CollectorRegistry, Gauge, Histogram
from prometheus_client import Counter as PromCounter

from graphgate.app.workspace import Workspace
from graphgate.store.base import GraphStore

VERDICT_VALUE = {"PASS": 0, "WARN": 1, "FAIL": 2, "UNMEASURED": -1}


class ServerMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._structure_of: str | None = None  # the run whose graph structure is set
        r = self.registry
        self.entities = Gauge(
            "graphgate_entity_total", "Entities by type", ["entity_type"], registry=r
        )
        self.relationships = Gauge("graphgate_relationship_total", "Relationships", registry=r)
        self.communities = Gauge("graphgate_community_total", "Communities", registry=r)
        self.coverage = Gauge(
            "graphgate_entity_coverage_ratio",
            "Share of documents with at least one entity",
            registry=r,
        )
        self.duration = Histogram(
            "graphgate_retrieval_duration_seconds",
            "Retrieval time",
            ["query_type"],
            buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
            registry=r,
        )
        self.retrieved = Histogram(
            "graphgate_retrieved_entities",
            "Entities retrieved",
            ["query_type"],
            buckets=(0, 1, 2, 5, 10, 20, 50),
            registry=r,
        )
        self.empty = PromCounter(
            "graphgate_empty_retrieval", "Retrievals with no chunks", ["query_type"], registry=r
        )
        self.llm_calls = Gauge("graphgate_llm_calls", "Model calls by this server", registry=r)
        self.llm_tokens = Gauge(
            "graphgate_llm_tokens", "Model tokens by this server", ["kind"], registry=r
        )
        self.gate = Gauge(
            "graphgate_gate_verdict",
            "Gate verdict of the current run (0 PASS, 1 WARN, 2 FAIL, -1 unmeasured)",
            ["gate"],
            registry=r,
        )

    def observe_query(self, mode: str, seconds: float, entities: int, chunks: int) -> None:
        self.duration.labels(mode).observe(seconds)
        self.retrieved.labels(mode).observe(entities)
        if chunks == 0:
            self.empty.labels(mode).inc()

    def refresh(self, ws: Workspace) -> None:
        """Graph structure and gate verdicts of the current run, read when scraped (the
        structure once per run: it reads every record of the graph)."""
        if ws.runs.current_id() is None:
            return
        with ws.holding() as loaded:
            if loaded.run.run_id != self._structure_of:
                self._structure(loaded.store)
                self._structure_of = loaded.run.run_id
            run = loaded.run
        from graphgate.gates.runner import stored_gates

        stored = stored_gates(run) or {}
        for gate in stored.get("gates", []):
            self.gate.labels(gate["gate"]).set(VERDICT_VALUE[gate["verdict"]])
        usage = ws.llm_usage()
        if usage:
            self.llm_calls.set(usage["calls"])
            self.llm_tokens.labels("prompt").set(usage["prompt_tokens"])
            self.llm_tokens.labels("completion").set(usage["completion_tokens"])

    def _structure(self, store: GraphStore) -> None:
        entities = store.entities()
        self.entities.clear()
        for entity_type, n in Counter(e.type for e in entities).items():
            self.entities.labels(entity_type).set(n)
        self.relationships.set(len(store.relationships()))
        self.communities.set(len(store.communities()))
        docs = {d for e in entities for d in e.doc_ids}
        all_docs = {c.doc_id for c in store.chunks()}
        self.coverage.set(len(docs & all_docs) / len(all_docs) if all_docs else 0.0)
