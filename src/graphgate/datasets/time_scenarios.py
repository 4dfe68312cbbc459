"""A generated set of successions and conflicts, phrased many ways (issue 31's scenario set).

The time and truth features were built on a few phrasings; this grammar states the same facts
in others, so that what they do is measured on text they were not written against:

- **successions**: an office held by one person, then another (ten role families, each with its
  synonyms; five phrasings of a start, five of a change of holder). Two documents, dated at each
  start. Asked as of a time between the two starts, and after the second: the holder then.
  A succession read as a conflict is a wrong answer.
- **conflicts**: two sources stating different values of one attribute (eight families, units
  varied: metres and feet, square kilometres and square miles, counts, years, a city), both
  dated the same year. Asked for the value: both values, each from its source.

Names of people, places and organisations are made from syllables with a seeded generator, so
no model has read them; the same seed gives the same files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphgate.datasets.base import ConvertedDataset, write_dataset
from graphgate.evaluate.testset import TestCase

# Role family -> (names of the role a text may use, what holds it).
ROLES: dict[str, tuple[tuple[str, ...], str]] = {
    "chief executive": (("chief executive officer", "CEO", "chief executive"), "company"),
    "managing director": (("managing director",), "company"),
    "president": (("president",), "company"),
    "chair": (("chair", "chairman", "chairwoman"), "company"),
    "head coach": (("head coach", "manager"), "club"),
    "mayor": (("mayor",), "town"),
    "principal": (("principal", "headteacher", "head teacher"), "school"),
    "editor-in-chief": (("editor-in-chief", "editor"), "newspaper"),
    "director": (("director",), "museum"),
    "general manager": (("general manager",), "hotel"),
}
# The first holder's start, in five phrasings.
STARTS = (
    "{a} took office as {role} of {org} in {when}.",
    "In {when}, {a} was appointed {role} of {org}.",
    "{a} became {role} of {org} in {when}.",
    "{org} named {a} as its {role} in {when}.",
    "{a} has served as {role} of {org} since {when}.",
)
# The change of holder (b follows a), in five phrasings.
CHANGES = (
    "In {when}, {b} took over as {role} of {org} from {a}.",
    "In {when}, {b} replaced {a} as {role} of {org}.",
    "In {when}, {a} stepped down and {b} became {role} of {org}.",
    "{a} left the post of {role} of {org} in {when} and was succeeded by {b}.",
    "{b} was appointed {role} of {org} in {when}, after {a} resigned.",
)


@dataclass(frozen=True)
class Attribute:
    """An attribute family: the sentences that state it, and how a value is written."""

    phrasings: tuple[str, ...]  # with {s} the subject and {v} the value
    holder: str  # what has it
    values: tuple[str, ...]  # value templates with {n}; units vary among them
    low: int
    high: int


ATTRIBUTES: dict[str, Attribute] = {
    "height": Attribute(
        (
            "{s} is {v} tall.",
            "{s} stands {v} high.",
            "The height of {s} is {v}.",
            "{s} rises {v} above the square.",
            "At {v}, {s} is the tallest building in town.",
        ),
        "tower",
        ("{n} metres", "{n} m", "{n} feet"),
        60,
        400,
    ),
    "population": Attribute(
        (
            "The population of {s} is {v}.",
            "{s} has a population of {v}.",
            "{s} is home to {v} people.",
            "{v} people live in {s}.",
            "{s} counts {v} residents.",
        ),
        "town",
        ("{n}",),
        2_000,
        90_000,
    ),
    "founding year": Attribute(
        (
            "{s} was founded in {v}.",
            "{s} was established in {v}.",
            "{s} dates from {v}.",
            "Founded in {v}, {s} is the oldest firm in the valley.",
            "{s} opened its doors in {v}.",
        ),
        "company",
        ("{n}",),
        1850,
        1990,
    ),
    "area": Attribute(
        (
            "{s} covers {v}.",
            "{s} has an area of {v}.",
            "The area of {s} is {v}.",
            "{s} spreads over {v}.",
            "{s} extends across {v}.",
        ),
        "park",
        ("{n} square kilometres", "{n} km²", "{n} square miles"),
        20,
        900,
    ),
    "elevation": Attribute(
        (
            "{s} rises to {v}.",
            "The summit of {s} is at {v}.",
            "{s} has an elevation of {v}.",
            "{s} reaches {v} above sea level.",
            "{s} stands at {v}.",
        ),
        "mountain",
        ("{n} metres", "{n} m", "{n} feet"),
        800,
        4_500,
    ),
    "employees": Attribute(
        (
            "{s} has {v} employees.",
            "{s} employs {v} people.",
            "{s} has a staff of {v}.",
            "{v} people work for {s}.",
            "The workforce of {s} numbers {v}.",
        ),
        "company",
        ("{n}",),
        120,
        40_000,
    ),
    "length": Attribute(
        (
            "{s} is {v} long.",
            "{s} runs for {v}.",
            "The length of {s} is {v}.",
            "{s} stretches {v} to the sea.",
            "{s} flows for {v}.",
        ),
        "river",
        ("{n} kilometres", "{n} km", "{n} miles"),
        40,
        900,
    ),
    "headquarters": Attribute(
        (
            "{s} is headquartered in {v}.",
            "{s} has its headquarters in {v}.",
            "The headquarters of {s} are in {v}.",
            "{s} is based in {v}.",
            "{s} runs its business from {v}.",
        ),
        "company",
        ("{city}",),
        0,
        0,
    ),
}
_ONSETS = ("b", "br", "d", "f", "g", "h", "k", "kl", "l", "m", "n", "p", "r", "s", "st", "t", "v")
_VOWELS = ("a", "e", "i", "o", "u", "ei", "ar", "or")
_CODAS = ("", "n", "r", "s", "th", "l", "nd", "rk")
_KINDS = {
    "company": ("Industries", "Holdings", "Works", "Group"),
    "club": ("Rovers", "United", "Athletic"),
    "town": ("",),
    "school": ("Academy", "High School"),
    "newspaper": ("Gazette", "Courier", "Herald"),
    "museum": ("Museum",),
    "hotel": ("Grand Hotel", "Hotel"),
    "tower": ("Tower",),
    "park": ("National Park",),
    "mountain": ("Mount",),
    "river": ("River",),
}
_MONTHS = ("January", "March", "May", "July", "September", "November")
_SOURCES = ("Valley Times", "Northern Ledger", "The Daily Record", "Harbour Post", "City Wire")


def _word(rng: random.Random, syllables: int) -> str:
    parts = [
        rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables)
    ]
    return "".join(parts).capitalize()


class _Names:
    """Distinct made-up names (each used once in the set)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make: Any) -> str:
        while True:
            name = str(make())
            if name not in self.used:
                self.used.add(name)
                return name

    def person(self) -> str:
        return self._fresh(lambda: f"{_word(self.rng, 2)} {_word(self.rng, 2)}")

    def thing(self, kind: str) -> str:
        suffix = self.rng.choice(_KINDS[kind])
        if kind == "mountain":
            return self._fresh(lambda: f"Mount {_word(self.rng, 2)}")
        return self._fresh(lambda: f"{_word(self.rng, self.rng.choice((2, 3)))} {suffix}".strip())


