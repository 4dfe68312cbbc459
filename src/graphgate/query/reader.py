"""The offline reader: a short answer picked from the evidence, or none when nothing supports one.

Candidates are the entities, dates, numbers and noun phrases of the best retrieved sentences
(spaCy, the model entity linking loads) of the kind the question expects (query/answer_type.py).
Each is scored by the sentences that state it: their similarity to the question (the loaded
embedder), the share of the question's words they contain, and graph edges between the
candidate and the entities the question names. A candidate the question names itself is never
its answer. Yes/no is decided side by side: each thing the question says is looked for in the
evidence. Below ``min_support`` the reader abstains: a guess stated as an answer is worse than
none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from graphgate.core.family_match import stem
from graphgate.core.text import content_word_set, normalise_name
from graphgate.core.types import COOCCURS
from graphgate.embed.base import Embedder
from graphgate.query.answer_type import (
    DATES,
    NAMED,
    NUMBERS,
    ExpectedAnswer,
    asks_same,
    expected_answer,
)
from graphgate.query.base import RetrievalResult
from graphgate.query.question import Question
from graphgate.query.temporal import FITS, sentence_fit

# Sentences read per question (the best by the answerer's ranking): enough for the two or
# three passages a multi-hop answer spans.
POOL = 12
# A sentence that names the candidate beside many of the question's words is the evidence.
_SHARE_WEIGHT = 0.5
_GRAPH_BONUS = 0.15
_REPEAT_BONUS = 0.05
_FITS_BONUS = 0.3
# Multi-hop: how many of the best sentences give bridge names, and what naming one is worth.
_BRIDGE_FROM = 2
_BRIDGE_BONUS = 0.2
# A candidate next to the question's words in its sentence is likelier the one asked for.
_NEAR_BONUS = 0.1
_FAR = 1000
# "Who": a person before an organisation (an organisation answers only when no person does).
_SECOND_CHOICE = 0.3
# Yes/no: a side counts as stated when a sentence holds this share of its words.
_SIDE_SHARE = 0.6
_NEGATION = re.compile(r"\b(not|no|never|n't|neither|nor|none)\b", re.I)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_CLAUSES = re.compile(
    r",?\s+(?:while|whereas|but|and then|as compared to|compared to|in contrast to|"
    r"and does|and did|and is|and was)\s+|,\s+and\s+",
    re.I,
)
_CACHE_LIMIT = 4096
_NAME = r"[A-Z][\w'.&-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'.&-]*)*"
_JOINED = re.compile(rf"({_NAME})\s+and\s+({_NAME})")
_POSSESSIVE = re.compile(r"\s*'s$|\s*’s$")


@dataclass(frozen=True)
class Sentence:
    chunk_rank: int
    chunk_id: str
    doc_id: str
    start: int
    end: int
    text: str
    date: str | None = None  # its document's


@dataclass(frozen=True)
class ShortAnswer:
    text: str | None  # None: abstained
    sentence: Sentence | None  # the sentence that states it (None for yes/no decided over sides)
    score: float
    kind: str  # the expected answer kind (query/answer_type.py)


@dataclass
class _Candidate:
    text: str
    score: float
    sentence: Sentence
    relevance: float  # of the sentence that supports it best, before the candidate's bonuses
    support: int = 1


class Reader:
    """Reads a short answer out of ranked evidence sentences; spaCy docs and sentence
    vectors are cached by text (the same passages answer many questions)."""

    def __init__(
        self,
        nlp: Callable[[], Any],
        min_support: float,
        side_similarity: float = 0.4,
        embedder: Callable[[], Embedder] | None = None,
    ) -> None:
        """``nlp`` and ``embedder`` load what a question read without an index (an external
        retriever's result) lacks; a question of a loaded index brings its own."""
        self._nlp_loader = nlp
        self._embedder_loader = embedder
        self._nlp: Any = None
        self.min_support = min_support
        self.side_similarity = side_similarity
        self._docs: dict[str, Any] = {}
        self._vectors: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def _pipeline(self) -> Any:
        if self._nlp is None:
            self._nlp = self._nlp_loader()
        return self._nlp

    def _parse(self, texts: Sequence[str]) -> list[Any]:
        nlp = self._pipeline()
        found = {t: self._docs.get(t) for t in texts}
        todo = [t for t, doc in found.items() if doc is None]
        if len(self._docs) + len(todo) > _CACHE_LIMIT:
            self._docs = {}  # a fresh dict: a reader in another thread keeps its own view
        for text, doc in zip(todo, nlp.pipe(todo), strict=True):
            found[text] = self._docs[text] = doc
        return [found[t] for t in texts]

    def _embed(
        self, embedder: Embedder, texts: Sequence[str]
    ) -> list[np.ndarray[Any, np.dtype[np.float32]]]:
        found = {t: self._vectors.get(t) for t in texts}
        todo = [t for t, vector in found.items() if vector is None]
        if len(self._vectors) + len(todo) > _CACHE_LIMIT:
            self._vectors = {}  # a fresh dict: a reader in another thread keeps its own view
        if todo:
            for text, vector in zip(todo, embedder.embed(todo), strict=True):
                found[text] = self._vectors[text] = vector
        return [v for t in texts if (v := found[t]) is not None]

    def _similarities(
        self, question: Question, embedder: Embedder | None, texts: Sequence[str]
    ) -> list[float]:
        if embedder is None or not texts:
            return [0.0] * len(texts)
        q = question.embedding(embedder)
        return [float(np.dot(v, q)) for v in self._embed(embedder, texts)]

    def read(
        self,
        question: Question,
        result: RetrievalResult,
        ranked: Sequence[Sentence],
    ) -> ShortAnswer:
        embedder = question.index.embedder if question.index is not None else None
        if embedder is None and self._embedder_loader is not None:
            embedder = self._embedder_loader()
        if self._nlp is None and question.index is not None:
            self._nlp = question.index.linker.pipeline()  # the model already loaded
        pool = list(ranked[:POOL])
        expected = expected_answer(question, question.parse(self._pipeline))
        if not pool:
            return ShortAnswer(None, None, 0.0, expected.kind)
        sims = self._similarities(question, embedder, [s.text for s in pool])
        before = _previous(ranked)
        relevance = [
            sim
            + _SHARE_WEIGHT * _context_share(question.words, s, before)
            + 0.1 / (1 + s.chunk_rank)
            for sim, s in zip(sims, pool, strict=True)
        ]
        if question.time is not None:
            relevance = [
                r + (_FITS_BONUS if sentence_fit(s.text, question.time, s.date)[0] == FITS else 0)
                for r, s in zip(relevance, pool, strict=True)
            ]
        if expected.kind == "yes_no":
            return self._yes_no(question, expected, pool, relevance, embedder)
        if expected.kind == "option":
            return self._option(expected, pool, relevance)
        return self._candidate(question, expected, result, pool, relevance)

    # -- entities, dates, numbers, phrases ----------------------------------------------------
    def _candidate(
        self,
        question: Question,
        expected: ExpectedAnswer,
        result: RetrievalResult,
        pool: list[Sentence],
        relevance: list[float],
    ) -> ShortAnswer:
        asked = question.text.lower()
        for edge in result.holders:
            # Who held the post at the asked time (query/held.py) is read from dated facts,
            # surer than any sentence: the holder, or the post's organisation when the
            # question names the holder.
            for name in (edge.source, edge.target):
                if question.time is not None and normalise_name(name) not in normalise_name(asked):
                    return ShortAnswer(name, None, 1.0, expected.kind)
        linked = _linked_names(question, result)
        related = _related_names(result, linked, question.words)
        candidates: dict[str, _Candidate] = {}
        docs = self._parse([s.text for s in pool])
        relevance = _second_hop(question, pool, docs, relevance)
        for sentence, doc, score in zip(pool, docs, relevance, strict=True):
            asked_at = [
                t.i for t in doc if t.lower_ in question.words or t.lemma_ in question.words
            ]
            if question.time is not None:  # the words next to a date inside the asked time
                asked_at += [
                    i
                    for e in doc.ents
                    if e.label_ in DATES and sentence_fit(e.text, question.time)[0] == FITS
                    for i in (e.start, e.end - 1)
                ]
            for text, label, at in _spans(doc, expected):
                key = normalise_name(text)
                words = content_word_set(text)
                if not key or text.lower() in asked or _named_by(words, question.words):
                    continue  # the question names it: not its answer
                near = min((abs(at - i) for i in asked_at), default=_FAR)
                value = (
                    score
                    + _NEAR_BONUS / (1 + near / 4)
                    + _graph_vote(key, related)
                    - (_SECOND_CHOICE if label not in expected.preferred else 0.0)
                )
                found = candidates.get(key)
                if found is None:
                    candidates[key] = _Candidate(text, value, sentence, score)
                else:
                    found.support += 1
                    if value > found.score:
                        found.score, found.sentence, found.relevance = value, sentence, score
        if not candidates:
            return ShortAnswer(None, None, 0.0, expected.kind)
        best = max(
            candidates.values(),
            key=lambda c: (c.score + _REPEAT_BONUS * math.log(c.support), -len(c.text)),
        )
        if best.relevance < self.min_support:  # its evidence, not its bonuses, must be enough
            return ShortAnswer(None, None, best.relevance, expected.kind)
        # "Bankman-Fried" said where "Sam Bankman-Fried" is too: the fuller name answers.
        fuller = [
            c.text
            for c in candidates.values()
            if " " not in best.text
            and c.text.endswith(" " + best.text)
            and len(c.text.split()) <= 3
        ]
        text = min(fuller, key=len) if fuller else best.text
        return ShortAnswer(text, best.sentence, best.score, expected.kind)

    # -- one of the named options -------------------------------------------------------------
    def _option(
        self, expected: ExpectedAnswer, pool: list[Sentence], relevance: list[float]
    ) -> ShortAnswer:
        """By the compared value (the earlier date, the larger number) where both options
        have one; else by the better-supported option."""
        support: list[tuple[float, Sentence | None, float | None]] = []
        for option in expected.options:
            best: tuple[float, Sentence | None, float | None] = (0.0, None, None)
            for sentence, score in zip(pool, relevance, strict=True):
                if not _names(option, sentence.text):
                    continue
                value = _value(sentence.text, expected.compared_by)
                # The best sentence that states the compared value, over a better one without.
                rank = (value is not None, score)
                if best[1] is None or rank > (best[2] is not None, best[0]):
                    best = (score, sentence, value)
            support.append(best)
        values = [v for _, _, v in support]
        if expected.compared_by is not None and all(v is not None for v in values):
            numbers = [float(v) for v in values if v is not None]
            if numbers[0] != numbers[1]:
                pick = int(np.argmin(numbers) if expected.least_wins else np.argmax(numbers))
                score, stated, _ = support[pick]
                return ShortAnswer(expected.options[pick], stated, score, "option")
        scores = [s for s, _, _ in support]
        if max(scores) < self.min_support or scores[0] == scores[1]:
            return ShortAnswer(None, None, max(scores), "option")
        pick = int(np.argmax(scores))
        return ShortAnswer(expected.options[pick], support[pick][1], scores[pick], "option")

    # -- yes or no ---------------------------------------------------------------------------
    def _yes_no(
        self,
        question: Question,
        expected: ExpectedAnswer,
        pool: list[Sentence],
        relevance: list[float],
        embedder: Embedder | None,
    ) -> ShortAnswer:
        names = _question_names(question.parse(self._pipeline))
        if len(names) >= 2:
            about = self._about_each(question, names, pool, relevance)
            if about is not None:
                return about
        top = int(np.argmax(relevance))
        if relevance[top] < self.min_support:
            return ShortAnswer(None, None, relevance[top], "yes_no")
        sides = [
            s for s in _CLAUSES.split(question.text.rstrip("?")) if len(content_word_set(s)) >= 3
        ]
        sides = sides or [question.text]
        texts = [s.text for s in pool]
        decided = []
        for side in sides:
            words = content_word_set(side)
            close = self._pairwise(embedder, side, texts)
            best = max(range(len(pool)), key=lambda i: (_share(words, texts[i]), close[i]))
            nearest = int(np.argmax(close)) if close else best
            stated = _share(words, texts[best]) >= _SIDE_SHARE or (
                bool(close) and close[nearest] >= self.side_similarity
            )
            said = texts[best] if _share(words, texts[best]) >= _SIDE_SHARE else texts[nearest]
            negated = bool(_NEGATION.search(said)) != bool(_NEGATION.search(side))
            decided.append(stated and not negated)
        verdict = "yes" if all(decided) else "no"
        return ShortAnswer(verdict, pool[top], relevance[top], "yes_no")

    def _pairwise(self, embedder: Embedder | None, side: str, texts: list[str]) -> list[float]:
        """Cosine of one side of a yes/no question to each evidence sentence."""
        if embedder is None:
            return []
        vectors = self._embed(embedder, [side, *texts])
        return [float(np.dot(vectors[0], v)) for v in vectors[1:]]

    def _about_each(
        self,
        question: Question,
        names: list[str],
        pool: list[Sentence],
        relevance: list[float],
    ) -> ShortAnswer | None:
        """ "Are X and Y both Z?": Z stated of each; "… the same Z?": Z of each compared.
        None where the evidence does not name both (the claims are read as a whole then)."""
        said = set(question.words) - {"both", "same"}
        for name in names:
            said -= content_word_set(name)
        same = asks_same(question.text) and "both" not in question.text.lower().split()
        per_name: list[list[Sentence]] = []
        for name in names[:2]:
            about = [s for s in pool if _names(name, s.text)]
            if not about:
                return None
            per_name.append(about)
        if same:
            values = []
            for about in per_name:
                docs = self._parse([s.text for s in about])
                found = [e.text for d in docs for e in d.ents if e.label_ in {"NORP", "GPE"}]
                values.append({normalise_name(v) for v in found[:2]})
            if not all(values):
                return None
            verdict = "yes" if values[0] & values[1] else "no"
            return ShortAnswer(verdict, per_name[0][0], 1.0, "yes_no")
        if not said:
            return None
        # A nationality or group the question gives ("both American directors") must be
        # stated of each; of the other words, half.
        doc = question.parse(self._pipeline)
        required = {w for e in doc.ents if e.label_ == "NORP" for w in content_word_set(e.text)}
        stated = [
            any(_share(said, s.text) >= 0.5 and required <= content_word_set(s.text) for s in about)
            for about in per_name
        ]
        verdict = "yes" if all(stated) else "no"
        return ShortAnswer(verdict, per_name[0][0], max(relevance), "yes_no")


def _second_hop(
    question: Question, pool: list[Sentence], docs: list[Any], relevance: list[float]
) -> list[float]:
    """Multi-hop evidence: the names the best sentences give that the question does not (the
    bridge: "the film in which X debuted" is Y) lift the sentences of other documents that
    name them, where the answer is stated ("Y was directed by Z"). The bridge itself keeps
    its chance (penalising it lost on both HotpotQA and MultiHop-RAG)."""
    best = sorted(range(len(pool)), key=lambda i: -relevance[i])[:_BRIDGE_FROM]
    asked = question.text.lower()
    bridges: dict[str, str] = {}
    for i in best:
        for ent in docs[i].ents:
            key = normalise_name(str(ent.text))
            words = content_word_set(str(ent.text))
            if (
                ent.label_ in NAMED
                and key
                and str(ent.text).lower() not in asked
                and not _named_by(words, question.words)
            ):
                bridges.setdefault(key, pool[i].doc_id)
    lifted = list(relevance)
    for j, (sentence, doc) in enumerate(zip(pool, docs, strict=True)):
        named = {normalise_name(str(e.text)) for e in doc.ents}
        if any(b in named and home != sentence.doc_id for b, home in bridges.items()):
            lifted[j] += _BRIDGE_BONUS
    return lifted


def _previous(sentences: Sequence[Sentence]) -> dict[tuple[str, int], str]:
    """Each sentence's predecessor in its chunk (where "The company" was named), by place."""
    by_chunk: dict[str, list[Sentence]] = {}
    for s in sentences:
        by_chunk.setdefault(s.chunk_id, []).append(s)
    out = {}
    for same in by_chunk.values():
        same.sort(key=lambda s: s.start)
        for prev, s in pairwise(same):
            out[(s.chunk_id, s.start)] = prev.text
    return out


def _context_share(
    words: frozenset[str], sentence: Sentence, before: dict[tuple[str, int], str]
) -> float:
    """The share of the question's words in the sentence, or at half weight in it and the
    sentence before it (a question's subject is often named there, then referred to)."""
    prev = before.get((sentence.chunk_id, sentence.start), "")
    return max(_share(words, sentence.text), 0.5 * _share(words, f"{prev} {sentence.text}"))


def _named_by(words: set[str], asked: frozenset[str]) -> bool:
    """Most of a candidate's words are the question's ("Old Jacob Marley" asked about "the
    Ghost of Jacob Marley"): the question names it. "Hank Williams Jr." asked about "Audrey
    Williams" is not named by it."""
    return bool(words) and len(words & asked) >= max(1, 2 * len(words) / 3)


def _share(words: frozenset[str] | set[str], text: str) -> float:
    return len(words & content_word_set(text)) / len(words) if words else 0.0


def _names(name: str, text: str) -> bool:
    """The sentence names ``name``: all of its words, or its last word (a surname, a head)."""
    words = content_word_set(name)
    have = content_word_set(text)
    last = _last(name)
    return bool(words) and (words <= have or (len(last) > 2 and last in have))


def _last(name: str) -> str:
    words = sorted(content_word_set(name), key=name.lower().rfind)
    return words[-1] if words else ""


def _value(text: str, by: str | None) -> float | None:
    if by == "date":
        years = _YEAR.findall(text)
        return float(years[0]) if years else None
    if by == "number":
        for raw in _NUMBER.findall(text):
            try:
                return float(raw.replace(",", ""))
            except ValueError:
                continue
    return None


def _spans(doc: Any, expected: ExpectedAnswer) -> list[tuple[str, str, int]]:
    """Candidate answers in one parsed sentence, of the expected kind: text, label, token."""
    out: list[tuple[str, str, int]] = []
    for ent in doc.ents:
        if ent.label_ not in expected.labels:
            continue
        text = _POSSESSIVE.sub("", str(ent.text)).strip(" ,.;:'\"")
        if expected.head == "year" and ent.label_ in DATES:
            years = _YEAR.findall(text)
            text = years[0] if years else text
        out.append((text, str(ent.label_), int(ent.start)))
    if expected.kind == "phrase":
        for chunk in doc.noun_chunks:
            if chunk.root.pos_ in {"PRON", "NUM"}:
                continue
            words = [t for t in chunk if t.pos_ != "DET"]
            if words:
                text = _POSSESSIVE.sub("", " ".join(t.text for t in words))
                out.append((text, "NOUN_PHRASE", int(chunk.root.i)))
    if expected.labels == NUMBERS and not out:
        out += [(t.text, "CARDINAL", int(t.i)) for t in doc if t.like_num]
    return out


def _question_names(doc: Any) -> list[str]:
    """The things a yes/no question names: its named entities that are not values, or the two
    capitalised names it joins with "and" where the parser found fewer."""
    skip = DATES | NUMBERS | {"ORDINAL", "TIME", "NORP"}
    names = [str(e.text) for e in doc.ents if e.label_ not in skip]
    joined = _JOINED.search(str(doc.text)[1:])  # not the question's own first word
    if len(names) < 2 and joined:
        return [joined.group(1), joined.group(2)]
    return names


def _linked_names(question: Question, result: RetrievalResult) -> set[str]:
    if question.index is None or not (result.edges or result.holders):
        return set()  # no graph to vote: the question need not be linked (vector mode)
    ids = {link.entity_id for link in question.links}
    return {normalise_name(e.name) for e in result.entities if e.id in ids}


def _related_names(
    result: RetrievalResult, linked: set[str], asked: frozenset[str]
) -> dict[str, float]:
    """Entities an edge joins to one the question names (a graph's vote for a candidate): a
    relation the question asks about (its predicate's words among the question's) gives the
    full vote, any other relation half of it, a co-occurrence (two names met) a third."""
    stems = {stem(w) for w in asked}
    out: dict[str, float] = {}
    for edge in result.edges:
        words = {stem(w) for w in edge.predicate.split("_") if len(w) > 2}
        asks = edge.predicate != COOCCURS and bool(words & stems)
        vote = (
            _GRAPH_BONUS
            if asks
            else _GRAPH_BONUS / 3
            if edge.predicate == COOCCURS
            else _GRAPH_BONUS / 2
        )
        source, target = normalise_name(edge.source), normalise_name(edge.target)
        for near, far in ((source, target), (target, source)):
            if near in linked:
                out[far] = max(out.get(far, 0.0), vote)
    return out


def _graph_vote(key: str, related: dict[str, float]) -> float:
    """The vote for a candidate named as the graph names it, or by its fuller or shorter
    form ("Ebenezer Scrooge" for the entity "Scrooge")."""
    if key in related:
        return related[key]
    return max(
        (v for name, v in related.items() if key.endswith(" " + name) or name.endswith(" " + key)),
        default=0.0,
    )
