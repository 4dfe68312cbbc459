"""Answer judging: the deterministic judge (default) behind the ``Judge`` interface."""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from graphgate.core.dates import TimeSpan, at, parse_time, question_time
from graphgate.evaluate.testset import TestCase
from graphgate.query.base import Answer, Citation, RetrievalResult, RetrievedChunk
from graphgate.query.temporal import CONTRADICTS, sentence_fit

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_MARKER = re.compile(r"\[\d+\]")
_FACT = re.compile(r"^Fact: (.+?) —(.+?)→ (.+?)(?: \(.*\))?$")
NUMBER_TOLERANCE = 0.01


def normalise_answer(text: str) -> str:
    """SQuAD normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, gold: str) -> float:
    pred, ref = normalise_answer(prediction).split(), normalise_answer(gold).split()
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if not pred or not ref or same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def _contains(haystack: str, needle: str) -> bool:
    """The gold answer as a phrase inside the answer; "yes"/"no" never count this way, since
    a passage that happens to contain the word does not answer a yes/no question."""
    h, n = normalise_answer(haystack).split(), normalise_answer(needle).split()
    if not n or n in (["yes"], ["no"]):
        return False
    return any(h[i : i + len(n)] == n for i in range(len(h) - len(n) + 1))


def _numbers(text: str) -> list[float]:
    out = []
    for raw in _NUMBER.findall(text):
        try:
            out.append(float(raw.replace(",", "")))
        except ValueError:
            continue
    return out


def numbers_match(answer: str, gold: str) -> bool:
    """Every number in the gold answer appears in the answer, within a relative tolerance."""
    wanted, have = _numbers(gold), _numbers(answer)
    if not wanted:
        return False
    return all(
        any(abs(h - w) <= NUMBER_TOLERANCE * max(abs(w), 1e-9) for h in have) for w in wanted
    )


def key_fact_coverage(answer: str, facts: list[str]) -> float | None:
    if not facts:
        return None
    tokens = set(normalise_answer(answer).split())
    covered = 0
    for fact in facts:
        words = normalise_answer(fact).split()
        if words and sum(w in tokens for w in words) / len(words) >= 0.8:
            covered += 1
    return covered / len(facts)


def answer_claims(text: str) -> list[str]:
    """Sentences and fact lines of an answer, citation markers removed, headers dropped."""
    claims: list[str] = []
    for line in text.splitlines():
        line = _MARKER.sub("", line).strip()
        if not line or line.endswith(":"):
            continue
        if line.startswith("Fact:"):
            claims.append(line)
            continue
        claims.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+", line) if s.strip())
    return claims


def claim_supported(claim: str, context: RetrievalResult) -> bool:
    """Supported by a retrieved edge, a retrieved chunk, or a retrieved community report's
    point (each point rests on a node, an edge or a chunk by construction)."""
    if any(claim == p.text for c in context.communities for p in c.points):
        return True
    fact = _FACT.match(claim)
    if fact:
        s, p, t = (x.strip() for x in fact.groups())
        return any(e.source == s and e.predicate == p and e.target == t for e in context.edges)
    words = normalise_answer(claim).split()
    if not words:
        return True
    for chunk in context.chunks:
        tokens = set(normalise_answer(chunk.text).split())
        if sum(w in tokens for w in words) / len(words) >= 0.8:
            return True
    return False


@dataclass(frozen=True)
class Judgement:
    correct: bool | None
    exact_match: float | None
    token_f1: float | None
    key_fact_coverage: float | None
    grounding: float | None
    citation_coverage: float | None
    # Contradiction cases: every gold answer in the answer; every conflicting (wrong) answer the
    # answer mentions is flagged as disputed (or it is left out).
    all_answers_surfaced: float | None = None
    misinformation_flagged: float | None = None
    # Questions about a time: the share of cited sentences whose dates do not contradict it.
    valid_at_time: float | None = None
    # Retrieval met conflicting statements: the answer cites both sides of every one.
    conflicts_surfaced: float | None = None
    # A question with one answer at the asked time (a temporal case without conflicting
    # answers): 1 when the answer shows that answer as one side of a disagreement (a change
    # of holder read as sources disagreeing), else 0.
    successions_as_conflicts: float | None = None
    # The short answer, scored as readers are scored (SQuAD normalisation, best over the gold
    # answer and its aliases; an abstention scores 0); None without a gold answer.
    short_em: float | None = None
    short_f1: float | None = None
    answered: float | None = None  # 1 when the answer gave a short answer, 0 when it abstained
    # A case the corpus cannot answer (no gold answer, no gold documents): 1 when it abstained.
    correct_abstention: float | None = None

    def as_metrics(self) -> dict[str, float | None]:
        return {
            "answer_correctness": None if self.correct is None else float(self.correct),
            "exact_match": self.exact_match,
            "token_f1": self.token_f1,
            "key_fact_coverage": self.key_fact_coverage,
            "grounding": self.grounding,
            "citation_coverage": self.citation_coverage,
            "all_answers_surfaced": self.all_answers_surfaced,
            "misinformation_flagged": self.misinformation_flagged,
            "valid_at_time": self.valid_at_time,
            "conflicts_surfaced": self.conflicts_surfaced,
            "successions_as_conflicts": self.successions_as_conflicts,
            "short_em": self.short_em,
            "short_f1": self.short_f1,
            "answered": self.answered,
            "correct_abstention": self.correct_abstention,
        }


def case_time(case: TestCase) -> TimeSpan | None:
    """The time a case asks about: its question's own, else its ``as_of`` (as the harness
    retrieves it), so answers are judged at that time whether or not retrieval used it."""
    asked = question_time(case.question)
    if asked is None and case.as_of:
        try:
            asked = at(parse_time(case.as_of))
        except ValueError:
            return None
    return asked


_DISPUTED = re.compile(r"disagree|conflict|contradict|dispute|differ", re.IGNORECASE)


def _flagged(text: str, claim: str) -> bool:
    """``claim`` is absent from the answer, or every line that states it says it is disputed."""
    lines = [line for line in text.splitlines() if _contains(line, claim)]
    return all(_DISPUTED.search(line) for line in lines)


def _holds(chunk: RetrievedChunk | None, citation: Citation) -> bool:
    return (
        chunk is not None
        and chunk.doc_id == citation.doc_id
        and chunk.start <= citation.start
        and citation.end <= chunk.end
    )


class Judge(Protocol):
    name: str

    def judge(self, case: TestCase, answer: Answer) -> Judgement: ...


class DeterministicJudge:
    """Exact match, containment, token F1, numbers with tolerance and key facts: no model."""

    name = "deterministic"

    def __init__(self, f1_threshold: float = 0.8) -> None:
        self.f1_threshold = f1_threshold

    def judge(self, case: TestCase, answer: Answer) -> Judgement:
        text = answer.answer
        golds = [g for g in [case.answer, *case.answer_aliases] if g]
        short = answer.short_answer
        # A short answer is what the answer says: judged on it, not on the passages after it.
        judged = short if short is not None else text
        exact = f1 = short_em = short_f1 = None
        correct: bool | None = None
        if golds:
            exact = max(float(normalise_answer(judged) == normalise_answer(g)) for g in golds)
            f1 = max(token_f1(judged, g) for g in golds)
            correct = bool(
                exact
                or f1 >= self.f1_threshold
                or any(_contains(judged, g) for g in golds)
                or any(numbers_match(judged, g) for g in golds)
            )
            short_em = max(
                float(normalise_answer(short or "") == normalise_answer(g)) for g in golds
            )
            short_f1 = max(token_f1(short or "", g) for g in golds)
        # Nothing to answer from (MultiHop-RAG's null queries): the right answer is none.
        unanswerable = not golds and not case.gold_docs and not case.key_facts
        correct_abstention = float(short is None) if unanswerable else None
        coverage = key_fact_coverage(text, case.key_facts)
        if correct is None and coverage is not None:
            correct = coverage >= 0.8
        claims = answer_claims(text)
        grounding = (
            sum(claim_supported(c, answer.retrieval) for c in claims) / len(claims)
            if claims
            else None
        )
        # A citation counts when it names a retrieved chunk that holds its span: one that
        # names the wrong chunk (an answer's markers mapped off by one) points nowhere useful.
        retrieved = {c.id: c for c in answer.retrieval.chunks}
        citation_coverage = (
            sum(_holds(retrieved.get(c.chunk_id), c) for c in answer.citations)
            / len(answer.citations)
            if answer.citations
            else None
        )
        surfaced = flagged = None
        if case.conflicting_answers:
            surfaced = float(all(_contains(text, g) for g in golds)) if golds else None
            flagged = float(all(_flagged(text, wrong) for wrong in case.conflicting_answers))
        valid = None
        asked = answer.retrieval.time or case_time(case)
        if asked is not None and answer.citations:
            fits = [sentence_fit(c.text, asked)[0] != CONTRADICTS for c in answer.citations]
            valid = sum(fits) / len(fits)
        conflicts = answer.retrieval.conflicts
        cited = {(c.doc_id, c.start, c.end) for c in answer.citations}
        both = (
            float(all(all((s.doc_id, s.start, s.end) in cited for s in k.sides) for k in conflicts))
            if conflicts
            else None
        )
        false_conflict = None
        if golds and not case.conflicting_answers and case_time(case) is not None:
            false_conflict = float(
                any(_contains(side.value, g) or _contains(g, side.value) for k in conflicts
                    for side in k.sides for g in golds)
            )  # fmt: skip
        return Judgement(
            correct,
            exact,
            f1,
            coverage,
            grounding,
            citation_coverage,
            surfaced,
            flagged,
            valid,
            both,
            false_conflict,
            short_em,
            short_f1,
            float(short is not None),
            correct_abstention,
        )
