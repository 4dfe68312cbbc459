"""Likely duplicates that name blocking misses: entity pairs of one type that are probably one
thing under two names. Blocking (one normalised spelling) cannot see "IBM" beside
"International Business Machines", or "Obama" beside "Barack Obama" in the same article; when
resolution stops merging, these are what grows.

Five signals, each a pair of entities of the same type with different blocking keys:
an acronym (the initials of the long name's words), a shared alias, a short form of a person's
name (the first or last words of the long one, both in one document: "Roosevelt" beside
"Franklin Roosevelt"; for places and organisations the short name is mostly another thing,
"Boston" beside "Boston United"), shared neighbours (mostly the same neighbours, and
every word of the shorter name begins a word of the longer: "Acme Corp" and "Acme Corporation"
beside the same people, "J. Marley" and "Jacob Marley"; a word in common is not enough, "Reno
International Airport" and "Oakland International Airport" share their neighbours in a list of
airports), and name vectors closer than a cosine (the index's own ``entity_name_vectors``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphgate.core.types import CONCEPT, Entity

# The entity type whose short name (a surname, a given name) mostly means the long one.
PERSON = "PERSON"

# Words an acronym skips ("Bank of America" -> BoA -> "BA" is not asked; "BOA" is).
_MINOR = {"of", "the", "and", "for", "in", "on", "at", "to", "de", "la", "&"}
# Name-vector pairs compared per block, so a large type never builds one huge matrix.
_BLOCK = 2048
# Samples first of what resolution would merge (short forms, aliases), then the rest.
_RANK = {"short form": 0, "alias": 1, "shared neighbours": 2, "name vector": 3, "acronym": 4}
# Shared neighbours: at least this many, and this share of the two neighbourhoods' union.
_MIN_SHARED, _MIN_JACCARD = 2, 0.5
# A word more names than this hold ("john", "river") pairs too many to be a signal.
_MAX_WORD_GROUP = 200


_Add = Callable[[Entity, Entity, str], None]


def blocking_key(name: str) -> str:
    """NFKD, ASCII, lower case, punctuation to space: names that should be one entity collide."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^\w\s]|_", " ", text).split())


@dataclass(frozen=True)
class DuplicatePair:
    a: str  # entity ids, a < b
    b: str
    names: tuple[str, str]
    reason: str  # short form | alias | name vector 0.97 | acronym


def _initials(words: Sequence[str], keep_minor: bool) -> str:
    return "".join(w[0] for w in words if keep_minor or w not in _MINOR)


def likely_duplicates(
    entities: Iterable[Entity],
    name_vectors: tuple[list[str], npt.NDArray[np.float32]] | None = None,
    min_cosine: float = 0.95,
    neighbours: Mapping[str, set[str]] | None = None,
) -> list[DuplicatePair]:
    """Every likely-duplicate pair, once, with the first signal that found it; ``neighbours``
    (entity id -> the ids it has an edge with) adds the shared-neighbour signal."""
    kept = [e for e in entities if e.type != CONCEPT and blocking_key(e.name)]
    keys = {e.id: blocking_key(e.name) for e in kept}
    by_type: dict[str, list[Entity]] = defaultdict(list)
    for e in kept:
        by_type[e.type].append(e)
    found: dict[tuple[str, str], DuplicatePair] = {}

    def add(x: Entity, y: Entity, reason: str) -> None:
        if x.id == y.id or keys[x.id] == keys[y.id]:
            return  # blocking already counts those
        a, b = sorted((x, y), key=lambda e: e.id)
        found.setdefault((a.id, b.id), DuplicatePair(a.id, b.id, (a.name, b.name), reason))

    for kind, group in by_type.items():
        _acronyms(group, keys, add)
        _aliases(group, add)
        if kind == PERSON:
            _short_forms(group, keys, add)
        if neighbours is not None:
            _shared_neighbours(group, keys, neighbours, kind == PERSON, add)
    if name_vectors is not None:
        _near_vectors(by_type, name_vectors, min_cosine, add)
    return sorted(found.values(), key=lambda p: (_RANK[p.reason.split(" 0")[0]], p.a, p.b))


