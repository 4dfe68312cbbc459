"""Facts over time, and facts that disagree.

Supersession: when a later statement gives a new value for a functional relation (a company's
chief executive, its headquarters), the earlier fact is closed at the date the new one starts —
never deleted, so both stay answerable as of their times. Conflicts: two statements about one
subject that cannot both hold — a functional relation with different values at overlapping
times, or a numeric attribute ("120 metres tall", "135 metres tall") that differs beyond
``truth.tolerance`` — are listed with where each was said, so retrieval can surface both sides
instead of silently picking one.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, pairwise

from graphgate.core.dates import span_of
from graphgate.core.text import sentence_spans
from graphgate.core.types import Chunk, Conflict, Entity, Relationship

# Values of one subject and attribute compared pairwise at most (a long list is mostly
# repetition).
_MAX_VALUES = 12

_NUMBER = r"(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
_DIGIT = re.compile(r"\d")  # what every measure below contains
_LENGTH_UNITS = {
    "m": 1.0,
    "metre": 1.0,
    "metres": 1.0,
    "meter": 1.0,
    "meters": 1.0,
    "ft": 0.3048,
    "feet": 0.3048,
    "foot": 0.3048,
    "km": 1000.0,
    "kilometres": 1000.0,
    "kilometers": 1000.0,
    "mi": 1609.344,
    "miles": 1609.344,
}
_UNIT = "|".join(sorted(_LENGTH_UNITS, key=len, reverse=True))
_DIMENSIONS = {"tall": "height", "high": "height", "long": "length", "wide": "width"}
_MEASURE = re.compile(
    rf"{_NUMBER}[\s-]*(?P<unit>{_UNIT})\b[\s-]*(?P<adj>tall|high|long|wide)\b", re.IGNORECASE
)
_MEASURE_OF = re.compile(
    rf"\b(?P<attr>height|length|width)\s+of\s+(?:about\s+|around\s+)?{_NUMBER}\s*(?P<unit>{_UNIT})\b",
    re.IGNORECASE,
)
_POPULATION = re.compile(
    rf"\bpopulation\s+(?:of|was|is|stood at|reached)\s+(?:about\s+|around\s+)?{_NUMBER}"
    r"(?P<scale>\s+(?:million|thousand))?",
    re.IGNORECASE,
)
_RESIDENTS = re.compile(
    rf"\b(?:there\s+(?:were|are|was|is)|had|has)\s+(?:about\s+|around\s+)?{_NUMBER}"
    r"(?P<scale>\s+(?:million|thousand))?\s+(?:people|inhabitants|residents)\b",
    re.IGNORECASE,
)


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


def supersede(
    relationships: Sequence[Relationship], functional: Mapping[str, str]
) -> list[Relationship]:
    """Earlier open-ended values of a functional relation closed where a later one starts."""
    closed: dict[str, str] = {}
    for group in _functional_groups(relationships, functional).values():
        dated = sorted(
            (r for r, _ in group if r.valid_from), key=lambda r: (r.valid_from or "", r.id)
        )
        for earlier, later in pairwise(dated):
            if earlier.valid_to is None and _value(earlier, functional) != _value(
                later, functional
            ):
                closed[earlier.id] = later.valid_from or ""
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
) -> list[Statement]:
    """Each functional fact as a statement about its one-valued end, from its first chunk."""
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
                    predicate,
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


def attribute_statements(chunks: Sequence[Chunk], entities: Sequence[Entity]) -> list[Statement]:
    """Heights, lengths, widths and populations the text states, each of the entity named
    last before the number in its sentence."""
    named: dict[str, list[tuple[str, str]]] = defaultdict(list)
    places = _main_places(chunks, entities)
    for e in entities:
        for cid in e.chunk_ids:
            for surface in {e.name, *e.aliases}:
                named[cid].append((surface, e.id))
    out: list[Statement] = []
    for chunk in chunks:
        if not _DIGIT.search(chunk.text):  # every measure has a number
            continue
        for begin, end in sentence_spans(chunk.text):
            sentence = chunk.text[begin:end]
            if not _DIGIT.search(sentence):
                continue
            for about, number, shown, at in _measures(sentence):
                subject = _subject_before(sentence, at, named.get(chunk.id, []))
                if subject is None and about == "population":
                    # "there were 3,559 people ... in the city": the place the passage is about.
                    subject = places.get(chunk.id)
                if subject is None:
                    continue
                out.append(
                    Statement(
                        subject,
                        about,
                        shown,
                        number,
                        chunk.id,
                        chunk.doc_id,
                        chunk.start + begin,
                        chunk.start + end,
                        sentence,
                        chunk.date,
                    )
                )
    return out


def _main_places(chunks: Sequence[Chunk], entities: Sequence[Entity]) -> dict[str, str]:
    """Per chunk, the place (GPE / LOC entity) it names most often, if any."""
    text = {c.id: c.text.lower() for c in chunks}
    best: dict[str, tuple[int, str]] = {}
    for e in entities:
        if e.type not in _PLACES:
            continue
        for cid in e.chunk_ids:
            if cid not in text:
                continue
            count = text[cid].count(e.name.lower())
            if count and (cid not in best or (count, e.id) > best[cid]):
                best[cid] = (count, e.id)
    return {cid: eid for cid, (_, eid) in best.items()}


def _measures(sentence: str) -> list[tuple[str, float, str, int]]:
    """(attribute, value in base units, value as written, offset) of each measure stated."""
    found = []
    for m in _MEASURE.finditer(sentence):
        scale = _LENGTH_UNITS[m.group("unit").lower()]
        value = float(m.group("num").replace(",", "")) * scale
        found.append((_DIMENSIONS[m.group("adj").lower()], value, m.group(0), m.start()))
    for m in _MEASURE_OF.finditer(sentence):
        scale = _LENGTH_UNITS[m.group("unit").lower()]
        value = float(m.group("num").replace(",", "")) * scale
        found.append((m.group("attr").lower(), value, m.group(0), m.start()))
    for m in [*_POPULATION.finditer(sentence), *_RESIDENTS.finditer(sentence)]:
        scale = {"million": 1e6, "thousand": 1e3}.get((m.group("scale") or "").strip().lower(), 1)
        value = float(m.group("num").replace(",", "")) * scale
        found.append(("population", value, m.group(0), m.start()))
    return found


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
            if not _disagree(a, b, tolerance) or not _same_time(a, b):
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
    if s.number is None:
        return entities[s.value].name if s.value in entities else s.value
    return s.value


def _disagree(a: Statement, b: Statement, tolerance: float) -> bool:
    if a.number is not None and b.number is not None:
        scale = max(abs(a.number), abs(b.number)) or 1.0
        return abs(a.number - b.number) / scale > tolerance
    return a.value != b.value


def _same_time(a: Statement, b: Statement) -> bool:
    """Both may hold at once: their validity overlaps, or one of them states none. One that
    ends where the other begins is a succession, not a conflict."""
    if (a.valid_to and a.valid_to == b.valid_from) or (b.valid_to and b.valid_to == a.valid_from):
        return False
    try:
        first, second = span_of(a.valid_from, a.valid_to), span_of(b.valid_from, b.valid_to)
    except ValueError:
        return True
    return first is None or second is None or first.overlaps(second)
