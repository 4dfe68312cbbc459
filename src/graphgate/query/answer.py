"""Answers without an LLM: the best-supported retrieved sentences and facts, each cited."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence

from graphgate.core.dates import TimeSpan
from graphgate.core.text import content_word_set, sentence_spans, squash
from graphgate.core.types import COOCCURS
from graphgate.query.base import Answer, Citation, RetrievalResult, Turn
from graphgate.query.question import plain_question
from graphgate.query.reader import Reader
from graphgate.query.reader_evidence import Sentence, holder_sentence
from graphgate.query.reader_rows import dated_row
from graphgate.query.temporal import CONTRADICTS, FITS, sentence_fit

# How much a sentence's fit to the asked time moves its score (a third to a half of a rare
# question word's weight, so relevance still leads; TimeQA answer correctness in the README):
# a date inside the asked time, and the latest dated event before it (a later change
# supersedes an earlier one), over an earlier event.
_FITS_BONUS = 0.5
_LATEST_EVENT_BONUS = 0.3
_EARLIER_EVENT_BONUS = 0.1
# A list's row dated inside the asked time ("- 1997-2002 : Ann Lee") shares no word with the
# question (its heading names the post): its date speaks for it.
_ROW_BONUS = 0.5
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


def at_time(
    scored: list[tuple[float, int, Sentence]], asked: TimeSpan
) -> list[tuple[float, int, Sentence]]:
    """Sentences rescored at the asked time; those whose dates contradict it are dropped
    (unless nothing else is left)."""
    fits = [(sentence_fit(s.text, asked, s.date), score, i, s) for score, i, s in scored]
    events = sorted({event for (_, event), *_ in fits if event is not None})
    out = []
    for (fit, event), score, i, s in fits:
        if fit == CONTRADICTS:
            continue
        if fit == FITS:
            score += _FITS_BONUS
            row = dated_row(s.text)
            if row is not None and row.span.overlaps(asked):
                score += _ROW_BONUS
        elif event is not None:
            score += _LATEST_EVENT_BONUS if event == events[-1] else _EARLIER_EVENT_BONUS
        out.append((score, i, s))
    return out or scored


class ExtractiveAnswerer:
    """Picks sentences by question-word overlap, retrieved-entity mentions and chunk rank;
    with a reader, a short answer read out of them leads (query/reader.py)."""

    name = "extractive"

    def __init__(self, max_sentences: int = 3, reader: Reader | None = None) -> None:
        self.max_sentences = max_sentences
        self.reader = reader

    def warm(self, result: RetrievalResult) -> None:
        """Answer once, unused: what the reader loads on first use (the spaCy pipeline, where
        the mode never linked an entity) is then no question's latency."""
        self.answer(result, "warm")

    def stream(
        self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()
    ) -> Iterator[str | Answer]:
        """The answer line by line (it is chosen whole, not written: the pieces only let a
        client show the same stream an LLM gives), then the :class:`Answer`."""
        answer = self.answer(result, run_id, history)
        yield from (line for line in _LINE.findall(answer.answer) if line)
        yield answer

    def answer(self, result: RetrievalResult, run_id: str, history: Sequence[Turn] = ()) -> Answer:
        """``history`` is not read: the extractive answer is to the question alone."""
        if result.mode == "global":
            return self._from_reports(result, run_id)
        if answered_by_rows(result):
            return rows_answer(result, run_id)
        sentences = self._sentences(result)
        question = result.parsed or plain_question(result.question)
        question_words = question.words
        frequency = Counter(w for s in sentences for w in content_word_set(s.text))
        entity_names = [e.name.lower() for e in result.entities[:10]]
        scored: list[tuple[float, int, Sentence]] = []
        for i, s in enumerate(sentences):
            words = content_word_set(s.text)
            # Summed in word order: a set's order changes with the process's hash seed, and
            # so would a float sum's last bit, and a tie between two sentences with it.
            shared = sorted(words & question_words)
            overlap = sum(1.0 / math.log(2 + frequency[w]) for w in shared)
            mentions = sum(1 for name in entity_names if name and name in s.text.lower())
            score = overlap + 0.3 * min(mentions, 3) + 0.5 / (1 + s.chunk_rank)
            if len(words) >= 4:  # fragments such as "' cried Bob." answer nothing
                scored.append((score, i, s))
        if result.time is not None:
            scored = at_time(scored, result.time)
        scored.sort(key=lambda x: (-x[0], x[1]))
        chosen = [s for _, _, s in scored[: self.max_sentences]]
        citations: list[Citation] = []
        lines: list[str] = []
        short = None
        # Sources that disagree about what is asked get no one short answer: both are shown.
        if self.reader is not None and not result.conflicts:
            read = self.reader.read(question, result, [s for _, _, s in scored])
            short = read.text
            said = read.sentence
            if short is not None:
                cite = ""
                if said is not None:
                    citations.append(
                        Citation(1, said.chunk_id, said.doc_id, said.start, said.end, said.text)
                    )
                    cite = " [1]"
                lines.append(f"Answer: {short}{cite}")
        for conflict in result.conflicts:
            sides = []
            for side in conflict.sides:
                marker = len(citations) + 1
                citations.append(
                    Citation(marker, side.chunk_id, side.doc_id, side.start, side.end, side.text)
                )
                when = f", {side.date}" if side.date else ""
                sides.append(f"{side.value} ({side.doc_id}{when}) [{marker}]")
            lines.append(
                f"Sources disagree on the {conflict.about.replace('_', ' ')} of "
                f"{conflict.subject}: " + " vs ".join(sides)
            )
        lines += _holder_lines(result, citations, sentences)
        # The short answer's sentence is quoted (first, if not among the best); a sentence
        # quoted above (a side of a conflict, a holder's) is not quoted twice.
        evidence = (citations[0].doc_id, citations[0].start) if short and citations else None
        quoted = {(c.doc_id, c.start) for c in citations} - {evidence}
        shown = list(chosen)
        if evidence is not None and evidence not in {(s.doc_id, s.start) for s in chosen}:
            first = [s for s in sentences if (s.doc_id, s.start) == evidence][:1]
            shown = first + shown[: self.max_sentences - len(first)]
        for s in shown:
            if (s.doc_id, s.start) in quoted:
                continue
            # A hard-wrapped sentence is shown on one line; its citation keeps the exact span.
            if (s.doc_id, s.start) == evidence:
                lines.append(f"{squash(s.text)} [1]")
                continue
            marker = len(citations) + 1
            citations.append(Citation(marker, s.chunk_id, s.doc_id, s.start, s.end, s.text))
            lines.append(f"{squash(s.text)} [{marker}]")
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
        when = f", {result.time.label}" if result.time is not None else ""
        if not lines:
            text = f"No supporting text was retrieved for this question{when}."
        else:
            text = f"Extractive answer (no LLM configured){when}:\n" + "\n".join(lines)
        return Answer(
            result.question, result.mode, text, citations, result, self.name, run_id,
            short_answer=short,
        )  # fmt: skip

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
            words = content_word_set(point.text)
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
        when = f", {result.time.label}" if result.time is not None else ""
        text = (
            f"Global answer from community reports (no LLM configured){when}:\n" + "\n".join(lines)
            if lines
            else f"No community report matched this question{when}."
        )
        return Answer(result.question, result.mode, text, citations, result, self.name, run_id)

    @staticmethod
    def _sentences(result: RetrievalResult) -> list[Sentence]:
        out: list[Sentence] = []
        for rank, chunk in enumerate(result.chunks):
            for begin, end in sentence_spans(chunk.text):
                text = chunk.text[begin:end]
                start = chunk.start + begin
                out.append(
                    Sentence(
                        rank, chunk.id, chunk.doc_id, start, start + len(text), text, chunk.date
                    )
                )
        return out