def _acronyms(group: Sequence[Entity], keys: dict[str, str], add: _Add) -> None:
    long_forms: dict[str, list[Entity]] = defaultdict(list)
    for e in group:
        words = keys[e.id].split()
        if len(words) >= 2:
            for initials in {_initials(words, False), _initials(words, True)}:
                if len(initials) >= 2:
                    long_forms[initials].append(e)
    for e in group:
        key = keys[e.id]
        if " " not in key and 2 <= len(key) <= 6 and e.name.isupper():
            for long in long_forms.get(key, []):
                # Two letters name many things: only beside their long form in a document.
                if len(key) >= 3 or set(e.doc_ids) & set(long.doc_ids):
                    add(e, long, "acronym")


def _aliases(group: Sequence[Entity], add: _Add) -> None:
    named: dict[str, list[Entity]] = defaultdict(list)
    for e in group:
        for surface in {e.name, *e.aliases}:
            named[blocking_key(surface)].append(e)
    for e in group:
        for alias in e.aliases:
            for other in named.get(blocking_key(alias), []):
                add(e, other, "alias")


def _short_forms(group: Sequence[Entity], keys: dict[str, str], add: _Add) -> None:
    """The short name is the first or last words of exactly one long name in a document of
    both (two long names sharing it, "Gégauff" beside Paul and Danièle, is no duplicate)."""
    ends: dict[str, list[Entity]] = defaultdict(list)
    for e in group:
        words = keys[e.id].split()
        for n in range(1, len(words)):
            for end in {" ".join(words[-n:]), " ".join(words[:n])}:
                ends[end].append(e)
    for e in group:
        docs = set(e.doc_ids)
        longs = {long.id: long for long in ends.get(keys[e.id], []) if docs & set(long.doc_ids)}
        if len(longs) == 1:
            add(e, next(iter(longs.values())), "short form")


def _covered(a: list[str], b: list[str]) -> bool:
    """Every word of the shorter name begins a word of its own in the longer ("acme corp" ~
    "acme corporation", "j marley" ~ "jacob marley"; not "reno international airport" ~
    "oakland international airport", not "bob cratchit" ~ "martha cratchit")."""
    short, long = sorted((a, b), key=len)
    free = list(long)
    for word in short:
        match = next((w for w in free if w.startswith(word)), None)
        if match is None:
            return False
        free.remove(match)
    return True


def _shared_neighbours(
    group: Sequence[Entity],
    keys: dict[str, str],
    neighbours: Mapping[str, set[str]],
    person: bool,
    add: _Add,
) -> None:
    by_word: dict[str, list[Entity]] = defaultdict(list)
    for e in group:
        if len(neighbours.get(e.id, ())) >= _MIN_SHARED:
            for word in set(keys[e.id].split()):
                if len(word) >= 3 and word not in _MINOR:
                    by_word[word].append(e)
    for members in by_word.values():
        if len(members) > _MAX_WORD_GROUP:
            continue
        around = [neighbours[m.id] - {m.id} for m in members]
        for i, x in enumerate(members):
            around_x = around[i]
            for j, y in enumerate(members[i + 1 :], start=i + 1):
                around_y = around[j]
                shared = len(around_x & around_y)
                if shared < _MIN_SHARED or shared < _MIN_JACCARD * len(around_x | around_y):
                    continue
                words_x, words_y = keys[x.id].split(), keys[y.id].split()
                if person and min(len(words_x), len(words_y)) < 2:
                    continue  # a lone surname: the short-form signal's, in one document
                if _covered(words_x, words_y):
                    add(x, y, "shared neighbours")


def _near_vectors(
    by_type: dict[str, list[Entity]],
    name_vectors: tuple[list[str], npt.NDArray[np.float32]],
    min_cosine: float,
    add: _Add,
) -> None:
    ids, matrix = name_vectors
    row = {eid: i for i, eid in enumerate(ids)}
    for group in by_type.values():
        members = [e for e in group if e.id in row]
        if len(members) < 2:
            continue
        vectors = matrix[[row[e.id] for e in members]]
        for start in range(0, len(members), _BLOCK):
            block = vectors[start : start + _BLOCK] @ vectors.T
            for i, j in zip(*np.nonzero(block >= min_cosine), strict=True):
                if start + i < j:
                    add(members[start + i], members[j], f"name vector {block[i, j]:.2f}")
