"""A name written two ways is one name: "Löw" in the evidence is the question's "Joachim Low"
(so it is no answer to what he did); "London , England" is one place, not two rival answers;
"Major General Ivo Brandt" is "Ivo Brandt" with his rank. Shown on invented names in several
phrasings, with lists of places as controls, and end to end through the reader, which guessed
the asked man's own name or abstained on the two halves of one answer before."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphgate.core.text import normalise_name, without_accents
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_letters import located
from tests.unit.conftest import short_answer


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("Löw", "Low"),
        ("Oldřich Černý", "Oldrich Cerny"),
        ("1. FC Köln", "1. FC Koln"),
        ("Fenerbahçe", "Fenerbahce"),
        ("Ehrensvärd", "Ehrensvard"),
        ("Ada Lund", "Ada Lund"),  # nothing to drop
    ],
)
def test_accents_are_dropped_and_nothing_else(written: str, plain: str) -> None:
    assert without_accents(written) == plain
    assert normalise_name(written) == normalise_name(plain)


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Coach Ivo Ohlsen worked with what team from 1998 to 1999?",
            "In 1998 , Öhlsen signed with Kalmar FF and coached the team until 1999 .",
            "Kalmar FF",
        ),
        (
            "Which club did Tomas Dvorak manage from 2003 to 2005?",
            "From 2003 to 2005 Dvořák managed Viking FK in the second division .",
            "Viking FK",
        ),
        (
            "From 2010 to 2012, which team did Jiří Novák coach?",
            "Novak coached Slavia Prague from 2010 to 2012 .",
            "Slavia Prague",
        ),
    ],
)
def test_the_asked_name_written_with_or_without_accents_is_no_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    """The man's name beside the club is his own, whichever way it is spelt."""
    assert short_answer(reader_with({}), question, evidence) == answer


@pytest.mark.parametrize(
    ("place", "container", "sentence", "one"),
    [
        ("London", "England", "She moved to London , England , in 1950 .", True),
        ("Tucson", "Arizona", "He taught at the university in Tucson , Arizona .", True),
        ("Lyon", "France", "Born in Lyon , France in 1901 , he later moved .", True),
        ("Paris", "Texas", "They settled in Paris, Texas.", True),
        # Controls: lists of places, a word that only begins with the container's name.
        ("Paris", "London", "He lived in Paris , London and Rome .", False),
        ("Paris", "London", "He lived in Paris , London , Rome .", False),
        ("London", "Rome", "He lived in Paris , London , Rome .", False),
        ("London", "Rome", "He lived in Berlin and London , Rome being later .", False),
        ("Tucson", "Arizona", "He worked in Tucson , Arizona , and Boston .", False),
        ("Lyon", "France", "He left Lyon , Frances said .", False),
    ],
)  # fmt: skip
def test_a_place_and_the_place_it_lies_in(
    place: str, container: str, sentence: str, one: bool
) -> None:
    assert located(place, container, sentence) is one


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Ada Lund lived where from 1950 to 1978?",
            "Lund moved to London , England , in 1950 , where she worked as a clerk until 1978 .",
            "London",
        ),
        (
            "In which city was Ivo Brandt based from 2001 to 2004?",
            "Brandt settled in Lyon , France , in 2001 and stayed there until 2004 .",
            "Lyon",
        ),
        (
            "Where was Kate Vale working from 1990 to 1995?",
            "From 1990 to 1995 , Vale worked in Cork , Ireland , as a teacher .",
            "Cork",
        ),
        (
            "Bo Vik lived where from 1930 to 1940?",
            "Vik emigrated to Perth , Australia , in 1930 and returned in 1940 .",
            "Perth",
        ),
    ],
)
def test_a_place_written_with_what_it_lies_in_is_answered(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    """The city and its country read almost alike; they are one answer, so no abstention."""
    assert short_answer(reader_with({}), question, evidence) == answer


def test_two_places_of_a_list_stay_rivals(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    """Control: a list names places that are each a guess; the reader does not pick one."""
    got = short_answer(
        reader_with({}),
        "Where did Ada Lund live from 1950 to 1978?",
        "From 1950 to 1978 , Lund moved between Paris , London , Rome .",
    )
    assert got is None


def test_a_name_with_its_rank_is_one_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    """A list row gives the commander with his rank; the parser finds the name without it.
    They are one answer, not rivals (the reader abstained on their tie), and the name answers."""
    got = short_answer(
        reader_with({}),
        "The Lindvik Military District had which person commanding it from 1953 to 1961?",
        "- 1948–1953 : Major General Per Vik",
        "- 1953–1961 : Major General Ivo Brandt",
        "- 1961–1963 : Lieutenant General Tom Reyes",
    )
    assert got == "Ivo Brandt"
