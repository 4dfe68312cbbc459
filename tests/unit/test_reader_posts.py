"""A post is written with what it is of: "Governor of South Australia", "Chancellor of the
University of Adelaide", "commander of the colonial forces in German East Africa". For a
question asking a job, a role or a position, the post with its "of" phrase is a candidate
beside the bare noun ("Governor"), and the two from one sentence are one answer, not rivals
(the reader would abstain on their tie, or answer "Governor"). Shown on candidate spans in
several phrasings, and end to end through the reader on invented people, also where one
sentence lists several posts each with its own dates ("Governor of North Vale from 1991 to
1996 , Chancellor of … from 1983 to 1990"): the asked span's post answers, not the first."""

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
        # A post of several words: "in chief", hyphenated or not.
        (
            "From 2015 to 2018 Ines Hart was editor-in-chief of the Harbour Review .",
            "editor-in-chief of the Harbour Review",
        ),
        (
            "Tom Reed was Commander in Chief of the Harbour Fleet from 1904 to 1905 .",
            "Commander in Chief of the Harbour Fleet",
        ),
        (
            "In 1950 Ada Lund became Commander-in-Chief of the Lund Navy .",
            "Commander-in-Chief of the Lund Navy",
        ),
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


# One sentence listing several posts, each with its own dates: the post asked is the one the
# asked span dates, whichever comes first in the sentence and however the span is written.
_POST_LISTS = [
    (
        "Alma Rudd",
        "Rudd was Governor of North Vale from 1991 to 1996 , Chancellor of the University "
        "of Elmsford from 1983 to 1990 and a member of the Council of the Order from 1975 "
        "to 1982 .",
        {
            (1991, 1996): "Governor of North Vale",
            (1983, 1990): "Chancellor of the University of Elmsford",
        },
    ),
    (
        "Pieter Holm",
        "Holm served as Mayor of Lindvik between 1962 and 1970 , then as Speaker of the "
        "Provincial Assembly between 1971 and 1979 .",
        {
            (1962, 1970): "Mayor of Lindvik",
            (1971, 1979): "Speaker of the Provincial Assembly",
        },
    ),
    (
        "Edith Varga",
        # The parser calls "Curator of the Museum of Modern Art" a facility, no post: not
        # solved, so the post is written as a common noun here.
        "Varga was appointed Director of the National Gallery in 2004 , having been curator "
        "of the city museum from 1995 to 2003 .",
        {
            (2004, 2009): "Director of the National Gallery",
            (1995, 2003): "curator of the city museum",
        },
    ),
]
_ASKED = [
    "{name} had what job from {start} to {end}?",
    "Which position did {name} hold from {start} to {end}?",
    "From {start} to {end}, what post did {name} have?",
]


@pytest.mark.parametrize(
    ("name", "question", "sentence", "post"),
    [
        (name, asked.format(name=name, start=start, end=end), sentence, post)
        for name, sentence, posts in _POST_LISTS
        for (start, end), post in posts.items()
        for asked in _ASKED
    ],
)
def test_a_list_of_posts_answers_the_one_its_dates_give(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    name: str,
    question: str,
    sentence: str,
    post: str,
) -> None:
    about = f"{name} is a public figure ."
    assert short_answer(reader_with({}), question, sentence, about) == post


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Tom Reyes enjoyed the rank of what in the army from 1969 to 1970?",
            [
                "In 1969 , Reyes was elevated to the rank of General and served as chief of "
                "staff until 1972 .",
                "In 1966 he was regraded to Lieutenant General .",
            ],
            "General",
        ),
        (
            "What rank did Ada Lund hold in the navy from 1990 to 1994?",
            ["Lund was promoted to the rank of Commodore in 1990 and retired in 1994 ."],
            "Commodore",
        ),
        (
            "Which position did Ivo Brandt hold in the club from 2001 to 2003?",
            ["In 2001 Brandt took the position of treasurer , which he held until 2003 ."],
            "treasurer",
        ),
    ],
)
def test_the_noun_asked_with_its_of_phrase_answers_by_the_phrase(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: list[str],
    answer: str,
) -> None:
    """ "The rank of General" for "the rank of what": General, and not a longer rank of
    another sentence ("Lieutenant General"), which a name's fuller form would be."""
    assert short_answer(reader_with({}), question, *evidence) == answer
