"""Facts over time, and facts that disagree.

Supersession: when a later statement gives a new value for a one-valued relation (a post's
holder, a company's headquarters: the families of core/families.py, stored under one predicate
each by index/tenures.py), the earlier fact is closed at the date the new one starts or the
earlier holder left — never deleted, so both stay answerable as of their times. Conflicts: two
statements about one subject that cannot both hold — two holders of a post known to hold at
overlapping times by different sources, or two values of an attribute (a height, a founding
year, a headquarters city) beyond ``truth.tolerance`` — are listed with where each was said,
so retrieval can surface both sides instead of silently picking one.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from graphgate.core.dates import TimeSpan, parse_time, span_of
from graphgate.core.family_match import FamilyMatcher
from graphgate.core.text import sentence_spans
from graphgate.core.types import Chunk, Conflict, Entity, Relationship

# Values of one subject and attribute compared pairwise at most (a long list is mostly
# repetition).
_MAX_VALUES = 12

_DIGIT = re.compile(r"\d")  # what every measure but a place contains

_PLACES = {"GPE", "LOC", "LOCATION"}
_PREPOSITION = re.compile(r"\b(?:in|at|of|from|near|to|by|on|with)\s+(?:the\s+)?$")


@dataclass(frozen=True)
class Statement:
    """One value of one attribute or relation of one subject, where it was said."""

    subject_id: str
    about: str
    value: str
    number: float | None
    chunk_id: str
    doc_id: str
    start: int  # character span of the sentence in the document
    end: int
    text: str
    date: str | None
    valid_from: str | None = None
    valid_to: str | None = None
    exact: bool = False  # a year or a place: any difference disagrees
    shown: str | None = None  # how the value is shown, when ``value`` is a key


def supersede(
    relationships: Sequence[Relationship], functional: Mapping[str, str]
) -> list[Relationship]:
    """Earlier open-ended values of a functional relation closed where a later one starts,
    or where a statement says the holder left ("A stepped down in 2006": no start, an end).
    Two values that start at the same time are not a succession: both stay open, and are a
    conflict when different sources state them."""
    closed: dict[str, str] = {}
    for group in _functional_groups(relationships, functional).values():
        dated = sorted(
            (r for r, _ in group if r.valid_from), key=lambda r: (r.valid_from or "", r.id)
        )
        for i, earlier in enumerate(dated):
            if earlier.valid_to is not None:
                continue
            value = _value(earlier, functional)
            later = next(
                (
                    r
                    for r in dated[i + 1 :]
                    if _value(r, functional) != value
                    and (r.valid_from or "") > (earlier.valid_from or "")
                ),
                None,
            )
            ends = [
                r.valid_to
                for r, v in group
                if v == value and not r.valid_from and r.valid_to
                and r.valid_to > (earlier.valid_from or "")
            ]  # fmt: skip
            if later is not None and later.valid_from:
                ends.append(later.valid_from)
            if ends:
                closed[earlier.id] = min(ends)
    return [replace(r, valid_to=closed[r.id]) if r.id in closed else r for r in relationships]


def _value(r: Relationship, functional: Mapping[str, str]) -> str:
    return r.source_id if functional[r.predicate] == "target" else r.target_id


def _functional_groups(
    relationships: Sequence[Relationship], functional: Mapping[str, str]
) -> dict[tuple[str, str], list[tuple[Relationship, str]]]:
    groups: dict[tuple[str, str], list[tuple[Relationship, str]]] = defaultdict(list)
    for r in relationships:
        side = functional.get(r.predicate)
        if side is None or r.kind != "svo":
            continue
        key, value = (r.target_id, r.source_id) if side == "target" else (r.source_id, r.target_id)
        groups[(key, r.predicate)].append((r, value))
    return groups


def relation_statements(
    relationships: Sequence[Relationship],
    functional: Mapping[str, str],
    chunks: Mapping[str, Chunk],
    families: FamilyMatcher,
) -> list[Statement]:
    """Each functional fact as a statement about its one-valued end, from its first chunk,
    about its family ("chief executive")."""
    out: list[Statement] = []
    for (key, predicate), group in sorted(_functional_groups(relationships, functional).items()):
        for r, value in group:
            chunk = next((chunks[c] for c in r.chunk_ids if c in chunks), None)
            if chunk is None:
                continue
            start, end, text = _sentence_of(chunk, r.description)
            out.append(
                Statement(
                    key,
                    families.family_name(predicate),
                    value,
                    None,
                    chunk.id,
                    chunk.doc_id,
                    start,
                    end,
                    text,
                    chunk.date,
                    r.valid_from,
                    r.valid_to,
                )
            )
    return out


def _sentence_of(chunk: Chunk, description: str) -> tuple[int, int, str]:
    """The document span of the chunk sentence the description quotes (else the chunk)."""
    for begin, end in sentence_spans(chunk.text):
        sentence = chunk.text[begin:end]
        if " ".join(sentence.split())[:60] in description:
            return chunk.start + begin, chunk.start + end, sentence
    return chunk.start, chunk.end, chunk.text


def attribute_statements(
    chunks: Sequence[Chunk], entities: Sequence[Entity], families: FamilyMatcher
) -> list[Statement]:
    """The attribute values the text states (truth.attributes), each of the entity it is
    about: named before the value in its sentence, else after it ("Founded in 1901, X is"),
    else, for a population, the place the passage is about. Names are those the index knows,
    wherever the extractor found them (on made-up or rare names it misses some mentions)."""
    places = _main_places(chunks, entities)
    known = KnownNames(entities)
    with_place = any(f.unit == "place" for f in families.attributes)
    out: list[Statement] = []
    for chunk in chunks:
        if not with_place and not _DIGIT.search(chunk.text):
            continue
        for begin, end in sentence_spans(chunk.text):
            sentence = chunk.text[begin:end]
            measured = families.measures_in(sentence)
            if not measured:
                continue
            names = known.in_text(sentence)
            for m in measured:
                value, shown = m.shown, None
                if m.family.unit == "place":
                    # Compared by the place's name (the entity's, else as written), shown
                    # with its region: "Miami, Florida".
                    name = m.value.split(",")[0].strip()
                    place = known.by_name.get(name.lower())
                    value = (known.names[place] if place else name).lower()
                    shown = m.value
                named = [(n, e) for n, e in names if n.lower() not in m.value.lower()]
                subject = _subject_before(sentence, m.value_start, named) or _subject_after(
                    sentence, m.value_end, named
                )
                if subject is None and m.family.name == "population":
                    subject = places.get(chunk.id)
                if subject is None:
                    continue
                out.append(
                    Statement(
                        subject,
                        m.family.name,
                        value,
                        m.number,
                        chunk.id,
                        chunk.doc_id,
                        chunk.start + begin,
                        chunk.start + end,
                        sentence,
                        chunk.date,
                        exact=m.family.unit in {"year", "place"},
                        shown=shown,
                    )
                )
    return out


class KnownNames:
    """The index's entity names and aliases, found in any text by their words."""

    _WORDS = re.compile(r"[\w'’.&-]+")

    def __init__(self, entities: Sequence[Entity]) -> None:
        self.by_name: dict[str, str] = {}
        self.names = {e.id: e.name for e in entities}
        for e in sorted(entities, key=lambda e: -e.mention_count):
            for surface in (e.name, *e.aliases):
                if len(surface) > 1 and any(ch.isupper() for ch in surface):
                    self.by_name.setdefault(surface.lower(), e.id)
        self.longest = max((len(n.split()) for n in self.by_name), default=0)

    def in_text(self, text: str) -> list[tuple[str, str]]:
        """(surface, entity id) of each name the text writes, longest first where two overlap."""
        words = [(m.group(0).rstrip(".,"), m.start()) for m in self._WORDS.finditer(text)]
        found: list[tuple[str, str]] = []
        taken: set[int] = set()
        for size in range(min(self.longest, 8), 0, -1):
            for i in range(len(words) - size + 1):
                if taken & set(range(i, i + size)) or not words[i][0][:1].isupper():
                    continue
                surface = " ".join(w for w, _ in words[i : i + size])
                eid = self.by_name.get(surface.lower())
                if eid is not None:
                    found.append((surface, eid))
                    taken |= set(range(i, i + size))
        return found


