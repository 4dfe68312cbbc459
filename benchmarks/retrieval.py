"""Retrieval against the baselines, on one corpus, in one run.

    .venv/bin/python benchmarks/retrieval.py CORPUS TESTSET [--workspace WS] [--modes ...]
                                             [--unit doc|evidence] [--query KEY=VALUE ...]

Baselines rank whole documents by their title + text: BM25 (bm25s, Okapi), dense (the
configured embedder, cosine) and their reciprocal-rank fusion. Each graphgate mode ranks the
documents of the chunks it retrieves. Printed per question type (the dataset's own type where
the test set keeps it as ``source_type``) and overall: doc recall@2/5/10, all@5 (every gold
document in the top 5) and retrieval latency p50/p95. Cases without gold documents
(unanswerable) are left out of recall. The index is built in WS (or a temporary folder) unless
WS already has a current run. ``--query`` sets a query setting for the graphgate modes (an
ablation: ``--query walk_passage_seeds=0``); values are read as JSON, else as text.

``--unit evidence`` is for corpora of one long document (the GraphRAG-Bench novel), where
document recall is always 1: every method ranks chunks (the baselines the run's own chunks,
BM25 over their text and dense over their stored vectors), and recall@k is the share of a case's
key facts found in the top k chunks; a fact is found in a chunk that holds at least
``FACT_WORDS`` of its content words (the facts are paraphrases, rarely verbatim).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from graphgate import Workspace
from graphgate.core.config import LoadSettings
from graphgate.core.text import content_words
from graphgate.core.types import vectors_from_table
from graphgate.evaluate.testset import TestCase, load_testset
from graphgate.index.load import CorpusLoader
from graphgate.query.hybrid import reciprocal_rank_fusion

DEPTH = 10
FACT_WORDS = 0.75
Ranker = Callable[[str], list[str]]
Scorer = Callable[[TestCase, Sequence[str], int], float | None]


def doc_recall(case: TestCase, ranked: Sequence[str], k: int) -> float | None:
    gold = set(case.gold_docs)
    return len(set(ranked[:k]) & gold) / len(gold) if gold else None


def evidence_scorer(chunk_text: Callable[[str], str]) -> Scorer:
    """Share of the case's key facts found in the top k chunks (ids of the run's chunks)."""
    words: dict[str, set[str]] = {}

    def chunk_words(cid: str) -> set[str]:
        if cid not in words:
            words[cid] = set(content_words(chunk_text(cid)))
        return words[cid]

    def score(case: TestCase, ranked: Sequence[str], k: int) -> float | None:
        facts = [set(content_words(f)) for f in case.key_facts]
        facts = [f for f in facts if f]
        if not facts:
            return None
        found = sum(
            any(len(f & chunk_words(c)) >= FACT_WORDS * len(f) for c in ranked[:k]) for f in facts
        )
        return found / len(facts)

    return score


class Baselines:
    """BM25, dense and RRF over documents (title + text, embedded here) or over the run's
    chunks (their stored vectors)."""

    def __init__(self, ws: Workspace, corpus: Path, unit: str) -> None:
        import bm25s

        self.embedder = ws.embedder
        if unit == "doc":
            docs = CorpusLoader(LoadSettings()).load(corpus).documents
            self.ids = [d.id for d in docs]
            texts = [f"{d.title}\n{d.text}" for d in docs]
            parts = [self.embedder.embed(texts[i : i + 64]) for i in range(0, len(texts), 64)]
            self.matrix = np.vstack(parts)
        else:
            run = ws.runs.current()
            chunks = run.read_artifact("chunks")
            vectors = dict(
                zip(*vectors_from_table(run.read_artifact("chunk_vectors")), strict=True)
            )
            self.ids = chunks["id"].to_pylist()
            texts = chunks["text"].to_pylist()
            self.matrix = np.vstack([vectors[c] for c in self.ids])
        self.bm25 = bm25s.BM25()
        self.bm25.index(
            bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False
        )

    def bm25_rank(self, question: str) -> list[str]:
        import bm25s

        tokens = bm25s.tokenize([question], stopwords="en", show_progress=False)
        k = min(DEPTH * 2, len(self.ids))
        docs, scores = self.bm25.retrieve(tokens, k=k, show_progress=False)
        return [self.ids[int(d)] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def dense_rank(self, question: str) -> list[str]:
        scores = self.matrix @ self.embedder.embed([question])[0]
        order = np.argsort(-scores, kind="stable")[: DEPTH * 2]
        return [self.ids[int(i)] for i in order]

    def rrf_rank(self, question: str) -> list[str]:
        fused = reciprocal_rank_fusion([self.bm25_rank(question), self.dense_rank(question)], 60)
        return [doc for doc, _ in fused]


def mode_ranker(ws: Workspace, mode: str, unit: str) -> Ranker:
    retriever = ws.retriever(mode)

    def rank(question: str) -> list[str]:
        result = retriever.retrieve(question, DEPTH * 2)
        if unit == "evidence":
            return [c.id for c in result.chunks]
        return list(dict.fromkeys(c.doc_id for c in result.chunks))

    return rank


def measure(rankers: dict[str, Ranker], cases: Sequence[TestCase], scorer: Scorer) -> None:
    rows: dict[tuple[str, str], list[tuple[float, float, float, float]]] = defaultdict(list)
    latency: dict[str, list[float]] = defaultdict(list)
    for case in cases:
        kind = str(case.extras().get("source_type") or case.question_type)
        for name, rank in rankers.items():
            started = time.perf_counter()
            ranked = rank(case.question)
            latency[name].append((time.perf_counter() - started) * 1000)
            recalls = [scorer(case, ranked, k) for k in (2, 5, 10)]
            if recalls[0] is None:
                continue  # no gold: unanswerable
            r2, r5, r10 = (float(r or 0.0) for r in recalls)
            scores = (r2, r5, r10, float(r5 == 1.0))
            rows[(kind, name)].append(scores)
            rows[("all", name)].append(scores)
    kinds = [*sorted({k for k, _ in rows} - {"all"}), "all"]
    print("| type (n) | method | recall@2 | recall@5 | recall@10 | all@5 | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        for name in rankers:
            values = np.asarray(rows[(kind, name)])
            if not len(values):
                continue
            r2, r5, r10, allgold = values.mean(axis=0)
            p50, p95 = np.percentile(latency[name], [50, 95])
            print(
                f"| {kind} ({len(values)}) | {name} | {r2:.3f} | {r5:.3f} | {r10:.3f} | "
                f"{allgold:.3f} | {p50:.1f} | {p95:.1f} |"
            )


def _settings(pairs: Sequence[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("testset", type=Path)
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--modes", default="vector,local,graph,hybrid")
    parser.add_argument("--unit", choices=("doc", "evidence"), default="doc")
    parser.add_argument("--query", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    folder = args.workspace or Path(tempfile.mkdtemp(prefix="gg-retrieval-"))
    with Workspace(folder, query=_settings(args.query)) as ws:
        if ws.runs.current_id() is None:
            started = time.perf_counter()
            ws.index(args.corpus)
            print(f"indexed {args.corpus} in {time.perf_counter() - started:.1f} s\n")
        cases = load_testset(args.testset)
        baselines = Baselines(ws, args.corpus, args.unit)
        rankers: dict[str, Ranker] = {
            "BM25": baselines.bm25_rank,
            "dense": baselines.dense_rank,
            "RRF(BM25, dense)": baselines.rrf_rank,
        }
        for mode in args.modes.split(","):
            rankers[f"graphgate {mode}"] = mode_ranker(ws, mode, args.unit)
        scorer: Scorer = doc_recall
        if args.unit == "evidence":
            store = ws.loaded().store
            scorer = evidence_scorer(lambda cid: store.chunk(cid).text)
        unit = "key facts" if args.unit == "evidence" else "gold documents"
        print(f"recall@k: share of {unit} in the top k; all@5: every one in the top 5\n")
        measure(rankers, cases, scorer)


if __name__ == "__main__":
    main()
