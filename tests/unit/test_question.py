"""The question as query/ reads it: its words, the time it asks about, its kind."""

from __future__ import annotations

from typing import Any

import pytest

from graphgate.core.errors import InputError
from graphgate.query.question import Question, kind_of, plain_question, read_question


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("How many films did Ridley Scott direct?", "count"),
        ("how much did the stadium cost to build", "count"),
        ("What is the number of moons of Mars?", "count"),
        ("List the founders of Acme.", "list"),
        ("Name all the Cratchit children.", "list"),
        ("Did Alice Smith found Acme Corporation?", "yes_no"),
        ("Are both bands from Seattle?", "yes_no"),
        ("Is the tower taller than the bridge?", "yes_no"),
        ("When was the company founded?", "when"),
        ("Where is the headquarters of Acme?", "where"),
        ("Who employs Bob Cratchit?", "who"),
        ("Whose ghost visits Scrooge first?", "who"),
        ("Which is older, the bridge or the tower?", "which"),
        ("How did Scrooge change?", "how"),
        ("What does the Ghost of Jacob Marley warn Scrooge about?", "what"),
        ("In 1998, Acme was founded by whom?", "who"),
        ("Tell me about Acme.", "other"),
        # Shapes seen in HotpotQA and MultiHop-RAG: the question is not the first clause.
        ("After the report by The Age on 22 October 2023, was the coverage fair?", "yes_no"),
        ("The director holds an OBE. Does the other director hold one too?", "yes_no"),
        ("Jagdish Mali, known for portraits of actors, is father to which actress?", "which"),
        ("The Blue Lacy and the Chesapeake Bay Retriever, are both from which century?", "which"),
        # An auxiliary that opens a title, not a question: the wh-phrase that ends it asks.
        ("Do Lafzon Ki Kahani, a remake of Always, was released in which year?", "which"),
        ("Is This It, the debut album of The Strokes, was produced by whom?", "who"),
        ("Did You Ever Have to Make Up Your Mind? was recorded where?", "where"),
        ("Are You Experienced was released by which label?", "which"),
        # An abbreviation's or an initial's period ends no sentence: the auxiliary after it
        # opens none.
        ("The rowing club Lyra R.C. was coached by whom from 1990 to 1994?", "who"),
        ("Kettering Athletic F.C. were managed by which person from 2001 to 2003?", "which"),
        ("The mission to the U.S. was led by who from 2009 to 2016?", "who"),
        ("The band was founded by Ada J. Lund in 1998. Was it signed in 1999?", "yes_no"),
        # Nor does a name's title or suffix.
        ("Rush Dew Holt Jr. had what profession from 1980 to 1983?", "what"),
        ("Ada Lund Sr. was the coach of which team in 1999?", "which"),
        ("The painting was sold by Dr. Ines Hart, and St. Kilda was bought by whom?", "who"),
        ("The band was managed by Tom Reed Jr. Did it tour Japan?", "yes_no"),
        # A request asks for what it names; a title's "!" before a lower-case word ends no
        # sentence.
        ("Can you name the country a town called Lund belonged to from 1136 to 1348?", "what"),
        ("Will you identify the band which Ada Lund joined in 1975?", "what"),
        ("Name the music group that Tom Reed joined in 1973?", "what"),
        ("Could you please identify the club Ada Lund coached in 2001?", "what"),
        ("Ich bin ein Star – Holt mich hier raus! had which host in 2012?", "which"),
        ("Yahoo! was bought by whom in 2017?", "who"),
        ("Can you name a song?", "what"),
        ("Can you swim across the Lund river?", "yes_no"),
        ("The band won the cup! Did it keep the cup?", "yes_no"),
        # A relative wh-word after a noun asks nothing: the wh-phrase that ends the question
        # does.
        ("Ada Lund was a biographer of a painter who was a member of what art school?", "what"),
        ("Ezra Hale is a consultant who has worked with the mayor of what city?", "what"),
        ("The band which formed in 1981 was signed by which label?", "which"),
        ("Mina Sato founded a studio where Tom Reed worked in what year?", "what"),
        ("Who founded the studio where Tom Reed worked?", "who"),
        ("Which painter who studied in Lyon founded the school?", "which"),
        # A relative wh-word inside a yes/no question does not end it.
        ("Is Ada Lund the painter who founded the Lyon school?", "yes_no"),
        ("Did the band which formed in 1981 tour Japan?", "yes_no"),
    ],
)
def test_the_kind_of_question_comes_from_its_wording(text: str, kind: str) -> None:
    assert kind_of(text) == kind


