"""Relations and attributes by meaning: the families that say which facts hold one value at a
time, as data (``truth.roles``, ``truth.relations``, ``truth.attributes``, each with a
``custom_`` list a user adds to).

A **role** is a post a person holds at an organisation or place, one holder at a time ("chief
executive officer", "CEO" and "chief executive" are one role). A **relation** is any other
one-valued relation, written as a phrase ("headquartered in"). An **attribute** is a value a
text states about a thing (a height, a population, a founding year, a city), in a unit that is
normalised before two values are compared. Families are matched from what either extractor
writes (core/family_match.py): the offline parser's predicates, an LLM's free text, sentences.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from graphgate.core.config_base import Section

Unit = Literal["length", "area", "count", "year", "place"]


def predicate_of(name: str, suffix: str = "of") -> str:
    """The predicate every spelling of a family is stored under ("chief executive" ->
    ``chief_executive_of``): one group per family in the graph, whatever the text wrote."""
    words = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return f"{words}_{suffix}" if suffix else words


def _some_terms(terms: list[str], what: str) -> list[str]:
    """Terms in lower case, spaces folded; at least one."""
    cleaned = [" ".join(t.lower().split()) for t in terms if t.strip()]
    if not cleaned:
        raise ValueError(f"{what} needs at least one term")
    return cleaned


class RoleFamily(Section):
    name: str = Field(description="The role's name in answers and conflicts.")
    terms: list[str] = Field(
        description="Words a text uses for the role, lower case; the longest one a sentence "
        "writes decides the family (managing director, not director)."
    )

    _terms = field_validator("terms")(lambda cls, terms: _some_terms(terms, "a role family"))

    @property
    def predicate(self) -> str:
        return predicate_of(self.name)


class RelationFamily(Section):
    name: str = Field(description="The relation's name in answers and conflicts.")
    terms: list[str] = Field(
        description="Phrases a text or a predicate uses for it (headquartered in, based in)."
    )
    one: Literal["source", "target"] = Field(
        description="The end that has one value at a time: source (a company has one "
        "headquarters) or target (a country has one capital: X capital of Y)."
    )

    _terms = field_validator("terms")(lambda cls, terms: _some_terms(terms, "a relation family"))

    @property
    def predicate(self) -> str:
        return predicate_of(self.terms[0], "")


class AttributeFamily(Section):
    name: str = Field(description="The attribute's name in answers and conflicts.")
    unit: Unit = Field(
        description="What its values are: length (normalised to metres), area (square "
        "kilometres), count, year, or place (a named entity)."
    )
    cues: list[str] = Field(
        description="Where a sentence states it: regular expressions, case-insensitive, with "
        "{v} where the value stands and … for a gap of a few words."
    )
    asked_by: list[str] = Field(
        default_factory=list,
        description="Question words that ask for it (tall, height); its name's words always do.",
    )

    @field_validator("cues")
    @classmethod
    def _cues_have_a_value(cls, cues: list[str]) -> list[str]:
        for cue in cues:
            if cue.count("{v}") != 1:
                raise ValueError(f"cue {cue!r} must contain {{v}} exactly once")
            try:
                re.compile(cue.replace("{v}", "x").replace("…", "x"))
            except re.error as exc:
                raise ValueError(f"cue {cue!r} is not a regular expression: {exc}") from exc
        return cues


def _role(name: str, *terms: str) -> RoleFamily:
    return RoleFamily(name=name, terms=[name, *terms])


def default_roles() -> list[RoleFamily]:
    return [
        _role("chief executive", "chief executive officer", "ceo", "group chief executive"),
        _role("managing director"),
        _role("president"),
        _role("chair", "chairman", "chairwoman", "chairperson"),
        _role("head coach", "coach", "manager", "team manager"),
        _role("mayor", "lord mayor"),
        _role("principal", "headteacher", "head teacher", "headmaster", "headmistress"),
        _role("editor-in-chief", "editor in chief", "chief editor", "editor"),
        _role("director", "museum director"),
        _role("general manager"),
        _role("prime minister", "premier"),
        _role("governor"),
        _role("vice-chancellor", "rector"),
        _role("captain", "club captain"),
        _role("conductor", "music director", "chief conductor"),
    ]


def default_relations() -> list[RelationFamily]:
    return [
        RelationFamily(
            name="headquarters",
            terms=["headquartered in", "headquarters in", "based in", "head office in"],
            one="source",
        ),
        RelationFamily(name="capital", terms=["capital of"], one="target"),
        RelationFamily(
            name="spouse", terms=["married to", "spouse of", "wife of", "husband of"], one="source"
        ),
    ]


_NEAR = r"(?:about |around |some |nearly |almost |over |roughly |approximately )?"


def default_attributes() -> list[AttributeFamily]:
    return [
        AttributeFamily(
            name="height",
            unit="length",
            cues=[
                r"{v} (?:tall|high)\b",
                r"{v} in height",
                r"\bheight of … (?:is|was|of|at|reaches) " + _NEAR + "{v}",
                r"\bheight of " + _NEAR + "{v}",
                r"\b(?:rises|stands|towers|reaches) " + _NEAR + r"{v}(?! above sea)",
                r"\bat {v}, … (?:is|was) the tallest",
            ],
            asked_by=["tall", "height", "high"],
        ),
        AttributeFamily(
            name="elevation",
            unit="length",
            cues=[
                r"\b(?:elevation|altitude) of " + _NEAR + "{v}",
                r"{v} above sea level",
                r"\bsummit of … (?:is|lies|stands|sits) at {v}",
                r"\b(?:rises|climbs|peaks) (?:to|at) " + _NEAR + "{v}",
                r"\bstands at " + _NEAR + "{v}",
            ],
            asked_by=["elevation", "altitude", "high", "summit"],
        ),
        AttributeFamily(
            name="length",
            unit="length",
            cues=[
                r"{v} long\b",
                r"{v} in length",
                r"\blength of … (?:is|was) " + _NEAR + "{v}",
                r"\blength of " + _NEAR + "{v}",
                r"\b(?:runs|stretches|flows|extends|winds) (?:for )?" + _NEAR + "{v}",
            ],
            asked_by=["long", "length"],
        ),
        AttributeFamily(
            name="width",
            unit="length",
            cues=[r"{v} wide\b", r"\bwidth of … (?:is|was) {v}", r"\bwidth of " + _NEAR + "{v}"],
            asked_by=["wide", "width"],
        ),
        AttributeFamily(
            name="area",
            unit="area",
            cues=[
                r"\barea of … (?:is|was) " + _NEAR + "{v}",
                r"\barea of " + _NEAR + "{v}",
                r"\b(?:covers|covering|spans|occupies) (?:an area of )?" + _NEAR + "{v}",
                r"\b(?:spreads|extends|stretches) (?:over|across) " + _NEAR + "{v}",
                r"{v} in area",
            ],
            asked_by=["area", "big", "large", "size"],
        ),
        AttributeFamily(
            name="population",
            unit="count",
            cues=[
                r"\bpopulation of … (?:is|was|stands at|stood at|reached|numbers|amounts to|"
                r"totals|totalled|totaled) " + _NEAR + "{v}",
                r"\bpopulation (?:of|was|is|stood at|stands at|reached|amounts to|totals) "
                + _NEAR
                + "{v}",
                r"\bhome to " + _NEAR + r"{v} (?:people|residents|inhabitants)",
                r"{v} (?:people|residents|inhabitants) (?:live|lived|reside|resided)\b",
                r"\bcounts " + _NEAR + r"{v} (?:residents|inhabitants|people)",
                r"\b(?:there (?:are|were|is|was)|had|has) " + _NEAR + r"{v} "
                r"(?:people|inhabitants|residents)\b(?! work)",
                r"{v} inhabitants\b",
            ],
            asked_by=["population", "inhabitant", "resident", "people", "live"],
        ),
        AttributeFamily(
            name="employees",
            unit="count",
            cues=[
                r"{v} (?:employees|staff members|members of staff)\b",
                r"\bemploys " + _NEAR + r"{v}",
                r"\b(?:staff|workforce|headcount) of " + _NEAR + "{v}",
                r"\b(?:workforce|staff|headcount) of … (?:is|was|numbers|numbered|totals|of) "
                + _NEAR
                + "{v}",
                r"{v} (?:people|workers) work (?:for|at)\b",
            ],
            asked_by=["employees", "employ", "staff", "workforce", "work", "workers"],
        ),
        AttributeFamily(
            name="founding year",
            unit="year",
            cues=[
                r"\b(?:founded|established|formed|incorporated|created) in {v}",
                r"\bdates (?:back )?(?:from|to) {v}",
                r"\bopened (?:its doors )?in {v}",
                r"\b(?:founded|established) {v}\b",
            ],
            asked_by=["founded", "founding", "established", "old", "opened"],
        ),
        AttributeFamily(
            name="headquarters",
            unit="place",
            cues=[
                r"\bheadquartered in {v}",
                r"\bheadquarters (?:is |are |was |were )?(?:located )?in {v}",
                r"\bheadquarters of … (?:is|are|was|were) (?:located )?in {v}",
                r"\bbased in {v}",
                r"\bruns its (?:business|operations) from {v}",
                r"\bhead office (?:is |was )?in {v}",
            ],
            asked_by=["headquarters", "headquartered", "based", "where"],
        ),
    ]
