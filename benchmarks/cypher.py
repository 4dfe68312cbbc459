"""Read-only Cypher on a real index: 100 queries of the kinds a model generates, timed.

    .venv/bin/python benchmarks/cypher.py WORKSPACE [--n 100]

Queries are built from the graph itself (entity names, types, predicates): one-hop neighbours,
two-hop paths, counts by type, entities sharing a document, mentions per chunk, filtered
relations. Prints p50 / p95 / max milliseconds per kind, rows returned, how many were cut by
query.cypher_max_rows, and how many ran past query.cypher_timeout_s (the bar is 0).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path

from graphgate import Workspace
from graphgate.core.errors import QueryTimeoutError

KINDS = {
    "neighbours": "MATCH (a:Entity {name: $name})-[r:RELATED]-(b:Entity) "
    "RETURN b.name, r.predicate ORDER BY b.name",
    "two_hops": "MATCH (a:Entity {name: $name})-[:RELATED]-(b:Entity)-[:RELATED]-(c:Entity) "
    "WHERE c.name <> a.name RETURN DISTINCT c.name ORDER BY c.name",
    "count_by_type": "MATCH (e:Entity {type: $type})-[r:RELATED]-() "
    "RETURN e.name, count(r) AS degree ORDER BY degree DESC LIMIT 10",
    "same_document": "MATCH (a:Entity {name: $name})<-[:MENTIONS]-(c:Chunk)-[:MENTIONS]->"
    "(b:Entity) RETURN DISTINCT b.name ORDER BY b.name",
    "by_predicate": "MATCH (a:Entity)-[r:RELATED {predicate: $predicate}]->(b:Entity) "
    "RETURN a.name, b.name ORDER BY a.name",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--n", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(0)
    with Workspace(args.workspace) as ws:
        names = [
            r["name"]
            for r in ws.cypher(
                "MATCH (e:Entity)-[r:RELATED]-() RETURN e.name AS name, count(r) AS d "
                "ORDER BY d DESC, name LIMIT 200"
            ).rows
        ]
        types = [r["t"] for r in ws.cypher("MATCH (e:Entity) RETURN DISTINCT e.type AS t").rows]
        predicates = [
            r["p"]
            for r in ws.cypher(
                "MATCH ()-[r:RELATED]->() RETURN r.predicate AS p, count(*) AS n "
                "ORDER BY n DESC LIMIT 30"
            ).rows
        ]
        times: dict[str, list[float]] = defaultdict(list)
        rows = cut = late = 0
        kinds = sorted(KINDS)
        for i in range(args.n):
            kind = kinds[i % len(kinds)]
            params = {
                "name": rng.choice(names),
                "type": rng.choice(types),
                "predicate": rng.choice(predicates),
            }
            used = {k: v for k, v in params.items() if f"${k}" in KINDS[kind]}
            started = time.perf_counter()
            try:
                result = ws.cypher(KINDS[kind], used)
            except QueryTimeoutError:
                late += 1
                continue
            times[kind].append((time.perf_counter() - started) * 1000)
            rows += len(result.rows)
            cut += result.truncated
        limit = ws.settings.query.cypher_timeout_s
    print(f"{args.n} queries on {args.workspace}; limit {limit:g} s")
    print("| kind | queries | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|")
    for kind in kinds:
        t = sorted(times[kind])
        if t:
            p95 = t[min(len(t) - 1, round(0.95 * (len(t) - 1)))]
            print(f"| {kind} | {len(t)} | {statistics.median(t):.1f} | {p95:.1f} | {t[-1]:.1f} |")
    print(f"\nrows returned {rows}; cut by cypher_max_rows: {cut}; past the time limit: {late}")


if __name__ == "__main__":
    main()
