"""Fixtures of the unit tests that read answers offline: one spaCy model and one reader
factory for the session (the model and the embedder load once), and the short answer a reader
gives over hand-made passages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.core.config import Settings
from graphgate.core.spacy_models import load_spacy
from graphgate.embed import build_embedder
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import expected_answer
from graphgate.query.base import RetrievalResult, RetrievedChunk
from graphgate.query.question import read_question
from graphgate.query.reader import Reader
from graphgate.query.reader_evidence import spans
from graphgate.query.reader_features import WEIGHTS


@pytest.fixture(scope="session")
def nlp() -> Any:
    return load_spacy(Settings().extract.spacy_model, "tests")


@pytest.fixture(scope="session")
def reader_with(nlp: Any) -> Callable[[dict[str, float]], ExtractiveAnswerer]:
    embedder = build_embedder(Settings().embed)
    q = Settings().query

    def make(changed: dict[str, float]) -> ExtractiveAnswerer:
        reader = Reader(
            lambda: nlp,
            q.reader_min_support,
            q.reader_side_similarity,
            lambda: embedder,
            q.reader_min_margin,
            {**WEIGHTS, **changed},
        )
        return ExtractiveAnswerer(3, reader)

    return make


def short_answer(answerer: ExtractiveAnswerer, question: str, *passages: str) -> str | None:
    """The short answer over ``passages``, each a retrieved chunk ranked in the order given."""
    chunks = [
        RetrievedChunk(f"c{i}", f"d{i}", text, 0, len(text), 1.0 - i / 10)
        for i, text in enumerate(passages)
    ]
    return answerer.answer(RetrievalResult(question, "vector", chunks), "run").short_answer


def name_tokens(doc: Any, name: str) -> tuple[int, int]:
    """The token span (start, end) of ``name``'s first occurrence in a parsed sentence."""
    start = doc.text.index(name)
    span = doc.char_span(start, start + len(name), alignment_mode="expand")
    return int(span.start), int(span.end)


def labelled_candidates(
    nlp: Any, sentence: str, labelled: list[tuple[str, str]], question: str
) -> list[str]:
    """The candidate texts of ``sentence`` for ``question``, its entities set to ``labelled``
    (each a name as written and its label): the parser's own labels vary by model version."""
    doc = nlp(sentence)
    doc.ents = [Span(doc, *name_tokens(doc, name), label=label) for name, label in labelled]
    return [text for text, *_ in spans(doc, expected_answer(read_question(question), None))]
