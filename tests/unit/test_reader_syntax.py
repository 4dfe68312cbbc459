"""What the reader reads from a sentence's parse (query/reader_syntax.py) and the answer types
read from the question's wording (query/answer_type.py), each shown on several phrasings with
invented names, and end to end through the reader where a rival stands closer to the question's
words than the answer does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import NUMBERS, expected_answer, names_other_kind
from graphgate.query.question import read_question
from graphgate.query.reader_letters import abbreviates, defined_name
from graphgate.query.reader_syntax import (
    asked_by,
    asked_end,
    described_as,
    end_value,
    group_asked,
    life_end,
    prominence,
    range_end,
    wh_governors,
)
from tests.unit.conftest import name_tokens, short_answer


def test_a_name_that_only_modifies_the_noun_is_not_called_it(nlp: Any) -> None:
    """ "The FC Lyra coach Ivo Brandt": the club modifies "coach" but is no coach; it counts
    as described only where a modifier may be (the Moretti crime family), never to relabel."""
    doc = nlp("The FC Lyra coach Ivo Brandt left the club in 2019.")
    club = name_tokens(doc, "FC Lyra")
    assert described_as(doc, *club, "coach") is True
    assert described_as(doc, *club, "coach", modifier=False) is False


@pytest.mark.parametrize(
    ("sentence", "name", "called"),
    [
        ("Holm played for six NFL teams , mostly as a back-up .", "NFL", False),
        ("Kelso Rovers is one of the Premier League clubs in Varn .", "Premier League", False),
        # Controls: one team so modified; names joined before the plural are each one.
        ("He joined the Kelso Rovers team in 1990 .", "Kelso Rovers", True),
        ("They met the Lakota and Dakota Sioux teams in 1990 .", "Lakota", True),
    ],
)
def test_one_name_before_a_plural_is_not_called_one_of_them(
    nlp: Any, sentence: str, name: str, called: bool
) -> None:
    """ "Six NFL teams" are the NFL's teams: the NFL is no team, even where a modifier may
    describe the name ("the Kelso Rovers team")."""
    doc = nlp(sentence)
    head = "club" if "clubs" in sentence else "team"
    assert described_as(doc, *name_tokens(doc, name), head) is called


@pytest.mark.parametrize(
    "sentence",
    [
        "Britain's first ski jumper, Ada Lund, appears on the show.",
        "The team's coach, Ivo Brandt, left in 2019.",
        "Their new drummer, Tom Reyes, joined in 2004.",
    ],
)
def test_a_name_set_beside_the_noun_is_called_it(nlp: Any, sentence: str) -> None:
    """ "The ski jumper, Ada Lund,": an apposition calls the name the noun, also where a mere
    modifier would not count."""
    doc = nlp(sentence)
    head = sentence.split(",")[0].split()[-1]
    name = sentence.split(", ")[1]
    assert described_as(doc, *name_tokens(doc, name), head, modifier=False) is True
    assert described_as(doc, *name_tokens(doc, name), "singer", modifier=False) is False


@pytest.mark.parametrize(
    ("sentence", "name", "head", "said"),
    [
        ("Mara Quinn is a Canadian actress known for her role as Ellen Park.", "Mara Quinn",
         "actress", True),
        ("Mara Quinn is a Canadian actress known for her role as Ellen Park.", "Ellen Park",
         "actress", False),
        ("Tom Reyes is best known as the founder of the band Velvet Orchard.", "Velvet Orchard",
         "band", True),
        ("Tom Reyes is best known as the founder of the band Velvet Orchard.", "Tom Reyes",
         "band", False),
        ("Jon Alder, an Argentine footballer, joined the club in 2006.", "Jon Alder",
         "footballer", True),
        ("He was tied to the Moretti crime family for a decade.", "Moretti", "family", True),
        ("Ivo Brandt was a poet and a novelist from Graz.", "Ivo Brandt", "novelist", True),
        ("Ivo Brandt was a poet and a novelist from Graz.", "Graz", "novelist", False),
        # A noun's "of" giving its own name; a relation's "of" gives another thing.
        ("He was awarded the title of International Grandmaster by FIDE in 1962.",
         "International Grandmaster", "title", True),
        ("In 1701 the duchy became the Kingdom of Varnia.", "Varnia", "kingdom", True),
        ("The family moved to the city of Karsk in 1863.", "Karsk", "city", True),
        ("She held the office of Lord Mayor until 1990.", "Lord Mayor", "office", True),
        ("Ivo Brandt became the coach of Kelso Rovers in 2009.", "Kelso Rovers", "coach", False),
        ("Karsk became the capital of Varnia in 1920.", "Varnia", "capital", False),
    ],
)  # fmt: skip
def test_a_sentence_calls_its_subject_what_is_asked(
    nlp: Any, sentence: str, name: str, head: str, said: bool
) -> None:
    doc = nlp(sentence)
    assert described_as(doc, *name_tokens(doc, name), head) is said


@pytest.mark.parametrize(
    ("sentence", "date", "end"),
    [
        ("Ada Lund (3 May 1931 – 9 October 2004) was a painter.", "3 May 1931", "birth"),
        ("Ada Lund (3 May 1931 – 9 October 2004) was a painter.", "9 October 2004", "death"),
        ("Bo Vik (born 12 June 1945) is a Swedish printmaker.", "12 June 1945", "birth"),
        ("Bo Vik moved to Malmö on 12 June 1945 with his family.", "12 June 1945", None),
    ],
)
def test_a_lifespan_date_is_read_as_the_end_it_gives(
    nlp: Any, sentence: str, date: str, end: str | None
) -> None:
    doc = nlp(sentence)
    assert life_end(doc, *name_tokens(doc, date)) == end


def test_the_question_asks_for_an_end_of_a_life_only_in_lower_case() -> None:
    assert asked_end("When was Ada Lund born?") == "birth"
    assert asked_end("In which year did the painter die?") == "death"
    assert asked_end('When was "Natural Born Killers" released?') is None


@pytest.mark.parametrize(
    ("sentence", "name", "asked", "governed"),
    [
        ("It was founded by Rita Moss in 1992.", "Rita Moss", {"network", "founded"}, True),
        # A question word that only names the candidate is no relation to it: "concerns from a
        # news publisher" asks about another party than "the publisher Helena Chronicle".
        ("The case was filed by the publisher Helena Chronicle.", "Helena Chronicle",
         {"concerns", "publisher"}, False),
        ("She is the second wife of Ivo Brandt.", "Ivo Brandt", {"second", "wife", "singer"},
         True),
        ("He was a two-time Pro Bowl selection.", "two-time", {"selected", "times"}, False),
        ("It was founded by Rita Moss, who was born in Lyon.", "Lyon", {"network", "founded"},
         False),
        ("Rita Moss, whose brother is Ivo Brandt, founded it.", "Ivo Brandt",
         {"network", "founded"}, False),
    ],
)  # fmt: skip
def test_a_word_of_the_question_governs_the_candidate(
    nlp: Any, sentence: str, name: str, asked: set[str], governed: bool
) -> None:
    doc = nlp(sentence)
    assert asked_by(doc, *name_tokens(doc, name), frozenset(asked)) is governed


@pytest.mark.parametrize(
    ("question", "governors"),
    [
        ("Who directed the film that was shot in Lyon in 1986?", {"directed"}),
        ("Harbor Lights is on a network founded by who?", {"founded"}),
        ("Ada Lund was a biographer of a killer who was associated with members of what crime "
         "family?", {"member"}),
        ("Tom Reyes is a consultant who has worked with the mayor of what city?", {"mayor"}),
        ("Ivo Brandt was a painter known for his depictions of what?", {"depiction"}),
        ("Mina Sato was awarded what in 2004?", {"awarded"}),
        # A copula governs nothing: every word of a long question would govern otherwise.
        ("Which company, reported by both Lyon Daily and Harbor Post, is the largest?", set()),
        ("What is the capital of Norland?", set()),
    ],
)  # fmt: skip
def test_the_question_word_is_governed_by_the_words_that_ask_it(
    nlp: Any, question: str, governors: set[str]
) -> None:
    """Only the word that governs the question word asks for the candidate ("founded by who"):
    a relative pronoun's verb ("a killer who was associated") does not."""
    read = read_question(question)
    assert wh_governors(read.parse(lambda: nlp), read.words) == governors


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Who directed the horror film that was shot around Lyon in 1986?",
         ("Night Ward, starring Tom Reyes, is a 1986 horror film directed by Ada Lund.",),
         "Ada Lund"),
        ("Who coached the team that won the cup in 1979?",
         ("The Lyon Hawks, captained by Ivo Brandt, won the cup in 1979 and were coached by "
          "Mina Sato.",),
         "Mina Sato"),
        ("Ivo Brandt was a painter known for his depictions of what?",
         ("Ivo Brandt (1921 – 2013) was an Austrian painter known for his precise depictions "
          "of harbour cranes.", "Brandt lived in Vienna and Trieste."),
         "harbour cranes"),
        ("Rita Moss was a singer known for her recordings of what?",
         ("Rita Moss (1930 – 1999) was an Irish singer known for her early recordings of sea "
          "shanties.", "Moss lived in Cork."),
         "sea shanties"),
    ],
)  # fmt: skip
def test_the_word_that_asks_picks_the_candidate_it_governs(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: tuple[str, ...], answer: str,
) -> None:  # fmt: skip
    """Two candidates in one sentence, as near the question's words: the one the question's
    asking word governs there ("directed by Ada Lund", "depictions of harbour cranes")."""
    assert short_answer(reader_with({}), question, *evidence) == answer
    assert short_answer(reader_with({"asked_by": 0.0}), question, *evidence) != answer


