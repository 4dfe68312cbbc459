"""The tenure reader (index/tenures.py): who held a post when, from each way a sentence says
that a holder arrived or left, with mentions as an extractor gives them."""

from __future__ import annotations

from typing import Any

import pytest

from graphgate.core.config import TruthSettings
from graphgate.core.family_match import family_matcher
from graphgate.index.tenures import revise_extraction

FAMILIES = family_matcher(TruthSettings())
NAMES = ("Ada Lund", "Bo Vik", "Kettleby", "Harbour Group")


def _read(sentence: str, relations: list[dict[str, Any]] | None = None) -> set[tuple[Any, ...]]:
    mentions = [
        {"name": n, "type": "PERSON" if " " in n else "GPE", "sentence": sentence}
        for n in NAMES
        if n in sentence
    ]
    _, out = revise_extraction(mentions, relations or [], FAMILIES)
    return {
        (r["source_name"], r["predicate"], r["target_name"], r["valid_from"], r["valid_to"])
        for r in out
        if r["predicate"] in FAMILIES.functional
    }


SUCCESSION = {("Bo Vik", "mayor_of", "Kettleby", "2006-05", None)} | {
    ("Ada Lund", "mayor_of", "Kettleby", None, "2006-05")
}


@pytest.mark.parametrize(
    "sentence",
    [
        # The five changes of the scenario grammar.
        "In May 2006, Bo Vik took over as mayor of Kettleby from Ada Lund.",
        "In May 2006, Bo Vik replaced Ada Lund as mayor of Kettleby.",
        "In May 2006, Ada Lund stepped down and Bo Vik became mayor of Kettleby.",
        "Ada Lund left the post of mayor of Kettleby in May 2006 and was succeeded by Bo Vik.",
        "Bo Vik was appointed mayor of Kettleby in May 2006, after Ada Lund resigned.",
        # Phrasings the grammar does not use.
        "Bo Vik succeeded Ada Lund as mayor of Kettleby in May 2006.",
        "Ada Lund retired as mayor of Kettleby in May 2006 and was replaced by Bo Vik.",
        "Kettleby appointed Bo Vik as its mayor in May 2006, replacing Ada Lund.",
        "In May 2006 Ada Lund resigned and Bo Vik was elected mayor of Kettleby.",
        "Following Ada Lund, Bo Vik became mayor of Kettleby in May 2006.",
    ],
)
def test_each_phrasing_of_a_change_dates_both_holders(sentence: str) -> None:
    assert _read(sentence) == SUCCESSION


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("Ada Lund resigned as mayor of Kettleby in May 2006.", (None, "2006-05")),
        ("Ada Lund stepped down as mayor of Kettleby in May 2006.", (None, "2006-05")),
        ("Ada Lund served as mayor of Kettleby until May 2006.", (None, "2006-05")),
        ("Ada Lund was mayor of Kettleby from 2001 to 2006.", ("2001", "2006")),
        ("Ada Lund has served as mayor of Kettleby since March 2001.", ("2001-03", None)),
        ("Ada Lund took office as mayor of Kettleby in March 2001.", ("2001-03", None)),
        ("Kettleby named Ada Lund as its mayor in 2001.", ("2001", None)),
        ("Kettleby's mayor, Ada Lund, opened the bridge.", (None, None)),
        ("Between 2001 and 2006 Ada Lund took on the role of mayor of Kettleby.", ("2001", "2006")),
        # Sentences shaped like TimeQA's Wikipedia text.
        ("Ada Lund ( born 12 March 1961 ) has been mayor of Kettleby since 2007.", ("2007", None)),
        (
            "In June 2012 Ada Lund became mayor of Kettleby, shortly after Bo Vik became chair.",
            ("2012-06", None),
        ),
    ],
)
def test_a_start_an_end_or_a_term_of_one_holder(sentence: str, held: tuple[Any, Any]) -> None:
    assert _read(sentence) == {("Ada Lund", "mayor_of", "Kettleby", *held)}


@pytest.mark.parametrize(
    "sentence",
    [
        "Ada Lund met the mayor of Kettleby in 2006.",  # not linked to the post
        "Ada Lund was a director of Harbour Group.",  # one of several
        "Ada Lund and Bo Vik became mayor of Kettleby in 2006.",  # two incoming: abstain
        "The mayor of Kettleby, Ada Lund, met the chair of Harbour Group, Bo Vik.",  # two posts
        "Ada Lund served as vice president of Harbour Group.",  # another post
        "Ada Lund was minister-president of Kettleby.",
        # The post she held names no organisation; the one that does is not linked to her.
        "Ada Lund served as mayor until 2006 when she left Kettleby to become the chair of "
        "Harbour Group.",
    ],
)
def test_what_it_cannot_read_as_one_post_it_leaves_alone(sentence: str) -> None:
    assert _read(sentence) == set()


def test_extractor_facts_are_stored_by_family_and_replaced_where_the_reader_reads() -> None:
    sentence = "Harbour Group has its chief executive officer Bo Vik."
    relation = {
        "source_name": "Bo Vik",
        "target_name": "Harbour Group",
        "predicate": "officer_of",  # the parser's head noun
        "kind": "svo",
        "sentence": "Bo Vik is chief executive officer of Harbour Group since 2012.",
        "valid_from": "2012",
        "valid_to": None,
    }
    # The reader reads no post in this sentence: the parser's fact stays, under its family.
    assert _read(sentence, [relation]) == {
        ("Bo Vik", "chief_executive_of", "Harbour Group", "2012", None)
    }
    llm = {**relation, "predicate": "stepped_down_as_ceo_of", "valid_from": "2019"}
    assert _read(sentence, [llm]) == {
        ("Bo Vik", "chief_executive_of", "Harbour Group", None, "2019")
    }
    owns = {**relation, "source_name": "Harbour Group", "target_name": "Bo Vik"}
    owns["predicate"] = "has_ceo"  # the company's side: stored from the holder
    assert _read(sentence, [owns]) == {
        ("Bo Vik", "chief_executive_of", "Harbour Group", "2012", None)
    }


def test_a_heading_is_never_the_start_of_the_sentence_under_it() -> None:
    from graphgate.index.extract_nlp import text_blocks

    text = "# Kettleby news\n\nIn January 2011, Ada Lund stepped down."
    assert text_blocks(text) == [
        ("# Kettleby news", True),
        ("\nIn January 2011, Ada Lund stepped down.", False),
    ]
    # A document's title line over its text, but no line wrapped inside a paragraph.
    titled = "Kettleby news\n\nIn 2011 Ada left."
    assert text_blocks(titled, titled=True)[0] == ("Kettleby news", True)
    wrapped = "Ada Lund met the mayor\nBo Vik at the harbour.\n\nShe left."
    assert text_blocks(wrapped, titled=True) == [(wrapped, False)]
    assert text_blocks(titled) == [(titled, False)]  # not a document's first chunk


def test_a_one_word_place_is_no_holder() -> None:
    sentence = "Bo Vik returned to Kettleby to accept an appointment as mayor of Harbour Group."
    assert _read(sentence) == {("Bo Vik", "mayor_of", "Harbour Group", None, None)}
