"""The reader's choice among its candidates: an abstention where the best one's evidence is
too weak or a rival reads almost as well (either would be a guess), else the best, written as
its evidence writes it in full: the fuller name ("Sam Bankman-Fried" for "Bankman-Fried"), the
post with what it is of ("Governor of South Australia"), letters with the name they stand for."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphgate.core.text import content_word_set
from graphgate.query.answer_type import ExpectedAnswer, names_a_post
from graphgate.query.reader_evidence import Sentence
from graphgate.query.reader_features import Occurrence
from graphgate.query.reader_letters import (
    defined_name,
    located,
    same_answer,
    same_letters,
    spells,
)
from graphgate.query.reader_posts import nested
from graphgate.query.reader_rows import SAME_SPAN


@dataclass(frozen=True)
class ShortAnswer:
    text: str | None  # None: abstained
    sentence: Sentence | None  # the sentence that states it (None for yes/no decided over sides)
    score: float
    kind: str  # the expected answer kind (query/answer_type.py)


@dataclass
class Candidate:
    text: str
    score: float  # of its best occurrence, before its support counts
    sentence: Sentence
    relevance: float  # of the sentence that supports it best, before the candidate's bonuses
    occurrence: Occurrence  # the features of that best occurrence
    support: int = 1


@dataclass(frozen=True)
class Decider:
    """How the reader weighs candidates (``weights``) and when it abstains."""

    weights: dict[str, float]
    min_support: float
    min_margin: float

    def total(self, candidate: Candidate) -> float:
        return candidate.occurrence.score(self.weights, candidate.support)

    def decide(
        self,
        ranked_candidates: list[Candidate],
        expected: ExpectedAnswer,
        expand: bool = True,
        asked: frozenset[str] = frozenset(),
        evidence: Sequence[str] = (),
    ) -> ShortAnswer:
        """The best candidate, unless its evidence is too weak or a rival is as good;
        ``expand``: an abbreviation is given with the name its sentence defines it by, unless
        that name is the question's (``asked``: its words): "Ann Lee ( FDP )" asked for Ann
        Lee's party gives a party, not her. Letters its sentence leaves undefined are defined
        by another sentence of the ``evidence``, where one does."""
        best = ranked_candidates[0]
        # Its evidence, not its bonuses, must be enough; a row of the asked span is ("- Ann
        # Lee ( Fiji ) 1997-2002" for "from 1997 to 2002"), sharing no word with the question.
        exact_row = best.occurrence.values.get("dated_row", 0.0) == SAME_SPAN
        if best.relevance < self.min_support and not exact_row:
            return ShortAnswer(None, None, best.relevance, expected.kind)
        # A rival read almost as well: either would be a guess. The best's post without its
        # "of" phrase ("Governor" of "Governor of South Australia") is the same answer.
        said = best.sentence.text
        # So is the fuller name beside it ("Clark", "David D . Clark"), the name with its
        # rank ("Major General Viking Tamm"), and a place beside what it lies in ("London ,
        # England").
        rival = next(
            (
                c
                for c in ranked_candidates[1:]
                if not (
                    c.sentence.text == said
                    and (
                        same_answer(best.text, c.text, said)
                        or _fuller(best.text, c.text, expected.kind)
                        or _titled(best.text, c.text, expected.kind)
                        or _titled(c.text, best.text, expected.kind)
                        or (
                            expected.kind == "place"
                            and (
                                located(best.text, c.text, said) or located(c.text, best.text, said)
                            )
                        )
                    )
                )
            ),
            None,
        )
        if rival is not None and self.total(best) - self.total(rival) < self.min_margin:
            return ShortAnswer(None, None, best.relevance, expected.kind)
        # "Bankman-Fried" said where "Sam Bankman-Fried" is too: the fuller name answers.
        fuller = [c.text for c in ranked_candidates if _fuller(best.text, c.text, expected.kind)]
        text = min(fuller, key=len) if fuller else best.text
        # "Governor" where its sentence says "Governor of South Australia": the post whole.
        posts = [
            c.text
            for c in ranked_candidates
            if len(c.text) > len(best.text)
            and c.sentence.text == best.sentence.text
            and nested(best.text, c.text)
        ]
        text = posts[0] if posts else text
        # "NCW" where its sentence says "the Christian Employers Association ( NCW )", and the
        # name there with its letters.
        beside = [text, *(c.text for c in ranked_candidates if c.sentence.text == said)]
        defined = next(
            (
                t
                for t in beside
                if expand
                and same_letters(t, text, said, initials=t != text)
                and not _asked_name(defined_name(t, said), asked)
            ),
            None,
        )
        if defined is not None:
            text = f"{defined_name(defined, said)} ({defined})"
        elif expand:  # "LSSP", which only another sentence defines
            text = defined_elsewhere(text, evidence, asked)
        text = ennobled(text, said, expected.head)
        return ShortAnswer(text, best.sentence, best.score, expected.kind)


def _fuller(name: str, other: str, kind: str) -> bool:
    """``other`` is the fuller name of a one-word ``name`` ("Sam Bankman-Fried",
    "Bankman-Fried"; "David D . Clark", "Clark"); a post's rank is none ("General" is no
    "Lieutenant General")."""
    words = [w for w in other.split() if w != "."]
    return " " not in name and kind != "category" and other.endswith(" " + name) and len(words) <= 3


# Ranks and forms of address a name is written after that are no post nouns of their own.
_RANKS = frozenset({"general", "major", "brigadier", "sir", "dame", "lord", "lady", "dr", "prof"})


def _titled(name: str, other: str, kind: str) -> bool:
    """``other`` is the full name ``name`` with a rank or title before it ("Major General
    Viking Tamm", "Viking Tamm"); not a longer name ("Anne Marie Louise Clark", "Louise
    Clark"), nor a rank asked for ("Lieutenant General", "General")."""
    extra = other[: -len(name)].split() if other.endswith(" " + name) else []
    return (
        kind != "category"
        and " " in name
        and bool(extra)
        and all(w[:1].isupper() for w in extra)
        and (names_a_post(" ".join(extra)) or extra[-1].lower().rstrip(".") in _RANKS)
    )


# Titles a noble is named by, after the given name ("Patrick , Earl of March").
_NOBLE_TITLES = frozenset(
    {"earl", "duke", "duchess", "count", "countess", "baron", "baroness", "marquess",
     "marquis", "marchioness", "viscount", "viscountess", "margrave", "landgrave"}
)  # fmt: skip


def ennobled(name: str, sentence: str, head: str | None) -> str:
    """Asked which earl (a noble title), the name with the title its sentence gives it after
    a comma: "Patrick, Earl of March", "Thomas Randolph, 1st Earl of Moray". Either name alone
    is one of many Patricks or Earls of March."""
    if head not in _NOBLE_TITLES:
        return name
    title = re.search(
        rf"(?<![\w-]){re.escape(name)}\s*,\s*((?:\d+(?:st|nd|rd|th)\s+)?(?i:{head})\s+of\s+"
        r"(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)",
        sentence,
    )
    return f"{name}, {title.group(1)}" if title else name


def defined_elsewhere(letters: str, sentences: Sequence[str], asked: frozenset[str]) -> str:
    """``letters`` with the name the first of ``sentences`` to define them gives ("Lanka Sama
    Samaja Party (LSSP)"), or ``letters`` as they are. Another sentence's definition must
    spell its own name in order ("Royal Netherlands Navy" for "RNLN"): "Ada Lund ( FDP )" is
    a person and her party, not a definition."""
    for sentence in dict.fromkeys(sentences):
        name = defined_name(letters, sentence)
        if name is not None and spells(letters, name) and not _asked_name(name, asked):
            return f"{name} ({letters})"
    return letters


def _asked_name(name: str | None, asked: frozenset[str]) -> bool:
    """Every word of ``name`` is the question's ("Ann Lee" asked for Ann Lee's party); a party
    sharing the question's words ("Hungarian Communist Party" for "which communist party")
    is not."""
    words = content_word_set(name or "")
    return bool(words) and words <= asked
