"""A name the sentence sets its subject against ("scored against Kelso Rovers", "the final
versus Ajax", "beat Kelso Rovers", "hammered by Kelso Rovers") is an opponent: no answer to
"which team did X play for", the answer to "which team did X beat". Shown on the parse in
several phrasings, on questions that do and do not ask after an opponent, and end to end
through the reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_syntax import asks_opponent, opposed
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("sentence", "name", "against"),
    [
        ("Holm scored his third goal against Kelso Rovers in 2008 .", "Kelso Rovers", True),
        ("In 2009 , Holm scored in the final versus Kelso Rovers .", "Kelso Rovers", True),
        ("Harlow Town won 2–0 against Kelso Rovers .", "Kelso Rovers", True),
        ("Harlow Town won 2–0 against Kelso Rovers .", "Harlow Town", False),
        ("Holm signed for Kelso Rovers in 2006 .", "Kelso Rovers", False),
        ("Holm played for Kelso Rovers in the league .", "Kelso Rovers", False),
        ("His first game was a 2–2 home draw with Kelso Rovers .", "Kelso Rovers", True),
        ("Harlow Town sealed a 3–0 victory over Kelso Rovers in 2009 .", "Kelso Rovers", True),
        ("Holm trained with Kelso Rovers for two seasons .", "Kelso Rovers", False),
        ("After a heavy loss to Kelso Rovers , Holm resigned .", "Kelso Rovers", True),
        ("A 1–3 defeat to Kelso Rovers ended the run .", "Kelso Rovers", True),
        ("Holm moved to Kelso Rovers in 2009 .", "Kelso Rovers", False),
        ("Harlow Town won the league with Kelso Rovers second .", "Kelso Rovers", False),
        # The object of a verb of beating, or its passive's agent.
        ("In the cup they beat Kelso Rovers in the final .", "Kelso Rovers", True),
        ("Harlow Town defeated Kelso Rovers on 3 May 2009 .", "Kelso Rovers", True),
        ("On 21 October , Harlow were hammered 4–0 by Kelso Rovers .", "Kelso Rovers", True),
        ("Kelso Rovers were eliminated by Harlow Town in 2009 .", "Harlow Town", True),
        # Controls: the subject that beat; a passive's agent of another verb; another object.
        ("Kelso Rovers beat Harlow Town in the final .", "Kelso Rovers", False),
        ("In 2009 Holm was signed by Kelso Rovers .", "Kelso Rovers", False),
        ("In 2009 Holm joined Kelso Rovers .", "Kelso Rovers", False),
        # "Face" in its sense of place: a building facing a street is set against nothing.
        ("The new library , then facing Lund Street , opened in 1886 .", "Lund Street", False),
        ("The hotel faces Kelso Bay and the old harbour .", "Kelso Bay", False),
        ("Holm was appointed manager of Harlows National League rivals Kelso Rovers on 28 May"
         " 2015 .", "Kelso Rovers", False),
    ],
)  # fmt: skip
def test_a_name_set_against_the_subject(nlp: Any, sentence: str, name: str, against: bool) -> None:
    doc = nlp(sentence)
    assert opposed(doc, *name_tokens(doc, name)) is against


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which team did Harlow Town beat in the 2009 final?", True),
        ("Who did Holm score against in 2009?", True),
        ("Which club was Harlow Town's opponent in the final?", True),
        ("Who defeated Kelso Rovers in 2009?", True),
        ("Which team did Holm face in his first match?", True),
        ("What team did Holm play for from 2008 to 2011?", False),
        ("Which club did Holm coach in 2009?", False),
    ],
)
def test_a_question_asking_after_an_opponent(question: str, asks: bool) -> None:
    assert asks_opponent(question) is asks


def test_an_opponent_is_no_team_of_the_player(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    question = "What team did the footballer Vik Holm play for from 2008 to 2011?"
    evidence = (
        "Vik Holm scored his third goal of the season against Kelso Rovers on 7 December 2008 "
        ", and Harlow Town went on to win 3–2 ."
    )
    assert short_answer(reader_with({}), question, evidence) == "Harlow Town"
    # Read as any name, the opponent ties with the team, and the reader abstains.
    monkeypatch.setattr("graphgate.query.reader.opposed", lambda doc, start, end: False)
    assert short_answer(reader_with({}), question, evidence) is None


def test_an_opponent_answers_a_question_after_one(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    question = "Which team did Harlow Town beat in the 2009 cup final?"
    evidence = "In the 2009 cup final , Harlow Town won 2–0 against Kelso Rovers ."
    assert short_answer(reader_with({}), question, evidence) == "Kelso Rovers"
