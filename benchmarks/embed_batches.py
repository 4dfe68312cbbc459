"""Embedding throughput by batch size and by how chunks are sorted by length before batching.

    .venv/bin/python benchmarks/embed_batches.py WORKSPACE [--texts 1200] [--rounds 3]
                                                 [--sizes 8,16,32,64]

Embeds the chunk texts of WORKSPACE's current run (its chunks.parquet) with the default ONNX
MiniLM embedder, as the index's embed stage calls it (groups of four batches, for the progress
bar), under each batch size, with two orders:

- ``groups``: the stage's order, each group of 4 x batch texts sorted by length inside the
  embedder (today);
- ``global``: every text sorted by length first, so each batch pads to nearly its own length.

Configurations run interleaved (every configuration once per round, rounds in turn), so a slow
minute on a shared machine lands on all of them alike. Printed per configuration: the median
texts per second over the rounds, process CPU seconds per 1,000 texts, the CPU time the
hypervisor stole while it ran (CPU seconds per second, the worst round; from /proc/stat: a
round with much stolen time measures the neighbours, not the code), and the largest difference
of any vector from the batch-8, stage-order one (padding must not change what is embedded).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from graphgate.core.config import Settings
from graphgate.embed import build_embedder

Matrix = Any


def _steal() -> int:
    """Jiffies stolen from this machine's CPUs so far (0 where /proc/stat has no such field)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return 0
    return int(fields[8]) if len(fields) > 8 else 0


def _texts(workspace: Path, limit: int) -> list[str]:
    run = (workspace / "CURRENT").read_text().strip()
    table = pq.read_table(workspace / "runs" / run / "chunks.parquet", columns=["text"])
    return [str(t) for t in table.column("text").to_pylist()[:limit]]


def _stage(embed: Callable[..., Matrix], texts: list[str], batch: int, order: str) -> Matrix:
    """As the embed stage calls the embedder: groups of four batches."""
    if order == "global":
        ranked = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    else:
        ranked = list(range(len(texts)))
    group = batch * 4
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(ranked), group):
        idx = ranked[start : start + group]
        out[idx] = embed([texts[i] for i in idx], max_tokens=256)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--texts", type=int, default=1200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="8,16,32,64")
    args = parser.parse_args()
    texts = _texts(args.workspace, args.texts)
    sizes = [int(s) for s in args.sizes.split(",")]
    configs = [(size, order) for size in sizes for order in ("groups", "global")]
    embedders = {}
    for size, _ in configs:
        settings = Settings().embed.model_copy(update={"batch_size": size})
        embedders[size] = build_embedder(settings)
        embedders[size].embed(texts[:8])  # load the model outside the timing
    rates: dict[tuple[int, str], list[float]] = {c: [] for c in configs}
    cpu: dict[tuple[int, str], list[float]] = {c: [] for c in configs}
    stolen: dict[tuple[int, str], list[float]] = {c: [] for c in configs}
    vectors: dict[tuple[int, str], Matrix] = {}
    for _ in range(args.rounds):
        for size, order in configs:
            steal, wall, used = _steal(), time.perf_counter(), time.process_time()
            vectors[(size, order)] = _stage(embedders[size].embed, texts, size, order)
            wall = time.perf_counter() - wall
            rates[(size, order)].append(len(texts) / wall)
            cpu[(size, order)].append((time.process_time() - used) / len(texts) * 1000)
            stolen[(size, order)].append((_steal() - steal) / 100 / wall)
    reference = vectors[(sizes[0], "groups")]
    print(f"{len(texts)} chunk texts of {args.workspace}, {args.rounds} rounds, interleaved")
    print(
        f"{'batch':>5} {'order':7} {'texts/s':>8} {'vs first':>8} {'CPU s/1k':>8} "
        f"{'stolen/s':>7} {'max |dv|':>9}"
    )
    base = statistics.median(rates[configs[0]])
    for config in configs:
        rate = statistics.median(rates[config])
        diff = float(np.abs(vectors[config] - reference).max())
        print(
            f"{config[0]:5d} {config[1]:7} {rate:8.1f} {rate / base:8.2f} "
            f"{statistics.median(cpu[config]):8.2f} {max(stolen[config]):7.3f} {diff:9.2e}"
        )


if __name__ == "__main__":
    main()