# -- the answer types ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("head", "name", "other"),
    [
        ("team", "Southern League", True),
        ("team", "the Northern Premier Division", True),
        ("club", "Harbour Road Stadium", True),
        ("team", "Lyon State University", True),
        ("league", "Harlow Rovers Club", True),
        # The last word of a kind says what it is, wherever it stands.
        ("team", "the Conference National", True),
        ("team", "Stadium of Light", True),
        ("team", "University of Lyon", True),
        ("college", "University of Lyon", False),
        ("team", "Lyon Rovers Football Club", False),
        ("team", "Harlow Town", False),
        ("team", "Lyon Hawks", False),
        ("division", "Lake Shore League", False),
        ("school", "Hale College", False),
        ("party", "Workers' Federation", False),  # a party may be called anything
        ("company", "Lund Stadium", False),  # a company of no listed kind: the name says nothing
        # Competitions named in other languages, and awards, are no team.
        ("team", "Coppa Varnia", True),
        ("team", "Ligue 2", True),
        ("team", "Serie B", True),
        ("team", "the 2. Bundesliga", True),
        ("team", "Harlow Player of the Year Award", True),
        ("team", "Varn Sportsman of the Year Trophy", True),
        ("cup", "Coppa Varnia", False),
        ("award", "the Harlow Medal", False),
        ("team", "Liga Deportiva Varnia", False),  # "Liga" opens clubs' names too
    ],
)
def test_a_name_that_declares_another_kind_is_not_the_kind_asked(
    head: str, name: str, other: bool
) -> None:
    assert names_other_kind(head, name) is other


