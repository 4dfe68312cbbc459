"""Short answers the offline reader chooses rather than finds (query/reader.py): one of the
two options a question names ("Who is older, X or Y?"), and yes or no.

An option is picked by the value the question compares (the earlier date for "older / first",
the larger number for "larger / more") where the evidence gives both, else by the option the
evidence supports better. Yes/no is decided side by side: "Are X and Y both Z?" looks for Z
stated of each name, "… the same Z?" compares the Z each name's sentences give, and otherwise
each clause of the question must be stated by a sentence (its words, or its meaning by
``side_similarity``) and not negated there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphgate.core.text import content_word_set, normalise_name
from graphgate.query.answer_type import ExpectedAnswer, asks_same
from graphgate.query.question import Question
from graphgate.query.reader_evidence import (
    Sentence,
    compared_value,
    mentions_name,
    mentions_own,
    question_names,
    share,
)

# A side counts as stated when a sentence holds this share of its words.
_SIDE_SHARE = 0.6
_NEGATION = re.compile(r"\b(not|no|never|n't|neither|nor|none)\b", re.I)
_CLAUSES = re.compile(
    r",?\s+(?:while|whereas|but|and then|as compared to|compared to|in contrast to|"
    r"and does|and did|and is|and was)\s+|,\s+and\s+",
    re.I,
)

# The answer (None: abstained), the sentence that states it, and its support.
Choice = tuple[str | None, Sentence | None, float]


@dataclass(frozen=True)
class Reading:
    """What deciding yes or no needs of the reader: its cached parser and model, the cosine of
    one side of the question to each sentence, and its two thresholds."""

    parse: Callable[[Sequence[str]], list[Any]]
    nlp: Callable[[], Any]
    pairwise: Callable[[str, list[str]], list[float]]  # [] without an embedder
    min_support: float
    side_similarity: float


def pick_option(
    expected: ExpectedAnswer, pool: list[Sentence], relevance: list[float], min_support: float
) -> Choice:
    """By the compared value (the earlier date, the larger number) where both options have
    one; else by the better-supported option; none where they are supported alike."""
    support: list[tuple[float, Sentence | None, float | None]] = []
    for option in expected.options:
        best: tuple[float, Sentence | None, float | None] = (0.0, None, None)
        for sentence, score in zip(pool, relevance, strict=True):
            if not mentions_name(option, sentence.text):
                continue
            value = compared_value(sentence.text, expected.compared_by)
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
            return expected.options[pick], stated, score
    scores = [s for s, _, _ in support]
    if max(scores) < min_support or scores[0] == scores[1]:
        return None, None, max(scores)
    pick = int(np.argmax(scores))
    return expected.options[pick], support[pick][1], scores[pick]


def decide_yes_no(
    question: Question, pool: list[Sentence], relevance: list[float], reading: Reading
) -> Choice:
    """Yes when every side of the question is stated by the evidence and none negated there."""
    names = question_names(question.parse(reading.nlp))
    if len(names) >= 2:
        about = _about_each(question, names, pool, relevance, reading)
        if about is not None:
            return about
    top = int(np.argmax(relevance))
    if relevance[top] < reading.min_support:
        return None, None, relevance[top]
    sides = [s for s in _CLAUSES.split(question.text.rstrip("?")) if len(content_word_set(s)) >= 3]
    sides = sides or [question.text]
    texts = [s.text for s in pool]
    decided = []
    for side in sides:
        words = content_word_set(side)
        close = reading.pairwise(side, texts)
        best = max(
            range(len(pool)), key=lambda i: (share(words, texts[i]), close[i] if close else 0.0)
        )
        nearest = int(np.argmax(close)) if close else best
        stated = share(words, texts[best]) >= _SIDE_SHARE or (
            bool(close) and close[nearest] >= reading.side_similarity
        )
        said = texts[best] if share(words, texts[best]) >= _SIDE_SHARE else texts[nearest]
        negated = bool(_NEGATION.search(said)) != bool(_NEGATION.search(side))
        decided.append(stated and not negated)
    return ("yes" if all(decided) else "no"), pool[top], relevance[top]


def _about_each(
    question: Question,
    names: list[str],
    pool: list[Sentence],
    relevance: list[float],
    reading: Reading,
) -> Choice | None:
    """ "Are X and Y both Z?": Z stated of each; "… the same Z?": Z of each compared. None
    where the evidence does not name both (the claims are read as a whole then)."""
    said = set(question.words) - {"both", "same"}
    for name in names:
        said -= content_word_set(name)
    same = asks_same(question.text) and "both" not in question.text.lower().split()
    per_name: list[list[Sentence]] = []
    for name, other in ((names[0], names[1]), (names[1], names[0])):
        about = [s for s in pool if mentions_own(name, other, s.text)]
        if not about:
            return None
        per_name.append(about)
    if same:
        values = []
        for about in per_name:
            docs = reading.parse([s.text for s in about])
            found = [
                e.text
                for d in docs
                for e in d.ents
                if e.label_ in {"NORP", "GPE"}
                and not content_word_set(e.text) <= question.words  # a name, not a value
            ]
            values.append({normalise_name(v) for v in found[:2]})
        if not all(values):
            return None
        return ("yes" if values[0] & values[1] else "no"), per_name[0][0], 1.0
    if not said:
        return None
    # A nationality or group the question gives ("both American directors") must be stated of
    # each; of the other words, half.
    doc = question.parse(reading.nlp)
    required = {w for e in doc.ents if e.label_ == "NORP" for w in content_word_set(e.text)}
    stated = [
        any(share(said, s.text) >= 0.5 and required <= content_word_set(s.text) for s in about)
        for about in per_name
    ]
    return ("yes" if all(stated) else "no"), per_name[0][0], max(relevance)
