"""Names the question lends to the evidence: a person sharing a name the question gives is kin
or a namesake, the answer only where a relative is asked ("Hank Williams" for "Audrey Williams'
son"); and a language ("English: Joke") answers a question whose noun asks for something else
("which comedy") never; a question asking for an abbreviation is answered by the letters the
evidence gives a name, or not at all. Shown on invented names in several phrasings, and end to
end through the reader where the namesake, the language or the name without its letters stands
closer to the question's words than the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spacy.tokens import Span

from graphgate.query.answer import ExtractiveAnswerer
from graphgate.query.answer_type import expected_answer
from graphgate.query.question import read_question
from graphgate.query.reader_evidence import spans
from graphgate.query.reader_letters import abbreviation_of, asks_abbreviation, same_answer
from graphgate.query.reader_names import (
    lent_names,
    names_the_subject,
    nickname_of,
    part_of_named,
    shares_a_name,
    subject_words,
    unlabelled_name,
)
from tests.unit.conftest import name_tokens, short_answer


@pytest.mark.parametrize(
    ("candidate", "question", "shared"),
    [
        ("Max Ramsay", "Kate Ramsay is a character of a soap opera created by who?", True),
        ("Simon Vale", "Simon & Simon starred which actor from the US?", True),
        ("Dina Leland", "Who directed the film that was shot in Leland in 1986?", True),
        ("St. Vincent", "Transfiguration of Vincent is by a singer from what state?", True),
        # A relative is asked: the shared name is what the answer is expected to carry.
        ("Hank Williams", "Who was Audrey Williams pregnant with, her son?", False),
        ("Tim Cratchit", "Which of the Cratchit children is ill?", False),
        ("Mary Stanley", "Name the mother of Ed Stafford, the daughter of Lord Stanley.", False),
        ("Rosa Lind", "Whom did Carl Lind marry in 1961?", False),
        # The question's first word is capitalised whatever it is; joiners are no name.
        ("Kate Vale", "Kate played in which film in 2001?", False),
        ("Ada of the Lake", "Which film of The Lake Trilogy won an award?", True),
        ("Ada of The North", "Which film of The Award series won in 2001?", False),
        ("Bo Vik", "Who directed the film shot in Leland?", False),
        # A possessive lends the name it is written on.
        ("Tim Cratchit", "Who is Bob Cratchit's employer?", True),
        ("Lena Osei", "What was Kofi Osei’s first club?", True),
        ("Ines Kade", "Who was Mira Kade's coach in 2004?", True),
    ],
)  # fmt: skip
def test_a_candidate_sharing_a_name_of_the_question(
    candidate: str, question: str, shared: bool
) -> None:
    assert shares_a_name(candidate, lent_names(question)) is shared


@pytest.mark.parametrize(
    ("question", "evidence", "answer", "namesake"),
    [
        (
            "Nora Vale is a fictional character from a soap opera created by whom?",
            [
                "Nora Vale is a fictional character from an Australian soap opera, whose family "
                "includes her uncle Max Vale.",
                "The soap opera was created by Tomas Brink in 1985.",
            ],
            "Tomas Brink",
            "Max Vale",
        ),
        (
            "Who directed the film that was shot in and around Ostend in 1986?",
            [
                "The film was shot in and around Ostend in 1986, with the actor Piet Ostend "
                "in the lead.",
                "The film was directed by Lena Maas, in her first work as a director.",
            ],
            "Lena Maas",
            "Piet Ostend",
        ),
        (
            "Dolan & Dolan starred which television and movie actor from the US?",
            [
                "Dolan & Dolan starred the British actor Dolan Hart as a detective.",
                "Dolan & Dolan is a television series starring Gerald Roy, an American "
                "television and movie actor.",
            ],
            "Gerald Roy",
            "Dolan Hart",
        ),
    ],
)
def test_a_namesake_of_the_question_is_not_its_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: list[str],
    answer: str,
    namesake: str,
) -> None:
    short = short_answer(reader_with({}), question, *evidence)
    assert short != namesake and short in {answer, None}, short


@pytest.mark.parametrize(
    ("sentence", "nickname", "name"),
    [
        ('Tim Cratchit ("Tiny Tim"), a cripple, youngest son of Bob Cratchit.', "Tiny Tim",
         "Tim Cratchit"),
        ("Earvin “Magic” Johnson Jr. joined the team in 1979.", "Magic", "Earvin Johnson"),
        ("The band's drummer, Robert 'Bobby' Vale, left in 1990.", "Bobby", "Robert Vale"),
        ("Harriet Osei (\"Hattie\") ran the firm.", "Hattie", "Harriet Osei"),
        ('Tim Cratchit ("Tiny Tim"), a cripple.', "Tim Cratchit", None),  # the name is no nickname
        ("He said 'Tiny' to Tim Lund.", "Tiny", None),  # a quoted word beside no name
        ('Producer Ada Rogers "Carry On" Films made it.', "Carry On", None),  # a title's words
    ],
)  # fmt: skip
def test_a_nickname_is_read_with_the_name_it_stands_beside(
    sentence: str, nickname: str, name: str | None
) -> None:
    assert nickname_of(nickname, sentence) == name


@pytest.mark.parametrize(
    "question",
    ["Who is Bob Lund's employer?", "Who does Bob Lund work for?", "Whom did Bob Lund serve?"],
)
@pytest.mark.parametrize(
    "evidence",
    [
        'Tim Lund ("Tiny Tim"), a cripple, youngest son of Bob Lund, a clerk.',
        'The clerk Bob Lund loved Tim Lund ("Tiny Tim"), his youngest son, above all.',
    ],
)
def test_a_nickname_of_a_namesake_is_not_the_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str, evidence: str
) -> None:
    """The son, called by a nickname whose full name shares the question's surname, is kin
    of the man asked about, not his employer: with no other name, no answer."""
    assert short_answer(reader_with({}), question, evidence) is None


def test_a_relative_sharing_the_name_asked_answers(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
) -> None:
    question = "Who is the son of the singer Audrey Lind?"
    evidence = "Audrey Lind gave birth to her son, Hank Lind, in 1949 in Alabama."
    assert short_answer(reader_with({}), question, evidence) == "Hank Lind"


@pytest.mark.parametrize(
    ("sentence", "piece", "asked", "part"),
    [
        # The parser cut the first names off the full name of the person the question names.
        ("El Hadji Baye Oumar Niasse ( born 1990 ) is a Senegalese footballer .", "El Hadji",
         "Oumar Niasse", True),
        ("Maria Ines Ana Kade ( born 1971 ) is a Chilean rower .", "Maria Ines", "Ana Kade", True),
        ("Sir Tomas Brink Lund was a Danish admiral .", "Sir Tomas", "Brink Lund", True),
        # A common noun, a verb or a comma stands between: another name.
        ("Everton striker Oumar Niasse joined Hull City in 2017 .", "Everton", "Oumar Niasse",
         False),
        ("Oumar Niasse joined Hull City in January 2017 .", "Hull City", "Oumar Niasse", False),
        ("Ana Kade married Tomas Brink , a rower , in 1995 .", "Tomas Brink", "Ana Kade", False),
        # A title the question asks in lower case is no name it gives; nor is a word not a name.
        ("The portrait was sold to Colonel James Hay in 1815 .", "James Hay", "which colonel",
         False),
        ("Sir John Downer was twice Premier of South Australia .", "twice", "premier", False),
        # A relative is asked: the answer is expected to carry the question's name.
        ("Margrete Aamot Lund was a Norwegian resistance member .", "Margrete Aamot",
         "the wife of Per Lund", False),
    ],
)  # fmt: skip
def test_a_piece_of_the_name_the_question_gives_is_part_of_it(
    nlp: Any, sentence: str, piece: str, asked: str, part: bool
) -> None:
    doc = nlp(sentence)
    assert part_of_named(doc, *name_tokens(doc, piece), lent_names(f"Of {asked}?")) is part


@pytest.mark.parametrize(
    ("label", "text", "name"),
    [
        ("NOUN_PHRASE", "Charles Henry Holden", True),
        ("NOUN_PHRASE", "Ada Lund", True),
        # A phrase with a common word, or a name the parser typed, is not read as a person's.
        ("NOUN_PHRASE", "the Holden Building", False),
        ("NOUN_PHRASE", "London Underground stations", False),
        ("ORG", "Koch Industries", False),
        ("PERSON", "Ada Lund", False),
    ],
)
def test_an_unlabelled_name_is_read_as_a_persons(label: str, text: str, name: bool) -> None:
    """ "Charles Henry Holden", left unlabelled, shares "Holden" with "what work did the
    architect Holden publish": it is the architect, no work of his."""
    assert unlabelled_name(label, text) is name
    assert shares_a_name(text, lent_names("What did the architect Holden publish?")) is (
        "Holden" in text
    )


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        # The first names of a real footballer's full name outrank his club without the rule.
        ("What team did Senegalese footballer Oumar Niasse play for in 2016?",
         ("El Hadji Baye Oumar Niasse ( born 18 April 1990 ) is a Senegalese professional "
          "footballer who plays as a striker .",
          "In February 2016 , Niasse joined Everton for a fee of £13.5 million ."),
         "Everton"),
        # With invented names the team wins with or without the rule: a control.
        ("What team did Chilean footballer Ana Kade play for in 2016?",
         ("Maria Ines Ana Kade ( born 2 May 1991 ) is a Chilean professional footballer who "
          "plays as a striker .",
          "In March 2016 , Kade joined Harlow Town for an undisclosed fee ."),
         "Harlow Town"),
        # The question gives the first name, the evidence writes the surname alone: before,
        # the coach himself ("Brändt") or a tie with him.
        ("The German coach Joachim was the coach of what team from 2001 to 2002?",
         ("Joachim Brändt ( born 3 February 1960 ) is a German football coach .",
          "Brändt became the manager of Austrian club Tirol Karsk on 10 October 2001 and led "
          "them to the 2001–02 Austrian Bundesliga title ."),
         "Tirol Karsk"),
        ("The Varnian coach Tomas was the coach of what team from 2001 to 2002?",
         ("Tomas Kade ( born 3 February 1960 ) is a Varnian football coach .",
          "Kade became the manager of the Austrian club Harlow Town on 10 October 2001 and led "
          "them to the 2001–02 league title ."),
         "Harlow Town"),
    ],
)  # fmt: skip
def test_the_rest_of_the_asked_name_is_not_the_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], question: str,
    evidence: tuple[str, str], answer: str,
) -> None:  # fmt: skip
    assert short_answer(reader_with({}), question, *evidence) == answer


