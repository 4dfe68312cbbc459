"""Families by meaning (core/families.py, core/family_match.py): synonyms, a parser's head
noun completed from its sentence, an LLM's free-text predicate, units, and a user's own."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphgate.core.config import TruthSettings
from graphgate.core.families import AttributeFamily, RoleFamily
from graphgate.core.family_match import family_matcher
from graphgate.core.types import Entity
from graphgate.index.truth import Statement, find_conflicts

FAMILIES = family_matcher(TruthSettings())


@pytest.mark.parametrize(
    ("predicate", "sentence", "stored"),
    [
        ("ceo_of", "", "chief_executive_of"),
        ("chief_executive_of", "", "chief_executive_of"),
        ("executive_of", "Ada became chief executive of Acme.", "chief_executive_of"),
        ("officer_of", "Ada became chief executive officer of Acme.", "chief_executive_of"),
        ("director_of", "Ada has served as managing director of Acme.", "managing_director_of"),
        ("director_of", "Ada became director of the City Museum.", "director_of"),
        ("teacher_of", "Ada became head teacher of Hill School.", "principal_of"),
        ("chairwoman_of", "", "chair_of"),
        ("editor_of", "Ada became editor-in-chief of the Courier.", "editor_in_chief_of"),
        # An LLM's free text.
        ("is_the_chief_executive_officer_of", "", "chief_executive_of"),
        ("serves as CEO at", "", "chief_executive_of"),
        ("was appointed head coach of", "", "head_coach_of"),
        ("headquartered_in", "", "headquartered_in"),
        ("is based in", "", "headquartered_in"),
        ("headquarter_in", "", "headquartered_in"),  # the parser's lemma
    ],
)
def test_every_spelling_of_a_family_is_stored_under_one_predicate(
    predicate: str, sentence: str, stored: str
) -> None:
    match = FAMILIES.match_predicate(predicate, sentence)
    assert match is not None and match.predicate == stored and not match.ended


def test_what_is_not_one_valued_matches_nothing() -> None:
    assert FAMILIES.match_predicate("met", "Ada met Bo.") is None
    assert FAMILIES.match_predicate("acquire", "") is None
    # One of several: "a director", "one of the directors".
    assert FAMILIES.match_predicate("director_of", "Ada is a director of Acme.") is None
    assert FAMILIES.match_predicate("officer_of", "Ada is an officer of Acme.") is None


def test_free_text_that_says_the_fact_ended_or_runs_the_other_way() -> None:
    ended = FAMILIES.match_predicate("stepped_down_as_mayor_of")
    assert ended is not None and ended.predicate == "mayor_of" and ended.ended
    former = FAMILIES.match_predicate("former_ceo_of")
    assert former is not None and former.ended
    owned = FAMILIES.match_predicate("has_ceo")
    assert owned is not None and owned.one == "source"  # Acme has_ceo Ada


def test_a_users_own_role_and_attribute_are_matched_and_checked() -> None:
    settings = TruthSettings(
        custom_roles=[RoleFamily(name="abbot", terms=["abbot", "abbess"])],
        custom_attributes=[
            AttributeFamily(name="seats", unit="count", cues=[r"{v} seats\b"], asked_by=["seat"])
        ],
    )
    families = family_matcher(settings)
    match = families.match_predicate("abbess_of", "")
    assert match is not None and match.predicate == "abbot_of"
    (seats,) = families.measures_in("The Hall has 1,200 seats.")
    assert (seats.family.name, seats.number) == ("seats", 1200.0)
    assert "seat" in families.asked_words("seats")
    with pytest.raises(ValidationError, match="exactly once"):
        AttributeFamily(name="bad", unit="count", cues=["no value here"])
    with pytest.raises(ValidationError, match="at least one term"):
        RoleFamily(name="nobody", terms=[])


@pytest.mark.parametrize(
    ("sentence", "family", "number"),
    [
        ("The Harbour Tower is 120 metres tall.", "height", 120.0),
        ("The spire stands 394 ft high.", "height", 394 * 0.3048),
        ("At 300 m, the Needle is the tallest building in town.", "height", 300.0),
        ("The tower reaches a height of 212 m.", "height", 212.0),
        ("Mount Vik rises to 2,469 m.", "elevation", 2469.0),
        ("Mount Vik rises 8,100 feet above sea level.", "elevation", 8100 * 0.3048),
        ("The summit of Mount Vik is at 1,290 feet.", "elevation", 1290 * 0.3048),
        ("The Elva flows for 300 miles.", "length", 300 * 1609.344),
        ("The Elva is 483 km long.", "length", 483000.0),
        ("The park covers 30 square miles.", "area", 30 * 2.589988),
        ("The park has an area of 77.7 km².", "area", 77.7),
        ("The park spans 120 sq km.", "area", 120.0),
        ("The population of Kettleby is 45,000.", "population", 45000.0),
        ("Kettleby is home to about 2.5 million people.", "population", 2.5e6),
        ("12,000 people live in Kettleby.", "population", 12000.0),
        ("Acme employs 3,400 people.", "employees", 3400.0),
        ("The workforce of Acme numbers 3,400.", "employees", 3400.0),
        ("Acme has a staff of 800.", "employees", 800.0),
        ("Acme was founded in March 1850.", "founding year", 1850.0),
        ("Founded in 1901, Acme is the oldest firm in the valley.", "founding year", 1901.0),
        ("The firm dates back to 1872.", "founding year", 1872.0),
    ],
)
def test_values_are_read_in_their_familys_unit(sentence: str, family: str, number: float) -> None:
    (found,) = FAMILIES.measures_in(sentence)
    assert found.family.name == family
    assert found.number == pytest.approx(number)


def test_places_are_read_as_names() -> None:
    for sentence in (
        "Acme is headquartered in New Harbour.",
        "The headquarters of Acme are in New Harbour.",
        "Acme runs its business from New Harbour.",
    ):
        (found,) = FAMILIES.measures_in(sentence)
        assert (found.family.name, found.value, found.number) == (
            "headquarters",
            "New Harbour",
            None,
        )
    (region,) = FAMILIES.measures_in(
        "Airways International was an airline based in Miami, Florida."
    )
    assert region.value == "Miami, Florida"  # shown with its region, compared by "Miami"
    # A number with no cue of a family states nothing ("moved 3 km" is no length).
    found = FAMILIES.measures_in("Acme's 120 employees moved 3 km.")
    assert [(m.family.name, m.number) for m in found] == [("employees", 120.0)]
    assert FAMILIES.measures_in("The tower is tall and old.") == []


def _said(value: str, number: float | None, doc: str, exact: bool = False) -> Statement:
    return Statement("t", "height", value, number, f"c-{doc}", doc, 0, 9, value, None, exact=exact)


def test_one_value_in_two_units_is_no_conflict_and_years_must_agree() -> None:
    tower = {"t": Entity("t", "Tower", "FAC", "")}
    feet = FAMILIES.measures_in("The tower is 1,312 feet tall.")[0]
    metres = FAMILIES.measures_in("The tower is 400 metres tall.")[0]
    same = [_said(feet.shown, feet.number, "a"), _said(metres.shown, metres.number, "b")]
    assert find_conflicts(same, tower, tolerance=0.02) == []
    years = [_said("1850", 1850.0, "a", exact=True), _said("1851", 1851.0, "b", exact=True)]
    assert len(find_conflicts(years, tower, tolerance=0.02)) == 1  # no tolerance on a year
