"""Which family a predicate, a sentence or a question speaks of (core/families.py).

The offline parser writes a role's head noun ("officer_of" for "chief executive officer of
X"), an LLM writes free text ("is_the_ceo_of", "stepped_down_as_mayor_of"); both are matched
by their words, stemmed, against each family's terms, the longest term winning, and a head noun
is completed from the sentence it was read in. Attribute values are read where a family's cue
states them, in the family's unit, normalised so that "1,312 feet" and "400 metres" compare.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphgate.core.config_index import TruthSettings
from graphgate.core.families import AttributeFamily, RelationFamily, RoleFamily, Unit

_PREPOSITIONS = {"of", "at", "for", "in", "from", "to", "by", "with", "as", "on", "the", "a", "an"}
_HAS = {"has", "have", "had", "having"}
# Words of a predicate that say the fact ended ("stepped_down_as_mayor_of", "former_ceo_of").
_ENDED = {"former", "ex", "resign", "retir", "left", "quit", "until", "replac", "oust", "depart"}
_ENDED_PHRASES = ("step down", "stood down", "stepped down")

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
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
    "kilometre": 1000.0,
    "kilometres": 1000.0,
    "kilometer": 1000.0,
    "kilometers": 1000.0,
    "mi": 1609.344,
    "mile": 1609.344,
    "miles": 1609.344,
    "yards": 0.9144,
}
_AREA_UNITS = {
    "square kilometres": 1.0,
    "square kilometers": 1.0,
    "sq km": 1.0,
    "km²": 1.0,
    "km2": 1.0,
    "square miles": 2.589988,
    "sq mi": 2.589988,
    "mi²": 2.589988,
    "hectares": 0.01,
    "acres": 0.004046856,
    "square metres": 1e-6,
    "square meters": 1e-6,
    "m²": 1e-6,
}
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_MONTH = (
    r"(?:(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\s+(?:\d{1,2},?\s+)?)?"
)


_PLACE = r"[A-Z][\w'’-]*(?:\s+(?:(?:of|upon|on|de|am)\s+)?[A-Z][\w'’-]*)*"


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_VALUE: dict[Unit, str] = {
    "length": rf"(?P<v>(?P<n>{_NUM})[\s-]*(?P<u>{_alternation(_LENGTH_UNITS)})(?![\w²]))",
    "area": rf"(?P<v>(?P<n>{_NUM})[\s-]*(?P<u>{_alternation(_AREA_UNITS)})(?![\w²]))",
    "count": rf"(?P<v>(?P<n>{_NUM})(?P<s>\s+(?:thousand|million|billion))?)(?![\d.,]*\s*(?:%|per"
    rf"\s*cent|{_alternation([*_LENGTH_UNITS, *_AREA_UNITS])})(?![\w²]))",
    "year": rf"{_MONTH}(?P<v>(?P<n>1[0-9]\d\d|20\d\d))(?!\d)",
    # A name, and the region after a comma that places it ("Miami, Florida").
    "place": rf"(?P<v>(?-i:{_PLACE}(?:,\s+{_PLACE})?))",
}
_GAP = r"(?:[\w'’,.-]+\s+){0,6}?"


# A modifier that makes a term another post ("vice president", "deputy mayor", "assistant
# coach", "minister-president"), or a term written inside a longer word.
_SUBORDINATE = re.compile(
    r"(?:\b(?:vice|deputy|assistant|associate|co|sub|under|honorary|interim)[\s-]+|[\w]-)$"
)


def _cue_pattern(cue: str, unit: Unit) -> str:
    """A cue as a regular expression: … is a gap of up to six words."""
    return re.sub(r"…\s*", lambda _: _GAP, cue).replace("{v}", _VALUE[unit])


def stem(word: str) -> str:
    """A crude stem, enough to meet "headquartered" with "headquarter" and "based" with
    "base"; never shorter than three letters."""
    w = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)]
    return w


def _stems(text: str) -> list[str]:
    return [stem(w) for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def _spaced(term: str) -> str:
    return " ".join(re.split(r"[\s-]+", term.lower().strip()))


def _contains(seq: Sequence[str], part: Sequence[str]) -> bool:
    n = len(part)
    return any(list(seq[i : i + n]) == list(part) for i in range(len(seq) - n + 1))


@dataclass(frozen=True)
class PredicateMatch:
    """A predicate read as a family: the predicate it is stored under, the end with one value
    at a time, and whether the predicate says the fact ended ("former_ceo_of")."""

    family: str
    predicate: str
    one: str
    ended: bool
    role: bool


@dataclass(frozen=True)
class RoleMention:
    """A role written in a sentence, at [start, end); ``ended``: "former mayor"."""

    family: RoleFamily
    start: int
    end: int
    ended: bool


@dataclass(frozen=True)
class Measured:
    """An attribute value a sentence states: normalised ``number`` (None for a place), as
    written (``shown``), and where the cue and the value stand."""

    family: AttributeFamily
    number: float | None
    shown: str
    value: str
    start: int
    end: int
    value_start: int
    value_end: int


class FamilyMatcher:
    """The families of one settings tree, compiled once."""

    def __init__(
        self,
        roles: Sequence[RoleFamily],
        relations: Sequence[RelationFamily],
        attributes: Sequence[AttributeFamily],
    ) -> None:
        self.roles = list(roles)
        self.relations = list(relations)
        self.attributes = list(attributes)
        both: list[RoleFamily | RelationFamily] = [*self.roles, *self.relations]
        self._terms = [(_stems(t), f) for f in both for t in f.terms]
        self._terms.sort(key=lambda tf: -len(tf[0]))
        # The first family to list a term owns it.
        self._role_of = {_spaced(t): f for f in reversed(self.roles) for t in f.terms}
        pattern = "|".join(
            r"[\s-]+".join(re.escape(w) for w in t.split())
            for t in sorted(self._role_of, key=len, reverse=True)
        )
        self._role_re = re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE) if pattern else None
        self._cues = [
            (
                f,
                cue.startswith("{v}"),
                re.compile(_cue_pattern(cue, f.unit), re.IGNORECASE),
            )
            for f in self.attributes
            for cue in f.cues
        ]
        self.functional: dict[str, str] = {f.predicate: "target" for f in self.roles}
        self.functional.update({f.predicate: f.one for f in self.relations})
        self._names: dict[str, str] = {f.predicate: f.name for f in both}

    def family_name(self, predicate: str) -> str:
        """The family a stored predicate belongs to, by name ("chief executive")."""
        return self._names.get(predicate, predicate.replace("_", " "))

    def is_role(self, predicate: str) -> bool:
        return any(f.predicate == predicate for f in self.roles)

    def match_predicate(self, predicate: str, sentence: str = "") -> PredicateMatch | None:
        """The family a predicate names, or None. A role's head noun alone ("officer_of") is
        completed from the sentence ("chief executive officer of X"); a role the sentence
        writes only with an indefinite article ("a director of X": one of several) is no
        one-valued fact."""
        words = [w for w in re.split(r"[^a-z0-9]+", predicate.lower()) if w]
        stems = [stem(w) for w in words]
        if not stems:
            return None
        found: RoleFamily | RelationFamily | None = None
        size = 0
        for term, family in self._terms:
            if len(term) > size and _contains(stems, term):
                found, size = family, len(term)
        head = next((w for w in reversed(stems) if w not in _PREPOSITIONS), "")
        written = self.roles_in(sentence) if sentence else []
        for mention in written:
            term = _stems(sentence[mention.start : mention.end])
            if len(term) > size and term[-1] == head:
                found, size = mention.family, len(term)
        if found is None:
            return None
        phrase = " ".join(words)
        ended = bool(set(stems) & _ENDED) or any(p in phrase for p in _ENDED_PHRASES)
        flipped = words[0] in _HAS
        if isinstance(found, RoleFamily):
            indefinite = not any(m.family is found for m in written)
            if indefinite and self._role_re is not None and self._role_re.search(sentence):
                return None  # written only as "a director of …"
            one = "source" if flipped else "target"
            return PredicateMatch(found.name, found.predicate, one, ended, True)
        one = found.one if not flipped else ("target" if found.one == "source" else "source")
        return PredicateMatch(found.name, found.predicate, one, ended, False)

    def roles_in(self, text: str) -> list[RoleMention]:
        """Roles the text writes, longest term first, not overlapping; one preceded by an
        indefinite article ("a director", "one of the directors") is left out."""
        if self._role_re is None:
            return []
        out = []
        for m in self._role_re.finditer(text):
            before = text[: m.start()].lower()
            if re.search(r"\b(?:a|an|another|one of (?:the|its|their))\s+$", before):
                continue
            if _SUBORDINATE.search(before):
                continue  # "vice president", "deputy mayor", "minister-president": another post
            ended = bool(re.search(r"\b(?:former|ex-|then-|erstwhile)\s*$", before))
            family = self._role_of.get(_spaced(m.group(0)))
            if family is not None:
                out.append(RoleMention(family, m.start(), m.end(), ended))
        return out

    def measures_in(self, sentence: str) -> list[Measured]:
        """Attribute values the sentence states; where two cues read one value, the longer
        (more specific) match wins ("3,000 m above sea level" is an elevation)."""
        best: dict[tuple[int, int], tuple[int, Measured]] = {}
        for family, leads, cue in self._cues:
            for m in cue.finditer(sentence):
                number = _number(family.unit, m)
                value = m.group("v")
                if number is None and family.unit != "place":
                    continue
                words = len(m.group(0).split())
                shown = m.group(0) if leads and words <= 4 else value
                found = Measured(
                    family, number, shown.strip(" ,"), value, m.start(), m.end(),
                    m.start("v"), m.end("v"),
                )  # fmt: skip
                span = (m.start("v"), m.end("v"))
                if span not in best or len(m.group(0)) > best[span][0]:
                    best[span] = (len(m.group(0)), found)
        return [found for _, found in sorted(best.values(), key=lambda x: x[1].value_start)]

    def attribute(self, name: str) -> AttributeFamily | None:
        return next((f for f in self.attributes if f.name == name), None)

    def asked_words(self, about: str) -> set[str]:
        """The question words that ask about a family, by its name or stored predicate."""
        family = self.attribute(about)
        name = family.name if family is not None else self.family_name(about)
        words = {stem(w) for w in re.split(r"[^a-z0-9]+", name.lower()) if len(w) > 2}
        if family is not None:
            words |= {stem(w) for w in family.asked_by}
        for f in self.roles:
            if f.predicate == about or f.name == about:
                words |= {stem(w) for t in f.terms for w in t.split() if len(w) > 2}
        return words


def _number(unit: Unit, m: re.Match[str]) -> float | None:
    if unit == "place":
        return None
    raw = float(m.group("n").replace(",", ""))
    if unit == "length":
        return raw * _LENGTH_UNITS[m.group("u").lower()]
    if unit == "area":
        return raw * _AREA_UNITS[" ".join(m.group("u").lower().split())]
    if unit == "count":
        return raw * _SCALES.get((m.group("s") or "").strip().lower(), 1.0)
    return raw


def family_matcher(truth: TruthSettings) -> FamilyMatcher:
    """The matcher of the settings' families, the custom ones checked first."""
    return FamilyMatcher(
        [*truth.custom_roles, *truth.roles],
        [*truth.custom_relations, *truth.relations],
        [*truth.custom_attributes, *truth.attributes],
    )
