"""Community detection on a planted-partition graph: time, recovered ARI/NMI, stability.

    .venv/bin/python benchmarks/communities.py [--nodes 100000] [--edges 500000] [--groups 100]

Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from graphgate.core.config import CommunitySettings
from graphgate.index.communities import detect, leaf_partition, stability


def planted(
    nodes: int, edges: int, groups: int, mixing: float, seed: int
) -> tuple[list[str], list[tuple[str, str, float]], np.ndarray]:
    """``mixing`` of the edges join random nodes; the rest join two nodes of one group."""
    rng = np.random.default_rng(seed)
    truth = np.arange(nodes) % groups
    members = [np.flatnonzero(truth == g) for g in range(groups)]
    inside = int(edges * (1 - mixing))
    group = rng.integers(0, groups, inside)
    sizes = np.array([len(members[g]) for g in group])
    a = np.array([members[g][i] for g, i in zip(group, rng.integers(0, sizes), strict=True)])
    b = np.array([members[g][i] for g, i in zip(group, rng.integers(0, sizes), strict=True)])
    ra, rb = rng.integers(0, nodes, edges - inside), rng.integers(0, nodes, edges - inside)
    src, dst = np.concatenate([a, ra]), np.concatenate([b, rb])
    keep = src != dst
    pairs = {(min(x, y), max(x, y)) for x, y in zip(src[keep], dst[keep], strict=True)}
    names = [f"n{i}" for i in range(nodes)]
    return names, [(names[x], names[y], 1.0) for x, y in sorted(pairs)], truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=500_000)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--mixing", type=float, default=0.1)
    args = parser.parse_args()
    started = time.perf_counter()
    names, edges, truth = planted(args.nodes, args.edges, args.groups, args.mixing, seed=0)
    built = time.perf_counter()
    settings = CommunitySettings(max_cluster_size=args.nodes // args.groups * 4)
    communities = detect(names, edges, settings, seed=0)
    detected = time.perf_counter()
    report = stability(names, edges, settings, 0, communities)
    measured = time.perf_counter()
    leaves = leaf_partition(communities)
    found = [leaves[n] for n in names]
    rows = [
        (
            "graph",
            f"{len(names):,} nodes, {len(edges):,} edges, {args.groups} planted groups, "
            f"mixing {args.mixing}",
        ),
        ("build graph", f"{built - started:.1f} s"),
        ("hierarchical Leiden (1 seed)", f"{detected - built:.1f} s"),
        ("stability (2 more seeds, ARI/NMI, modularity)", f"{measured - detected:.1f} s"),
        ("levels / communities", f"{1 + max(c.level for c in communities)} / {len(communities)}"),
        ("ARI vs planted", f"{adjusted_rand_score(truth, found):.4f}"),
        ("NMI vs planted", f"{normalized_mutual_info_score(truth, found):.4f}"),
        (
            "ARI across seeds min / mean",
            f"{report['ari']['min']:.4f} / {report['ari']['mean']:.4f}",
        ),
        ("modularity (level 0)", f"{report['modularity_level0']:.4f}"),
    ]
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