@pytest.mark.parametrize(
    ("coach", "team", "league"),
    [
        ("Ada Lund", "Harlow", "Southern League"),
        ("Tom Reyes", "Kettering", "Northern Premier League"),
        ("Ivo Brandt", "Lyon Hawks", "Central Conference"),
        ("Mara Quinn", "Lyon Rovers", "Ligue 2"),
        ("Bo Vik", "Harlow Town", "Coupe de Varnia"),
    ],
)
def test_which_team_is_not_answered_by_the_league_it_played_in(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], coach: str, team: str,
    league: str,
) -> None:  # fmt: skip
    question = f"Which team did {coach} coach from 2001 to 2003?"
    evidence = (f"From 2001 to 2003 {coach} coached {team} in the {league}.",)
    assert short_answer(reader_with({}), question, *evidence) == team


@pytest.mark.parametrize(
    "question",
    [
        "At the 2011 census, what was the population of the town where Ada Lund was born?",
        "What is the seating capacity of the stadium the Lyon Lions play in?",
        "What was the attendance at the final held in Graz?",
    ],
)
def test_a_head_noun_of_an_amount_asks_for_a_number(nlp: Any, question: str) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert expected.kind == "number"
    assert expected.labels == NUMBERS


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("What is the name of the pop band founded by one of the film's stars?", "band"),
        ("What was the title of the album Tom Reyes released in 1999?", "album"),
        ("What is the name of the river that runs through Graz?", "river"),
        # A name the parse runs the asked noun into is not the noun asked.
        ("From which university Ada Marie Lund was an employee from 1990 to 1995?", "university"),
        ("At which company Tom Henry Reyes was an engineer from 2001 to 2004?", "company"),
        ("Which baseball League did the Hawks play in from 1902 to 1962?", "league"),
        # A request asks for the thing it names.
        ("Name the country that the town of Lund belonged to from 1918 to 1944?", "country"),
        ("Will you identify the band which Ada Lund joined in 1975?", "band"),
        ("Can you name the club did Tom Reyes coach in 2001?", "club"),
    ],
)
def test_the_name_of_a_thing_asks_for_that_thing(nlp: Any, question: str, head: str) -> None:
    read = read_question(question)
    assert expected_answer(read, read.parse(lambda: nlp)).head == head


@pytest.mark.parametrize(
    ("question", "kind", "head"),
    [
        # A month after "what" is the asked time, not the noun asked.
        ("The Lund Rowing Club had been officially named what from Jul 1946 to 1948?",
         "phrase", None),
        ("The Vale Tramway was renamed what from Dec 1957 to Aug 1968?", "phrase", None),
        # "X of what": X is asked; a possessor's name is not ("Ada Lund's title").
        ("Tom Reyes enjoyed the rank of what in the army from 1968 to 1969?", "category",
         "rank"),
        ("What was the politician Ada Lund's title from Jun 1998 to Jul 2005?", "phrase",
         "title"),
        # A post or an office held is a common noun asked, as a job is.
        ("Which post did Mara Quinn hold from 1983 to 1990?", "category", "post"),
        ("What office did Ivo Brandt hold from 2001 to 2005?", "category", "office"),
    ],
)  # fmt: skip
def test_the_noun_asked_is_neither_a_time_nor_a_possessor(
    nlp: Any, question: str, kind: str, head: str | None
) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert (expected.kind, expected.head) == (kind, head)


@pytest.mark.parametrize(
    ("question", "head", "label"),
    [
        # A noun for a person asks for a person, whatever the person's post or tie.
        ("The quiz show Lucky Door had which host or hosts from 2004 to 2012?", "host", "PERSON"),
        ("Vale University had what rector from 1991 to 1993?", "rector", "PERSON"),
        ("Which Habsburg ruler owned the Lund Altarpiece from 1516 to 1530?", "ruler", "PERSON"),
        ("Which Earl owned Tarn Castle from 1313 to 1332?", "earl", "PERSON"),
        ("Which public figure was seen with the Hawks' tight end?", "figure", "PERSON"),
        ("Ivo Brandt was married to which spouse in 1990?", "spouse", "PERSON"),
        # A noun for a body of people asks for an organisation.
        ("Ada Lund became a part of which association in 1983?", "association", "ORG"),
        ("Tom Reyes became part of what org. in 2010?", "org", "ORG"),
        ("Which political faction was Ivo Brandt affiliated with from 1963 to 1990?",
         "faction", "ORG"),
        ("Which railway operated the Lund Line from 1927 to 1995?", "railway", "ORG"),
    ],
)  # fmt: skip
def test_a_noun_for_a_person_or_a_body_asks_for_one(
    nlp: Any, question: str, head: str, label: str
) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert (expected.kind, expected.head, label in expected.labels) == ("entity", head, True)
    assert ("PERSON" in expected.labels) is (label == "PERSON")


@pytest.mark.parametrize(
    ("question", "kind", "head"),
    [
        ("Mara Quinn coaches at a college which also runs a campus in which Oregon city?",
         "place", "city"),
        ("The band which Ivo Brandt founded was signed by what record label?", "entity", "label"),
        ("Ivo Brandt played for a club which later moved to which stadium?", "phrase", "stadium"),
        ("The novel which Mara Quinn wrote in 1990 was published in which city?", "place",
         "city"),
        ("Lena Holt taught at a school which has a sister campus in what Texas town?", "place",
         "town"),
        # No relative clause before it: the first wh-word still asks.
        ("What was the profession of Amy Quill, whose life was the subject of a film?",
         "category", "profession"),
    ],
)  # fmt: skip
def test_a_relative_which_yields_to_the_wh_phrase_ending_the_question(
    nlp: Any, question: str, kind: str, head: str
) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert (expected.kind, expected.head) == (kind, head)


