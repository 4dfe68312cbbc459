"""A heading or a title page set in capitals names things and states nothing of them: asked
what a book says, the reader answers from its sentences, never with a name off its title page
("PATHFINDER" for "what substance in wine is harmful?"), and abstains where only the title page
was retrieved. Letters written in capitals inside a sentence ("WPSL", "NWSL") make no heading."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphgate.core.text import written_in_capitals
from graphgate.query.answer import ExtractiveAnswerer
from tests.unit.conftest import short_answer


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("PATHFINDER PHYSIOLOGY No. 1 CHILD'S HEALTH PRIMER FOR PRIMARY CLASSES", True),
        ("THE HARBOUR HEALTH PRIMER.", True),
        ("STAVE ONE: MARLEY'S GHOST", True),
        ("INDORSED BY THE SCIENTIFIC DEPARTMENT OF THE NORLAND TEMPERANCE UNION", True),
        ("WPSL ( 2011 ) , WPSL E ( 2012 ) , and NWSL ( 2013–2020 ) .", False),
        ("THAILAND – Sunday , 11:00 am ( ICT )", False),
        ("- 2014 JYP NATION - ONE MIC in Seoul", False),
        ("The NBA and the NHL both played at the arena until 1994 .", False),
        ("Alcohol is the part of wine that harms the body.", False),
    ],
)
def test_a_heading_in_capitals(text: str, heading: bool) -> None:
    assert written_in_capitals(text) is heading


_TITLE_PAGES = [
    "NORLAND READERS No. 2 THE HARBOUR HEALTH PRIMER FOR YOUNG PUPILS WITH SPECIAL REFERENCE "
    "TO THE EFFECTS OF STRONG DRINKS UPON THE BODY",
    "THE HARBOUR HEALTH PRIMER BY MARTA OSEI PUBLISHED BY KELSO BROTHERS LONDON AND LEEDS",
]
_QUESTIONS = [
    "According to the discussion of drinks in the HARBOUR HEALTH PRIMER, what substance in "
    "wine is harmful?",
    "In the HARBOUR HEALTH PRIMER, which substance in strong drinks harms the body?",
]


@pytest.mark.parametrize("title_page", _TITLE_PAGES)
@pytest.mark.parametrize("question", _QUESTIONS)
def test_a_title_page_answers_nothing(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, title_page: str
) -> None:
    reader = reader_with({})
    assert short_answer(reader, question, title_page) is None
    stated = "Alcohol is the harmful substance in wine and strong drinks."
    assert short_answer(reader, question, title_page, stated) == "Alcohol"
