"""Learn the offline reader's candidate weights (query/reader_features.py), and measure them.

    .venv/bin/python benchmarks/reader_weights.py collect WORKSPACE TESTSET OUT.jsonl
                                    [--mode hybrid] [--skip N] [--limit N]
    .venv/bin/python benchmarks/reader_weights.py fit TRAIN.jsonl [--eval NAME=FILE.jsonl ...]
    .venv/bin/python benchmarks/reader_weights.py measure FILE.jsonl ... [--set FEATURE=WEIGHT ...]

``collect`` asks each case of the test set (WORKSPACE holds a current run of its corpus) and
writes, per case, every candidate the reader weighed with its features (FEATURES order) and its
token F1 against the gold answer. ``fit`` learns a pairwise logistic model on TRAIN (each gold
candidate, F1 >= 0.5, against each rival of the same question; no intercept, so only the
differences between candidates count) and prints, for TRAIN and each --eval file: cases, the
share whose gold answer is among the candidates, and the top candidate's mean F1 and share right
under today's weights (reader_features.WEIGHTS) and under the learned ones. The learned weights
are printed as the dict to put in reader_features.WEIGHTS. ``measure`` prints the same figures
for today's weights and for today's with some changed (``--set``), without fitting.

Train on cases no figure is reported on (the README's: TimeQA 301-600), and report the rest.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from graphgate import Workspace
from graphgate.evaluate.judge import token_f1
from graphgate.evaluate.testset import load_testset
from graphgate.query import reader as reader_module
from graphgate.query.reader_features import FEATURES, WEIGHTS

RIGHT_F1 = 0.5


def collect(args: argparse.Namespace) -> None:
    seen: list[Any] = []
    decide = reader_module.Reader._decide

    def recording(self: Any, ranked: Any, expected: Any) -> Any:
        seen.append(ranked)
        return decide(self, ranked, expected)

    reader_module.Reader._decide = recording  # type: ignore[method-assign]
    cases = load_testset(args.testset)[args.skip :]
    if args.limit:
        cases = cases[: args.limit]
    with Workspace(args.workspace) as ws, args.out.open("w", encoding="utf-8") as out:
        for case in cases:
            golds = [g for g in [case.answer, *case.answer_aliases] if g]
            if not golds:
                continue
            seen.clear()
            ws.query(case.question, mode=args.mode)
            candidates = [
                {
                    "text": c.text,
                    "f1": max(token_f1(c.text, g) for g in golds),
                    "x": c.occurrence.vector(c.support),
                }
                for c in (seen[-1] if seen else [])
            ]
            out.write(json.dumps({"question": case.question, "candidates": candidates}) + "\n")


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _pairs(cases: list[dict[str, Any]]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    xs, ys = [], []
    for case in cases:
        cands = case["candidates"]
        gold = [np.array(c["x"]) for c in cands if c["f1"] >= RIGHT_F1]
        rivals = [np.array(c["x"]) for c in cands if c["f1"] < RIGHT_F1]
        if not gold or not rivals:
            continue
        best = max(gold, key=lambda v: float(v @ _vector(WEIGHTS)))
        for rival in rivals:
            xs += [best - rival, rival - best]
            ys += [1, 0]
    return np.array(xs), np.array(ys)


def _vector(weights: dict[str, float]) -> np.ndarray[Any, Any]:
    return np.array([weights.get(name, 0.0) for name in FEATURES])


def _measure(cases: list[dict[str, Any]], weights: dict[str, float]) -> tuple[float, float]:
    w = _vector(weights)
    f1s = []
    for case in cases:
        cands = case["candidates"]
        if not cands:
            f1s.append(0.0)
            continue
        # Ties go to the shorter text, as in the reader.
        top = min(cands, key=lambda c: (-float(np.array(c["x"]) @ w), len(c["text"])))
        f1s.append(top["f1"])
    right = [f >= RIGHT_F1 for f in f1s]
    return sum(f1s) / len(f1s), sum(right) / len(right)


def fit(args: argparse.Namespace) -> None:
    from sklearn.linear_model import LogisticRegression

    train = _load(args.train)
    x, y = _pairs(train)
    model = LogisticRegression(fit_intercept=False, C=args.c, max_iter=2000)
    model.fit(x, y)
    learned = {name: round(float(v), 3) for name, v in zip(FEATURES, model.coef_[0], strict=True)}
    print(f"trained on {args.train}: {len(train)} cases, {len(x) // 2} gold-rival pairs")
    print("WEIGHTS = " + json.dumps(learned, indent=4))
    sets: list[tuple[str, list[dict[str, Any]]]] = [("train", train)]
    for spec in args.eval:
        name, _, path = spec.partition("=")
        sets.append((name, _load(Path(path))))
    print(
        f"{'set':16} {'n':>4} {'in cands':>8} {'F1 now':>7} {'right now':>9} "
        f"{'F1 learned':>10} {'right learned':>13}"
    )
    for name, cases in sets:
        inside = sum(any(c["f1"] >= RIGHT_F1 for c in case["candidates"]) for case in cases)
        now_f1, now_right = _measure(cases, WEIGHTS)
        new_f1, new_right = _measure(cases, learned)
        print(
            f"{name:16} {len(cases):4d} {inside / len(cases):8.2f} {now_f1:7.3f} "
            f"{now_right:9.2f} {new_f1:10.3f} {new_right:13.2f}"
        )


def measure(args: argparse.Namespace) -> None:
    changed = dict(WEIGHTS)
    for spec in args.set:
        name, _, value = spec.partition("=")
        if name not in FEATURES:
            raise SystemExit(f"unknown feature {name!r}: one of {', '.join(FEATURES)}")
        changed[name] = float(value)
    print(f"{'set':32} {'n':>4} {'F1 now':>7} {'right now':>9} {'F1 set':>7} {'right set':>9}")
    for path in args.files:
        cases = _load(path)
        now_f1, now_right = _measure(cases, WEIGHTS)
        new_f1, new_right = _measure(cases, changed)
        print(
            f"{path.name:32} {len(cases):4d} {now_f1:7.3f} {now_right:9.2f} {new_f1:7.3f} "
            f"{new_right:9.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("workspace", type=Path)
    c.add_argument("testset", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--mode", default="hybrid")
    c.add_argument("--skip", type=int, default=0)
    c.add_argument("--limit", type=int, default=0)
    f = sub.add_parser("fit")
    f.add_argument("train", type=Path)
    f.add_argument("--eval", action="append", default=[], help="NAME=FILE.jsonl")
    f.add_argument("--c", type=float, default=1.0, help="inverse L2 strength")
    m = sub.add_parser("measure")
    m.add_argument("files", type=Path, nargs="+")
    m.add_argument("--set", action="append", default=[], help="FEATURE=WEIGHT")
    args = parser.parse_args()
    commands: dict[str, Callable[[argparse.Namespace], None]] = {
        "collect": collect,
        "fit": fit,
        "measure": measure,
    }
    commands[args.command](args)


if __name__ == "__main__":
    main()
