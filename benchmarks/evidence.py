"""Graph recall and failure attribution per mode, measured on what each mode returned (the
harness before the evidenced subgraph) and on what its chunks state (after).

    .venv/bin/python benchmarks/evidence.py WORKSPACE TESTSET [--modes vector,local,graph,hybrid]

Prints, per mode: entity and relationship recall (returned / evidenced) and the failure
breakdown with attribution on each.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from graphgate import Workspace
from graphgate.core.modes import parse_modes
from graphgate.evaluate.evidence import IndexEvidence
from graphgate.evaluate.gold import IndexGoldContext
from graphgate.evaluate.harness import EvalHarness
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.testset import load_testset


def _mean(values: list[float | None]) -> str:
    measured = [v for v in values if v is not None]
    return f"{sum(measured) / len(measured):.3f}" if measured else "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("testset", type=Path)
    parser.add_argument("--modes", default="vector,local,graph,hybrid")
    args = parser.parse_args()
    modes = parse_modes(args.modes)
    cases = load_testset(args.testset)
    with Workspace(args.workspace) as ws:
        loaded = ws.loaded()
        retrievers = {m: ws.retriever(m) for m in modes}
        predicates = PredicateMatcher(ws.settings.extract.spacy_model)
        common = (ws.answerer(), ws.judge(), ws.settings.eval, IndexGoldContext(loaded))
        runs = {
            "returned": EvalHarness(dict(retrievers), *common, "b", predicates),
            "evidenced": EvalHarness(
                dict(retrievers), *common, "b", predicates, IndexEvidence(loaded)
            ),
        }
        print(f"{len(cases)} cases from {args.testset}")
        print(
            "| mode | entity recall returned / evidenced | relationship recall returned / "
            "evidenced | failures, attribution on returned | failures, on evidenced |"
        )
        print("|---|---|---|---|---|")
        for mode in modes:
            records = {k: [h.evaluate(c, mode) for c in cases] for k, h in runs.items()}
            after = records["evidenced"]
            failures = {
                k: dict(sorted(Counter(str(r["failure"]) for r in rs).items()))
                for k, rs in records.items()
            }
            print(
                f"| {mode} | {_mean([r['metrics']['entity_recall_returned'] for r in after])} / "
                f"{_mean([r['metrics']['entity_recall'] for r in after])} | "
                f"{_mean([r['metrics']['relationship_recall_returned'] for r in after])} / "
                f"{_mean([r['metrics']['relationship_recall'] for r in after])} | "
                f"{failures['returned']} | {failures['evidenced']} |"
            )


if __name__ == "__main__":
    main()