@pytest.mark.parametrize(
    ("question", "nationality"),
    [
        ("What genre is the author of the story associated with?", False),
        ("Which 1988 Telugu comedy had music by Ana Lopez?", False),
        ("What position did the receiver of the award play?", False),
        ("What do Ada Lund and Bo Vik have in common?", True),
        ("What nationality were both of the founders?", True),
    ],
)
def test_a_nationality_answers_only_when_one_is_asked(
    nlp: Any, question: str, nationality: bool
) -> None:
    read = read_question(question)
    assert ("NORP" in expected_answer(read, read.parse(lambda: nlp)).labels) is nationality


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Which came first, the forming of The Exies or the birth of Bo Vik?", ("The Exies",
         "Bo Vik")),
        ("Which came first the founding of Acme or the birth of Ada Lund?", ("Acme",
         "Ada Lund")),
        ("Little Caesars and Pizza Hut opened in the 1950s. Which was the first to sell pizza?",
         ("Little Caesars", "Pizza Hut")),
        ("Acme and Globex were founded in Lyon. Which one is older?", ("Acme", "Globex")),
        # The names are not compared when the clause that joins them is the question itself.
        ("Which was the first film by Ada Lund and Bo Vik?", ()),
        ("Ada Lund and Bo Vik met in Lyon. Which city did they move to?", ()),
    ],
)  # fmt: skip
def test_options_named_by_an_event_or_an_earlier_clause(
    question: str, options: tuple[str, ...]
) -> None:
    assert expected_answer(read_question(question)).options == options


# -- end to end: the rival stands nearer the question's words ----------------------------------
@pytest.mark.parametrize(
    ("actor", "role", "head"),
    [
        ("Mara Quinn", "Ellen Park", "actress"),
        ("Ivo Brandt", "Karl Lenz", "actor"),
        ("Sun Li", "Dora Vance", "actress"),
    ],
)
def test_which_actress_is_answered_by_whom_the_sentence_calls_one(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], actor: str, role: str,
    head: str,
) -> None:  # fmt: skip
    question = f'Harbor Lights starred which Canadian {head}, known for a role on "Night Ward"?'
    evidence = (
        f'{actor} is a Canadian {head} known for the role of {role} on "Night Ward".',
        f"Harbor Lights is a 2009 drama film starring {actor}.",
    )
    assert short_answer(reader_with({}), question, *evidence) == actor


@pytest.mark.parametrize(
    ("question", "person", "evidence"),
    [
        ("The show Lucky Door had which host from 2004 to 2012?", "Mara Quinn",
         ("Lucky Door is a game show broadcast by Nordvision from 2004 to 2012 .",
          "From 2004 to 2012 the show was hosted by Mara Quinn .")),
        ("The show Quiz Hour had which host from 2004 to 2012?", "Tom Reyes",
         ("Quiz Hour is a game show broadcast by Radio Lyra from 2004 to 2012 .",
          "From 2004 to 2012 the show was presented by Tom Reyes .")),
        ("Vale University had what rector from 1991 to 1993?", "Ada Lund",
         ("Vale University was founded in 1991 by the Open Society Institute .",
          "Ada Lund served as its rector from 1991 to 1993 .")),
        ("Vale University had what rector from 1991 to 1993?", "Karl Lenz",
         ("Vale University was founded in 1991 by the Open Society Institute .",
          "Karl Lenz served as its rector from 1991 to 1993 .")),
    ],
)  # fmt: skip
def test_a_host_or_a_rector_is_a_person_not_the_body_nearer_the_question(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, person: str,
    evidence: tuple[str, str],
) -> None:  # fmt: skip
    """The broadcaster and the founder share the question's words and dates; only the person
    holds the post asked."""
    assert short_answer(reader_with({}), question, *evidence) == person


@pytest.mark.parametrize(
    ("band", "rival", "city"),
    [
        ("Woeful Dawn", "Ironhand", "Aarhus"),  # left unlabelled by the parser
        ("Merciful Kin", "Steelgate", "Odense"),  # labelled a person
        ("Hollow Crown", "Ironhand", "Aalborg"),
    ],
)
def test_which_band_is_answered_by_the_name_the_sentence_calls_one(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], band: str, rival: str,
    city: str,
) -> None:  # fmt: skip
    question = f"Which Danish heavy metal band from {city} released a compilation of demos?"
    evidence = (
        f"{rival} is an American heavy metal band from Ohio.",
        f"{band} is a Danish heavy metal band from {city}, formed in 1984 by singer Kim Holm.",
    )
    assert short_answer(reader_with({}), question, *evidence) == band


@pytest.mark.parametrize(
    ("show", "person", "noun"),
    [
        ("The Snow Games", "Tomas Brenn", "ski jumper"),
        ("Ice Trials", "Ada Lund", "speed skater"),
        ("Peak Week", "Ezra Hale", "mountaineer"),
    ],
)
def test_a_noun_of_no_known_type_is_answered_by_what_the_evidence_calls_one(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], show: str, person: str,
    noun: str,
) -> None:  # fmt: skip
    question = (
        f"{show} is a British television series that follows celebrities as they learn winter "
        f"sports; which British {noun} appears live on the show?"
    )
    evidence = (
        f"{show} is a British television series that follows celebrities as they learn winter "
        "sports such as the Skeleton, Bobsleigh and Ski Cross.",
        f"Britain's first Olympic {noun}, {person}, appears live on the show every week.",
    )
    assert short_answer(reader_with({}), question, *evidence) == person