@pytest.mark.parametrize(
    ("question", "evidence", "candidate", "subject"),
    [
        # The question gives one name after a noun for a person, the evidence writes the
        # person with another.
        ("The German coach Joachim was the coach of what team from 2001 to 2002?",
         "Joachim Löw ( born 3 February 1960 ) is a German football coach .", "Löw", True),
        ("Which university employed the Finnish economist Holmström from 1979 to 1983?",
         "Bengt Holmström ( born 18 April 1949 ) is a Finnish economist .", "Bengt", True),
        ("Which club did the footballer Harald Kade join in 2016?",
         "Tomas Harald Kade ( born 2 May 1991 ) is a Varnian footballer .", "Tomas", True),
        ("Which club did the footballer Kade join in 2016?",
         "Tomas Kade ( born 2 May 1991 ) is a Varnian footballer .", "Tomas Kade", True),
        # Not a firm's name sharing the question's ("Pabst" of "Pabst Brewing Company" for the
        # "Rainier Brewing Company"), nor a name the question gives of a thing ("Search").
        ("The Rainier Brewing Company had headquarters in what city from 1884 to 1915?",
         "Rainier was bought by the Pabst Brewing Company in Seattle in 1977 .", "Pabst",
         False),
        ("Which company is accused of manipulating Search for ad revenue?",
         "Critics of Google Search say the company ranks its own products first .", "Google",
         False),
        # Nor a body sharing the lent name ("Volvo Polska"), nor a club the person is written
        # beside.
        ("Which company made the Volvo 9700 from 2001 to 2003?",
         "From 2001 the Volvo 9700 was built by Volvo Polska in Wroclaw .", "Polska", False),
        ("Which club did the striker Kade join in 2016?",
         "In 2016 Tomas Kade joined Harlow Town .", "Harlow Town", False),
    ],
)  # fmt: skip
def test_the_subjects_other_name_is_not_the_answer(
    nlp: Any, question: str, evidence: str, candidate: str, subject: bool
) -> None:
    """ "The German coach Joachim … what team": "Löw" of "Joachim Löw" is the coach himself."""
    lent = lent_names(question)
    words = {w.lower().replace("ö", "o") for w in candidate.split()}
    found = subject_words([nlp(evidence)], nlp(question), lent)
    assert names_the_subject(words, found, lent) is subject


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Which 1988 Telugu comedy produced by Ravi Rao had music by Ana Lopez?", False),
        ("What low budget British comedy franchise starred Ada Lund?", False),
        ("Which novel by Bo Vik won the prize in 1990?", False),
        ("In which language did Bo Vik write his poems?", True),
        ("What language were the books translated into?", True),
        ("What did Ada Lund speak at home?", True),
    ],
)
def test_a_language_answers_only_a_question_that_asks_no_other_noun(
    nlp: Any, question: str, language: bool
) -> None:
    read = read_question(question)
    assert ("LANGUAGE" in expected_answer(read, read.parse(lambda: nlp)).labels) is language


