"""Likely duplicates that name blocking misses: acronyms, shared aliases, short forms in one
document, shared neighbours, near name vectors; never across types, never an ambiguous short
name, never two people with other first names."""

from __future__ import annotations

import numpy as np

from graphgate.core.config import GateSettings
from graphgate.core.types import Entity
from graphgate.gates.context import GateContext
from graphgate.gates.duplicates import likely_duplicates
from graphgate.gates.graph import GraphGate


def _e(
    eid: str, name: str, kind: str = "ORG", docs: tuple[str, ...] = ("d1",), **kw: object
) -> Entity:
    return Entity(eid, name, kind, "", doc_ids=list(docs), **kw)  # type: ignore[arg-type]


def _pairs(entities: list[Entity], vectors: object = None) -> set[tuple[str, str, str]]:
    return {(p.a, p.b, p.reason) for p in likely_duplicates(entities, vectors)}  # type: ignore[arg-type]


def test_acronyms_of_long_names_are_found() -> None:
    entities = [
        _e("a", "International Business Machines", docs=("d1",)),
        _e("b", "IBM", docs=("d9",)),  # three letters: found in any document
        _e("c", "Amazon Web Services", docs=("d2",)),
        _e("d", "AWS", docs=("d3",)),
        _e("e", "Bank of America"),
        _e("f", "BOA"),
    ]
    assert _pairs(entities) == {("a", "b", "acronym"), ("c", "d", "acronym"), ("e", "f", "acronym")}


def test_two_letters_only_beside_their_long_form_and_never_across_types() -> None:
    apart = [_e("a", "Sujith Aalungal", "PERSON", ("d1",)), _e("b", "SA", "PERSON", ("d2",))]
    assert _pairs(apart) == set()
    together = [_e("a", "Sujith Aalungal", "PERSON", ("d1",)), _e("b", "SA", "PERSON", ("d1",))]
    assert _pairs(together) == {("a", "b", "acronym")}
    types = [_e("a", "International Business Machines", "PERSON"), _e("b", "IBM", "ORG")]
    assert _pairs(types) == set()
    lower = [_e("a", "International Business Machines"), _e("b", "ibm")]  # a word, not an acronym
    assert _pairs(lower) == set()


def test_a_short_form_counts_in_a_shared_document_and_when_unambiguous() -> None:
    same_doc = [_e("a", "Barack Obama", "PERSON", ("d1",)), _e("b", "Obama", "PERSON", ("d1",))]
    assert _pairs(same_doc) == {("a", "b", "short form")}
    other_doc = [_e("a", "Barack Obama", "PERSON", ("d1",)), _e("b", "Obama", "PERSON", ("d2",))]
    assert _pairs(other_doc) == set()
    two_longs = [
        _e("a", "Paul Gégauff", "PERSON", ("d1",)),
        _e("b", "Danièle Gégauff", "PERSON", ("d1",)),
        _e("c", "Gégauff", "PERSON", ("d1",)),
    ]
    assert _pairs(two_longs) == set()


def test_shared_aliases_and_near_name_vectors() -> None:
    entities = [
        _e("a", "International Business Machines", aliases=["Big Blue"]),
        _e("b", "Big Blue Corp", aliases=["Big Blue"]),
        _e("c", "Acme Anvils", docs=("d5",)),
        _e("d", "Acme Anvil Works", docs=("d6",)),
        _e("e", "Springfield Nuclear", docs=("d7",)),
    ]
    near = np.array([[1.0, 0.0], [0.99, 0.141], [0.0, 1.0]], dtype=np.float32)
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    found = _pairs(entities, (["c", "d", "e"], near))
    assert ("a", "b", "alias") in found
    assert any(p[:2] == ("c", "d") and p[2].startswith("name vector 0.99") for p in found)
    assert not any("e" in p[:2] for p in found)
    # Names that block together are the duplicate rate's, not counted twice here.
    assert _pairs([_e("a", "Acme Corp."), _e("b", "acme corp")]) == set()


def test_the_graph_gate_reports_near_duplicates_with_samples() -> None:
    entities = [
        _e("a", "International Business Machines"),
        _e("b", "IBM"),
        _e("c", "Amazon Web Services"),
        _e("d", "AWS"),
        _e("e", "Springfield"),
    ]
    ctx = GateContext(settings=GateSettings(), entities=entities)
    result = GraphGate().measure(ctx)
    assert result.metrics["near_duplicate_rate"] == 2 / 5
    assert result.details["near_duplicates"] == [
        "International Business Machines ~ IBM (acronym)",
        "Amazon Web Services ~ AWS (acronym)",
    ]


def test_names_with_a_word_in_common_and_the_same_neighbours_are_likely_one() -> None:
    entities = [
        _e("a", "Acme Corp"),
        _e("b", "Acme Corporation", docs=("d2",)),  # another document: blocking cannot see it
        _e("c", "Acme Bank"),  # the same word, other neighbours
        _e("p", "Bob Cratchit", "PERSON"),
        _e("q", "Martha Cratchit", "PERSON"),  # a sister, not a second spelling of Bob
        _e("r", "J. Marley", "PERSON"),
        _e("s", "Jacob Marley", "PERSON"),
        _e("x", "Ann Lee", "PERSON"),
        _e("y", "Tom Hart", "PERSON"),
        _e("z", "London", "GPE"),
        _e("m", "Reno International Airport", "FAC"),
        _e("n", "Oakland International Airport", "FAC"),  # a list of airports: same neighbours
    ]
    people, place = {"x", "y"}, {"z"}
    neighbours = {
        "a": people | place,
        "b": people | {"q"},
        "c": {"q", "r", "z"},
        "p": {"x", "y", "z"},
        "q": {"x", "y", "z"},
        "r": {"x", "y"},
        "s": {"x", "y", "z"},
        "x": set(),
        "y": set(),
        "z": set(),
        "m": people | place,
        "n": people | place,
    }
    found = {(p.a, p.b, p.reason) for p in likely_duplicates(entities, neighbours=neighbours)}
    assert found == {("a", "b", "shared neighbours"), ("r", "s", "shared neighbours")}
    assert likely_duplicates(entities) == []  # no neighbours given: the signal is off
