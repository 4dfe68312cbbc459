"""A post is written with what it is of: "Governor of South Australia", "Chancellor of the
University of Adelaide", "commander of the colonial forces in German East Africa". For a
question asking a job, a role or a position, the post with its "of" phrase is a candidate
beside the bare noun ("Governor"), and the two from one sentence are one answer, not rivals
(the reader would abstain on their tie, or answer "Governor"). Shown on candidate spans in
several phrasings, and end to end through the reader on invented people. Not solved: in a
sentence listing several posts each with its dates ("Governor of North Vale from 1991 to 1996
and Chancellor of … from 1983 to 1990") the first post may win for the second's dates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import ExpectedAnswer
from graphgate.query.reader_evidence import NOUN_PHRASE, spans
from tests.unit.conftest import short_answer

JOB = ExpectedAnswer("category", frozenset(), "job", frozenset({NOUN_PHRASE}))


@pytest.mark.parametrize(
    ("sentence", "post"),
    [
        (
            "Mitchell was Governor of South Australia from 1991 to 1996 .",
            "Governor of South Australia",
        ),
        (
            "In 1983 she became Chancellor of the University of Adelaide .",
            "Chancellor of the University of Adelaide",
        ),
        (
            "He served as commander of the colonial forces in German East Africa .",
            "commander of the colonial forces in German East Africa",
        ),
        (
            "From 2001 to 2005 , Brandt was Minister of Fisheries in the Lund cabinet .",
            "Minister of Fisheries",
        ),
        ("He was appointed Professor of Physics at Leeds in 1950 .", "Professor of Physics"),
    ],
)
def test_a_post_is_a_candidate_with_its_of_phrase(nlp: Any, sentence: str, post: str) -> None:
    found = [text for text, *_ in spans(nlp(sentence), JOB)]
    assert post in found
    assert post.split(" of ")[0] in found  # and the bare noun too


@pytest.mark.parametrize(
    ("sentence", "not_a_post"),
    [
        ("Hale was the secretary of 1922 .", "secretary of 1922"),  # a date is no "of" phrase
        ("He was President of Ghana , Togo and Benin .", "President of Ghana"),  # a list: cut
    ],
)
def test_an_of_phrase_with_a_date_or_a_comma_is_left_out(
    nlp: Any, sentence: str, not_a_post: str
) -> None:
    found = [text for text, *_ in spans(nlp(sentence), JOB)]
    assert not [text for text in found if text.startswith(not_a_post)]


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Roma Vance had what job from 1983 to 1990?",
            [
                "In 1983 Vance became Chancellor of the University of Elmsford , a post she "
                "held until 1990 .",
                "Dame Roma Vance was a lawyer , judge and state governor .",
            ],
            "Chancellor of the University of Elmsford",
        ),
        (
            "Which position did Ola Brandt hold from 2001 to 2005?",
            [
                "From 2001 to 2005 , Brandt was Minister of Fisheries in the Lund cabinet .",
                "Ola Brandt is a Norwegian politician .",
            ],
            "Minister of Fisheries",
        ),
        (
            "Tomas Kell held what role from 1994 to 1997?",
            [
                "Kell was commander of the northern fleet from 1994 to 1997 .",
                "Tomas Kell was a Danish naval officer .",
            ],
            "commander of the northern fleet",
        ),
    ],
)
def test_the_reader_answers_the_post_with_what_it_is_of(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: list[str],
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, *evidence) == answer
