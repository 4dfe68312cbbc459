"""The offline reader's short answers, scored as readers are scored, beside today's sentences.

    .venv/bin/python benchmarks/reader.py WORKSPACE TESTSET [--modes vector,hybrid] [--limit N]
                                          [--skip N] [--baselines CORPUS] [--dump FILE]

WORKSPACE holds a current run of the test set's corpus (`graphgate index CORPUS -w WS`).
Printed per mode and question type: cases, short EM and F1 (SQuAD normalisation, best over the
gold answer and its aliases; an abstention scores 0), the share answered, wrong among answered
(EM 0 and F1 < 0.5), the share of abstentions that were errors (the gold answer was in the
retrieved chunks), the ceiling (the gold answer occurs in the retrieved chunks), and the
baseline: the same answer without its short answer (the best sentences), by token F1 and by
containment of the gold answer. Cases without a gold answer (MultiHop-RAG's null queries) are
counted apart: the share on which the reader abstained.

``--dump FILE`` writes one JSON line per case and mode (question, gold, short answer, scores):
the cases behind a figure, to read the reader's errors by.

``--baselines CORPUS`` adds the same reader over the top 5 documents that BM25, dense and their
RRF rank (benchmarks/retrieval.py's baselines; each document one passage, its title the first
line): the reader as an external pipeline would use it, on the plain retrievers' evidence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from graphgate import Workspace
from graphgate.core.config import LoadSettings
from graphgate.evaluate.judge import normalise_answer, token_f1
from graphgate.evaluate.testset import TestCase, load_testset
from graphgate.index.load import CorpusLoader
from graphgate.query.base import Answer, RetrievalResult, RetrievedChunk

WRONG_F1 = 0.5


def _contains(haystack: str, needle: str) -> bool:
    h, n = f" {normalise_answer(haystack)} ", normalise_answer(needle)
    return bool(n) and f" {n} " in h


BASELINE_DEPTH = 5
Ask = Callable[[TestCase], Answer]


def mode_asker(ws: Workspace, mode: str) -> Ask:
    return lambda case: ws.query(case.question, mode=mode)


def baseline_asker(ws: Workspace, corpus: Path, rank: Callable[[str], list[str]]) -> Ask:
    """The reader over a baseline's top documents, as an external retriever's result."""
    docs = {d.id: d for d in CorpusLoader(LoadSettings()).load(corpus).documents}
    answerer = ws.answerer()

    def ask(case: TestCase) -> Answer:
        chunks = []
        for i, doc_id in enumerate(rank(case.question)[:BASELINE_DEPTH]):
            d = docs[doc_id]
            text = f"{d.title}\n{d.text}" if d.title else d.text
            chunks.append(RetrievedChunk(doc_id, doc_id, text, 0, len(text), 1.0 / (1 + i)))
        return answerer.answer(RetrievalResult(case.question, "baseline", chunks), "baseline")

    return ask


Row = dict[str, float | bool | str | None]


def score(ask: Ask, case: TestCase) -> Row:
    answer = ask(case)
    golds = [g for g in [case.answer, *case.answer_aliases] if g]
    short = answer.short_answer
    if not golds:
        return {"null": True, "question": case.question, "short": short, "abstained": short is None}
    sentences = "\n".join(
        line for line in answer.answer.splitlines()[1:] if not line.startswith("Answer:")
    )
    em = max(float(normalise_answer(short or "") == normalise_answer(g)) for g in golds)
    f1 = max(token_f1(short or "", g) for g in golds)
    chunks = " ".join(c.text for c in answer.retrieval.chunks)
    yes_no = normalise_answer(golds[0]) in {"yes", "no"}
    return {
        "null": False,
        "question": case.question,
        "gold": golds[0],
        "short": short,
        "answered": short is not None,
        "em": em,
        "f1": f1,
        "wrong": short is not None and em == 0 and f1 < WRONG_F1,
        "ceiling": yes_no or any(_contains(chunks, g) for g in golds),
        "base_f1": max(token_f1(sentences, g) for g in golds),
        "base_contains": any(_contains(sentences, g) for g in golds),
    }


def _mean(rows: list[Row], key: str) -> float:
    values = [float(r[key] or 0) for r in rows]
    return sum(values) / len(values) if values else float("nan")


def table(results: dict[tuple[str, str], list[Row]]) -> None:
    head = (
        f"{'mode':8} {'type':14} {'n':>4} {'EM':>6} {'F1':>6} {'answd':>6} {'wrong':>6} "
        f"{'abst.err':>8} {'ceiling':>7} {'base F1':>7} {'base ⊃':>7}"
    )
    print(head)
    for (mode, qtype), rows in sorted(results.items()):
        answerable = [r for r in rows if not r["null"]]
        if answerable:
            answered = [r for r in answerable if r["answered"]]
            abstained = [r for r in answerable if not r["answered"]]
            wrong = _mean(answered, "wrong") if answered else float("nan")
            missed = _mean(abstained, "ceiling") if abstained else float("nan")
            print(
                f"{mode:8} {qtype:14} {len(answerable):4d} {_mean(answerable, 'em'):6.3f} "
                f"{_mean(answerable, 'f1'):6.3f} {_mean(answerable, 'answered'):6.2f} "
                f"{wrong:6.2f} {missed:8.2f} {_mean(answerable, 'ceiling'):7.2f} "
                f"{_mean(answerable, 'base_f1'):7.3f} {_mean(answerable, 'base_contains'):7.2f}"
            )
        nulls = [r for r in rows if r["null"]]
        if nulls:
            print(
                f"{mode:8} {qtype:14} {len(nulls):4d} no gold answer: abstained on "
                f"{_mean(nulls, 'abstained'):.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("testset", type=Path)
    parser.add_argument("--modes", default="vector,hybrid")
    parser.add_argument("--limit", type=int, default=0, help="the first N cases (0: all)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N cases")
    parser.add_argument("--baselines", type=Path, help="the corpus, for BM25 / dense / RRF")
    parser.add_argument("--dump", type=Path, help="one JSON line per case and mode")
    args = parser.parse_args()
    cases = load_testset(args.testset)[args.skip :]
    if args.limit:
        cases = cases[: args.limit]
    results: dict[tuple[str, str], list[Row]] = defaultdict(list)
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    with Workspace(args.workspace) as ws:
        askers = {mode: mode_asker(ws, mode) for mode in args.modes.split(",")}
        if args.baselines is not None:
            sys.path.insert(0, str(Path(__file__).parent))
            from retrieval import Baselines  # the same baselines as the retrieval tables

            base = Baselines(ws, args.baselines, "doc")
            askers["bm25"] = baseline_asker(ws, args.baselines, base.bm25_rank)
            askers["dense"] = baseline_asker(ws, args.baselines, base.dense_rank)
            askers["rrf"] = baseline_asker(ws, args.baselines, base.rrf_rank)
        for mode, ask in askers.items():
            for case in cases:
                row = score(ask, case)
                qtype = str(case.extras().get("source_type") or case.question_type)
                results[(mode, qtype)].append(row)
                results[(mode, "all")].append(row)
                if dump is not None:
                    dump.write(json.dumps({"mode": mode, "type": qtype, **row}) + "\n")
    if dump is not None:
        dump.close()
    print(f"{args.testset}: {len(cases)} cases")
    table(results)


if __name__ == "__main__":
    main()
