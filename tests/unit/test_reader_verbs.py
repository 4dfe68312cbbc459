"""A "what" question whose wh-word a verb governs ("What does the Ghost warn Scrooge about?")
is answered only from a sentence stating that verb in some form ("warned", "a warning", "the
inventor of", "wrote"): a sentence without it tells of something else done, and its names
("a solemn Phantom") answer nothing. Shown on the parse in several phrasings and end to end
through the reader, with and without a sentence that states the verb."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.question import read_question
from graphgate.query.reader_syntax import states_verb, verb_asked
from tests.unit.conftest import short_answer


@pytest.mark.parametrize(
    ("question", "verbs"),
    [
        ("What does the Ghost of Ada Marsh warn Ebenezer Lund about?", {"warn"}),
        ("What did Ines Hart invent in 1921?", {"invent"}),  # "invent" tagged a noun
        ("What did the monks translate the gospels into?", {"translate"}),
        ("What did Ines Hart found in 1921?", {"found"}),
        ("Who founded the Harbour Council?", set()),  # the verb's subject
        ("Ines Hart was employed by what from 1980 to 1986?", set()),  # the doer: a name
        ("The Iowa politician Ines Hart worked as what from 2006 to 2013?", set()),  # a role
        ("Which figure engaged in a feud with Ines Hart, who sued him?", set()),
        ("What is the capital of Norway?", set()),  # a copula governs nothing
        ("Ines Hart was the second wife of what singer?", set()),  # a noun asks, no verb
    ],
)
def test_the_verb_asked(nlp: Any, question: str, verbs: set[str]) -> None:
    parsed = read_question(question)
    assert verb_asked(nlp(question), parsed.words) == verbs


@pytest.mark.parametrize(
    ("sentence", "verb", "states"),
    [
        ("The Ghost had warned him of a visitation.", "warn", True),
        ("The council issued a warning about floods.", "warn", True),
        ("Ines Hart is the inventor of the Hart valve.", "invent", True),
        ("She wrote the novel in 1921.", "write", True),  # an irregular past, by its lemma
        ("Its translation into Latin took ten years.", "translate", True),
        ("He beheld a solemn Phantom, draped and hooded.", "warn", False),
        ("It was a good day for the monks.", "go", False),  # a short stem meets its lemma only
        ("Ines Hart studied at the Technical University of Delft.", "invent", False),
    ],
)
def test_a_sentence_states_the_verb(nlp: Any, sentence: str, verb: str, states: bool) -> None:
    assert states_verb(nlp(sentence), frozenset({verb})) is states


_CASES = [
    (
        "What does the Ghost of Ada Marsh warn Ebenezer Lund about?",
        "Ebenezer Lund looked about him for the Ghost of Ada Marsh, and beheld a solemn Phantom.",
        "The Ghost had warned Ebenezer Lund of a visitation at one o'clock.",
        "visitation",
    ),
    (
        "What did the Harbour Council warn residents about?",
        "The Harbour Council met the Riverside Trust at the Town Hall, and residents came.",
        "The council warned residents about flooding near the docks.",
        "flooding",
    ),
    (
        "What did the monks translate the gospels into?",
        "The monks of Kelso Abbey copied the gospels for the Abbot of Melrose.",
        "The gospels were translated into Latin by the monks.",
        "Latin",
    ),
    (
        "What did Ines Hart invent in 1921?",
        "Ines Hart studied at the Technical University of Delft in 1921.",
        "In 1921 Ines Hart invented the Hart valve, a pressure regulator.",
        "Hart valve",
    ),
]


@pytest.mark.parametrize(("question", "other", "stating", "answer"), _CASES)
def test_only_a_sentence_stating_the_verb_answers(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    other: str,
    stating: str,
    answer: str,
) -> None:
    reader = reader_with({})
    assert short_answer(reader, question, other, stating) == answer
    # With no sentence stating it, the other sentence's names answer nothing.
    assert short_answer(reader, question, other) is None


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (  # a typed noun is checked by its type: "designed" answers "published what work"
            "Ines Hart published what famous work from 1902 to 1906?",
            "From 1902 to 1906 Ines Hart designed the Bristol Central Library, her most famous "
            "work.",
            "Bristol Central Library",
        ),
        (  # the doer is a name, paraphrased freely: "worked at" answers "employed by what"
            "Ines Hart was employed by what from 1980 to 1986?",
            "From 1980 to 1986 Ines Hart worked at the Fairbank Center for Chinese Studies.",
            "the Fairbank Center for Chinese Studies",
        ),
        (  # a role, said in other words: "served as" answers "worked as what"
            "Ines Hart worked as what from 2006 to 2013?",
            "From 2006 to 2013 Ines Hart served as a county judge.",
            "county judge",
        ),
        (  # an irregular past states its verb
            "What did Ines Hart write in 1921?",
            "In 1921 Ines Hart wrote The Harbour Road, a novel.",
            "The Harbour Road",
        ),
    ],
)
def test_a_paraphrase_still_answers_where_no_verb_is_required(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    assert short_answer(reader_with({}), question, evidence) == answer


# A list of posts, each row a chunk of its own, as a page's list is split.
_POSTS = (
    "Ines Hart is a Dutch rower and sports official .",
    "Posts .",
    "- Harlow Rowing Club , from 3 May 1990 to 12 June 1995",
    "- Kelso Sailing Club , from 12 June 1995 to 1 July 2001",
    "- Delft Regatta Board , from 2001 to 2008",
    "She won the Delft Medal in 2004 .",
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What did Ines Hart lead from Jun 1995 to Jul 2001?", "Kelso Sailing Club"),
        ("What did Ines Hart direct from 2001 to 2008?", "Delft Regatta Board"),
        ("What did Ines Hart head from 2001 to 2008?", "Delft Regatta Board"),
        ("What did Ines Hart chair from 2010 to 2012?", None),  # no row of that time
    ],
)
def test_a_list_row_answers_though_it_states_no_verb(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    answer: str | None,
) -> None:
    """A row names and dates, and states no verb at all: the list's heading names what was
    done. Before, a "what did X lead" question skipped every row as telling of no leading."""
    assert short_answer(reader_with({}), question, *_POSTS) == answer
