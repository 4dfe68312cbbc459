"""Where the answer is written under another name: letters defined in another sentence of the
evidence ("rejoined the KSP", "the Kelso Socialist Party ( KSP )") are answered with the name
they stand for; a ship's new name ("renamed HNLMS Brink") is the ship again, no answer to who
operated it; the part after "at" of "the Kellogg School of Management at Varn University"
answers "which university"; and a noble asked by title is named with it ("Patrick, Earl of
Varn"). Shown on the functions, on the entities the parser is given by hand
(its own labels vary by model version), and end to end through the reader, with controls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_decide import defined_elsewhere, ennobled
from graphgate.query.reader_letters import spells
from graphgate.query.reader_naming import named_as
from tests.unit.conftest import labelled_candidates, name_tokens, short_answer


@pytest.mark.parametrize(
    ("letters", "name", "spelt"),
    [
        ("RNLN", "Royal Netherlands Navy", True),
        ("LSSP", "Lanka Sama Samaja Party", True),
        ("KPV", "Kelso Party of Varn", True),  # "of" gives no letter
        # Controls: a person before a party's letters; other letters; a one-word name.
        ("FDP", "Ada Lund", False),
        ("NSSP", "Lanka Sama Samaja Party", False),
        ("VK", "Kelso Varn", False),
        ("KSP", "Kelso", False),
    ],
)
def test_letters_spell_the_name_they_stand_for(letters: str, name: str, spelt: bool) -> None:
    assert spells(letters, name) is spelt


_DEFINED = "Lee first joined the Kelso Socialist Party ( KSP ) as a student in 1958 ."


@pytest.mark.parametrize(
    ("letters", "evidence", "answer"),
    [
        ("KSP", ("Lee left the NVP .", _DEFINED), "Kelso Socialist Party (KSP)"),
        ("RVN", ("In 1990 it merged with the RVN .",
                 "Varn was moved to the Royal Varnian Navy ( RVN ) ."), "Royal Varnian Navy (RVN)"),
        # Controls: defined nowhere; a person's letters, not a definition; the name is the
        # question's own (Ann Lee's party asked).
        ("KSP", ("Lee left the KSP in 1977 .",), "KSP"),
        ("KSP", ("It was led by Bo Vik ( KSP ) in 1990 .",), "KSP"),
        ("AL", ("It was won by Ann Lee ( AL ) .",), "AL"),
    ],
)  # fmt: skip
def test_letters_are_answered_with_the_name_another_sentence_defines(
    letters: str, evidence: tuple[str, ...], answer: str
) -> None:
    assert defined_elsewhere(letters, evidence, frozenset({"ann", "lee"})) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Ann Lee joined what party from 1994 to 1999?", "Kelso Socialist Party (KSP)"),
        ("Which party was the politician Ann Lee a member of from 1994 to 1999?",
         "Kelso Socialist Party (KSP)"),
    ],
)  # fmt: skip
def test_the_letters_answer_with_their_name_end_to_end(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, answer: str
) -> None:
    evidence = (
        "Shortly before the 1994 election Lee left the NVP and rejoined the KSP .",
        _DEFINED,
    )
    assert short_answer(reader_with({}), question, *evidence) == answer


@pytest.mark.parametrize(
    ("sentence", "name", "renamed"),
    [
        ("She was decommissioned in 1946 , and renamed HNLMS Brink .", "HNLMS Brink", True),
        ("In 1925 the city was renamed Ivograd by the government .", "Ivograd", True),
        ("The wing was redesignated the Northern Armament Command .",
         "the Northern Armament Command", True),
        # Controls: a post's holder named; a name the subject became; a plain object.
        ("In 1999 , Kelso Rovers named Ann Lee as their head coach .", "Ann Lee", False),
        ("In 1961 the club became Osterby United .", "Osterby United", False),
        ("She was transferred to the Royal Varnian Navy in 1946 .", "the Royal Varnian Navy",
         False),
    ],
)  # fmt: skip
def test_a_name_given_in_place_of_the_subjects_own(
    nlp: Any, sentence: str, name: str, renamed: bool
) -> None:
    doc = nlp(sentence)
    assert named_as(doc, *name_tokens(doc, name), renaming=True) is renamed


_SHIP = (
    "After the war , Varn was marked for transfer to the Royal Varnian Navy ( RVN ) .",
    "She was decommissioned in Osterby on 11 February 1946 , was recommissioned into the RVN ,"
    " and renamed HNLMS Brink .",
)


@pytest.mark.parametrize(
    "question",
    [
        "Who operated the warship HMAS Varn from Feb 1946 to 1950?",
        "The corvette HMAS Varn was operated by whom from 1946 to 1950?",
    ],
)
def test_the_ships_new_name_does_not_answer_who_operated_it(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str
) -> None:
    assert short_answer(reader_with({}), question, *_SHIP) == "Royal Varnian Navy (RVN)"


def test_the_ships_new_name_answers_what_it_was_named(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    """Control: asked what it was called, the new name is the answer."""
    question = "What was the warship HMAS Varn officially named from 1946 to 1950?"
    assert short_answer(reader_with({}), question, *_SHIP) == "HNLMS Brink"


@pytest.mark.parametrize(
    ("name", "question", "found"),
    [
        ("the Kellogg School of Management at Varn University",
         "Which university employed Ann Lee from 1979 to 1983?", "Varn University"),
        ("the Department of Physics at Kelso College",
         "Which college employed Ann Lee from 1979 to 1983?", "Kelso College"),
        # Controls: a university named whole with its place; no kind asked in either part.
        ("the University of Kelso at Osterby",
         "Which university employed Ann Lee from 1979 to 1983?",
         "the University of Kelso at Osterby"),
        ("the Kellogg School of Management at Varn University",
         "Who employed Ann Lee from 1979 to 1983?",
         "the Kellogg School of Management at Varn University"),
    ],
)  # fmt: skip
def test_the_part_after_at_of_the_kind_asked_answers(
    nlp: Any, name: str, question: str, found: str
) -> None:
    sentence = f"She served as an associate professor at {name} ( 1979–1983 ) ."
    assert labelled_candidates(nlp, sentence, [(name, "ORG")], question) == [found]


@pytest.mark.parametrize(
    ("name", "sentence", "head", "answer"),
    [
        ("Patrick", "The castle was given to Patrick , Earl of Varn .", "earl",
         "Patrick, Earl of Varn"),
        ("Thomas Brink", "It was held by Thomas Brink , 1st Duke of Kelso Vale , in 1320 .",
         "duke", "Thomas Brink, 1st Duke of Kelso Vale"),
        # Controls: no noble title asked; another's title after the name; the name inside
        # another word.
        ("Thomas Brink", "It was held by Thomas Brink , 1st Duke of Kelso .", "person",
         "Thomas Brink"),
        ("Ann", "It was given to Ann , wife of the Earl of Varn .", "earl", "Ann"),
        ("Ann", "It was given to Joann , Earl of Varn .", "earl", "Ann"),
    ],
)  # fmt: skip
def test_a_noble_asked_by_title_is_named_with_it(
    name: str, sentence: str, head: str, answer: str
) -> None:
    assert ennobled(name, sentence, head) == answer


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What Earl was the owner of the old Kelso Castle from 1346 to 1369?",
         "Patrick, Earl of Varn"),
        ("Which earl held Kelso Castle from 1346 to 1369?", "Patrick, Earl of Varn"),
        # Control: a person asked, not an earl.
        ("Who owned Kelso Castle from 1346 to 1369?", "Patrick"),
    ],
)  # fmt: skip
def test_the_earl_asked_is_answered_with_his_title(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, answer: str
) -> None:
    evidence = (
        "When John died in battle in 1346 the earldom along with Kelso Castle was given to"
        " Patrick , Earl of Varn ."
    )
    assert short_answer(reader_with({}), question, evidence) == answer