@pytest.mark.parametrize(
    ("name", "born", "died"),
    [("Ada Lund", "1931", "2004"), ("Ezra Hale", "1887", "1975"), ("Mina Sato", "1902", "1969")],
)
def test_born_and_died_read_the_two_ends_of_a_lifespan(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], name: str, born: str,
    died: str,
) -> None:  # fmt: skip
    evidence = f"{name} (3 May {born} – 9 October {died}) was a painter who led the Lyon academy."
    answerer = reader_with({})
    assert short_answer(answerer, f"In what year was the painter {name} born?", evidence) == born
    assert short_answer(answerer, f"In what year did the painter {name} die?", evidence) == died


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("How many times was Jon Alder selected for the Pro Bowl?",
         "Jon Alder (born 30 January 1977) is a former cornerback. He was a two-time Pro Bowl "
         "selection.", "two-time"),
        ("How many times did Ada Lund win the Lyon Prize?",
         "Ada Lund won the Lyon Prize twice, in 1960 and in 1964.", "twice"),
    ],
)  # fmt: skip
def test_how_many_times_is_answered_by_a_word_of_times(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: str, gold: str,
) -> None:  # fmt: skip
    assert short_answer(reader_with({}), question, evidence) == gold


@pytest.mark.parametrize(
    ("question", "counted"),
    [
        ("The singer of Night Ward has sold more than how many records worldwide?", "record"),
        ("How many goals did Ivo Brandt score for FC Lyra?", "goal"),
        ("How many full-time employees does the firm Ada Lund founded have?", "employee"),
        ("How much money did Harbor Lights earn?", "money"),
        ("How many were there?", None),
    ],
)
def test_how_many_asks_for_a_number_of_the_noun_it_counts(
    nlp: Any, question: str, counted: str | None
) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert expected.kind == "number" and expected.head == counted


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("The singer of Night Ward has sold more than how many records worldwide?",
         ('"Night Ward" is a song by Mara Quinn that reached number three in 14 countries.',
          "Mara Quinn has sold more than 30 million records worldwide."), "30 million"),
        ("How many goals did Ivo Brandt score for FC Lyra in 2009?",
         ("Ivo Brandt played 12 matches for FC Lyra in 2009, wearing the number 7 shirt.",
          "He scored 5 goals for FC Lyra that year."), "5"),
        ("How many employees did Harbor Foods have in 2015?",
         ("Harbor Foods ran 40 stores across 3 states in 2015.",
          "In 2015 the company had 2,100 employees."), "2,100"),
    ],
)  # fmt: skip
def test_a_number_of_what_is_counted_answers_over_other_numbers(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: tuple[str, str], gold: str,
) -> None:  # fmt: skip
    short = short_answer(reader_with({}), question, *evidence)
    assert short is not None and gold in short


@pytest.mark.parametrize(
    "evidence",
    [
        "Jon Alder (born January 30, 1977) is a former cornerback who played in the league.",
        "Ada Lund (3 May 1931 – 9 October 2004) won the Lyon Prize.",
    ],
)
def test_the_day_and_year_of_a_date_count_nothing(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], evidence: str
) -> None:
    """A sentence with no number but a date: its digits are no answer to "how many"."""
    question = "How many seasons did Jon Alder play, and how many prizes did Ada Lund win?"
    assert short_answer(reader_with({}), question, evidence) is None


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("Harbor Lights originally premiered on which date?",
         "Harbor Lights is a drama series that originally aired from September 23, 1962, and "
         "was revived with new episodes in 1987.", "September 23, 1962"),
        ("On what date was the Lyon Prize first awarded?",
         "The Lyon Prize, endowed in 1950, was first awarded on 3 May 1954.", "3 May 1954"),
    ],
)  # fmt: skip
def test_which_date_is_answered_by_a_day_not_a_year(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, evidence: str,
    gold: str,
) -> None:  # fmt: skip
    assert short_answer(reader_with({}), question, evidence) == gold


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What position did the winner of the 2009 Lyon Cup play?", "category"),
        ("What was the profession of Ada Lund, whose life was filmed in Graz?", "category"),
        ("What type of establishments adjust their betting lines on the news?", "category"),
        ("Which kind of platforms offer welcome bonuses?", "category"),
        ("What kind of city is Graz?", "place"),  # a named type's noun keeps its names
        ("What team did Ivo Brandt play for?", "entity"),
        # Worked, served, was employed as what: a job; known as what: a name.
        ("The Iowa politician Ivo Brandt worked as what from 2006 to 2013?", "category"),
        ("The General Ivo Brandt served as what from 1904 to 1905?", "category"),
        ("Ada Lund was employed as what by the Lyon council in 1990?", "category"),
        ("The band was known as what from 1990 to 1994?", "phrase"),
    ],
)
def test_what_position_or_type_asks_for_a_common_noun(nlp: Any, question: str, kind: str) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert expected.kind == kind
    if kind == "category":
        assert expected.labels == frozenset()  # no name answers it


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("What position does Ivo Brandt play?",
         "Ivo Brandt is a Portuguese footballer who plays as a central defender for FC Lyra.",
         "central defender"),
        ("What type of establishments adjust their betting lines after injury news?",
         "Sportsbooks such as Caesars adjust their betting lines after injury news.",
         "Sportsbooks"),
        # Before, "worked as what" answered the senator or the city.
        ("Ines Hart worked as what from 2006 to 2013?",
         "From 2006 to 2013 Ines Hart served as chief of staff to senator Tom Reed.",
         "chief of staff"),
        ("Ines Hart worked as what from 1926 to 1938?",
         "Ines Hart was an assistant district attorney in Philadelphia from 1926 to 1938.",
         "assistant district attorney"),
        ("Ines Hart worked as what from 2015 to 2018?",
         "From 2015 to 2018 Ines Hart was editor-in-chief of the Harbour Review.",
         "editor-in-chief of the Harbour Review"),
    ],
)  # fmt: skip
def test_a_category_is_answered_by_a_common_noun_not_a_name(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, evidence: str,
    gold: str,
) -> None:  # fmt: skip
    assert short_answer(reader_with({}), question, evidence) == gold


