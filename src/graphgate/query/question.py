"""A question as every layer of query/ reads it, analysed once, at the top of a query.

Retrievers, the time and conflict steps and the answerers all take a :class:`Question`; none
of them scans the question's text again. What needs only the text (its content words, the
time it asks about, the kind of question) is read when the question is made. What needs the
loaded index (the entities it names, its embedding, the pages its words title, the metadata
values it names) is read on first use, once: vector mode never pays for entity linking, and
hybrid mode's local walk, fusion and page steps share one linking and one embedding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from graphgate.core.dates import TimeSpan, at, parse_time, question_time
from graphgate.core.errors import InputError
from graphgate.core.text import content_word_set, names_in, normalise_name, without_accents
from graphgate.embed.base import Embedder
from graphgate.query.linking import EntityLink, EntityLinker
from graphgate.store.base import GraphStore

QuestionKind = Literal[
    "count", "list", "yes_no", "when", "where", "who", "which", "how", "what", "other"
]

# Longest document title looked up in a question, in words (HotpotQA titles have up to ~8).
MAX_TITLE_WORDS = 8
_T = TypeVar("_T")

_ROWS = re.compile(
    r"^\s*(how many|how much|count|list|name all|name every|what are all|which\b.*\b(all|every)\b)"
    r"|\b(number of|how many)\b",
    re.IGNORECASE,
)
_COUNT = re.compile(r"^\s*(how many|how much|count)\b|\bnumber of\b", re.IGNORECASE)
_LIST = re.compile(r"^\s*(list|name (all|every)|what are all)\b", re.IGNORECASE)
# An auxiliary opening a sentence asks yes or no ("Is …", "… . Does …"); one after a comma
# does only when no wh-word asks anything ("After the report …, was …?", not "X, is father to
# which actress?").
_AUX = r"(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b"
# A sentence ends after a word, not after an initial or an abbreviation's letters ("Unión
# Deportiva Las Palmas, S.A.D. was coached by whom …?" asks who), nor after a name's title or
# suffix ("Martin Luther King Jr. was a member of which church …?").
_TITLED = "".join(rf"(?<!\b{w})" for w in ("Jr", "Sr", "Dr", "Mr", "Mrs", "Ms", "St", "Mt"))
# A sentence opens with a capital: "… Holt mich hier raus! had which host …" asks who.
_YES_NO = re.compile(rf"(?:^\s*|(?<=\w\w){_TITLED}[.?!]\s+(?=(?-i:[A-Z]))){_AUX}", re.IGNORECASE)
# With no wh-word asking, an auxiliary after any end mark opens the question ("… managed by
# Tom Reed Jr. Did it tour Japan?").
_YES_NO_CLAUSE = re.compile(rf"[,;:.?!]\s+{_AUX}", re.IGNORECASE)
_WH = re.compile(r"\b(when|where|who|whom|whose|which|how|what)\b", re.IGNORECASE)
# "Name the country that …", "Can you identify the country which …": a request asks for what
# it names, not yes or no.
_REQUEST = re.compile(
    r"^\s*(?:(?:can|could|will|would)\s+you\s+)?(?:please\s+)?(?:name|identify)\s+"
    r"(?P<thing>the|a|an)\b",
    re.IGNORECASE,
)
# A wh-phrase that ends the question asks it, whatever opens it ("Do Lafzon Ki Kahani, a
# remake of Always, was released in which year?"): a relative "which" never ends a sentence.
_WH_LAST = re.compile(
    r"\b(?:(which|what|whose|how many|how much)(?:\s+[\w'-]+){0,2}|(who|whom|when|where|what))"
    r"\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# A wh-word after a noun opens a relative clause ("a contract killer who was associated with
# members of what crime family?"): the wh-phrase that ends the question asks it.
_RELATIVE = re.compile(r"(?<=[a-z]) (?:who|whom|whose|which|where|when)\b")
_WH_KIND: dict[str, QuestionKind] = {
    "when": "when",
    "where": "where",
    "who": "who",
    "whom": "who",
    "whose": "who",
    "which": "which",
    "how": "how",
    "what": "what",
}


class QuestionIndex(Protocol):
    """What a question is read against: the loaded run's store, embedder and entity linker."""

    store: GraphStore
    embedder: Embedder
    linker: EntityLinker


