"""A query from question to cited answer, streamed or not, timed step by step: the same steps
give the answer's ``timings_ms`` and, with telemetry on, its spans (core/telemetry.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace

from graphgate.core.telemetry import Steps, Telemetry
from graphgate.evaluate.harness import Generator
from graphgate.query.base import Answer, RetrievalResult, StreamingGenerator, Turn, placed
from graphgate.query.conflicts import ConflictRetriever
from graphgate.query.events import (
    Answered,
    AnswerText,
    QueryEvents,
    Retrieval,
    Retrieved,
)
from graphgate.query.loaded import LoadedIndex

RetrieverFor = Callable[[str | None, LoadedIndex], ConflictRetriever]


class QueryFlow:
    """One workspace's way of answering: its run holder, retrievers, answerer and telemetry."""

    def __init__(
        self,
        holding: Callable[[], AbstractContextManager[LoadedIndex]],
        retriever: RetrieverFor,
        answerer: Callable[[], Generator],
        telemetry: Callable[[], Telemetry],
    ) -> None:
        self.holding = holding
        self.retriever = retriever
        self.answerer = answerer
        self.telemetry = telemetry

    def retrieve(
        self, question: str, mode: str | None, top_k: int | None, as_of: str | None
    ) -> Retrieval:
        root = self.telemetry().steps("graphgate.retrieve", streamed=False)
        try:
            with self.holding() as loaded:
                result = self._retrieve(root, loaded, question, mode, top_k, as_of)
                retrieval = Retrieval.of(result, loaded.run.run_id, loaded.layout)
        except BaseException as exc:
            root.error(exc)
            root.end()
            raise
        root.ms["total"] = root.end()
        return replace(retrieval, timings_ms=_timings(result, root.ms))

    def events(
        self,
        question: str,
        mode: str | None,
        top_k: int | None,
        as_of: str | None,
        history: Sequence[Turn],
        stream: bool,
    ) -> QueryEvents:
        """Retrieved, then (``stream``) the answer's text as it is written, then Answered.
        One loaded run answers from start to end: an update that becomes current meanwhile is
        the next query's."""
        root = self.telemetry().steps("graphgate.query", streamed=stream)
        try:
            with self.holding() as loaded:
                run_id = loaded.run.run_id
                result = self._retrieve(root, loaded, question, mode, top_k, as_of)
                timings = _timings(result, root.ms)
                yield Retrieved(Retrieval.of(result, run_id, loaded.layout, timings))
                generator = self.answerer()
                with root.step("answer", generator=generator.name) as step:
                    answer: Answer | None = None
                    for item in _answer_items(generator, result, run_id, history, stream):
                        if isinstance(item, Answer):
                            answer = item
                        elif item:
                            if "first_text" not in root.ms:  # time to the first words
                                root.ms["first_text"] = _since(root.start_ns)
                            yield AnswerText(item)
                    assert answer is not None, "a generator ends with its answer"
                    answer.citations = placed(answer.citations, loaded.layout)
                    step.set(
                        citations=len(answer.citations), short_answer=bool(answer.short_answer)
                    )
        except BaseException as exc:
            root.error(exc)
            root.end()
            raise
        root.ms["total"] = root.end()
        answer.timings_ms = _timings(result, root.ms)
        yield Answered(answer)

    def _retrieve(
        self,
        root: Steps,
        loaded: LoadedIndex,
        question: str,
        mode: str | None,
        top_k: int | None,
        as_of: str | None,
    ) -> RetrievalResult:
        root.set(run_id=loaded.run.run_id, top_k=top_k)
        with root.step("retrieve") as step:
            result = self.retriever(mode, loaded).retrieve(question, top_k, as_of=as_of)
            step.set(
                mode=result.mode,
                chunks=len(result.chunks),
                entities=len(result.entities),
                edges=len(result.edges),
                communities=len(result.communities),
                conflicts=len(result.conflicts),
            )
            step.record(result.timings_ms)
        root.set(mode=result.mode)
        return result


def _answer_items(
    generator: Generator,
    result: RetrievalResult,
    run_id: str,
    history: Sequence[Turn],
    stream: bool,
) -> Iterator[str | Answer]:
    if isinstance(generator, StreamingGenerator):
        if stream:
            yield from generator.stream(result, run_id, history)
        else:
            yield generator.answer(result, run_id, history)
        return
    answer = generator.answer(result, run_id)  # a generator of one's own: one piece
    if stream:
        yield answer.answer
    yield answer


def _since(start_ns: int) -> float:
    return (time.perf_counter_ns() - start_ns) / 1e6


def _timings(result: RetrievalResult, steps: dict[str, float]) -> dict[str, float]:
    return {**{f"retrieve.{k}": v for k, v in result.timings_ms.items()}, **steps}