@pytest.mark.parametrize(
    "evidence",
    [
        ["Navvula (English: Joke) is a 1988 Telugu comedy film produced by Ravi Rao on the Surya "
         "banner."],
        ["Navvula (English: Joke) is a 1988 Telugu comedy film, produced by Ravi Rao and directed "
         "by Gopi Chand.", "Ana Lopez is the only female music director in the Telugu film "
         "industry."],
    ],
)  # fmt: skip
def test_which_comedy_is_answered_by_the_film_not_its_language(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer], evidence: list[str]
) -> None:
    """ "English" stood beside the film as its rival: the reader abstained."""
    question = "Which 1988 Telugu comedy produced by Ravi Rao had music by Ana Lopez?"
    assert short_answer(reader_with({}), question, *evidence) == "Navvula"


EVIDENCE_OF_LETTERS = [
    "Linux Weekly is commonly abbreviated to LXW, and its issues are numbered.",
    "The Darkon Club is a live-action role-playing (LARP) club in the United States.",
    "In 1983 the Nordic Film Board ( NFB ) was founded in Oslo.",
    "NRK, short for the Norwegian Broadcasting Corporation, is a state broadcaster.",
    "The Gaming Society was abbreviated as TGS in its first years.",
    "The Borneo Chess League, often abbreviated to the BCL, is the oldest league.",
    'The three letter acronym "BRD" stands for "Bundesrepublik Deutschland", its official name.',
    "Corpus Vasorum Antiquorum ( corpus of ancient vases ; abbreviated CVA ) is a project.",
    "The Ocean Trust stands apart from the Sea Fund (SF) and the Lake Fund.",
]


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("Linux Weekly", "LXW"),
        ("LARP", "LARP"),
        ("Nordic Film Board", "NFB"),
        ("the Nordic Film Board", "NFB"),
        ("Norwegian Broadcasting Corporation", "NRK"),
        ("The Gaming Society", "TGS"),
        ("Sea Fund", "SF"),
        ("Borneo Chess League", "BCL"),
        ("Bundesrepublik Deutschland", "BRD"),
        ("Corpus Vasorum Antiquorum", "CVA"),
        # The end of a longer name is not the name; a name given no letters has none.
        ("Film Board", None),
        ("Ocean Trust", None),
        ("Lake Fund", None),
        ("Oslo", None),
    ],
)
def test_the_letters_the_evidence_gives_a_name(name: str, letters: str | None) -> None:
    assert abbreviation_of(name, EVIDENCE_OF_LETTERS) == letters


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What is the abbreviation of the magazine that praised Zorbo?", True),
        ("The club plays a game with which 4-letter acronym?", True),
        ("By what abbreviated name is the agency known?", True),
        ("Which initialism does the broadcaster go by?", True),
        ("Who founded the magazine that praised Zorbo?", False),
        ("What does the club play?", False),
        # The letters are given; what they stand for is asked.
        ("What does the abbreviation NFB stand for?", False),
        ("The acronym NRK is short for what?", False),
        ("What does the initialism TGS mean?", False),
    ],
)
def test_a_question_asks_for_letters(question: str, asks: bool) -> None:
    assert asks_abbreviation(question) is asks


