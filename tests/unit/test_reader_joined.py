"""Names the small parser cuts or invents: a person's name cut at its particle ("Ernst" and
"Klercker" of "Ernst af Klercker") is one candidate; so is a body named after the two places
or people it joins ("the Stockton and Darlington Railway"), or a name cut before the proper
noun it modifies ("Michigan" of "Michigan State"); a word written without a capital
("militärområdet") is no name, whatever label the parser gives it; a name the sentence leaves
out ("except Altmark") is no candidate; and the question's own name written with its company
form ("Varn TV Company Limited") is not its answer. Shown on the entities the parser is given
by hand (its own labels vary by model version), with controls that stay apart, and end to end
through the reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from tests.unit.conftest import labelled_candidates, short_answer


@pytest.mark.parametrize(
    ("sentence", "labelled", "found"),
    [
        ("- 1942–1947 : Major General Ernst af Klercker",
         [("Ernst", "PERSON"), ("Klercker", "PERSON")], ["Ernst af Klercker"]),
        ("In 1871 Otto von Bismarck became chancellor .",
         [("Otto", "PERSON"), ("Bismarck", "PERSON")], ["Otto von Bismarck"]),
        ("The prize went to Lena van der Berg in 1990 .",
         [("Lena van", "PERSON"), ("Berg", "PERSON")], ["Lena van der Berg"]),
        # Controls: two people joined by "and"; a person "de" a place is no one person.
        ("The prize went to Ann Lee and Bo Vik in 1990 .",
         [("Ann Lee", "PERSON"), ("Bo Vik", "PERSON")], ["Ann Lee", "Bo Vik"]),
        ("The prize went to Ann Lee de Paris in 1990 .",
         [("Ann Lee", "PERSON"), ("Paris", "GPE")], ["Ann Lee"]),
    ],
)  # fmt: skip
def test_a_persons_name_cut_at_its_particle_is_one_name(
    nlp: Any, sentence: str, labelled: list[tuple[str, str]], found: list[str]
) -> None:
    assert labelled_candidates(nlp, sentence, labelled, "Which person won the prize?") == found


@pytest.mark.parametrize(
    ("sentence", "labelled", "whole", "one"),
    [
        ("He worked on the Stockton and Darlington Railway in 1830 .",
         [("Stockton", "GPE"), ("Darlington Railway", "ORG")],
         "Stockton and Darlington Railway", True),
        ("It ran on the -gauge Plynlimon and Hafan Tramway in Wales .",
         [("Plynlimon", "PERSON"), ("Hafan Tramway", "PERSON")],
         "Plynlimon and Hafan Tramway", True),
        ("He joined the Brown & Williamson Tobacco Company in 1950 .",
         [("Brown", "PERSON"), ("Williamson Tobacco Company", "ORG")],
         "Brown & Williamson Tobacco Company", True),
        # Controls: no "the" before them (two bodies); no body's word at the end.
        ("He worked for IBM and General Electric Company in 1950 .",
         [("IBM", "ORG"), ("General Electric Company", "ORG")],
         "IBM and General Electric Company", False),
        ("He worked for the Varn Group and Harlow Motors in 1950 .",
         [("the Varn Group", "ORG"), ("Harlow Motors", "ORG")],
         "the Varn Group and Harlow Motors", False),
    ],
)  # fmt: skip
def test_a_body_named_after_the_two_it_joins_is_one_name(
    nlp: Any, sentence: str, labelled: list[tuple[str, str]], whole: str, one: bool
) -> None:
    candidates = labelled_candidates(nlp, sentence, labelled, "Which company ran it in 1950?")
    assert (whole in candidates) is one
    if not one:
        assert all(name in candidates for name, _ in labelled)


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        ("militärområdet", False),
        ("Militärområdet", True),
        ("גדליה", True),  # a script without case: no capital to show
    ],
)
def test_a_word_without_a_capital_is_no_name(nlp: Any, word: str, kept: bool) -> None:
    sentence = f"It succeeded the District ( I . {word} ) created in 1942 ."
    found = labelled_candidates(nlp, sentence, [(word, "PERSON")], "Which person led it in 1946?")
    assert (word in found) is kept


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which person commanded the Varn Military District from 1946 to 1947?",
         "Ernst af Klercker"),
        ("Who was in command of the Varn Military District from 1943 to 1945?",
         "Ernst af Klercker"),
    ],
)  # fmt: skip
def test_a_rows_name_with_a_particle_answers_whole(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, answer: str
) -> None:
    """The row's person is answered whole, not as the half the parser labelled, and not as a
    lower-case word of a closer sentence that the parser took for a person."""
    evidence = (
        "The Varn Military District succeeded the I Military District ( I . militärområdet )"
        " created in 1942 , but that district did not have the same tasks .",
        "- 1942–1947 : Major General Ernst af Klercker",
        "- 1947–1947 : Major General Carl August Ehrensvärd",
    )
    assert short_answer(reader_with({}), question, *evidence) == answer


@pytest.mark.parametrize(
    "question",
    [
        "Varn TV had what owning it from Aug 1995 to Aug 2002?",
        "Who owned the broadcaster Varn TV from 1995 to 2002?",
    ],
)
def test_the_subject_written_with_its_company_form_is_not_the_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str
) -> None:
    """ "Varn TV Company Limited" is the question's own "Varn TV", however close it stands to
    the question's words: the owner answers."""
    evidence = (
        "Varn TV Company Limited , formerly known as Karsk Television , was founded on August 3"
        " , 1995 by the Lodavia Media Group ."
    )
    assert short_answer(reader_with({}), question, evidence) == "the Lodavia Media Group"


