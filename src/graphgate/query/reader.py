"""The offline reader: a short answer picked from the evidence, or none when nothing supports one.

Candidates are the entities, dates, numbers and noun phrases of the best retrieved sentences
(spaCy, the model entity linking loads) of the kind the question expects (query/answer_type.py),
and the names of list rows dated inside the asked time (query/reader_rows.py). Each is scored
by the sentences that state it: their similarity to the question (the loaded embedder), the
share of the question's words they contain, where it stands beside the asked time's dates,
graph edges between the candidate and the entities the question names, and what the
sentence's parse says of it: called what the question asks for, a lifespan's end, governed by
the word asking, an argument of the sentence's verb rather than a name qualifying one
(query/reader_syntax.py; the features and weights: query/reader_features.py).
A candidate the question names itself (or by its initials), or whose name declares another
kind than the one asked ("Southern League" for "which team"), is never its answer, and a word
of the question the sentence holds only inside the candidate's own name is no support for it,
and in a "which of the X children" question the group's words say who may answer, not what
is asked of them (a sentence holding none of the other words is no evidence); a phrase a verb
asks for ("What does the Ghost warn Scrooge about?") is read only where a sentence states the
verb. A person sharing a name the question gives is kin or a namesake (query/reader_names.py).
A question that asks over a period ("from 2005 to 2006") reads only the sentences that date
a time inside it (and list rows dated in it): a page's undated present is no evidence of it.
Options and yes/no are chosen, not found (query/reader_choice.py).
Below ``min_support``, or with a rival candidate within ``min_margin`` of the best, the reader
abstains (a guess stated as an answer is worse than none; query/reader_decide.py); a row whose
span is the asked one is support enough. Letters are answered with the name they stand for,
and a question asking for letters by those the evidence gives a name, or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from graphgate.core.text import (
    content_word_set,
    normalise_name,
    squash,
    without_accents,
    written_in_capitals,
)
from graphgate.embed.base import Embedder
from graphgate.query.answer_type import (
    DATES,
    GENERIC_HEADS,
    NAMED,
    PEOPLE,
    PLACES,
    ExpectedAnswer,
    asks_post,
    expected_answer,
    names_a_post,
    names_no_person,
    names_other_kind,
)
from graphgate.query.base import RetrievalResult
from graphgate.query.held import held_answer
from graphgate.query.question import Question
from graphgate.query.reader_bridges import candidate_spans
from graphgate.query.reader_choice import Reading, decide_yes_no, pick_option
from graphgate.query.reader_decide import Candidate, Decider, ShortAnswer
from graphgate.query.reader_evidence import (
    DESCRIBED,
    GRAPH_BONUS,
    PROPER_NAME,
    Sentence,
    context_share,
    graph_vote,
    holder_sentence,
    linked_names,
    named_by,
    previous,
    related_names,
    second_hop,
    share_inside,
    unpossessed,
)
from graphgate.query.reader_features import (
    WEIGHTS,
    DatedEnd,
    Occurrence,
    dated_elsewhere,
    dated_ends,
    nearest_date,
    nearness,
    time_fit,
    written_dates,
)
from graphgate.query.reader_letters import (
    abbreviates,
    asks_abbreviation,
    defined_name,
    lettered,
)
from graphgate.query.reader_names import (
    lent_names,
    lent_to,
    names_the_subject,
    part_of_named,
    subject_words,
    unlabelled_name,
)
from graphgate.query.reader_naming import asks_name, named_as
from graphgate.query.reader_rows import dating_row, row_span
from graphgate.query.reader_succession import COMING, LEAVING, succession_role
from graphgate.query.reader_syntax import (
    answered_by_dated,
    asked_by,
    asked_end,
    asks_opponent,
    called_a,
    end_value,
    group_asked,
    opposed,
    prominence,
    states_any,
    states_verb,
    verb_asked,
    wh_governors,
)
from graphgate.query.temporal import CONTRADICTS, FITS, sentence_fit

# Sentences read per question (the best by the answerer's ranking): enough for the two or
# three passages a multi-hop answer spans.
POOL = 12
# A sentence that names the candidate beside many of the question's words is the evidence.
_SHARE_WEIGHT = 0.5
_FITS_BONUS = 0.3
_CACHE_LIMIT = 4096
# Labels that say a candidate is a name (of a person, an organisation, a place, a work).
_NAME_LABELS = NAMED | {PROPER_NAME, DESCRIBED}
# A place or a people opening a name may answer by itself ("Kansas City" of the Chiefs).
_PLACE_LIKE = PLACES | {"NORP"}


@dataclass(frozen=True)
class _Evidence:
    relevance: float  # the sentence's support for any answer in it (min_support reads this)
    values: dict[str, float]  # its features (query/reader_features.py)


class Reader:
    """Reads a short answer out of ranked evidence sentences; spaCy docs and sentence
    vectors are cached by text (the same passages answer many questions)."""

    def __init__(
        self,
        nlp: Callable[[], Any],
        min_support: float,
        side_similarity: float = 0.4,
        embedder: Callable[[], Embedder] | None = None,
        min_margin: float = 0.0,
        weights: dict[str, float] | None = None,
        timed_evidence: bool = True,
    ) -> None:
        """``nlp`` and ``embedder`` load what a question read without an index (an external
        retriever's result) lacks; a question of a loaded index brings its own.
        ``timed_evidence``: a question asking over a period, or of a time its main verb
        asks of, is answered only by sentences stating a time inside it (or a list row dated
        in it)."""
        self._nlp_loader = nlp
        self._embedder_loader = embedder
        self._nlp: Any = None
        self.min_support = min_support
        self.side_similarity = side_similarity
        self.min_margin = min_margin
        self.weights = dict(WEIGHTS if weights is None else weights)
        self._decider = Decider(self.weights, min_support, min_margin)
        self.timed_evidence = timed_evidence
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
        evidence = self._evidence(question, embedder, pool, previous(ranked))
        relevance = [e.relevance for e in evidence]
        if expected.kind == "yes_no":
            verdict, stated, score = decide_yes_no(
                question,
                pool,
                relevance,
                Reading(
                    self._parse,
                    self._pipeline,
                    lambda side, texts: self._pairwise(embedder, side, texts),
                    self.min_support,
                    self.side_similarity,
                ),
            )
            return ShortAnswer(verdict, stated, score, "yes_no")
        if expected.kind == "option":
            picked, stated, score = pick_option(expected, pool, relevance, self.min_support)
            return ShortAnswer(picked, stated, score, "option")
        return self._candidate(question, expected, result, ranked, pool, evidence)

    def _evidence(
        self,
        question: Question,
        embedder: Embedder | None,
        pool: list[Sentence],
        before: dict[tuple[str, int], str],
    ) -> list[_Evidence]:
        """What each pool sentence says of the question, before any candidate in it."""
        sims = self._similarities(question, embedder, [s.text for s in pool])
        out = []
        for i, (sim, s) in enumerate(zip(sims, pool, strict=True)):
            fit = (
                time_fit(s.text, before.get((s.chunk_id, s.start)), question.time, s.date)
                if question.time
                else None
            )
            values = {
                "similarity": sim,
                "question_words": context_share(question.words, s, before),
                "chunk_rank": 1 / (1 + s.chunk_rank),
                "fits_time": float(fit == FITS),
                "contradicts_time": float(fit == CONTRADICTS),
                "pool_rank": 1 / (1 + i),
            }
            # Fixed, not the candidate weights: query.reader_min_support is calibrated on it.
            relevance = (
                sim
                + _SHARE_WEIGHT * values["question_words"]
                + 0.1 * values["chunk_rank"]
                + _FITS_BONUS * values["fits_time"]
            )
            out.append(_Evidence(relevance, values))
        return out

    # -- entities, dates, numbers, phrases ----------------------------------------------------
    def _candidate(
        self,
        question: Question,
        expected: ExpectedAnswer,
        result: RetrievalResult,
        ranked: Sequence[Sentence],
        pool: list[Sentence],
        evidence: list[_Evidence],
    ) -> ShortAnswer:
        for edge in result.holders if question.time is not None else []:
            # Who held the post at the asked time (query/held.py) is read from dated facts,
            # surer than any sentence: the holder, or the post's organisation when the
            # question names the holder; cited by the sentence that states the term.
            name = held_answer(edge, question.text, question.words)
            if name is not None:
                return ShortAnswer(name, holder_sentence(edge, ranked), 1.0, expected.kind)
        candidates = self.candidates(question, expected, result, pool, evidence)
        letters = asks_abbreviation(question.text)
        if letters:  # a name answers by the letters the evidence gives it, or not at all
            kept = lettered([c.text for c in candidates], [s.text for s in ranked])
            candidates = [replace(candidates[i], text=text) for i, text in kept]
        if not candidates:
            return ShortAnswer(None, None, 0.0, expected.kind)
        said = [s.text for s in pool]  # where letters may be defined
        return self._decider.decide(candidates, expected, not letters, question.words, said)

    def candidates(
        self,
        question: Question,
        expected: ExpectedAnswer,
        result: RetrievalResult,
        pool: list[Sentence],
        evidence: list[_Evidence],
    ) -> list[Candidate]:
        """Every candidate of the expected kind in the pool, best first."""
        plain_asked = question.plain_words  # unaccented: "Löw" is named by "Joachim Low"
        linked = linked_names(question, result)
        related = related_names(result, linked, question.words, question.time)
        candidates: dict[str, Candidate] = {}
        docs = self._parse([s.text for s in pool])
        plain = [e.relevance for e in evidence]
        lifted = second_hop(question, pool, docs, plain)
        head = expected.head or ""
        counted = expected.kind == "number" and bool(head)  # "how many records": of records
        found_in = candidate_spans(question.parse(self._pipeline), docs, expected)
        # "Which ski jumper" (a noun of no known entity type): where the evidence calls a
        # name a ski jumper, that is the type asked; any other name not. Where none is called
        # so, or the noun names no type ("which name", "which thing"), it says nothing. A
        # name only modifying the noun ("the 1960 designation") is not called it.
        typed = expected.kind == "phrase" and bool(head) and head not in GENERIC_HEADS
        called = {
            (i, start)
            for i, (doc, found) in enumerate(zip(docs, found_in, strict=True))
            for _, label, _, start, end in found
            if typed
            and label in expected.preferred | {DESCRIBED}
            and called_a(doc, start, end, head)
        }
        # "What role did X have": where the evidence names a post, that is the kind asked;
        # "Labour's electoral victory" is not.
        posts_asked = asks_post(expected, question.text)
        posted = {
            (i, start)
            for i, found in enumerate(found_in)
            for written, _, _, start, _ in found
            if posts_asked and names_a_post(written)
        }
        asked_bound = asked_end(question.text)
        asking = wh_governors(question.parse(self._pipeline), question.words)
        # A sentence not stating the verb asked ("warned", "a warning") tells of something
        # else done; a typed noun ("what famous work"), a name's kind, a date or a number is
        # checked by its type instead.
        verbs = verb_asked(question.parse(self._pipeline), question.words)
        verbs = verbs if expected.kind == "phrase" and not expected.head else frozenset()
        timed_only = self.timed_evidence and answered_by_dated(
            question.time, question.parse(self._pipeline), head
        )
        # "Which of the Cratchit children is ill?": the group's words say who may answer; a
        # sentence holding none of the rest ("ill") says nothing of which of them is asked.
        group = group_asked(question.parse(self._pipeline))
        asked_of = question.words - group if group else frozenset()
        lent = lent_names(question.text)  # a person holding one is a namesake or kin
        subject = subject_words(docs, question.parse(self._pipeline), lent)  # "Bengt" (Holmström)
        evidence_text = " ".join(s.text for s in pool)
        opponent_asked = asks_opponent(question.text)
        name_asked, people = asks_name(question.text), bool(expected.preferred & PEOPLE)
        for i, (sentence, doc, said, score, before, found_spans) in enumerate(
            zip(pool, docs, evidence, lifted, plain, found_in, strict=True)
        ):
            row = row_span(
                sentence.text, doc, question.time, expected.kind, found_spans, question.words,
                person=people,
            )  # fmt: skip
            if timed_only and not (
                said.values["fits_time"] or row is not None or dated_elsewhere(doc.text)
            ):
                continue
            if asked_of and not states_any(asked_of, sentence.text):
                continue
            if verbs and row is None and not states_verb(doc, verbs):  # a row states no verb
                continue
            # A heading or a title page in capitals names things and states nothing of them.
            if written_in_capitals(sentence.text):
                continue
            asked_at = [t.i for t in doc if question.words & {t.lower_, t.lemma_}]
            dated_at: list[int] = []
            dates: list[DatedEnd] = []
            if question.time is not None:  # the words next to a date inside the asked time
                dated_at = [
                    i
                    for e in written_dates(doc)
                    if sentence_fit(e.text, question.time)[0] == FITS
                    for i in (e.start, e.end - 1)
                ]
                dates = dated_ends(doc, question.time)
            for written, label, at, start, end in found_spans:
                text = squash(unpossessed(written, doc, end, evidence_text))
                key = normalise_name(text)
                words = content_word_set(without_accents(text))
                if (
                    not key
                    or question.names(text)
                    or named_by(words, plain_asked)
                    or abbreviates(text, question.text)
                    or names_other_kind(expected.head, text)  # "Southern League": no team
                    # "2010–11" or "3–0" labelled an organisation: a season or a score.
                    or (label in _NAME_LABELS and not any(c.isalpha() for c in text))
                    # A person the parser named, asked for a team: one sharing the question's
                    # names ("Salvinu Schembri" for "André Schembri's team") is kin, no team.
                    or (label == PROPER_NAME and bool(words & plain_asked))
                    # An unlabelled name ("Charles Henry Holden" for "what work did the
                    # architect Holden publish") is read as a person's.
                    or lent_to(
                        text,
                        sentence.text,
                        lent,
                        person=label in PEOPLE or unlabelled_name(label, text),
                    )
                    # A piece of the question's own name ("El Hadji" of "El Hadji Baye Oumar
                    # Niasse"; a wife's is asked, "Margrete Aamot Øverland", lends none); a
                    # place opening a name ("Kansas City" Chiefs) may answer.
                    or (label not in _PLACE_LIKE and part_of_named(doc, start, end, lent))
                    or names_the_subject(words, subject, lent)
                    or (not opponent_asked and opposed(doc, start, end))  # "against Everton"
                    # A list row's bracket ("- Ann Lee ( FDP )") says of the row's name.
                    or (row is not None and key != row.key and row.beside(doc[start].idx))
                    # "… and renamed HNLMS Banda": the ship again, not who operated it.
                    or (people and not name_asked and named_as(doc, start, end, renaming=True))
                ):
                    continue  # the question names it: not its answer
                # "Sehwa Girls High School" is called a school by its own name.
                described = called_a(doc, start, end, head, modifier=True)
                # "' cried Bob Cratchit." holds "Cratchit" for "which of the Cratchit children"
                # only inside the candidate: a word of the question counts beside it, not in it.
                inside = share_inside(question.words, doc, start, end, head)
                near_q = min((abs(at - i) for i in asked_at), default=None)
                near_d = min((abs(at - i) for i in dated_at), default=None)
                # The date nearest the candidate says when its fact began, or ended.
                begins, ends, ended, outside = nearest_date(doc, start, end, dates)
                role = succession_role(doc, start, end)
                if counted:
                    preferred = described
                elif called or posted:
                    preferred = (i, start) in called | posted
                else:  # "the Chief Mechanical Engineer" (ORG), or "CME" defined as it, is a
                    # post: no place or organisation asked.
                    preferred = (label in expected.preferred or label == DESCRIBED) and not (
                        expected.kind in {"place", "entity"}
                        and not people
                        and names_a_post(defined_name(text, evidence_text) or text)
                    )
                    # "La Liga" labelled a person is a competition's name.
                    preferred = preferred and not (label in PEOPLE and names_no_person(text))
                dated = dating_row(row, key, doc, start, end, question.time)
                if dated is not None:
                    begins, ends = dated.bounds(question.time)
                    ended = outside = False
                occurrence = Occurrence(
                    {
                        **said.values,
                        "second_hop": float(score > before),
                        "time_start": float(begins and role != LEAVING),
                        "time_end_only": float(ends and not begins),
                        "wrong_side": float(
                            ended
                            or (begins and role == LEAVING)
                            or (ends and not begins and role == COMING)
                        ),
                        "date_outside": float(outside),
                        "near_question": nearness(near_q),
                        "near_date": nearness(near_d),
                        "graph": graph_vote(key, related) / GRAPH_BONUS,
                        "preferred": float(preferred),
                        "head_noun": float(bool(head) and head in text.lower()),
                        "described": float(described),
                        "named_as": float(name_asked and named_as(doc, start, end)),
                        "asked_by": float(asked_by(doc, start, end, asking)),
                        "prominence": prominence(doc, start, end),
                        "life_end": end_value(asked_bound, doc, start, end, label in DATES),
                        "length": min(len(text.split()), 6) / 6,
                        "dated_row": dated.value if dated is not None else 0.0,
                    }
                )
                value = occurrence.score(self.weights, 1)
                support = score - _SHARE_WEIGHT * inside
                found = candidates.get(key)
                if found is None:
                    candidates[key] = Candidate(text, value, sentence, support, occurrence)
                else:
                    found.support += 1
                    if value > found.score:
                        found.score, found.sentence, found.relevance = value, sentence, support
                        found.occurrence = occurrence
        return sorted(candidates.values(), key=lambda c: (-self._decider.total(c), len(c.text)))

    def _pairwise(self, embedder: Embedder | None, side: str, texts: list[str]) -> list[float]:
        """Cosine of one side of a yes/no question to each evidence sentence."""
        if embedder is None:
            return []
        vectors = self._embed(embedder, [side, *texts])
        return [float(np.dot(vectors[0], v)) for v in vectors[1:]]