@pytest.mark.parametrize(
    ("question", "evidence", "letters"),
    [
        (
            'What is the abbreviation to the magazine that called Zorbo "a fine tool"?',
            ['In 2001, "Penguin Weekly" called Zorbo "a fine tool".',
             "Penguin Weekly is commonly abbreviated to PW, and its issues are numbered."],
            "PW",
        ),
        (
            "The film follows the Ravens Club of Leeds, a group that plays a game with this "
            "4-letter acronym name?",
            ["The film follows the Ravens Club of Leeds through one summer.",
             "The Ravens Club is a non-profit live-action role-playing (LARP) club in England, "
             "based in Leeds."],
            "LARP",
        ),
        (
            "By what acronym is the agency that funded Ada Lund's film known?",
            ["Ada Lund's film was funded by the Nordic Film Board.",
             "The Nordic Film Board ( NFB ) was founded in 1983 in Oslo."],
            "NFB",
        ),
        (
            'What is the abbreviation to the magazine that called Zorbo "a fine tool"?',
            ['In 2001, "Penguin Weekly" called Zorbo "a fine tool".',
             "Penguin Weekly was the first such magazine in the country."],
            None,
        ),
    ],
)  # fmt: skip
def test_an_abbreviation_asked_is_answered_by_letters_or_not_at_all(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: list[str],
    letters: str | None,
) -> None:
    assert short_answer(reader_with({}), question, *evidence) == letters