def _holder_lines(
    result: RetrievalResult, citations: list[Citation], sentences: list[Sentence]
) -> list[str]:
    """Who held the post the question asks about at the asked time (query/held.py), each
    cited by the sentence that states it: the answer first, then the passages."""
    lines = []
    for edge in result.holders:
        said = holder_sentence(edge, sentences)
        if said is None or result.time is None:
            continue
        cited = next(
            (c for c in citations if (c.doc_id, c.start) == (said.doc_id, said.start)), None
        )
        if cited is not None:  # the short answer's sentence: one marker for both
            marker = cited.marker
        else:
            marker = len(citations) + 1
            citations.append(
                Citation(marker, said.chunk_id, said.doc_id, said.start, said.end, said.text)
            )
        post = edge.predicate.removesuffix("_of").replace("_", " ")
        since = f"since {edge.valid_from}" if edge.valid_from else ""
        until = f"until {edge.valid_to}" if edge.valid_to else ""
        held = ", ".join(x for x in (since, until) if x)
        lines.append(
            f"The {post} of {edge.target} {result.time.label}: {edge.source} ({held}) [{marker}]"
        )
    return lines


def answered_by_rows(result: RetrievalResult) -> bool:
    """Cypher mode, or hybrid routed to it: the rows answer (a fallback answers from text)."""
    return result.cypher is not None and (result.mode == "cypher" or result.route == "cypher")


def rows_answer(result: RetrievalResult, run_id: str, max_rows: int = 10) -> Answer:
    """Cypher mode: the rows are the answer (a count, a list), cited by the chunks that
    support the entities and edges they name; no rows, and the answer says why."""
    cypher = result.cypher or {}
    rows: list[dict[str, object]] = list(cypher.get("rows", []))
    citations = [
        Citation(i + 1, c.id, c.doc_id, c.start, c.end, c.text) for i, c in enumerate(result.chunks)
    ]
    if not rows:
        errors = [a["error"] for a in cypher.get("attempts", []) if a.get("error")]
        why = f": {errors[-1]}" if errors else ": the query returned no rows"
        return Answer(
            result.question, result.mode, f"No answer from the graph{why}", [], result,
            "cypher", run_id,
        )  # fmt: skip
    shown = [", ".join(f"{k}: {v}" for k, v in row.items()) for row in rows[:max_rows]]
    more = f" (and {len(rows) - max_rows} more rows)" if len(rows) > max_rows else ""
    markers = "".join(f" [{c.marker}]" for c in citations[:3])
    text = "From the graph: " + "; ".join(shown) + more + "." + markers
    # One row of one value (a count, a name) is the short answer; a table is not one.
    short = str(next(iter(rows[0].values()))) if len(rows) == 1 and len(rows[0]) == 1 else None
    return Answer(
        result.question, result.mode, text, citations, result, "cypher", run_id,
        short_answer=short,
    )  # fmt: skip