@pytest.mark.parametrize(
    ("sentence", "name", "kept"),
    [
        ("It comprised the March of Varn ( except Altmark ) from 1815 .", "Altmark", False),
        ("All clubs , excluding Kelso Rovers , joined the league in 1990 .", "Kelso Rovers",
         False),
        # Controls: the name before "except", a name after another word.
        ("It comprised the March of Varn ( except Altmark ) from 1815 .", "Varn", True),
        ("It comprised the March of Varn ( with Altmark ) from 1815 .", "Altmark", True),
    ],
)  # fmt: skip
def test_a_name_the_sentence_excepts_is_no_candidate(
    nlp: Any, sentence: str, name: str, kept: bool
) -> None:
    """ "All but X": the sentence says its fact of everything but the name after "except"."""
    found = labelled_candidates(nlp, sentence, [(name, "GPE")], "Which country did it belong to?")
    assert (name in found) is kept


@pytest.mark.parametrize(
    ("sentence", "labelled", "found"),
    [
        ("Lund became head coach of Kelso State prior to the 1995 season .",
         ("Kelso", "GPE"), "Kelso State"),
        ("In 1990 he signed for Harlow Town on a free transfer .", ("Harlow", "GPE"),
         "Harlow Town"),
        ("She was born in Varn Oblast in 1950 .", ("Varn", "GPE"), "Varn Oblast"),
        # Controls: a post ("Interior Minister"); a word of a name the parser labelled; the
        # modified noun in lower case.
        ("The Varn Interior Minister resigned in 1990 .", ("Varn Interior", "ORG"),
         "Varn Interior"),
        ("He joined Kelso in 1990 with Harlow Town .", ("Kelso", "GPE"), "Kelso"),
        ("He coached the Kelso team in 1995 .", ("Kelso", "GPE"), "Kelso"),
    ],
)  # fmt: skip
def test_a_name_cut_before_its_last_word_is_made_whole(
    nlp: Any, sentence: str, labelled: tuple[str, str], found: str
) -> None:
    question = "Which team did Lund coach in 1995?"
    assert labelled_candidates(nlp, sentence, [labelled], question)[0] == found