def _main_places(chunks: Sequence[Chunk], entities: Sequence[Entity]) -> dict[str, str]:
    """Per chunk, the place (GPE / LOC entity) it names most often, if any."""
    text = {c.id: c.text.lower() for c in chunks}
    best: dict[str, tuple[int, int, str]] = {}
    for e in entities:
        if e.type not in _PLACES:
            continue
        for cid in e.chunk_ids:
            if cid not in text:
                continue
            count = text[cid].count(e.name.lower())
            # Most often named, then named first (an article names its subject first).
            rank = (count, -text[cid].find(e.name.lower()), e.id)
            if count and (cid not in best or rank > best[cid]):
                best[cid] = rank
    return {cid: rank[2] for cid, rank in best.items()}


def _subject_after(sentence: str, offset: int, names: list[tuple[str, str]]) -> str | None:
    """The entity named just after the value ("12,000 people live in X", "At 300 m, X is"):
    within a few words, not past a bracket ("17,289 (of which the town has …" is no town's)."""
    lowered = sentence.lower()
    found = sorted(
        (at, eid) for surface, eid in names if (at := lowered.find(surface.lower(), offset)) >= 0
    )
    if not found:
        return None
    at, eid = found[0]
    gap = sentence[offset:at]
    return eid if len(gap.split()) <= 5 and not re.search(r"[()\[\];]", gap) else None


