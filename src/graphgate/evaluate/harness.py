"""Runs cases through retrieval modes, scores each layer, attributes failures, streams results.

Per case and mode: retrieval is scored before any answer exists; then the answer is generated
from what was retrieved and judged; a wrong answer with good recall is re-generated from the
ground-truth context to tell a retrieval miss from a reasoning failure.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from graphgate.core.config import EvalSettings
from graphgate.core.errors import InputError
from graphgate.core.modes import LLM_MODES
from graphgate.evaluate.judge import Judge
from graphgate.evaluate.metrics import (
    entity_recall,
    ranked_docs,
    relationship_recall,
    retrieval_metrics,
)
from graphgate.evaluate.predicates import PredicateMatcher
from graphgate.evaluate.records import EvalRecord, parse_record
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import Answer, RetrievalResult, Retriever
from graphgate.query.conflicts import ConflictRetriever

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
CONFIG = "eval_config.json"

RETRIEVAL_FAILURE = "retrieval_failure"
MISSED_RETRIEVAL_FAILURE = "missed_retrieval_failure"
REASONING_FAILURE = "reasoning_failure"
PASSED = "pass"
UNATTRIBUTED = "unattributed"  # wrong, but no ground-truth context to re-generate from


class Generator(Protocol):
    """Answers from a retrieved context; external pipelines implement the same shape."""

    name: str

    def answer(self, result: RetrievalResult, run_id: str) -> Answer: ...


class GoldContext(Protocol):
    """The ground-truth context of a case (gold docs' chunks and the gold subgraph)."""

    def context(self, case: TestCase) -> RetrievalResult | None: ...


class EvidenceSource(Protocol):
    """The subgraph the retrieved chunks state (``evaluate/evidence.py``)."""

    def subgraph(self, result: RetrievalResult) -> RetrievalResult: ...


class EvalHarness:
    def __init__(
        self,
        retrievers: Mapping[str, Retriever],
        generator: Generator,
        judge: Judge,
        settings: EvalSettings,
        gold: GoldContext | None = None,
        run_id: str = "external",
        predicates: PredicateMatcher | None = None,
        evidence: EvidenceSource | None = None,
    ) -> None:
        """``predicates`` compares relations by meaning (default: by spelling); ``evidence``
        derives the subgraph each mode's chunks state, on which graph recall is measured and
        failures attributed for every mode alike (default: what each mode returned)."""
        self.retrievers = retrievers
        self.predicates = predicates
        self.evidence = evidence
        self.generator = generator
        self.judge = judge
        self.settings = settings
        self.gold = gold
        self.run_id = run_id
        self._rouge: Any = None

    def _rouge_l(self, prediction: str, gold: str | None) -> float | None:
        if not gold:
            return None
        if self._rouge is None:  # built once: it is asked for every case
            from rouge_score import rouge_scorer

            self._rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
        return float(self._rouge.score(gold, prediction)["rougeL"].fmeasure)

    def evaluate(self, case: TestCase, mode: str) -> EvalRecord:
        started = time.perf_counter()
        retriever = self.retrievers[mode]
        if isinstance(retriever, ConflictRetriever):
            # The time the question itself names is the more precise ("from 2004 to 2005" over
            # a case's as_of of 2004); the case's as_of serves questions that name none.
            result = retriever.retrieve(
                case.question, self.settings.top_k, default_as_of=case.as_of
            )
        else:
            result = retriever.retrieve(case.question, self.settings.top_k)
        retrieved_at = time.perf_counter()
        seen = self.evidence.subgraph(result) if self.evidence is not None else result
        metrics = retrieval_metrics(case, seen, self.predicates)
        # What the mode returned itself (vector: no edges), beside the evidenced subgraph.
        metrics["entity_recall_returned"] = entity_recall(case, result)
        metrics["relationship_recall_returned"] = relationship_recall(case, result, self.predicates)
        answer = self.generator.answer(result, self.run_id)
        answered_at = time.perf_counter()
        judgement = self.judge.judge(case, answer)
        metrics |= judgement.as_metrics()
        metrics["rouge_l"] = self._rouge_l(answer.answer, case.answer)
        failure = self._attribute(case, metrics, judgement.correct)
        record: EvalRecord = {
            "case_id": case.id,
            "mode": mode,
            "question_type": case.question_type,
            "difficulty": case.difficulty,
            "question": case.question,
            "gold_answer": case.answer,
            "answer": answer.answer,
            "short_answer": answer.short_answer,
            "metrics": metrics,
            "failure": failure,
            "retrieved_entities": [e.name for e in result.entities],
            "retrieved_edges": [[e.source, e.predicate, e.target] for e in result.edges],
            "retrieved_docs": ranked_docs(result),
            "gold_entities": case.gold_entities,
            "gold_edges": [list(e) for e in case.gold_edges],
            "gold_docs": case.gold_docs,
            "latency_ms": {
                **{f"retrieve.{k}": round(v, 3) for k, v in result.timings_ms.items()},
                "retrieve": round((retrieved_at - started) * 1000, 3),
                "generate": round((answered_at - retrieved_at) * 1000, 3),
            },
            "extras": case.extras(),
        }
        return record

    def _attribute(
        self, case: TestCase, metrics: Mapping[str, float | None], correct: bool | None
    ) -> str | None:
        s = self.settings
        er, rr = metrics["entity_recall"], metrics["relationship_recall"]
        entity_floor = s.entity_recall_thresholds.get(case.question_type, 0.7)
        if (er is not None and er < entity_floor) or (
            rr is not None and rr < s.relationship_recall_threshold
        ):
            return RETRIEVAL_FAILURE
        if correct is None:
            return None
        if correct:
            return PASSED
        context = self.gold.context(case) if self.gold is not None else None
        if context is None:
            return UNATTRIBUTED
        again = self.judge.judge(case, self.generator.answer(context, self.run_id))
        return MISSED_RETRIEVAL_FAILURE if again.correct else REASONING_FAILURE

    def run(
        self,
        cases: Sequence[TestCase],
        modes: Sequence[str],
        out_dir: Path,
        resume: bool = False,
        progress: Callable[[EvalRecord], None] | None = None,
    ) -> list[EvalRecord]:
        """Stream one line per (case, mode) to ``results.jsonl``; ``resume`` skips done pairs."""
        unknown = [m for m in modes if m not in self.retrievers]
        if unknown:
            raise InputError(f"unknown modes {unknown}", f"use some of {sorted(self.retrievers)}")
        out_dir.mkdir(parents=True, exist_ok=True)
        fingerprint = self._fingerprint(cases, modes)
        done = self._prepare(out_dir, fingerprint, resume)
        todo = [(c, m) for c in cases for m in modes if (c.id, m) not in done]
        self._warm({m for _, m in todo}, todo[0][0] if todo else None)
        with (out_dir / RESULTS).open("a", encoding="utf-8") as fh:
            for case in cases:
                for mode in modes:
                    if (case.id, mode) in done:
                        continue
                    record = self.evaluate(case, mode)
                    fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                    fh.flush()
                    if progress is not None:
                        progress(record)
        return read_results(out_dir, cases, modes)

    def _warm(self, modes: set[str], case: TestCase | None) -> None:
        """Each in-process mode retrieves once, untimed, before its first timed case: what
        loads on first use (the linker's model, a keyword index) is not any case's latency.
        A mode that asks a model (cypher) or a retriever of one's own is not called more."""
        if case is None:
            return
        warm = getattr(self.generator, "warm", None)  # an offline answerer's models load too
        for mode in sorted(modes):
            retriever = self.retrievers[mode]
            if isinstance(retriever, ConflictRetriever) and mode not in LLM_MODES:
                result = retriever.retrieve(
                    case.question, self.settings.top_k, default_as_of=case.as_of
                )
                if callable(warm):
                    warm(result)

    def _fingerprint(self, cases: Sequence[TestCase], modes: Sequence[str]) -> dict[str, Any]:
        digest = hashlib.sha256()
        for case in cases:
            digest.update(case.model_dump_json().encode())
        return {
            "testset_sha256": digest.hexdigest(),
            "modes": list(modes),
            "generator": self.generator.name,
            "judge": self.judge.name,
            "run_id": self.run_id,
            "settings": self.settings.model_dump(),
        }

    @staticmethod
    def _prepare(out_dir: Path, fingerprint: dict[str, Any], resume: bool) -> set[tuple[str, str]]:
        results, config = out_dir / RESULTS, out_dir / CONFIG
        if not resume:
            if results.exists() and results.stat().st_size:
                raise InputError(
                    f"{out_dir} already holds results",
                    "pass --resume to continue them, or choose another --out",
                )
            config.write_text(json.dumps(fingerprint, indent=2, sort_keys=True))
            results.write_text("")
            return set()
        if not config.exists():
            raise InputError(f"{out_dir} has no evaluation to resume", "start it without --resume")
        if json.loads(config.read_text()) != json.loads(json.dumps(fingerprint)):
            raise InputError(
                f"{out_dir} was started with another test set, modes, generator, judge or index",
                "resume with the same arguments, or choose another --out",
            )
        return {(r["case_id"], r["mode"]) for r in _read_lines(results, repair=True)}


def _read_lines(path: Path, repair: bool = False) -> list[EvalRecord]:
    """Complete lines only; a line cut short by a killed run is dropped (and, on repair, cut)."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    complete = raw[: raw.rfind(b"\n") + 1]
    if repair and len(complete) != len(raw):
        path.write_bytes(complete)
    out = []
    for number, line in enumerate(complete.decode("utf-8").splitlines(), start=1):
        if line.strip():
            out.append(parse_record(line, f"{path}:{number}"))
    return out


def read_results(
    out_dir: Path, cases: Sequence[TestCase] | None = None, modes: Sequence[str] | None = None
) -> list[EvalRecord]:
    """Results in test-set and mode order, whatever order they were written in."""
    records = _read_lines(out_dir / RESULTS)
    if cases is None or modes is None:
        return records
    order = {(c.id, m): i for i, (c, m) in enumerate((c, m) for c in cases for m in modes)}
    records = [r for r in records if (r["case_id"], r["mode"]) in order]
    return sorted(records, key=lambda r: order[(r["case_id"], r["mode"])])