def time_of(question: str, as_of: str | None) -> TimeSpan | None:
    """``as_of`` when given (a bad one is an input error naming the formats), else the time the
    question names (a range that ends before it starts is an input error), else None."""
    if as_of is not None and as_of.strip():
        try:
            return at(parse_time(as_of))
        except ValueError as exc:
            raise InputError(
                str(exc), "pass --as-of / as_of as a date, e.g. 2016 or 2016-03-31"
            ) from exc
    try:
        return question_time(question)
    except ValueError as exc:
        raise InputError(str(exc), "write the earlier date first, e.g. from 2004 to 2005") from exc


def kind_of(text: str) -> QuestionKind:
    """The kind of answer the question asks for, from its wording: a count, a list, yes or no,
    a time, a place, a person or organisation, one of named options, a manner, a thing."""
    if _COUNT.search(text):
        return "count"
    if _LIST.search(text):
        return "list"
    found, last_asks = _asking(text)
    asked = _YES_NO.search(text)
    request = _REQUEST.match(text) is not None
    if not last_asks and asked is not None and (found is None or asked.start() < found.start()):
        return "what" if request else "yes_no"
    if found is None:
        return "what" if request else "yes_no" if _YES_NO_CLAUSE.search(text) else "other"
    return _WH_KIND[found.group(1).lower()]


def requested(text: str) -> int | None:
    """Where the thing a request names begins ("Name the country that …": at "the"), or
    None where the question is no request."""
    found = _REQUEST.match(text)
    return None if found is None else found.start("thing")


def asking_word(text: str) -> re.Match[str] | None:
    """The wh-word that asks (its one group the word): the first, unless a yes/no opening or
    a relative clause comes before a wh-phrase that ends the question ("… a University which
    also has a second campus in which California city?" asks "which California city")."""
    return _asking(text)[0]


def _asking(text: str) -> tuple[re.Match[str] | None, bool]:
    """The asking wh-word, and whether it is the one of the wh-phrase ending the question
    because something before it asks nothing."""
    last = _WH_LAST.search(text)
    if last is not None and (
        _YES_NO.search(text) is not None or _RELATIVE.search(text, 0, last.start())
    ):
        return _WH.search(text, last.start()), True
    return _WH.search(text), False