def _value(attribute: Attribute, rng: random.Random, names: _Names) -> tuple[str, str]:
    """(two different values as written) of one attribute, in one unit."""
    template = rng.choice(attribute.values)
    if "{city}" in template:
        return names.thing("town"), names.thing("town")
    first = rng.randint(attribute.low, attribute.high)
    second = first
    while abs(second - first) < max(2, (attribute.high - attribute.low) // 10):
        second = rng.randint(attribute.low, attribute.high)

    def written(n: int) -> str:
        return template.format(n=f"{n:,}" if n >= 10_000 else str(n))

    return written(first), written(second)


def time_scenarios(
    seed: int = 0, per_phrasing: int = 1
) -> tuple[list[dict[str, Any]], list[TestCase]]:
    """The documents and cases: for every role family and every pair of start and change
    phrasings (taken in step), ``per_phrasing`` successions; for every attribute family and
    phrasing, ``per_phrasing`` conflicts."""
    rng = random.Random(seed)
    names = _Names(rng)
    docs: list[dict[str, Any]] = []
    cases: list[TestCase] = []
    for family, (role_names, kind) in ROLES.items():
        for n in range(len(STARTS) * per_phrasing):
            start, change = STARTS[n % len(STARTS)], CHANGES[n % len(CHANGES)]
            role, org = role_names[n % len(role_names)], names.thing(kind)
            a, b = names.person(), names.person()
            first, second = rng.randint(1995, 2008), 0
            second = first + rng.randint(3, 9)
            month1, month2 = rng.choice(_MONTHS), rng.choice(_MONTHS)
            sid = f"succession-{family}-{n}".replace(" ", "_")
            said = [
                (
                    f"{sid}-a",
                    first,
                    month1,
                    start.format(a=a, role=role, org=org, when=f"{month1} {first}"),
                ),
                (
                    f"{sid}-b",
                    second,
                    month2,
                    change.format(a=a, b=b, role=role, org=org, when=f"{month2} {second}"),
                ),
            ]
            for doc_id, year, month, sentence in said:
                docs.append(
                    {
                        "id": doc_id,
                        "title": f"{org.split()[0]} news",
                        "text": f"{sentence} It was announced in {names.thing('town')}.",
                        "metadata": {
                            "date": f"{year}-{_MONTHS.index(month) * 2 + 1:02d}-15",
                            "source": rng.choice(_SOURCES),
                        },
                    }
                )
            extras = {"family": family, "scenario": "succession", "phrasing": n % len(STARTS)}
            between = (first + second) // 2 if second - first > 1 else first
            for holder, when, gold in ((a, between, f"{sid}-a"), (b, second + 1, f"{sid}-b")):
                cases.append(
                    TestCase.model_validate(
                        {
                            "id": f"{sid}-{when}",
                            "question": f"Who was the {role} of {org}?",
                            "question_type": "temporal",
                            "answer": holder,
                            "as_of": str(when),
                            "gold_docs": [gold],
                            **extras,
                        }
                    )
                )
    for family, attribute in ATTRIBUTES.items():
        for n in range(len(attribute.phrasings) * per_phrasing):
            subject = names.thing(attribute.holder)
            value_a, value_b = _value(attribute, rng, names)
            one = attribute.phrasings[n % len(attribute.phrasings)]
            other = attribute.phrasings[(n + 1) % len(attribute.phrasings)]
            year = rng.randint(2010, 2022)
            sid = f"conflict-{family}-{n}".replace(" ", "_")
            sources = rng.sample(_SOURCES, 2)
            for side, (template, value, source) in enumerate(
                ((one, value_a, sources[0]), (other, value_b, sources[1]))
            ):
                docs.append(
                    {
                        "id": f"{sid}-{'ab'[side]}",
                        "title": f"{source}: {subject}",
                        "text": f"{template.format(s=subject, v=value)} Visitors come from afar.",
                        "metadata": {"date": f"{year}-0{side + 4}-10", "source": source},
                    }
                )
            cases.append(
                TestCase.model_validate(
                    {
                        "id": sid,
                        "question": f"What is the {family} of {subject}?",
                        "question_type": "contradiction",
                        "conflicting_answers": [value_a, value_b],
                        "gold_docs": [f"{sid}-a", f"{sid}-b"],
                        "family": family,
                        "scenario": "conflict",
                        "phrasing": n % len(attribute.phrasings),
                    }
                )
            )
    return docs, cases


def write_time_scenarios(out_dir: Path, seed: int = 0, per_phrasing: int = 1) -> ConvertedDataset:
    docs, cases = time_scenarios(seed, per_phrasing)
    return write_dataset(out_dir, docs, cases)