def _subject_before(sentence: str, offset: int, names: list[tuple[str, str]]) -> str | None:
    """The sentence's subject among the entities named before the number: the first one not
    inside a prepositional phrase ("The Harbour Tower in Oslo is 120 metres tall", "In Oslo,
    the tower is..."), else the last one named."""
    lowered = sentence.lower()
    mentions = sorted(
        (at, eid) for surface, eid in names if (at := lowered.find(surface.lower(), 0, offset)) >= 0
    )
    for at, eid in mentions:
        if _PREPOSITION.search(lowered[:at]) is None:
            return eid
    return mentions[-1][1] if mentions else None


def find_conflicts(
    statements: Sequence[Statement], entities: Mapping[str, Entity], tolerance: float
) -> list[Conflict]:
    """Pairs of statements on one subject and attribute or relation that cannot both hold."""
    groups: dict[tuple[str, str], list[Statement]] = defaultdict(list)
    for s in statements:
        groups[(s.subject_id, s.about)].append(s)
    out: dict[str, Conflict] = {}
    for (subject, about), group in sorted(groups.items()):
        for a, b in combinations(group[:_MAX_VALUES], 2):
            # Sources disagree: two values in one document are its own account (a succession,
            # a total and a part), or a reading of ours gone wrong, never two sources.
            if a.doc_id == b.doc_id or not _disagree(a, b, tolerance) or not _same_time(a, b):
                continue
            a, b = sorted((a, b), key=lambda s: (s.doc_id, s.start))
            key = f"{subject}|{about}|{a.doc_id}:{a.start}|{b.doc_id}:{b.start}"
            cid = "x_" + hashlib.sha256(key.encode()).hexdigest()[:16]
            name = entities[subject].name if subject in entities else subject
            out[cid] = Conflict(
                cid,
                "attribute" if a.number is not None else "relation",
                subject,
                name,
                about,
                _shown(a, entities),
                a.chunk_id,
                a.doc_id,
                a.start,
                a.end,
                a.text,
                a.date,
                _shown(b, entities),
                b.chunk_id,
                b.doc_id,
                b.start,
                b.end,
                b.text,
                b.date,
            )
    return [out[k] for k in sorted(out)]


def _shown(s: Statement, entities: Mapping[str, Entity]) -> str:
    if s.shown is not None:
        return s.shown
    if s.number is None:
        return entities[s.value].name if s.value in entities else s.value
    return s.value


def _disagree(a: Statement, b: Statement, tolerance: float) -> bool:
    if a.number is not None and b.number is not None:
        if a.exact or b.exact:
            return a.number != b.number
        scale = max(abs(a.number), abs(b.number)) or 1.0
        return abs(a.number - b.number) / scale > tolerance
    return a.value != b.value


def _same_time(a: Statement, b: Statement) -> bool:
    """Both may hold at once. An attribute (a height) states no time and holds at both;
    relation values (two holders of a post) must both be known to hold at overlapping times:
    by their validity, else as of their documents' years, never when one of them has no
    time at all. One that ends where the other begins is a succession, not a conflict."""
    if (a.valid_to and a.valid_to == b.valid_from) or (b.valid_to and b.valid_to == a.valid_from):
        return False
    relation = a.number is None and b.number is None and not (a.exact or b.exact)
    try:
        first, second = _when(a, relation), _when(b, relation)
    except ValueError:
        return not relation
    if first is None or second is None:
        return not relation
    return first.overlaps(second)


def _when(s: Statement, relation: bool) -> TimeSpan | None:
    span = span_of(s.valid_from, s.valid_to)
    if span is None and relation and s.date:
        year = parse_time(s.date[:4])
        return TimeSpan(year.first, year.last, year.iso)
    return span