@pytest.mark.parametrize(
    ("question", "evidence"),
    [
        ("Which of the Lund children is ill?", "'Not now,' cried Bob Lund, looking round."),
        ("Which of the Brandt brothers moved to Graz?", "'Not yet,' said Ivo Brandt."),
        ("Which Quinn sister won the Lyon Prize?", "'Never,' whispered Mara Quinn."),
    ],
)
def test_a_question_word_inside_the_candidate_supports_nothing(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, evidence: str
) -> None:
    """The sentence holds the question's family name only inside the candidate's own name:
    nothing beside it says the candidate is what is asked, so the reader abstains."""
    assert short_answer(reader_with({}), question, evidence) is None


def test_the_asked_noun_inside_the_candidate_still_supports_it(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    question = "Which university did the painter Ivo Brandt attend?"
    evidence = "The painter Ivo Brandt attended the University of Graz from 1950."
    assert short_answer(reader_with({}), question, evidence) == "the University of Graz"


@pytest.mark.parametrize(
    ("first", "second", "country1", "country2", "gold"),
    [
        ("Lyon Regional Airport", "Graz Regional Airport", "France", "Austria", "no"),
        ("Mara Valley Dam", "Tollen Valley Dam", "Canada", "Canada", "yes"),
        ("Kessel State University", "Brandt State University", "Germany", "Poland", "no"),
    ],
)
def test_names_sharing_a_head_are_told_apart_by_their_own_words(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], first: str, second: str,
    country1: str, country2: str, gold: str,
) -> None:  # fmt: skip
    """ "Airport" ends both names: a sentence about one is not about the other."""
    question = f"Are {first} and {second} in the same country?"
    evidence = (
        f"{first} is located near the city centre of Lyon in {country1}.",
        f"{second} is located near the city centre of Graz in {country2}.",
    )
    assert short_answer(reader_with({}), question, *evidence) == gold


@pytest.mark.parametrize(
    "question",
    [
        "Ada Lund had citizenship of what type from 1910 to 1912?",
        "Ivo Brandt had which type of citizenship from 1975 to 2019?",
        "Mara Quinn possessed which citizenship from 1921 to 1922?",
        "What nationality was the painter Sun Li in 1950?",
    ],
)
def test_citizenship_is_answered_by_a_nationality_or_a_country(nlp: Any, question: str) -> None:
    read = read_question(question)
    expected = expected_answer(read, read.parse(lambda: nlp))
    assert expected.kind == "entity" and {"NORP", "GPE"} <= expected.labels


@pytest.mark.parametrize(
    ("player", "kin"),
    [("Ivo Brandt", "Karl Brandt"), ("André Kessel", "Salvo Kessel"), ("Tom Reyes", "Luis Reyes")],
)
def test_a_person_sharing_the_question_s_name_is_no_team(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], player: str, kin: str
) -> None:
    """A team is asked; the small parser's person names are candidates for a team it
    mislabels, but not one who shares the player's name: that is his kin."""
    question = f"What team did the footballer {player} play for from 2007 to 2008?"
    evidence = f"In 2007 {player}, the son of {kin}, played for {kin} in the cup final."
    assert short_answer(reader_with({}), question, evidence) != kin


@pytest.mark.parametrize(
    ("candidate", "question", "named"),
    [
        ("TWF", "Thumb Wrestling Federation is on a network founded by who?", True),
        ("IAAF", "Who led the International Association of Athletics Federations in 1990?", True),
        ("BBC", "When did the British Broadcasting Corporation open in Leeds?", True),
        ("NBA", "Which team won the title of the National Football League in 1990?", False),
        ("US", "Who is Ursula Smith?", False),  # two letters: too short to be sure
    ],
)
def test_the_initials_of_a_name_the_question_gives_are_named_by_it(
    candidate: str, question: str, named: bool
) -> None:
    assert abbreviates(candidate, question) is named


@pytest.mark.parametrize(
    ("question", "evidence", "gold"),
    [
        ("Which company founded the Lyra Wrestling Federation?",
         "The Lyra Wrestling Federation (LWF) was founded in 1992 by Harbor Media.",
         "Harbor Media"),
        ("Who owns the Lyra Wrestling Federation?",
         "The LWF is owned by Harbor Media, which bought the LWF in 2001.", "Harbor Media"),
        ("Which network airs Lyra Wrestling Federation?",
         "LWF airs on Harbor Network every Sunday.", "Harbor Network"),
    ],
)  # fmt: skip
def test_the_initials_of_the_asked_name_are_no_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, evidence: str,
    gold: str,
) -> None:  # fmt: skip
    assert short_answer(reader_with({}), question, evidence) == gold