@dataclass(frozen=True, eq=False)
class Question:
    text: str
    words: frozenset[str]  # content words, lower case (core.text.content_word_set)
    time: TimeSpan | None  # the time asked about: as_of, else what the text names
    kind: QuestionKind
    asks_for_rows: bool  # counting and listing: a graph query answers better than passages
    index: QuestionIndex | None = field(default=None, repr=False)
    _values: dict[tuple[str, ...], list[list[str]]] = field(default_factory=dict, repr=False)
    _readings: dict[str, Any] = field(default_factory=dict, repr=False)

    # -- readings that need the index, each made once -----------------------------------------
    def _index(self) -> QuestionIndex:
        if self.index is None:
            raise ValueError("a question read without an index has no links or embedding")
        return self.index

    # Readings are kept in ``_readings``, not by functools.cached_property: on Python 3.11
    # that holds one lock per property across every instance, so one request embedding its
    # question made every other request's ``vector`` wait (a global query lock in effect).
    # A question belongs to one request; two threads reading it at once would at worst
    # compute the same value twice.
    def _reading(self, key: str, make: Callable[[], _T]) -> _T:
        if key not in self._readings:
            self._readings[key] = make()
        found: _T = self._readings[key]
        return found

    @property
    def plain_words(self) -> frozenset[str]:
        """``words`` and those of the text without its accents: "Joachim Löw" gives "low" as
        well as "l" and "w", so a name written either way in the evidence is the question's."""
        return self._reading(
            "plain_words",
            lambda: self.words | frozenset(content_word_set(without_accents(self.text))),
        )

    def names(self, name: str) -> bool:
        """The question gives ``name``: writes it (in any case), or its key as whole words
        (``normalise_name``: "GMMTV Company Limited" is the question's own "GMMTV")."""
        lower = self._reading("lower", lambda: self.text.lower())
        keyed = self._reading("keyed", lambda: f" {normalise_name(self.text)} ")
        return name.lower() in lower or f" {normalise_name(name)} " in keyed

    @property
    def links(self) -> list[EntityLink]:
        """The entities the question refers to (query/linking.py), strongest first."""
        return self._reading("links", lambda: self._index().linker.link(self.text, self.parse()))

    @property
    def vector(self) -> npt.NDArray[np.float32]:
        return self.embedding(self._index().embedder)

    def embedding(self, embedder: Embedder) -> npt.NDArray[np.float32]:
        """The question's vector: the index's where it has one, else by ``embedder``, once."""
        if self.index is not None:
            embedder = self.index.embedder
        return self._reading("vector", lambda: embedder.embed([self.text])[0])

    def parse(self, nlp: Callable[[], Any] | None = None) -> Any:
        """The question's spaCy parse (names, head nouns), once, shared by entity linking and
        the reader: by the index's linker where there is one (the model already loaded), else
        by ``nlp``."""

        def pipeline() -> Any:
            if self.index is not None:
                return self.index.linker.pipeline()
            if nlp is not None:
                return nlp()
            raise ValueError("a question read without an index is parsed by a given model")

        return self._reading("doc", lambda: pipeline()(self.text))

    @property
    def titled_pages(self) -> list[str]:
        """Documents whose title the question contains, longest title first."""
        return self._reading(
            "titled_pages",
            lambda: names_in(self.text, self._index().store.entity_pages, MAX_TITLE_WORDS),
        )

    def values_named(self, fields: Sequence[str]) -> list[list[str]]:
        """Per metadata value of ``fields`` the question names verbatim (longest first, then
        in the order the question names them), the documents that carry it."""
        key = tuple(fields)
        if key not in self._values:
            self._values[key] = _values_named(self.text, self._index().store, key)
        return self._values[key]


def read_question(
    text: str,
    index: QuestionIndex | None = None,
    as_of: str | None = None,
    default_as_of: str | None = None,
) -> Question:
    """The one place a question's text is analysed. ``as_of`` overrides the time the text
    names; ``default_as_of`` serves only when it names none (a test case's as_of is less
    precise than "from 2004 to 2005" in the question)."""
    asked = time_of(text, as_of)
    if asked is None and default_as_of is not None:
        asked = time_of(text, default_as_of)
    return Question(
        text,
        frozenset(content_word_set(text)),
        asked,
        kind_of(text),
        bool(_ROWS.search(text)),
        index,
    )


def plain_question(text: str) -> Question:
    """A question known only by its text (an external retriever's result): no index, and a
    time it cannot read is no time rather than an error at answer time."""
    try:
        return read_question(text)
    except InputError:
        return Question(
            text, frozenset(content_word_set(text)), None, kind_of(text), bool(_ROWS.search(text))
        )


def _values_named(text: str, store: GraphStore, fields: tuple[str, ...]) -> list[list[str]]:
    found: list[tuple[int, list[str]]] = []
    taken: list[tuple[int, int]] = []
    values = [(value, docs) for f in fields for value, docs in store.documents_by(f).items()]
    for value, docs in sorted(values, key=lambda v: -len(v[0])):
        match = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags=re.IGNORECASE)
        if match is None or any(a < match.end() and match.start() < b for a, b in taken):
            continue
        taken.append(match.span())
        found.append((match.start(), docs))
    return [docs for _, docs in sorted(found, key=lambda f: f[0])]
