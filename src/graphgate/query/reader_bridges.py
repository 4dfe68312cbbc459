"""The thing a multi-hop question describes on its way to what it asks: "Which city was *the
band which was formed in 1981 in Los Angeles* from?" asks a city of a band the question never
names. Where the evidence calls a name by that noun ("Metallica is an American heavy metal
band"), the name is the bridge, not the answer, whatever label the small parser gave it
("Metallica" labelled a place)."""

from __future__ import annotations

from typing import Any

from graphgate.core.text import normalise_name
from graphgate.query.answer_type import GENERIC_HEADS, ExpectedAnswer
from graphgate.query.reader_evidence import spans
from graphgate.query.reader_posts import Span
from graphgate.query.reader_syntax import described_as

# Answer kinds whose question names its asked noun apart from what it describes. A "what"
# question with no typed noun ("What is the name of the band which …") may ask the band itself.
_KINDS = frozenset({"place", "date", "number", "entity", "category"})
# What makes a noun of the question a description: a clause or a phrase said of it.
_DESCRIBED_BY = frozenset({"relcl", "acl"})
_ARTICLES = frozenset({"the", "a", "an"})


def bridge_nouns(question: Any, expected: ExpectedAnswer) -> frozenset[str]:
    """The question's nouns that a clause describes ("band" of "the band which was formed …",
    "company" of "a holding company headquartered in …"), other than the noun it asks for."""
    if expected.kind not in _KINDS or expected.head in GENERIC_HEADS:
        return frozenset()
    out = set()
    for token in question:
        lemma = str(token.lemma_).lower()
        if token.pos_ != "NOUN" or lemma == expected.head or lemma in GENERIC_HEADS:
            continue
        children = list(token.children)
        if any(c.dep_ in _DESCRIBED_BY for c in children) and any(
            c.dep_ == "det" and c.lower_ in _ARTICLES for c in children
        ):
            out.add(lemma)
    return frozenset(out)


def is_bridge(doc: Any, start: int, end: int, bridges: frozenset[str], head: str | None) -> bool:
    """The evidence calls the candidate one of the question's described nouns, and not the noun
    asked: "Metallica is an American heavy metal band" for the band of "Which city was the band
    which was formed …"."""
    if not bridges or described_as(doc, start, end, head, modifier=False):
        return False
    return any(described_as(doc, start, end, noun, modifier=False) for noun in bridges)


def candidate_spans(question: Any, docs: list[Any], expected: ExpectedAnswer) -> list[list[Span]]:
    """Each sentence's candidate spans (``reader_evidence.spans``), less the question's bridges:
    a name one sentence calls the band is the band in every other sentence too."""
    found = [spans(doc, expected) for doc in docs]
    bridges = bridge_nouns(question, expected)
    if not bridges:
        return found
    bridged = {
        normalise_name(f[0])
        for doc, fs in zip(docs, found, strict=True)
        for f in fs
        if is_bridge(doc, f[3], f[4], bridges, expected.head)
    }
    return [[f for f in fs if normalise_name(f[0]) not in bridged] for fs in found]
