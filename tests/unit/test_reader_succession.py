"""A sentence telling of a change of hands names who left and who came beside one date: asked
what held from that date on, the one who came answers; asked what held until it, the one who
left. Shown on the roles the parse gives in many phrasings (replaced / succeeded, active and
passive, resigned, sacked, left X to join Y, a transfer from X, resigned or withdrew from X,
sold, willed, bought or inherited; the arrival, departure or sacking of X; a thing renamed),
on
sentences telling of no change, and end to end through the reader with the sides read and
without them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query import reader
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.reader_succession import COMING, LEAVING, NONE, succession_role
from tests.unit.conftest import name_tokens, short_answer

_TRANSFER = "Vik joined Kelso Rovers on a free transfer from Harlow Town in 2000 ."
_BRINK_TO_LUND = "Tomas Brink was replaced by Ada Lund as the coach of Kelso Rovers in May 2008 ."


@pytest.mark.parametrize(
    ("sentence", "name", "role"),
    [
        ("Tomas Brink resigned on 3 May 2008 , and Ada Lund came .", "Tomas Brink", LEAVING),
        ("Tomas Brink was replaced by Ada Lund in May 2008 .", "Tomas Brink", LEAVING),
        ("Tomas Brink was replaced by Ada Lund in May 2008 .", "Ada Lund", COMING),
        ("Ada Lund replaced Tomas Brink as head coach in 2008 .", "Ada Lund", COMING),
        ("Ada Lund replaced Tomas Brink as head coach in 2008 .", "Tomas Brink", LEAVING),
        ("Tomas Brink was succeeded by Ada Lund in 1991 .", "Tomas Brink", LEAVING),
        ("Tomas Brink was succeeded by Ada Lund in 1991 .", "Ada Lund", COMING),
        ("Ada Lund succeeded Tomas Brink in 1991 .", "Ada Lund", COMING),
        ("The board sacked Tomas Brink in 2008 .", "Tomas Brink", LEAVING),
        ("Tomas Brink was dismissed in March 2008 .", "Tomas Brink", LEAVING),
        ("Tomas Brink died in office in 1991 .", "Tomas Brink", LEAVING),
        ("In 2007 Mills left Harlow Town to return to Kelso Rovers .", "Harlow Town", LEAVING),
        ("In 2007 Mills left Harlow Town to return to Kelso Rovers .", "Kelso Rovers", COMING),
        (_TRANSFER, "Harlow Town", LEAVING),
        (_TRANSFER, "Kelso Rovers", COMING),
        ("In 2013 , Vik was loaned by Harlow Town to Kelso Rovers .", "Kelso Rovers", COMING),
        ("Vik signed for Kelso Rovers in 2006 .", "Kelso Rovers", COMING),
        # Resigned, withdrew, retired, was expelled from Y: Y is left.
        ("Lund resigned from the Norland Party on 15 March 1972 .", "the Norland Party", LEAVING),
        ("Before resigning from the NLP in 1972 , Lund led it .", "NLP", LEAVING),
        ("In 1980 Lund withdrew from the Labour Front .", "the Labour Front", LEAVING),
        ("Lund was expelled from the Workers Party in 1968 .", "the Workers Party", LEAVING),
        ("Lund retired from Harlow Motors in 2001 .", "Harlow Motors", LEAVING),
        # Sacked, released, dismissed, loaned by Y: the employer Y is left (for the loan).
        ("On 23 May 2014 Vik was released by Harlow Town .", "Harlow Town", LEAVING),
        ("Lund was sacked by Kelso Rovers in October 2009 .", "Kelso Rovers", LEAVING),
        ("In 1998 , Brink was dismissed by the Norland Shipping Company .",
         "the Norland Shipping Company", LEAVING),
        ("Vik was fired by Harlow Motors after two seasons in 2003 .", "Harlow Motors", LEAVING),
        ("In 2013 , Vik was loaned by Harlow Town to Kelso Rovers .", "Harlow Town", LEAVING),
        ("Lund was loaned by Varn United to a third-tier club in 2004 .", "Varn United",
         LEAVING),
        # A change of owner: the seller, giver or testator leaves, the buyer or heir comes.
        ("In 1895 Tomas Brink sold the ship to Ada Lund for 1,250 pounds .", "Tomas Brink",
         LEAVING),
        ("In 1895 Tomas Brink sold the ship to Ada Lund for 1,250 pounds .", "Ada Lund", COMING),
        ("The ship was sold to the Harlow Shipping Company in 1895 .",
         "the Harlow Shipping Company", COMING),
        ("Mrs. Brink willed the egg to the Kelso Museum of Art upon her death in 1947 .",
         "Brink", LEAVING),
        ("Mrs. Brink willed the egg to the Kelso Museum of Art upon her death in 1947 .",
         "the Kelso Museum of Art", COMING),
        ("In 1922 Ada Lund bought the ship from Tomas Brink .", "Ada Lund", COMING),
        ("In 1922 Ada Lund bought the ship from Tomas Brink .", "Tomas Brink", LEAVING),
        ("The estate was purchased in 1922 by Ada Lund , a retired captain .", "Ada Lund",
         COMING),
        ("Ada Lund inherited the house from Tomas Brink in 1960 .", "Tomas Brink", LEAVING),
        ("In 1960 Tomas Brink gave the painting to the Kelso Museum .", "the Kelso Museum",
         COMING),
        # The change named by a noun: "the arrival of X", "X's departure", "the sacking of X".
        ("With the arrival of Ada Lund as coach in October 2009 , the club recovered .",
         "Ada Lund", COMING),
        ("The appointment of Ada Lund in 2009 ended a poor run .", "Ada Lund", COMING),
        ("After the resignation of Tomas Brink in May 2008 , Lund took over .", "Tomas Brink",
         LEAVING),
        ("Tomas Brink's departure in 2008 left the club without a coach .", "Tomas Brink",
         LEAVING),
        ("The sacking of Tomas Brink in 2008 surprised the players .", "Tomas Brink", LEAVING),
        # A new name for the same thing: the old name leaves, the new one comes.
        ("The Osterby Proving Group was redesignated the Northern Armament Command on 1 July "
         "1951 .", "The Osterby Proving Group", LEAVING),
        ("The Osterby Proving Group was redesignated the Northern Armament Command on 1 July "
         "1951 .", "the Northern Armament Command", COMING),
        ("In 1925 the city of Karsk was renamed Ivograd .", "Ivograd", COMING),
        # One body turned into another: the first leaves, the second comes.
        ("The Sava Circle turned into the Varn Renewal Party in January 1990 .", "The Sava Circle",
         LEAVING),
        ("The Sava Circle turned into the Varn Renewal Party in January 1990 .",
         "the Varn Renewal Party", COMING),
        ("In 1991 the Varn Party was transformed into the Democratic Left of Varn .",
         "the Varn Party", LEAVING),
        ("In 1991 the Varn Party was transformed into the Democratic Left of Varn .",
         "the Democratic Left of Varn", COMING),
        ("The Karsk League merged into the Varn Federation in 1980 .", "The Karsk League",
         LEAVING),
        ("In 1924 Ada Lund converted the Harlow Club into the Harlow Company .", "Ada Lund", NONE),
        ("In 1924 Ada Lund converted the Harlow Club into the Harlow Company .", "the Harlow Club",
         LEAVING),
        # No change of hands told: a winner, a graduate's college.
        ("Tomas Brink won the league with Kelso Rovers in 2008 .", "Tomas Brink", NONE),
        ("Tomas Brink won the league with Kelso Rovers in 2008 .", "Kelso Rovers", NONE),
        ("Vik graduated from Harlow College in 1984 .", "Harlow College", NONE),
        # Ousted or relieved by Y: Y may be who comes, so no side is read.
        ("In 1991 Brink was ousted by Ada Lund .", "Ada Lund", NONE),
        ("Brink was relieved by Ada Lund in March 1944 .", "Ada Lund", NONE),
        # A noun of arrival or of naming that tells of no holder.
        ("The history of Kelso Rovers began in 1880 .", "Kelso Rovers", NONE),
        ("The arrival of spring in 2009 was late in Osterby .", "Osterby", NONE),
        ("The city was named after Ivo Brandt in 1925 .", "Ivo Brandt", NONE),
    ],
)  # fmt: skip
def test_the_side_a_name_takes_in_a_change_of_hands(
    nlp: Any, sentence: str, name: str, role: int
) -> None:
    doc = nlp(sentence)
    assert succession_role(doc, *name_tokens(doc, name)) == role


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Who coached Kelso Rovers from 2008 to 2010?", [_BRINK_TO_LUND], "Ada Lund"),
        (
            "Who coached Kelso Rovers from 2004 to 2008?",
            [_BRINK_TO_LUND, "Tomas Brink became the coach of Kelso Rovers ."],
            "Tomas Brink",
        ),
        (
            "Which team did Vik Holm play for from 2007 to 2010?",
            ["In 2007 , Vik Holm left Harlow Town to join Kelso Rovers ."],
            "Kelso Rovers",
        ),
        (
            "Who led Norland from 1991 to 2002?",
            ["Ada Lund was succeeded as the leader of Norland by Tomas Brink in 1991 ."],
            "Tomas Brink",
        ),
        (
            "Who led Norland from 1991 to 2002?",
            ["Ada Lund , the leader of Norland , resigned in 1991 and Tomas Brink took office ."],
            "Tomas Brink",
        ),
        (
            "Ada Lund was a member of which political party from 1972 to 1976?",
            # Both named parties: a name calling itself one counts as described.
            ["In 1972 Lund withdrew from the Norland Party and founded the Free Party ."],
            "the Free Party",
        ),
        (
            "Ivo Brandt was a member of which political party from 1972 to 1976?",
            ["In 1972 Brandt withdrew from the Farmers League and founded the Green Alliance ."],
            "the Green Alliance",
        ),
        (
            "Ivo Brandt was a member of which political party from 1972 to 1976?",
            [
                "Ivo Brandt resigned from the Farmers League in 1972 , claiming that it had "
                "lost its way .",
                "In 1972 Brandt founded the Green Alliance .",
            ],
            "the Green Alliance",
        ),
        (
            "Who coached Kelso Rovers from 2008 to 2009?",
            [
                "The board of Kelso Rovers sacked Tomas Brink in 2008 , and named Ada Lund "
                "head coach ."
            ],
            "Ada Lund",
        ),
        # The change named by a noun: the one whose arrival closes the asked span is no
        # answer (the reader abstained on the two names before).
        (
            "Who coached Kelso Rovers from 2006 to 2011?",
            ["The arrival of Ada Lund as coach in 2011 ended the five-year reign of Tomas Brink "
             "at Kelso Rovers ."],
            "Tomas Brink",
        ),
        # One body turned into another: from the change on, the new one.
        (
            "Ivo Brandt was a member of which political group from 1990 to 1992?",
            ["The Sava Association turned into the Varn National Renewal Party under the "
             "leadership of Brandt in January 1990 ."],
            "the Varn National Renewal Party",
        ),
        # Loaned by one club to another: the lending club is left.
        (
            "Which team did Vik Holm play for from 2013 to 2015?",
            ["In the summer of 2013 , Holm was loaned by Harlow Town to Kelso Rovers , "
             "extending his agreement for one more season ."],
            "Kelso Rovers",
        ),
        # A change of owner: asked from the sale on, the buyer; the seller stands nearer.
        (
            "Who owned the clipper Varn Star from 1895 to 1922?",
            ["In 1895 Tomas Brink sold Varn Star to the Portuguese firm Ada Lund for 1,250 "
             "pounds ."],
            "Ada Lund",
        ),
        (
            "Who owned the Varn estate from 1960 to 1975?",
            ["In 1960 Tomas Brink gave the Varn estate to his nephew , Ivo Lund ."],
            "Ivo Lund",
        ),
    ],
)  # fmt: skip
def test_the_side_of_the_change_the_asked_span_meets_answers(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    monkeypatch: pytest.MonkeyPatch,
    question: str,
    evidence: list[str],
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, *evidence) == answer
    # Without the sides read, the reader abstains on the tie or names the other side.
    monkeypatch.setattr(reader, "succession_role", lambda *_: NONE)
    assert short_answer(reader_with({}), question, *evidence) != answer


@pytest.mark.parametrize(
    "evidence",
    [
        ["In the summer of 2013 , Holm was loaned by Real Madrid to Cajasol Sevilla , extending"
         " his agreement for one more season .", "Holm signed for Real Madrid in 2011 ."],
        ["In the summer of 2013 , Holm was loaned by Varn United to Karsk Sevilla , extending"
         " his agreement for one more season ."],
    ],
)  # fmt: skip
def test_the_side_leaving_at_the_asked_start_begins_nothing(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], evidence: list[str]
) -> None:
    """The date that opens the asked span opens the spell of the one who comes: the club left
    then (the lender) is not credited with a spell begun at it. Before, it was, and the reader
    abstained on the two, or named the lender the parser labelled a club."""
    answer = short_answer(
        reader_with({}), "Which senior team did Vik Holm play for from 2013 to 2015?", *evidence
    )
    assert answer is not None and "Sevilla" in answer
