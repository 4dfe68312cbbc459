"""Supersession and conflicts on hand-made facts (index/truth.py)."""

from __future__ import annotations

from graphgate.core.types import Entity, Relationship
from graphgate.index.truth import Statement, find_conflicts, supersede

FUNCTIONAL = {"executive_of": "target", "headquartered_in": "source"}


def _rel(rid: str, s: str, p: str, t: str, vf: str | None, vt: str | None = None) -> Relationship:
    return Relationship(rid, s, t, p, "svo", 1.0, "", ["c"], ["d"], vf, vt)


def test_a_later_value_closes_an_open_earlier_one() -> None:
    facts = [
        _rel("r1", "anna", "executive_of", "acme", "2012"),
        _rel("r2", "olaf", "executive_of", "acme", "2016-03"),
        _rel("r3", "anna", "executive_of", "other", "2013"),  # another company: untouched
        _rel("r4", "acme", "headquartered_in", "oslo", "2001", "2005"),  # closed already
        _rel("r5", "acme", "headquartered_in", "bergen", "2010"),
        _rel("r6", "olaf", "met", "anna", "2010"),  # not functional
    ]
    out = {r.id: (r.valid_from, r.valid_to) for r in supersede(facts, FUNCTIONAL)}
    assert out["r1"] == ("2012", "2016-03")  # closed at the change, not deleted
    assert out["r2"] == ("2016-03", None)
    assert out["r3"] == ("2013", None)
    assert out["r4"] == ("2001", "2005") and out["r5"] == ("2010", None)
    assert out["r6"] == ("2010", None)


def _said(subject: str, value: str, number: float | None, doc: str, **kw: str) -> Statement:
    return Statement(subject, "height", value, number, f"c-{doc}", doc, 0, 10, value, None, **kw)


def test_numbers_beyond_the_tolerance_conflict() -> None:
    tower = {"t": Entity("t", "Tower", "FAC", "")}
    close = [_said("t", "120 m", 120.0, "a"), _said("t", "121 m", 121.0, "b")]
    assert find_conflicts(close, tower, tolerance=0.02) == []
    far = [_said("t", "120 m", 120.0, "a"), _said("t", "135 m", 135.0, "b")]
    (conflict,) = find_conflicts(far, tower, tolerance=0.02)
    assert (conflict.a_doc_id, conflict.b_doc_id) == ("a", "b")
    assert (conflict.a_value, conflict.b_value) == ("120 m", "135 m")
    assert conflict.kind == "attribute" and conflict.subject == "Tower"


def test_values_at_different_times_do_not_conflict() -> None:
    people = {
        "anna": Entity("anna", "Anna", "PERSON", ""),
        "olaf": Entity("olaf", "Olaf", "PERSON", ""),
    }
    one = Statement(
        "acme", "executive_of", "anna", None, "c1", "a", 0, 5, "x", None, "2010", "2014"
    )
    two = Statement("acme", "executive_of", "olaf", None, "c2", "b", 0, 5, "y", None, "2015")
    assert find_conflicts([one, two], people, 0.02) == []
    three = Statement("acme", "executive_of", "olaf", None, "c3", "c", 0, 5, "z", None, "2013")
    (conflict,) = find_conflicts([one, three], people, 0.02)
    assert {conflict.a_value, conflict.b_value} == {"Anna", "Olaf"}


def test_a_stated_end_closes_and_a_shared_start_does_not() -> None:
    facts = [
        _rel("r1", "anna", "executive_of", "acme", "2012"),
        _rel("r2", "anna", "executive_of", "acme", None, "2015-06"),  # "Anna stepped down"
        _rel("r3", "olaf", "executive_of", "nord", "2010"),
        _rel("r4", "ida", "executive_of", "nord", "2010"),  # two sources, one start
    ]
    out = {r.id: (r.valid_from, r.valid_to) for r in supersede(facts, FUNCTIONAL)}
    assert out["r1"] == ("2012", "2015-06") and out["r2"] == (None, "2015-06")
    assert out["r3"] == ("2010", None) and out["r4"] == ("2010", None)


def test_one_document_is_not_two_sources() -> None:
    tower = {"t": Entity("t", "Tower", "FAC", "")}
    same = [_said("t", "120 m", 120.0, "a"), _said("t", "135 m", 135.0, "a")]
    assert find_conflicts(same, tower, tolerance=0.02) == []


def test_the_table_form_closes_the_same_edges_as_the_records() -> None:
    """``supersede_table`` (the resolve stage's, over columns) against :func:`supersede` over
    records, in random tables: shuffled ids, functional and other predicates, open and closed
    ends, a few chunks in the table; the rows come back in id order either way."""
    import random

    import pyarrow as pa

    from graphgate.core.types import from_table, to_table
    from graphgate.index.edges import supersede_table

    predicates = ["executive_of", "headquartered_in", "met"]
    for seed in range(40):
        rng = random.Random(seed)
        facts = [
            _rel(
                f"r{rng.randrange(10_000):05d}-{i}",
                rng.choice(["anna", "olaf", "acme"]),
                rng.choice(predicates),
                rng.choice(["acme", "oslo", "bergen", "other"]),
                rng.choice([None, "2001", "2005", "2010-04", "2016"]),
                rng.choice([None, None, "2008"]),
            )
            for i in range(rng.randrange(1, 40))
        ]
        if seed % 2:  # the ids in order, as the stage makes them, or not
            facts.sort(key=lambda r: r.id)
        table = to_table(facts, Relationship)
        if seed % 3 == 0 and table.num_rows > 3:
            table = pa.concat_tables([table.slice(0, 3), table.slice(3)])
        expected = sorted(supersede(facts, FUNCTIONAL), key=lambda r: r.id)
        closed = sum(a != b for a, b in zip(facts, supersede(facts, FUNCTIONAL), strict=True))
        out, changed = supersede_table(table, FUNCTIONAL)
        assert from_table(out, Relationship) == expected
        assert changed == closed
        assert out.schema == table.schema
