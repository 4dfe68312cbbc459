"""Which date dates a candidate: the nearest one that states a time, a comma or semicolon
between them counting as a few tokens more, so that in a sentence listing several facts each
with its own dates, each fact keeps its own."""

from __future__ import annotations

from typing import Any

import pytest

from graphgate.core.dates import span_of
from graphgate.query.reader_features import dated_ends, nearest_date
from tests.unit.conftest import name_tokens

ASKED = span_of("1983", "1990")


@pytest.mark.parametrize(
    ("sentence", "name", "begins"),
    [
        # The post after the comma is dated by the span after it, not the one before.
        ("Rudd was Mayor of Lindvik from 1991 to 1996 , Chancellor of Elmsford from 1983 to "
         "1990 .", "Chancellor of Elmsford", True),
        ("Rudd was Mayor of Lindvik from 1991 to 1996 , Chancellor of Elmsford from 1983 to "
         "1990 .", "Mayor of Lindvik", False),
        ("Holm chaired the board from 1983 to 1990 ; Vik chaired it from 1991 .", "Holm", True),
        ("Holm chaired the board from 1983 to 1990 ; Vik chaired it from 1991 .", "Vik", False),
        # No comma between: the nearer date, whichever side.
        ("In 1983 Lund joined Hamar and left for Vik in 1995 .", "Hamar", True),
    ],
)  # fmt: skip
def test_a_candidate_is_dated_by_the_date_of_its_own_clause(
    nlp: Any, sentence: str, name: str, begins: bool
) -> None:
    doc = nlp(sentence)
    start, end = name_tokens(doc, name)
    assert nearest_date(doc, start, end, dated_ends(doc, ASKED))[0] is begins


@pytest.mark.parametrize(
    "sentence",
    [
        "In November 1983 , it was said that Vik would return after 15 years .",
        "After two decades , Vik returned in November 1983 .",
        "In 1983 Vik came back for a few months .",
    ],
)
def test_a_duration_is_no_date(nlp: Any, sentence: str) -> None:
    """ "15 years" is labelled a date by the parser but states no time: the date nearest
    "Vik" is the one stating a time, whatever the duration's distance."""
    doc = nlp(sentence)
    ends = dated_ends(doc, ASKED)
    assert ends and all("1983" in doc[a : b + 1].text for a, b, _ in ends)
    start, end = name_tokens(doc, "Vik")
    assert nearest_date(doc, start, end, ends) == (True, False)
