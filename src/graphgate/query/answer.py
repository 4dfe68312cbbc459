"""Answers without an LLM: the best-supported retrieved sentences and facts, each cited."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from graphgate.query.base import Answer, Citation, RetrievalResult
from graphgate.text import content_words, sentence_spans
from graphgate.types import COOCCURS


@dataclass(frozen=True)
class _Sentence:
    chunk_rank: int
    chunk_id: str
    doc_id: str
    start: int
    end: int
    text: str


class ExtractiveAnswerer:
    """Picks sentences by question-word overlap, retrieved-entity mentions and chunk rank."""

    name = "extractive"

    def __init__(self, max_sentences: int = 3) -> None:
        self.max_sentences = max_sentences

    def answer(self, result: RetrievalResult, run_id: str) -> Answer:
        if result.mode == "global":
            return self._from_reports(result, run_id)
        sentences = self._sentences(result)
        question_words = set(content_words(result.question))
        frequency = Counter(w for s in sentences for w in set(content_words(s.text)))
        entity_names = [e.name.lower() for e in result.entities[:10]]
        scored: list[tuple[float, int, _Sentence]] = []
        for i, s in enumerate(sentences):
            words = set(content_words(s.text))
            overlap = sum(1.0 / math.log(2 + frequency[w]) for w in words & question_words)
            mentions = sum(1 for name in entity_names if name and name in s.text.lower())
            score = overlap + 0.3 * min(mentions, 3) + 0.5 / (1 + s.chunk_rank)
            if len(words) >= 4:  # fragments such as "' cried Bob." answer nothing
                scored.append((score, i, s))
        scored.sort(key=lambda x: (-x[0], x[1]))
        chosen = [s for _, _, s in scored[: self.max_sentences]]
        citations = [
            Citation(n, s.chunk_id, s.doc_id, s.start, s.end, s.text)
            for n, s in enumerate(chosen, start=1)
        ]
        lines = [f"{c.text} [{c.marker}]" for c in citations]
        # Co-occurrence says two names met, not what holds between them: only parsed facts speak.
        facts = [e for e in result.edges if e.predicate != COOCCURS][:3]
        for edge in facts:
            if not edge.chunk_ids:
                continue
            cited = next((c for c in citations if c.chunk_id in edge.chunk_ids), None)
            if cited is None:
                chunk = next((c for c in result.chunks if c.id in edge.chunk_ids), None)
                if chunk is None:
                    continue
                cited = Citation(
                    len(citations) + 1, chunk.id, chunk.doc_id, chunk.start, chunk.end, chunk.text
                )
                citations.append(cited)
            span = ""
            if edge.valid_from or edge.valid_to:
                span = f" ({edge.valid_from or '?'}–{edge.valid_to or ''})"
            lines.append(
                f"Fact: {edge.source} —{edge.predicate}→ {edge.target}{span} [{cited.marker}]"
            )
        if not lines:
            text = "No supporting text was retrieved for this question."
        else:
            text = "Extractive answer (no LLM configured):\n" + "\n".join(lines)
        return Answer(result.question, result.mode, text, citations, result, self.name, run_id)

    def _from_reports(self, result: RetrievalResult, run_id: str) -> Answer:
        """Reduce step of global mode: the best report points, citing community and chunk."""
        chunks = {c.id: c for c in result.chunks}
        scored = sorted(
            ((p, c) for c in result.communities for p in c.points), key=lambda pc: -pc[0].score
        )
        citations: list[Citation] = []
        lines: list[str] = []
        said: list[set[str]] = []
        for point, community in scored:
            chunk = chunks.get(point.chunk_id or "")
            words = set(content_words(point.text))
            # Points that say nearly the same thing (overlapping source sentences) count once.
            repeated = any(len(words & w) >= 0.8 * min(len(words), len(w)) for w in said)
            if chunk is None or repeated or not words:
                continue
            if len(lines) == self.max_sentences * 2:
                break
            said.append(words)
            marker = len(citations) + 1
            start, end = chunk.start, chunk.end
            offset = chunk.text.find(point.text)
            if offset >= 0:  # a source sentence: cite its exact span
                start, end = chunk.start + offset, chunk.start + offset + len(point.text)
            citations.append(
                Citation(
                    marker,
                    chunk.id,
                    chunk.doc_id,
                    start,
                    end,
                    point.text if offset >= 0 else chunk.text,
                    community.id,
                )
            )
            lines.append(f"{point.text} [{marker}]")
        text = (
            "Global answer from community reports (no LLM configured):\n" + "\n".join(lines)
            if lines
            else "No community report matched this question."
        )
        return Answer(result.question, result.mode, text, citations, result, self.name, run_id)

    @staticmethod
    def _sentences(result: RetrievalResult) -> list[_Sentence]:
        out: list[_Sentence] = []
        for rank, chunk in enumerate(result.chunks):
            for begin, end in sentence_spans(chunk.text):
                text = chunk.text[begin:end]
                start = chunk.start + begin
                out.append(_Sentence(rank, chunk.id, chunk.doc_id, start, start + len(text), text))
        return out