@pytest.mark.parametrize(
    ("sentence", "date", "end"),
    [
        ("The Pell Hour aired from 4 March 1971, to 12 June 1973, on Channel 5.", "4 March 1971",
         "start"),
        ("The Pell Hour aired from 4 March 1971, to 12 June 1973, on Channel 5.", "12 June 1973",
         "end"),
        ("The festival ran from 1988 until 1994 in Lyon.", "1994", "end"),
        ("The festival ran from 1988 until 1994 in Lyon.", "1988", "start"),
        ("The museum opened on 2 May 1988 in Lyon.", "2 May 1988", None),
        ("The trust was established in 1974 to raise money for the hall.", "1974", None),
        ("He left the navy in April 2009, to become a deputy mayor.", "April 2009", None),
    ],
)  # fmt: skip
def test_a_range_date_is_read_as_the_end_it_gives(
    nlp: Any, sentence: str, date: str, end: str | None
) -> None:
    doc = nlp(sentence)
    assert range_end(doc, *name_tokens(doc, date)) == end


def test_a_lifespan_says_nothing_of_a_run(nlp: Any) -> None:
    """ "(3 May 1931 – 9 October 2004)" is a range too, but a life's: a question asking when a
    show premiered reads nothing from it, one asking when its subject was born does."""
    doc = nlp("Ada Lund (3 May 1931 – 9 October 2004) was a painter.")
    born = name_tokens(doc, "3 May 1931")
    assert end_value("start", doc, *born, True) == 0.0
    assert end_value("end", doc, *born, True) == 0.0
    assert end_value("birth", doc, *born, True) == 1.0


def test_the_question_asks_for_an_end_of_a_run() -> None:
    assert asked_end("On which date did The Pell Hour originally premiere?") == "start"
    assert asked_end("When was The Pell Hour first broadcast?") == "start"
    assert asked_end("When was The Pell Hour last broadcast?") == "end"
    assert asked_end("When did the festival in Lyon close?") is None  # "closed" only
    assert asked_end("When was Ada Lund born?") == "birth"


@pytest.mark.parametrize(
    ("show", "first", "last"),
    [("The Pell Hour", "1971", "1973"), ("Harbour Lights", "1958", "1962"),
     ("Dr. Quill", "1990", "1994")],
)  # fmt: skip
def test_premiered_and_last_broadcast_read_the_two_ends_of_a_run(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], show: str, first: str,
    last: str,
) -> None:  # fmt: skip
    """Two dates in one sentence tie on every other feature: the question's verb chooses."""
    evidence = (
        f"{show} is a British sitcom produced by Pell Studios, originally airing on Channel 5 "
        f"from 4 March {first}, to 12 June {last}, then later in repeats."
    )
    answerer = reader_with({})
    began = short_answer(answerer, f"On which date did {show} originally premiere?", evidence)
    ended = short_answer(answerer, f"When was {show} last broadcast?", evidence)
    # The parser sometimes leaves the day out of the date ("June 1962"): the year decides.
    assert began is not None and first in began and last not in began
    assert ended is not None and last in ended and first not in ended


_FAMILIES = [
    (  # the group named by a family and a noun; the sentence that states it, then one that
        # names a member beside the family only
        "Which of the Varga children is ill?",
        "The youngest of the Varga children, Piroska, is ill with a fever all winter.",
        "'Here's Anikó, mother!' cried the two young Vargas.",
        "Piroska",
    ),
    (
        "Which one of the Holt brothers moved to Lisbon?",
        "In 1990 Edwin Holt moved to Lisbon, where he opened a bakery.",
        "'Where is Conrad?' asked the Holt brothers at dinner.",
        "Edwin Holt",
    ),
    (
        "Which of Bob Lund's daughters won the Lyon Prize?",
        "Greta Lund won the Lyon Prize in 2004 for her second novel.",
        "'Come in, Ingrid!' called Bob Lund to his daughters.",
        "Greta Lund",
    ),
]


@pytest.mark.parametrize(("question", "stated", "beside", "gold"), _FAMILIES)
def test_a_member_of_the_group_asked_is_answered_by_what_is_asked_of_them(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    stated: str,
    beside: str,
    gold: str,
) -> None:
    """ "Which of the Varga children is ill?": the family and the noun say who may answer. A
    sentence naming a member beside them alone ("… cried the two young Vargas") says nothing
    of which of them is ill: the reader abstains on it, and answers from the one that says."""
    reader = reader_with({})
    assert short_answer(reader, question, beside) is None
    assert short_answer(reader, question, beside, stated) == gold


def test_the_group_of_a_which_of_question(nlp: Any) -> None:
    for question, group, asked in [
        ("Which of the Varga children is ill?", {"varga", "children"}, {"ill"}),
        ("Which one of the Holt brothers moved to Lisbon?", {"holt", "brother"}, {"lisbon"}),
        ("Which of Bob Lund's daughters won the Lyon Prize?", {"bob", "lund", "daughter"},
         {"won", "prize"}),
    ]:  # fmt: skip
        found = group_asked(nlp(question))
        assert group <= found and not found & asked
    for question in ["Which daughter of Bob Lund won the Lyon Prize?", "Who moved to Lisbon?"]:
        assert group_asked(nlp(question)) == frozenset()  # no "which of": no group


# -- prominence: a sentence's own argument over the names qualifying it -----------------------
@pytest.mark.parametrize(
    ("sentence", "argument", "qualifier"),
    [
        ("Brandt taught at the University of Lyra from 1963 to 1978, where he attained the "
         "rank of Associate Professor.", "the University of Lyra", "Associate Professor"),
        ("In July 2004, Norrvik appointed former Ostrava coach Ivo Brandt as its new manager.",
         "Ivo Brandt", "Ostrava"),
        ("Lund left Kelso to return to Harlow Town, who at this time were in the Eastern "
         "Counties League.", "Harlow Town", "the Eastern Counties League"),
        ("She attended Maple Girls High School, and then Lyra University, where she received "
         "her degree in International Relations.", "Maple Girls High School",
         "International Relations"),
    ],
)  # fmt: skip
def test_the_verbs_own_argument_is_more_prominent_than_a_name_qualifying_it(
    nlp: Any, sentence: str, argument: str, qualifier: str
) -> None:
    doc = nlp(sentence)
    assert prominence(doc, *name_tokens(doc, argument)) > prominence(
        doc, *name_tokens(doc, qualifier)
    )