def test_the_text_is_read_once_into_words_time_and_routing() -> None:
    q = read_question("How many employees did Acme have in 2016?")
    assert {"employee", "acme"} <= q.words and "how" not in q.words  # lemmas, no stopwords
    assert q.time is not None and q.time.label == "in 2016"
    assert q.kind == "count" and q.asks_for_rows
    assert not read_question("Who founded Acme?").asks_for_rows


def test_as_of_overrides_and_a_default_only_fills_in() -> None:
    named = "Who led Acme from 2004 to 2005?"
    overridden = read_question(named, as_of="2010").time
    assert overridden is not None and overridden.label == "as of 2010"
    kept = read_question(named, default_as_of="2010").time
    assert kept is not None and kept.label == "from 2004 to 2005"
    filled = read_question("Who led Acme?", default_as_of="2010").time
    assert filled is not None and filled.label == "as of 2010"
    assert read_question("Who led Acme?").time is None


def test_a_bad_time_is_an_input_error_naming_the_fix() -> None:
    with pytest.raises(InputError, match="earlier date first"):
        read_question("Who led Acme from 2005 to 2004?")
    with pytest.raises(InputError, match="as_of"):
        read_question("Who led Acme?", as_of="the day after tomorrow")
    # An external retriever's result carries text only: its question is read without error.
    assert plain_question("Who led Acme from 2005 to 2004?").time is None


def test_a_question_without_an_index_has_no_links() -> None:
    with pytest.raises(ValueError, match="without an index"):
        _ = read_question("Who founded Acme?").links


def test_two_questions_are_embedded_at_once_not_one_after_the_other() -> None:
    """A question's readings are its own: two requests embed their questions side by side
    (functools.cached_property on Python 3.11 held one lock across every question)."""
    import threading
    from types import SimpleNamespace

    import numpy as np

    both_inside = threading.Barrier(2, timeout=5)

    class Embedder:
        def embed(self, texts: list[str]) -> np.ndarray:
            both_inside.wait()  # returns only once the other question is being embedded too
            return np.ones((len(texts), 3), dtype=np.float32)

    index: Any = SimpleNamespace(embedder=Embedder(), store=None, linker=None)
    questions = [read_question(t, index) for t in ("Who founded Acme?", "Where is Acme?")]
    errors: list[BaseException] = []

    def embed(question: Question) -> None:
        try:
            _ = question.vector
        except threading.BrokenBarrierError as exc:  # the other question never came in
            errors.append(exc)

    threads = [threading.Thread(target=embed, args=(q,)) for q in questions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert errors == []
    assert all(q.vector.shape == (3,) for q in questions)


@pytest.mark.parametrize(
    ("name", "given"),
    [
        ("GMMTV Company Limited", True),
        ("the Varn Shipping Co.", True),
        ("Löw", True),
        ("varn shipping company", True),
        # Controls: a longer name, another name.
        ("Varn Shipping Lines", False),
        ("Harlow Town", False),
    ],
)
def test_a_name_the_question_gives_is_known_by_its_key(name: str, given: bool) -> None:
    """A name the question writes, or whose key (no article, company form, accents or case)
    it writes as whole words, is the question's own."""
    question = plain_question(
        "Who owned GMMTV and the Varn Shipping Company when Joachim Löw came?"
    )
    assert question.names(name) is given