@pytest.mark.parametrize(
    ("question", "evidence", "answer"),
    [
        (
            "Who did Ada Lund work for from 1965 to 1973?",
            "Lund worked as a director for the Nordic Employers Association ( NEA ) from 1965 "
            "to 1973 .",
            "Nordic Employers Association (NEA)",
        ),
        (
            "Which organisation employed Tom Reyes from 1990 to 1994?",
            "From 1990 to 1994 Reyes was employed by the Western Rail Authority ( WRA ) as an "
            "engineer .",
            "Western Rail Authority (WRA)",
        ),
        (
            "From 2001 to 2005, who did Ivo Brandt work for?",
            "Between 2001 and 2005 , Brandt worked at the Central Statistics Office ( CSO ) in "
            "Dublin .",
            "Central Statistics Office (CSO)",
        ),
    ],
)
def test_letters_and_the_name_they_stand_for_are_one_answer(
    reader_with: Callable[[dict[str, float]], ExtractiveAnswerer],
    question: str,
    evidence: str,
    answer: str,
) -> None:
    """The letters and the name its sentence defines them by are no rivals: the reader does
    not abstain on their near tie, and answers the name with its letters."""
    assert short_answer(reader_with({}), question, evidence) == answer


@pytest.mark.parametrize(
    ("one", "other", "sentence", "same"),
    [
        ("the Sächsische Volkspartei", "Saxon Peoples Party",
         "he founded the Sächsische Volkspartei ( Saxon Peoples Party ) in 1867 .", True),
        ("Saxon Peoples Party", "the Sächsische Volkspartei",
         "he founded the Sächsische Volkspartei ( Saxon Peoples Party ) in 1867 .", True),
        ("Kjøbenhavns Boldklub", "KB Copenhagen",
         "He coached Kjøbenhavns Boldklub ( KB Copenhagen , then in the first tier ) .", True),
        # The name in the language the bracket names first ("Catalan :").
        ("the Varn Workers Front", "Front Obrer de Varn",
         "In 1962 he joined the Varn Workers Front ( Catalan : Front Obrer de Varn , FOV ) .",
         True),
        ("Harlow Rowing Union", "Harlower Ruderbund",
         "Harlow Rowing Union ( German : Harlower Ruderbund ) was founded in 1901 .", True),
        # Controls: two names each with its own bracket, a bracket's other name, a year.
        ("Ann Lee", "Bo Vik", "It was led by Ann Lee ( FDP ) and Bo Vik ( SPD ) .", False),
        ("Ann Lee", "SPD", "It was led by Ann Lee ( FDP ) and Bo Vik ( SPD ) .", False),
        ("Berlin", "Paris", "He lived in Berlin ( 1990 ) and Paris .", False),
        ("Ann Lee", "Bo Vik", "Ann Lee ( opponent : Bo Vik ) won the seat .", False),
    ],
)  # fmt: skip
def test_a_name_and_the_name_bracketed_after_it_are_one_answer(
    one: str, other: str, sentence: str, same: bool
) -> None:
    """A translation, a short or a former name in brackets right after a name is no rival."""
    assert same_answer(one, other, sentence) is same


def test_a_name_the_parser_runs_into_a_bracket_ends_before_it(nlp: Any) -> None:
    """The parser may run a name on into the bracket after it ("the Varn Workers Front (
    Catalan"): the candidate is the name without the bracket, so that the bracket's other name
    ("Front Obrer de Varn") is the same answer, not a rival."""
    sentence = "In 1962 she joined the Varn Workers Front ( Catalan : Front Obrer de Varn ) ."
    doc = nlp(sentence)
    start, _ = name_tokens(doc, "the Varn Workers Front")
    _, end = name_tokens(doc, "( Catalan")
    doc.ents = [Span(doc, start, end, label="ORG")]
    expected = expected_answer(read_question("Which party did Ada Lund join in 1962?"), None)
    found = [text for text, *_ in spans(doc, expected)]
    assert found[0] == "the Varn Workers Front" and not any("(" in text for text in found)
    assert same_answer(found[0], "Front Obrer de Varn", sentence)
