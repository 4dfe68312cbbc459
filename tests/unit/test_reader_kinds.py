"""Of which kind a candidate is, beyond its entity label (query/reader_syntax.py
``names_itself``; query/answer_type.py ``names_a_post`` for a post asked or an employer
asked, and the "where" of work and study):
each shown on several phrasings with invented names, and end to end through the reader, where
the answer changes with the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query import reader
from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import (
    asks_post,
    expected_answer,
    names_a_post,
    names_other_kind,
)
from graphgate.query.question import read_question
from graphgate.query.reader_syntax import names_itself
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("sentence", "name", "head", "named"),
    [
        ("The painting was bought by the National Gallery in 1842.", "National Gallery",
         "gallery", True),
        ("In 1998 she joined the Party for Progress and Renewal, a centrist group.",
         "Party for Progress and Renewal", "party", True),
        ("The cave has been listed as a National Historic Site since 1993.",
         "National Historic Site", "site", True),
        ("From 1956 the team played in the Class B Western League.", "Class B Western League",
         "league", True),
        # Headed by a noun of the asked kind: a league is a division, a club a team.
        ("From 1960 the Dukes played in the Class D Sophomore League.",
         "Class D Sophomore League", "division", True),
        ("In 1990 he joined the Harlow Rowing Club.", "Harlow Rowing Club", "team", True),
        ("In 2001 she won the Varnian Book Prize.", "Varnian Book Prize", "award", True),
        # Not one of another kind: a league is no team, a stadium no school.
        ("From 1960 the Dukes played in the Class D Sophomore League.",
         "Class D Sophomore League", "team", False),
        ("In 1990 the final was held at the Karsk Stadium.", "Karsk Stadium", "school", False),
        # A school is no university (before, with them one kind, "Sehwa Girls High School"
        # tied with the university asked).
        ("In 1980 she finished Karsk Girls High School.", "Karsk Girls High School",
         "university", False),
        # The bare noun, a name only beside it, or a name of another head is none.
        ("The painting hung in the gallery of Castle Varn until 1900.", "the gallery",
         "gallery", False),
        ("The painting hung in the gallery of Castle Varn until 1900.", "Castle Varn",
         "gallery", False),
        ("Site Manager Ivo Brandt left the works in 2019.", "Ivo Brandt", "site", False),
        ("The Gallery Orchestra toured Norway in 1990.", "The Gallery Orchestra", "gallery",
         False),
        # Headed by a noun for a person, a title or an award, never the person asked.
        ("Mara Quinn won the award for Outstanding Supporting Actress in 2005.",
         "Outstanding Supporting Actress", "actress", False),
        ("In 1990 the Senior Engineer of the line resigned.", "Senior Engineer", "engineer",
         False),
        # A state named as one, for "which country" or "which empire": an empire is a country.
        ("He was born in Karsk , then part of the Varnian Empire .", "Varnian Empire",
         "country", True),
        ("From 1348 the town belonged to the Pskov Republic .", "Pskov Republic", "nation",
         True),
        ("In 1815 the province joined the United Kingdom .", "United Kingdom", "empire", True),
        ("He moved to the Grand Duchy of Varn in 1900 .", "Grand Duchy", "country", True),
        ("He moved to Karsk County in 1900 .", "Karsk County", "country", False),
    ],
)  # fmt: skip
def test_a_name_headed_by_the_asked_noun_is_of_the_kind_asked(
    nlp: Any, sentence: str, name: str, head: str, named: bool
) -> None:
    """ "What gallery": "the National Gallery" is one, whatever its sentence calls it."""
    doc = nlp(sentence)
    assert names_itself(doc, *name_tokens(doc, name), head) is named


@pytest.mark.parametrize(
    ("name", "post"),
    [
        ("the Chief Mechanical Engineer", True),
        ("Deputy Leader", True),
        ("Prime Minister", True),
        ("the Minister of Finance", True),
        ("Commander in Chief", True),
        ("Minister for Defence", True),
        ("the Secretary for Railways", True),
        ("the 13th Premier of Queensland", True),
        ("US Congressman", True),
        ("Alderman for the Ward of Cheap", True),
        ("the University of Miami", False),
        ("the Centre for Economic Policy", False),
        ("the Party for Progress and Citizenship", False),
        ("youngest child of Harold and Maude Mitchell", False),  # kin, no post
        ("the wife of Ivo Brandt", False),
        ("the Royal Engineers", False),  # a body of them
        ("the Great Western Railway", False),
        ("Lumen Optical Company", False),
        ("", False),
    ],
)
def test_a_name_ending_in_a_noun_for_a_person_is_a_post(name: str, post: bool) -> None:
    assert names_a_post(name) is post


@pytest.mark.parametrize(
    ("question", "organisation"),
    [
        ("Where did Ivo Brandt work from 1990 to 1995?", True),
        ("The engineer Ada Lund was an employee of where from 1908 to 1912?", True),
        ("Mara Quinn studied where from 1979 to 1980?", True),
        ("Where was Tom Reyes employed in 2004?", True),
        ("Where did the painter Bo Vik teach from 1963 to 1978?", True),
        ("Where was Ada Lund educated?", True),
        ("Where was the capital of the Varn kingdom from 1599 to 1613?", False),
        ("Where did Ivo Brandt live from 1990 to 1995?", False),
        ("Where was Mara Quinn born?", False),
        ("Where was Tom Reyes working from 1990 to 1992?", True),
        # A word of work modifying a noun asks no workplace: the parse tells it apart.
        ("Where were the working locations of the designer Ivo Brandt before 1870?", False),
        ("Where was the working group on tides based in 1990?", False),
        ("Where was the training camp of Harlow Town in 2004?", False),
    ],
)
def test_where_one_worked_or_studied_prefers_an_organisation_as_much_as_a_place(
    question: str, organisation: bool, nlp: Any
) -> None:
    """An employer or a school answers "where did X work / study" as well as its town; where
    X lived, was born, or a capital stood, a place answers first."""
    expected = expected_answer(read_question(question), nlp(question))
    assert expected.kind == "place"
    assert ("ORG" in expected.preferred) is organisation
    assert "GPE" in expected.preferred


def test_a_post_labelled_an_organisation_is_no_employer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], monkeypatch: Any
) -> None:
    """The parser labels "the Chief Mechanical Engineer" and "CME" organisations. Asked where
    Lund was employed, the post is no answer: the reader abstains between the town and the
    railway rather than name it. Control: read as an organisation, the post answers."""
    question = "The engineer Ada Lund was an employee of where from 1901 to 1908?"
    evidence = (
        "In 1901 Lund became the Chief Mechanical Engineer ( CME ) at Swindon , on the Great "
        "Western Railway ."
    )
    assert short_answer(reader_with({}), question, evidence) is None
    monkeypatch.setattr(reader, "names_a_post", lambda _: False)
    assert short_answer(reader_with({}), question, evidence) == "Chief Mechanical Engineer (CME)"


@pytest.mark.parametrize(
    ("question", "dated"),
    [
        ("Which academy did Ivo Brandt join in Jun 1960?", False),
        ("Which league did Harlow Town play in from 1994 to 1997?", False),
        ("What award did Mara Quinn win in 2004?", False),
        # A date is no name and no title.
        ("The chess player Ada Lund got what title in 1962?", False),
        ("Which name was officially given to the squadron from 1935 to 1937?", False),
        ("The Varnian Test Wing had been officially named what from Jul 1946 to 1948?", False),
        # A stretch of time may be named by a date; a noun of no type asks anything.
        ("Which season did Tom Reyes debut in?", True),
        ("Which era did the Varn kingdom flourish in?", True),
        ("What did Ada Lund found?", True),
        ("Which season from 1990 to 1995 did Tom Reyes debut in?", True),
        # Unless the question gives the time: a date there is the question's own ("July
        # 2015" for what job was held from Jul 2015 to Dec 2015).
        ("What did Ada Lund found in 1908?", False),
        ("Catalan Ada Lund had what titled job from Jul 2015 to Dec 2015?", False),
        ("The Varnian league Karsk what what person chairing it from Feb 2012 to Feb 2018?", False),
    ],
)
def test_a_date_answers_no_noun_but_one_of_time(question: str, dated: bool, nlp: Any) -> None:
    expected = expected_answer(read_question(question), nlp(question))
    assert ("DATE" in expected.labels) is dated


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        # A military formation, a body: before, a noun of no type (a place beside it rivalled
        # "the NATO Military Committee").
        ("Erich Lund was made a part of which unit from Aug 1958 to Dec 1961?", "ORG"),
        ("What fleet operated the warship HMVS Karsk from Feb 1945 to Feb 1946?", "ORG"),
        ("Which academy did the physicist Ada Lund join in Jun 1960?", "ORG"),
        ("What gallery owned the painting The Blue Mill from 1842 to 1843?", "ORG"),
        ("Which progressive rock supergroup did the organist Bo Vik join in 1970?", "ORG"),
        # Where work was done: a place, not an event in its sentence.
        ("What was the workplace locale of the Marxist Ivo Brandt from 1906 to 1916?", "GPE"),
    ],
)
def test_a_noun_of_a_body_or_a_place_asks_for_one(question: str, labels: str, nlp: Any) -> None:
    expected = expected_answer(read_question(question), nlp(question))
    assert labels in expected.labels
    assert "DATE" not in expected.labels
    assert "EVENT" not in expected.labels


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("Who was football team Harlow Town's coach from Feb 2009 to Oct 2009?", "coach"),
        ("Who was the coach of the Varnian club FC Karsk from 2015 to 2017?", "coach"),
        ("Who was the head trainer of the team 1. FC Lyra in Nov 2019?", "trainer"),
        ("Who is the author of Harbour Lights?", "author"),
        ("Who was the manager of Harlow Town in 1998?", "manager"),
        # Controls: a deed asks a person or a body; so do nouns a body may be.
        ("Who acquired Blue Harbour Systems in 2016?", None),
        ("Who coached FC Karsk from 1983 to 1984?", None),
        ("Who was the owner of Blue Harbour Systems from 2011 to 2016?", None),
        ("Who was the successor of the Harbour Council?", None),
        ("Who was the main sponsor of FC Karsk in 2010?", None),
    ],
)
def test_who_a_copula_says_is_a_person(question: str, head: str | None, nlp: Any) -> None:
    """ "Who was X's coach" asks a person: its noun is the kind asked; "Who acquired X" asks a
    person or a body, as before. A name labelled an organisation stays a candidate either way
    (the small parser labels many a person's name so)."""
    expected = expected_answer(read_question(question), nlp(question))
    assert expected.head == head
    assert {"PERSON", "ORG"} <= expected.labels


@pytest.mark.parametrize(
    ("head", "name", "other"),
    [
        ("coach", "FC Lyra", True),
        ("coach", "La Liga", True),
        ("trainer", "the Harlow Town Football Club", True),
        ("actress", "the Karsk Film Award", True),
        ("team", "Southern League", True),  # as before
        # Controls: a person's name, and a team asked.
        ("coach", "Ivo Brandt", False),
        ("manager", "Bo Arena", False),  # "Arena" is a surname too
        ("team", "FC Lyra", False),
        # A state is no team, a stadium no country; a state is a country.
        ("team", "the Varnian Empire", True),
        ("country", "Karsk Stadium", True),
        ("country", "the Kingdom of Varn", False),
        ("country", "Varnia", False),
    ],
)
def test_a_name_of_a_club_or_a_competition_is_no_person(head: str, name: str, other: bool) -> None:
    assert names_other_kind(head, name) is other


@pytest.mark.parametrize(
    "question",
    [
        "The chess player Ada Lund got what title in 1962?",
        "What title did the wrestler Tom Reyes win in Apr 1998?",
        "Which title was Ivo Brandt awarded in 1971?",
    ],
)
def test_a_title_is_no_person_and_no_place(question: str, nlp: Any) -> None:
    """A rank, a post or a championship: a name labelled a person or a place is none, nor a
    number ("nearly 300")."""
    expected = expected_answer(read_question(question), nlp(question))
    assert expected.head == "title"
    assert not expected.labels & {"PERSON", "GPE", "LOC", "FAC", "DATE", "CARDINAL"}
    assert "ORG" in expected.labels


@pytest.mark.parametrize(
    ("question", "post"),
    [
        ("What role did Ada Lund have from 1999 to 2002?", True),
        ("Tom Reyes had what profession from 1980 to 1983?", True),
        ("What office did Ivo Brandt hold from 1969 to 1974?", True),
        ("Which post did Bo Vik hold from 1990 to 1994?", True),
        ("Mara Quinn worked in what job from 1996 to 1999?", True),
        ("What position did Tom Reyes play from 2001 to 2005?", False),
        ("What genre did Bo Vik paint in?", False),
    ],
)
def test_a_question_asks_for_a_post(question: str, post: bool) -> None:
    assert asks_post(expected_answer(read_question(question)), question) is post


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        # A name of the kind asked over the place beside it. Before: a country, the subject's
        # own other name, or none.
        ("The Varn Cave was designated what heritage site from 1994 to 2001?",
         "The Varn Cave is a protected monument in Norway , and has been listed as a National "
         "Historic Site since 1994 .", "National Historic Site"),
        ("Which heritage site was the Tarn Cave listed as from 1994 to 2001?",
         "The Tarn Cave ( Cueva del Tarn ) is a natural monument in Chile , and has been listed "
         "as a Regional Historic Site since 1994 .", "Regional Historic Site"),
        ("The Kessel ridge was designated what nature reserve from 1994 to 2001?",
         "The Kessel ridge lies in Bavaria and was declared a Landscape Protection Reserve in "
         "1994 .", "Landscape Protection Reserve"),
        ("What gallery owned the painting The Blue Mill from 1842 to 1843?",
         "In 1842 the painting The Blue Mill was bought by the National Gallery in London .",
         "the National Gallery"),
        # Where one studied or worked: a school or an employer against its town (before:
        # Boston, Paris): now the school, or no answer where the town and the employer are as
        # near (the employer being what TimeQA asks).
        ("Where did Mara Quinn study from 1979 to 1983?",
         "In 1979 Quinn went to Boston to study law at Harlow University .",
         "Harlow University"),
        ("The engineer Ada Lund was an employee of where from 1908 to 1912?",
         "In 1908 , Lund left to work in Paris with the French division of the Lumen Optical "
         "Company as a test engineer .", None),
        # A post for what role was held. Before: "Labours electoral victory", no answer,
        # "death", "new battle plan", "party's landslide": a common noun nearer the date or the
        # question's words.
        ("What role did Ada Lund have from 1999 to 2002?",
         "Labours electoral victory in 1999 resulted in Lund becoming Minister of Finance .",
         "Minister of Finance"),
        ("Tom Reyes had what profession from 1980 to 1983?",
         "Reyes was a faculty member at Harlow College from 1980 to 1988 where he taught "
         "physics , public policy and religion courses .", "faculty member"),
        ("What office did Ivo Brandt hold from 1969 to 1974?",
         "Brandt served as President of Varnia from 1969 until his death in 1974 .",
         "President of Varnia"),
        ("What job did Mara Quinn have from 1996 to 1999?",
         "In 1996 Quinn drew up a new battle plan and was made Commander in Chief of the "
         "Northern Army .", "Commander in Chief of the Northern Army"),
        ("Which post did Bo Vik hold from 1990 to 1994?",
         "In 1990 , after the party's landslide , Vik was appointed Secretary of the Treasury .",
         "Secretary of the Treasury"),
        # A date is of no kind a noun like "academy" or "league" names. Before: the birth
        # date, its sentence the nearer the question; the league as before.
        ("Which academy did the Australian-born physicist Ivo Brandt join in Jun 1960?",
         "Ivo Brandt ( born 11 July 1916 in Cairns ) was an Australian-born physicist known "
         "for his work on lasers . In 1960 , he became a member of the Norwegian Academy of "
         "Sciences and was elected academician in 1966 .", "the Norwegian Academy of Sciences"),
        ("Which league did the club Harlow Town play in from 1994 to 1997?",
         "Harlow Town , founded on 4 May 1994 , is a football club from Essex . From 1994 the "
         "club played in the Isthmian League until its promotion in 1997 .",
         "the Isthmian League"),
        # A title is no date, and "the title of X" calls X one. Before: no answer, the birth
        # date a rival; the second as before.
        ("The Varnian chess player Ada Lund got what title in 1962?",
         "Ada Lund ( 20 November 1934 – 30 August 1995 ) was a Varnian chess player . She was "
         "awarded the title of International Grandmaster by FIDE in 1962 and won at Karsk in "
         "1962 .", "International Grandmaster"),
        ("The chess player Ivo Brandt earned what title in 1971?",
         "Ivo Brandt ( born 3 May 1950 in Karsk ) is a Varnian chess player . In 1971 Brandt "
         "earned the title of International Master , and in 1975 FIDE made him a Grandmaster .",
         "International Master"),
        # A place on a team is no post: the striker, not the captain (as before).
        ("What position did Tom Reyes play from 2001 to 2005?",
         "From 2001 to 2005 Reyes played as a striker for Harlow Town , where he was also "
         "captain .", "striker"),
    ],
)  # fmt: skip
def test_the_kind_asked_decides_the_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str | None,
) -> None:
    assert short_answer(reader_with({}), question, evidence) == answer


@pytest.mark.parametrize(
    "question",
    [
        "Which country did the chemist Ivo Brandt hold citizenship in from 1903 to 1918?",
        "What country was the town of Karsk a part of from 1887 to 1917?",
        "Karsk belonged to which nation from 1890 to 1910?",
    ],
)
def test_a_country_asked_is_answered_by_the_state_named_one(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str
) -> None:
    """ "Which country": the state the evidence names as one ("the Varnian Empire"), not the
    town or the province written closer to the question's words."""
    evidence = (
        "Ivo Brandt was born in 1903 in Karsk , Lodavia ( then part of the Varnian Empire ) to"
        " a family of merchants ."
    )
    assert short_answer(reader_with({}), question, evidence) == "the Varnian Empire"
