"""All eight gates on a synthetic run with a 100k-edge graph: seconds per gate.

    .venv/bin/python benchmarks/gates.py [--edges 100000] [--entities 20000]

Builds documents, chunks, entities and relationships with planted communities, runs the
communities and summarize stages on them, then times every gate. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from graphgate.core.config import CommunitySettings, GateSettings
from graphgate.core.types import Chunk, Document, Entity, Relationship
from graphgate.gates.base import apply_rules
from graphgate.gates.context import GateContext
from graphgate.gates.runner import all_gates
from graphgate.index.communities import detect, relationship_edges, stability
from graphgate.index.summarize import CommunitySummarizer

WORDS = (
    "river city museum actor band album war treaty river king station film novel "
    "league club island bridge school"
).split()


def synthetic(n_entities: int, n_edges: int, groups: int, seed: int) -> GateContext:
    rng = np.random.default_rng(seed)
    n_docs = max(1, n_entities // 10)
    docs, chunks = [], []
    for d in range(n_docs):
        text = " ".join(
            f"Entity{d * 10 + i} {rng.choice(WORDS)} {rng.choice(WORDS)}." for i in range(10)
        )
        docs.append(Document(f"d{d}", f"Doc {d}", text, f"{d:064x}", 1, len(text), "bench"))
        chunks.append(Chunk(f"c{d}", f"d{d}", 0, text, 0, len(text), 40))
    entities = [
        Entity(
            f"e{i}",
            f"Entity{i}",
            "ORG",
            f"Entity{i} {WORDS[i % len(WORDS)]}.",
            [],
            1,
            [f"c{i // 10}"],
            [f"d{i // 10}"],
        )
        for i in range(n_entities)
    ]
    group = np.arange(n_entities) % groups
    members = [np.flatnonzero(group == g) for g in range(groups)]
    rels = []
    for k in range(n_edges):
        if rng.random() < 0.9:
            g = members[int(rng.integers(groups))]
            a, b = rng.choice(g, 2, replace=False)
        else:
            a, b = rng.integers(n_entities, size=2)
        if a != b:
            rels.append(
                Relationship(
                    f"r{k}",
                    f"e{a}",
                    f"e{b}",
                    "relate",
                    "svo",
                    1.0,
                    "",
                    [f"c{a // 10}"],
                    [f"d{a // 10}"],
                )
            )
    return GateContext(
        settings=GateSettings(),
        documents=docs,
        chunks=chunks,
        entities=entities,
        relationships=rels,
        run_id="bench",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edges", type=int, default=100_000)
    parser.add_argument("--entities", type=int, default=20_000)
    args = parser.parse_args()
    ctx = synthetic(args.entities, args.edges, args.entities // 100, seed=0)
    settings = CommunitySettings(max_cluster_size=200)
    edges = relationship_edges(ctx.relationships)
    ids = [e.id for e in ctx.entities]
    started = time.perf_counter()
    ctx.communities = detect(ids, edges, settings, 0)
    ctx.stability = stability(ids, edges, settings, 0, ctx.communities)
    ctx.reports = CommunitySummarizer(settings).summarize(
        ctx.communities, ctx.entities, ctx.relationships, ctx.chunks
    )
    prepared = time.perf_counter()
    rules = ctx.settings.effective_rules()
    rows = []
    total = 0.0
    for gate in all_gates():
        t0 = time.perf_counter()
        result = apply_rules(gate.measure(ctx), rules, None)
        seconds = time.perf_counter() - t0
        total += seconds
        rows.append((gate.name, f"{seconds:.2f} s", result.verdict))
    print(
        f"synthetic run: {len(ctx.entities):,} entities, {len(ctx.relationships):,} edges, "
        f"{len(ctx.chunks):,} chunks, {len(ctx.communities):,} communities, "
        f"{len(ctx.reports):,} reports (stages before the gates: {prepared - started:.1f} s)"
    )
    print("| gate | seconds | verdict |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"| **all eight** | **{total:.2f} s** | |")


if __name__ == "__main__":
    main()
