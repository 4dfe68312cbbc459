"""What the offline reader reads evidence with (query/reader.py): the sentences it scores,
the candidate spans spaCy finds in them, word shares, the second hop and the graph's votes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from graphgate.core.dates import TimeSpan, is_month, span_of
from graphgate.core.family_match import stem
from graphgate.core.text import content_word_set, normalise_name
from graphgate.core.types import COOCCURS
from graphgate.query.answer_type import (
    DATES,
    NAMED,
    NAMES_JOINED,
    NOUN_PHRASE,
    NUMBERS,
    ORGS,
    ExpectedAnswer,
)
from graphgate.query.base import RetrievalResult, RetrievedEdge
from graphgate.query.question import Question
from graphgate.query.reader_joined import asked_part, joined_entities
from graphgate.query.reader_posts import TIMED_LABELS, Span, common_nouns
from graphgate.query.reader_syntax import POSSESSIVE, TIMES, as_written, called_a

GRAPH_BONUS = 0.15
# Multi-hop: how many of the best sentences give bridge names, and what naming one is worth.
_BRIDGE_FROM = 2
_BRIDGE_BONUS = 0.2
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
NAME_JOINERS = frozenset({"of", "the", "and", "&", "de", "la", "von", "van"})
# Labels the small parser gives names of clubs and firms (a town's, a founder's).
_MISTAKEN_FOR_ORG = frozenset({"PERSON", "GPE", "LOC", "FAC"})
# A proper name the parser gave no entity label: a candidate of no preferred type.
PROPER_NAME = "PROPER_NAME"
# A name the sentence calls what the question asks for, whatever the parser's label: preferred.
DESCRIBED = "DESCRIBED"


@dataclass(frozen=True)
class Sentence:
    chunk_rank: int
    chunk_id: str
    doc_id: str
    start: int
    end: int
    text: str
    date: str | None = None  # its document's


def second_hop(
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
                and not named_by(words, question.words)
            ):
                bridges.setdefault(key, pool[i].doc_id)
    lifted = list(relevance)
    for j, (sentence, doc) in enumerate(zip(pool, docs, strict=True)):
        named = {normalise_name(str(e.text)) for e in doc.ents}
        if any(b in named and home != sentence.doc_id for b, home in bridges.items()):
            lifted[j] += _BRIDGE_BONUS
    return lifted


def previous(sentences: Sequence[Sentence]) -> dict[tuple[str, int], str]:
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


def context_share(
    words: frozenset[str], sentence: Sentence, before: dict[tuple[str, int], str]
) -> float:
    """The share of the question's words in the sentence, or at half weight in it and the
    sentence before it (a question's subject is often named there, then referred to)."""
    prev = before.get((sentence.chunk_id, sentence.start), "")
    return max(share(words, sentence.text), 0.5 * share(words, f"{prev} {sentence.text}"))


def named_by(words: set[str], asked: frozenset[str]) -> bool:
    """Most of a candidate's words are the question's ("Old Jacob Marley" asked about "the
    Ghost of Jacob Marley"): the question names it. "Hank Williams Jr." asked about "Audrey
    Williams" is not named by it."""
    return bool(words) and len(words & asked) >= max(1, 2 * len(words) / 3)


def unpossessed(text: str, doc: Any, end: int, evidence: str) -> str:
    """A name's possessive written without its apostrophe ("Benficas manager", "Taiwans
    economy": text whose apostrophes were stripped) is the name, where the evidence names it
    on its own too. Only before what it owns (a noun, its adjective or number): "Williams"
    before a verb is a surname."""
    last_word = text.rsplit(maxsplit=1)[-1]
    if len(last_word) < 4 or not last_word.endswith("s") or last_word.endswith("ss"):
        return text
    if end >= len(doc) or doc[end].pos_ not in {"NOUN", "PROPN", "ADJ", "NUM"}:
        return text
    name = text[:-1]
    return name if re.search(rf"\b{re.escape(name)}\b", evidence) else text


def share(words: frozenset[str] | set[str], text: str) -> float:
    return len(words & content_word_set(text)) / len(words) if words else 0.0


def mentions_name(name: str, text: str) -> bool:
    """The sentence names ``name``: all of its words, or its last word (a surname, a head)."""
    words = content_word_set(name)
    have = content_word_set(text)
    final = last(name)
    return bool(words) and (words <= have or (len(final) > 2 and final in have))


def mentions_own(name: str, other: str, text: str) -> bool:
    """The sentence names ``name`` by the words that set it apart from ``other`` ("Watertown"
    of "Watertown International Airport" beside "Alexandria International Airport"): the
    head they share names either."""
    own = content_word_set(name) - content_word_set(other)
    if own and own != content_word_set(name):
        return own <= content_word_set(text)
    return mentions_name(name, text)


def share_inside(asked: frozenset[str], doc: Any, start: int, end: int, head: str) -> float:
    """The share of the question's words the sentence holds only inside the candidate (the
    noun the question asks for, "University" of "University of Arizona", still counts)."""
    text = str(doc.text)
    begin, stop = doc[start].idx, doc[end - 1].idx + len(doc[end - 1].text)
    kept = head if head and head in text[begin:stop].lower() else ""
    return max(0.0, share(asked, text) - share(asked, f"{text[:begin]} {kept} {text[stop:]}"))


def last(name: str) -> str:
    words = sorted(content_word_set(name), key=name.lower().rfind)
    return words[-1] if words else ""


def compared_value(text: str, by: str | None) -> float | None:
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


def spans(doc: Any, expected: ExpectedAnswer) -> list[Span]:
    """Candidate answers in one parsed sentence, of the expected kind."""
    out: list[Span] = []
    for ent in joined_entities(doc):
        if ent.label_ not in expected.labels:
            continue
        ent = asked_part(ent, expected.head)
        text = _entity_text(ent)
        if expected.head == "year" and ent.label_ in DATES:
            years = _YEAR.findall(text)
            text = years[0] if years else text
        out.append((text, str(ent.label_), int(ent.start), int(ent.start), int(ent.end)))
    if expected.kind == "category":  # a common noun: "a striker", "sportsbooks"
        out += common_nouns(doc, expected)
    if expected.kind == "phrase":
        # A name of a kind the question rules out is no noun phrase either: "20 November"
        # for "what title", nor "Ivo Brandt".
        ruled_out = _tokens_labelled_other(doc, expected)
        # A name or a title is written with a capital ("Woman Grandmaster"), not "career".
        proper = expected.head in {"name", "title"}
        for chunk in doc.noun_chunks:
            if chunk.root.pos_ in {"PRON", "NUM"} or chunk.root.i in ruled_out:
                continue
            words = _chunk_words(chunk)
            if proper and not any(_capitalised(w) for w in words):
                continue
            if words:
                at = int(chunk.root.i)
                out.append((as_written(doc, words), NOUN_PHRASE, at, words[0].i, words[-1].i + 1))
    if expected.kind == "entity" and expected.preferred & ORGS:
        out += _names_mistaken_for_others(doc, expected)
    if expected.kind in {"entity", "phrase"} and expected.head:
        # The sentence types a name the parser labelled otherwise: "Ivo Brandt (ORG) is a
        # Canadian actor" answers "which actor"; or left unlabelled: "Mercyful Fate is a
        # Danish heavy metal band" answers "which band".
        out += [
            (_entity_text(ent), DESCRIBED, int(ent.start), int(ent.start), int(ent.end))
            for ent in doc.ents
            if ent.label_ in NAMED
            and ent.label_ not in expected.labels
            and called_a(doc, ent.start, ent.end, expected.head)
        ]
        out += [
            (text, DESCRIBED, at, start, end)
            for text, at, start, end in _unlabelled_names(doc)
            if called_a(doc, start, end, expected.head)
        ]
    if expected.labels == NUMBERS and not out:  # a number the parser left unlabelled
        dated = {i for e in doc.ents if e.label_ in TIMED_LABELS for i in range(e.start, e.end)}
        dated |= {t.i + d for t in doc if is_month(t.text) for d in (-1, 1)}
        out += [
            (t.text, "CARDINAL", int(t.i), int(t.i), int(t.i) + 1)
            for t in doc
            if t.like_num and t.i not in dated  # not the day or year of a date
        ]
    if expected.labels == NUMBERS:  # how many times: "twice", "a two-time All-Star"
        for found in TIMES.finditer(str(doc.text)):
            span = doc.char_span(found.start(), found.end(), alignment_mode="expand")
            if span is not None:  # in place of the number inside it ("two" of "two-time")
                out = [c for c in out if not span.start <= c[3] < span.end]
                out.append((found.group(0), "CARDINAL", span.start, span.start, span.end))
    # "the Margraviate of Brandenburg ( except Altmark )": the sentence says it of all but it.
    return [c for c in out if c[3] == 0 or doc[c[3] - 1].lower_ not in _EXCEPTING]


# Words that leave out the name after them.
_EXCEPTING = frozenset({"except", "excluding", "excepting"})


def _capitalised(token: Any) -> bool:
    """Written with a capital for itself: not "Her" or a sentence's first word."""
    return (
        any(c.isupper() for c in token.text)
        and token.pos_ not in {"DET", "PRON"}
        and (token.i != token.sent.start or token.pos_ == "PROPN")
    )


def _tokens_labelled_other(doc: Any, expected: ExpectedAnswer) -> set[int]:
    return {i for e in doc.ents if e.label_ not in expected.labels for i in range(e.start, e.end)}


# A bracket the parser's name runs into, unclosed ("the Workers Front of Catalonia ( Catalan").
_OPEN_BRACKET = re.compile(r"\s*\([^()]*$")
# The parser sometimes ends a name on a function word ("the Chicago Bulls of the NBA" as
# "the Chicago Bulls of the"): no name ends so.
_DANGLING = re.compile(r"(?:\s+(?:of|the|and|or|in|at|for|to|a|an|by|with))+$")  # not "Serie A"


# A list's bullet the parser took into a name ("- Wilhelm Busch Museum").
_BULLETED = re.compile(r"^[-–—*•·]+\s+")


def _entity_text(ent: Any) -> str:
    text = _BULLETED.sub("", POSSESSIVE.sub("", str(ent.text)))
    text = _OPEN_BRACKET.sub("", text).strip(" ,.;:'\"")
    return _DANGLING.sub("", text) or text


def _names_mistaken_for_others(doc: Any, expected: ExpectedAnswer) -> list[Span]:
    """The small parser often misses or mislabels a club or a firm named after a place or a
    person ("Kelso Rovers", "Harlow Town"): for an organisation, a name of another type, or a
    proper name the parse gives only as a noun phrase, is a candidate too, of no preferred
    type."""
    out = [
        (_entity_text(ent), PROPER_NAME, int(ent.start), int(ent.start), int(ent.end))
        for ent in joined_entities(doc)
        if ent.label_ in _MISTAKEN_FOR_ORG and ent.label_ not in expected.labels
    ]
    out += [
        (text, PROPER_NAME, at, start, end)
        for text, at, start, end in _unlabelled_names(doc, by_case=False)
    ]
    return out


def _chunk_words(chunk: Any) -> list[Any]:
    """A noun phrase's words without its article or a list's bullet ("- Harlow Rowing Club")."""
    words = [t for t in chunk if t.pos_ != "DET"]
    while words and words[0].is_punct:
        words = words[1:]
    return words


def _unlabelled_names(doc: Any, by_case: bool = True) -> list[tuple[str, int, int, int]]:
    """Noun phrases written as a name that no entity covers, a proper noun at their root and
    every word a name's (or a joiner, "of", "de"): tagged a proper noun, or with ``by_case``
    capitalised ("Mercyful Fate", whose first word the parser took for an adjective). Each as
    (text, root, start, end)."""
    taken = {i for e in doc.ents for i in range(e.start, e.end)}
    out = []
    for chunk in doc.noun_chunks:
        words = _chunk_words(chunk)
        named = [bool(t.is_title) if by_case else t.pos_ == "PROPN" for t in words]
        if (
            words
            and named[0]
            and chunk.root.pos_ == "PROPN"
            and all(n or t.lower_ in NAME_JOINERS for n, t in zip(named, words, strict=True))
            and not any(words[0].i <= i <= words[-1].i for i in taken)
        ):
            out.append((as_written(doc, words), int(chunk.root.i), words[0].i, words[-1].i + 1))
    return out


def question_names(doc: Any) -> list[str]:
    """The things a yes/no question names: its named entities that are not values, or the two
    capitalised names it joins with "and" where the parser found fewer."""
    skip = DATES | NUMBERS | {"ORDINAL", "TIME", "NORP"}
    names = [str(e.text) for e in doc.ents if e.label_ not in skip]
    joined = NAMES_JOINED.search(str(doc.text)[1:])  # not the question's own first word
    if len(names) < 2 and joined:
        return [joined.group(1), joined.group(2)]
    return names


def linked_names(question: Question, result: RetrievalResult) -> set[str]:
    if question.index is None or not (result.edges or result.holders):
        return set()  # no graph to vote: the question need not be linked (vector mode)
    ids = {link.entity_id for link in question.links}
    return {normalise_name(e.name) for e in result.entities if e.id in ids}


def related_names(
    result: RetrievalResult,
    linked: set[str],
    asked: frozenset[str],
    time: TimeSpan | None = None,
) -> dict[str, float]:
    """Entities an edge joins to one the question names (a graph's vote for a candidate): a
    relation the question asks about (its predicate's words among the question's) gives the
    full vote, any other relation half of it, a co-occurrence (two names met) a third. Asked
    at a ``time``, an edge dated at another time votes for nothing ("won the Heisman Trophy
    in 1990" for a team of 1996). An undated edge still votes: it says the candidate is the
    subject's, though not when."""
    stems = {stem(w) for w in asked}
    out: dict[str, float] = {}
    for edge in result.edges:
        if time is not None:
            held = span_of(edge.valid_from, edge.valid_to)
            if held is not None and not held.overlaps(time):
                continue
        words = {stem(w) for w in edge.predicate.split("_") if len(w) > 2}
        asks = edge.predicate != COOCCURS and bool(words & stems)
        vote = (
            GRAPH_BONUS
            if asks
            else GRAPH_BONUS / 3
            if edge.predicate == COOCCURS
            else GRAPH_BONUS / 2
        )
        source, target = normalise_name(edge.source), normalise_name(edge.target)
        for near, far in ((source, target), (target, source)):
            if near in linked:
                out[far] = max(out.get(far, 0.0), vote)
    return out


def graph_vote(key: str, related: dict[str, float]) -> float:
    """The vote for a candidate named as the graph names it, or by its fuller or shorter
    form ("Ebenezer Scrooge" for the entity "Scrooge")."""
    if key in related:
        return related[key]
    return max(
        (v for name, v in related.items() if key.endswith(" " + name) or name.endswith(" " + key)),
        default=0.0,
    )


def holder_sentence(edge: RetrievedEdge, sentences: Sequence[Sentence]) -> Sentence | None:
    """The retrieved sentence that states a holder's fact: one naming the holder, the one
    that gives the term's start where several do (a post held twice)."""
    stating = [s for s in sentences if s.chunk_id in edge.chunk_ids and edge.source in s.text]
    start = (edge.valid_from or "")[:4]
    dated = [s for s in stating if start and start in s.text]
    found = dated or stating
    return found[0] if found else None