@pytest.mark.parametrize(
    "fragment",
    [
        'Tim Lund ("Tiny Tim"), the youngest son of Bob Lund.',
        "- Ada Sato ( Fiji ) 1997-2002",
        "Peter Lund, clerk to Ivo Brandt of Lyra.",
    ],
)
def test_a_fragment_without_a_verb_states_its_names_alike(nlp: Any, fragment: str) -> None:
    """A list's row or a cast list's line has its topic for a root: being that root says
    nothing of what the question asks ("Who is Bob Lund's employer?" is not Tim Lund)."""
    doc = nlp(fragment)
    assert len(doc.ents) >= 2
    assert {prominence(doc, e.start, e.end) for e in doc.ents} == {0.5}


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Who employed Ivo Brandt from 1963 to 1978?",
         ("Brandt taught at the University of Lyra from 1963 to 1978, where he attained the "
          "rank of Associate Professor.",),
         "the University of Lyra"),
        ("Who was the head coach of Norrvik FC from 2004 to 2008?",
         ("In July 2004, Norrvik FC appointed former Ostrava coach Ivo Brandt as its new head "
          "coach.",),
         "Ivo Brandt"),
        ("Which company employed Ada Lund from 2010 to 2011?",
         ("From 2010 to 2011, Lund worked at Norrvik Systems as a data officer for the Baltic "
          "Trade Council.",),
         "Norrvik Systems"),
        ("Who managed Lyon Rovers from 2011 to 2014?",
         ("From 2011 to 2014 Lyon Rovers were managed by Mina Sato, a former defender of "
          "Ostrava Wanderers.",),
         "Mina Sato"),
        ("Where did Ada Lund work from 1990 to 1995?",
         ("Lund worked for the Baltic Trade Council from 1990 to 1995, having studied under Ivo "
          "Brandt at Lyra University.",),
         "the Baltic Trade Council"),
    ],
)  # fmt: skip
def test_of_two_names_in_one_sentence_the_verbs_argument_answers(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: tuple[str, ...], answer: str,
) -> None:  # fmt: skip
    """The name the sentence's verb takes answers, not the names describing a role, a past
    club or a degree beside it (each of these sentences holds a rival of the asked type)."""
    assert short_answer(reader_with({}), question, *evidence) == answer


def test_without_prominence_a_qualifying_name_is_as_good_a_reading(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    """The same sentence read without the parse's depth: the employer and the council it
    worked for are equally near the question, and the reader abstains."""
    question = "Which company employed Ada Lund from 2010 to 2011?"
    evidence = (
        "From 2010 to 2011, Lund worked at Norrvik Systems as a data officer for the Baltic "
        "Trade Council."
    )
    assert short_answer(reader_with({"prominence": 0.0}), question, evidence) is None
    assert short_answer(reader_with({}), question, evidence) == "Norrvik Systems"


# -- an abbreviation the sentence defines ------------------------------------------------------
@pytest.mark.parametrize(
    ("acronym", "sentence", "name"),
    [
        ("NCW", "He worked as a director for the Christian Employers Association ( NCW ) .",
         "Christian Employers Association"),
        ("LRL", "Ivo Brandt chaired the Lyra Rowing League (LRL) from 2001.", "Lyra Rowing League"),
        ("BSF", "The Baltic Shipowners Federation (BSF) hired Lund in 1965.",
         "Baltic Shipowners Federation"),
        ("NRL", "In the Norrvik Rugby League (NRL) he scored twice.", "Norrvik Rugby League"),
        ("CMLL", "He wrestled for Consejo Mundial de Lucha Libre (CMLL) in 1990.",
         "Consejo Mundial de Lucha Libre"),
        ("CET", "The vote closed on 14 March starting at 11 pm ( CET ).", None),
        ("BSF", "Lund joined the BSF in 1965.", None),
        ("Lund", "Ada Lund (Lund) joined in 1965.", None),
    ],
)  # fmt: skip
def test_an_abbreviation_is_answered_by_the_name_its_sentence_defines(
    acronym: str, sentence: str, name: str | None
) -> None:
    assert defined_name(acronym, sentence) == name


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        ("Which union did Ada Lund lead from 1972 to 1980?",
         ("From 1972 to 1980 Lund led the Baltic Dockworkers Union ( BDU ) , the largest in "
          "Lyra .",),
         "Baltic Dockworkers Union (BDU)"),
        ("Which party did Mina Sato belong to from 1990 to 1994?",
         ("Sato was a member of the Lyra Farmers Party ( LFP ) from 1990 to 1994 .",),
         "Lyra Farmers Party (LFP)"),
        ("Which party did Tom Reyes belong to from 1981 to 1989?",
         ("From 1981 to 1989 Reyes sat for the Norrvik Labour Party (NLP) in parliament.",),
         "Norrvik Labour Party (NLP)"),
    ],
)  # fmt: skip
def test_an_abbreviated_answer_carries_its_definition(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: tuple[str, ...], answer: str,
) -> None:  # fmt: skip
    """Where the letters are the best reading ("BDU" beside the question's words), the answer
    says what they stand for, as the sentence does."""
    assert short_answer(reader_with({}), question, *evidence) == answer
