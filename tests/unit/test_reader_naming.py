"""Asked what a thing was called, the name a verb of naming gives it answers, not the place or
the body beside it (query/reader_naming.py): which questions ask for a name, in many
phrasings; which names a sentence gives by naming, in active, passive, "as", "to" and
misparsed forms; and end to end through the reader, with the feature's weight and without it.
A competition, a prize or a school the parser labels a person is no person
(query/answer_type.py ``names_no_person``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import names_no_person
from graphgate.query.reader_naming import asks_name, named_as
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What official name did the Varnian Test Wing have from Oct 1942 to Oct 1943?", True),
        ("The Varnian Test Wing had been officially named what from Jul 1946 to 1948?", True),
        ("Which name was officially given to the Navy's VP-7 from Nov 1935 to Sep 1937?", True),
        ("The Lund Street station was called what from 1983 to 2004?", True),
        ("What was the 12th Patrol Squadron officially called from 1944 to 1946?", True),
        ("The governing body called Varnian Athletics had which title officially from 2001 "
         "to 2019?", True),
        ("What was the official designation of the air group from 1946 to 1958?", True),
        ("What name did the club Harlow Rovers go by from 1961 to 1975?", True),
        ("The company was renamed what in 1998?", True),
        # A name the question gives, a person's title, the name of something else.
        ("What team got coached by the man named Gary Lund from 1998 to 2000?", False),
        ("The chess player Ada Lund got what title in 1976?", False),
        ("What was the name of the band that Tom Reyes joined in 1969?", False),
        ("The egg known as Pelican was owned by whom from 1930 to 1947?", False),
        ("Which team did Tom Reyes play for from 2001 to 2005?", False),
    ],
)  # fmt: skip
def test_a_question_asks_for_a_name(question: str, asked: bool) -> None:
    assert asks_name(question) is asked


_CHAIN = (
    "The squadron was established as Patrol Squadron 7 ( VP-7 ) on 1 May 1942 , redesignated "
    "Patrol Bombing Squadron 7 on 1 October 1944 , and redesignated Patrol Squadron 12 on 15 "
    "May 1946 ."
)
_MOVED = (
    "The Osterby Proving Group was moved to Karsk Field , Osterland , and redesignated the "
    "Northern Armament Command on 1 July 1951 ."
)


@pytest.mark.parametrize(
    ("sentence", "name", "named"),
    [
        (_MOVED, "the Northern Armament Command", True),
        (_CHAIN, "Patrol Squadron 7", True),
        (_CHAIN, "Patrol Bombing Squadron 7", True),
        (_CHAIN, "Patrol Squadron 12", True),
        ("On 1 July 1951 the group was redesignated as the Northern Armament Command .",
         "the Northern Armament Command", True),
        ("In 2001 the federation changed its name to the Varnian Athletics Association .",
         "the Varnian Athletics Association", True),
        ("In 1925 the city was renamed Ivograd by the government .", "Ivograd", True),
        ("In 1993 the team became the Osterby Zephyrs and moved to Karsk .", "the Osterby Zephyrs",
         True),
        ("- Established as Varnian School of Applied Tactics on 27 October 1942",
         "Varnian School of Applied Tactics", True),
        ("On 1 October 1944 , VP-72 was redesignated VPB-122 .", "VPB-122", True),
        # Where it was, the old name, who named it, what it was named after.
        (_MOVED, "Karsk Field", False),
        (_MOVED, "Osterland", False),
        (_MOVED, "The Osterby Proving Group", False),
        ("In 1925 the city was renamed Ivograd by the government of Ivo Brandt .", "Ivo Brandt",
         False),
        ("The city was named after Ivo Brandt in 1925 .", "Ivo Brandt", False),
        ("On 27 October 1942 the Varnian Army established a school at Karsk Field .",
         "Karsk Field", False),
    ],
)  # fmt: skip
def test_the_name_a_verb_of_naming_gives(nlp: Any, sentence: str, name: str, named: bool) -> None:
    doc = nlp(sentence)
    assert named_as(doc, *name_tokens(doc, name)) is named


@pytest.mark.parametrize(
    ("question", "evidence", "answer", "without"),
    [
        # The place the thing stood at, or its old name, answered or nothing did.
        ("What was the Varnian Test Wing officially named from Jul 1951 to 1957?", _MOVED,
         "the Northern Armament Command", None),
        ("The Varnian Test Wing had which official name from Jul 1951 to 1957?",
         "On 1 July 1951 the Osterby Proving Group , based at Karsk Field in Osterland , was "
         "redesignated as the Northern Armament Command .", "the Northern Armament Command",
         None),
        ("What name did the club Harlow Rovers go by from 1961 to 1975?",
         "In 1961 the club moved to Osterby , Varnia , and became Osterby United .",
         "Osterby United", None),
        # Controls: the new name won before as well; a city's new name is a place; a title is
        # no place ("Osterby" before the title's kinds were set).
        ("The Varnian Chess Union had which title officially from 1990 to 2004?",
         "Founded in Osterby in 1990 as the Northern Chess Federation , the union took its "
         "present name in 2004 .", "the Northern Chess Federation",
         "the Northern Chess Federation"),
        ("Which name was officially given to the Lund Street station from 2004 to 2013?",
         "Opened in Brenford on 1 March 1983 , the station was renamed Harbour Gate in 2004 "
         "after the nearby Harbour Gate Mall .", "Harbour Gate", "Harbour Gate"),
        ("What was the city of Karsk officially called from 1925 to 1961?",
         "In 1925 the city was renamed Ivograd by the Varnian government in Osterby .",
         "Ivograd", "Ivograd"),
    ],
)  # fmt: skip
def test_the_name_given_answers_what_a_thing_was_called(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
    without: str | None,
) -> None:
    assert short_answer(reader_with({}), question, evidence) == answer
    assert short_answer(reader_with({"named_as": 0.0}), question, evidence) == without


@pytest.mark.parametrize(
    ("name", "no_person"),
    [
        ("La Liga", True),
        ("Copa del Rey", True),
        ("the FA Cup", True),
        ("Kelso Rovers Football Club", True),
        ("the Varnian Writers Prize", True),
        ("Osterby University", True),
        # A text's title: an encyclopaedia's section, a book in its bibliography.
        ("History of Kelso Rovers", True),
        ("List of rectors of Osterby University", True),
        ("A Timeline of the Varnian Navy", True),
        ("Bruce Arena", False),  # a surname that is a venue's noun elsewhere
        ("Liston Hale", False),  # a word holding one of them is none
        ("Ada Lund", False),
        ("Quique Sánchez Flores", False),
    ],
)
def test_a_name_of_a_competition_or_a_school_is_no_person(name: str, no_person: bool) -> None:
    assert names_no_person(name) is no_person


_CLUB = (
    "Kelso Rovers is a football club based in Harlow .\nHistory of Kelso , 1905–1985 .\n"
    "The club's first coach was appointed in 1911 ."
)
_COACHED = _CLUB + "\nTomas Brink coached Kelso Rovers from 1911 to 1914 ."


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("The football team Kelso Rovers was head coached by which person from 1911 to 1914?",
         _CLUB, None),
        ("Which person coached Kelso Rovers from 1920 to 1922?", _CLUB, None),
        # Controls: where a sentence names the coach, he answers.
        ("Which person coached Kelso Rovers from 1911 to 1914?", _COACHED, "Tomas Brink"),
    ],
)  # fmt: skip
def test_a_books_title_dated_as_a_row_is_no_person(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str | None,
) -> None:
    """Before, "History of Kelso , 1905–1985" (a bibliography's row) answered which
    person where no sentence named one: its span meets any asked time, and a row's name is
    a candidate of any type."""
    assert short_answer(reader_with({}), question, evidence) == answer
