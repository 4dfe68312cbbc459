"""What a sentence's parse says of one candidate answer (query/reader.py): whether the sentence
calls it what the question asks for, which end of a life a date in parentheses is, whether
the word that governs the question's wh-word governs it ("founded by X" for "founded by who"),
how directly the sentence's verb takes it (an argument, or a name qualifying one), and whether
the sentence sets it against its subject (an opponent, "scored against X").

All read spaCy's dependency parse of the evidence sentence, the same parse the candidates come
from (and of the question, for its wh-word): beyond the question's own words, only the few
words of lives, runs and opposition named below.
"""

from __future__ import annotations

import re
from typing import Any

from graphgate.core.dates import TimeSpan, dates_in, is_month
from graphgate.core.family_match import stem
from graphgate.core.text import content_word_set
from graphgate.query.answer_type import DATES, PERSON_NOUNS, kind_nouns

# Dependencies that make one noun a description of another: "the band Euphoria", "Agüero, an
# Argentine footballer", "the DeCavalcante crime family".
# A number of what the question counts: "150 million records" (nummod), "12 goals".
_DESCRIBES = frozenset({"compound", "appos", "nmod", "conj", "nummod"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_PLURAL = frozenset({"NNS", "NNPS"})
# Nouns whose "of" gives their own name ("the title of Grandmaster", "the kingdom of Prussia");
# "the coach of X" or "the capital of X" gives another's.
_OF_NAMES = frozenset(
    {"title", "rank", "degree", "position", "post", "office", "role", "city", "town", "village",
     "county", "state", "province", "kingdom", "duchy", "principality", "island", "district",
     "municipality", "diocese", "republic", "port"}
)  # fmt: skip
# What a word governs as its argument: "founded by X" (pobj), "founded X", "X founded".
_ARGUMENTS = frozenset({"pobj", "dobj", "nsubj", "nsubjpass", "attr", "iobj", "dative"})
# Lower case only: a title's "Born" ("Natural Born Killers") asks about no life.
_BIRTH = re.compile(r"\b(born|birth|birthday|birthdate)\b")
_DEATH = re.compile(r"\b(die|died|dies|death|dead|killed|late)\b")
# How many times, in a word: "twice", "a two-time All-Star".
TIMES = re.compile(
    r"\b(?:once|twice|thrice|(?:\d+|two|three|four|five|six|seven|eight|nine|ten)-times?)\b", re.I
)
_DASHES = frozenset({"-", "–", "—", "to"})
# When a run began or ended ("originally premiered on", "first aired", "last broadcast"): a
# range's first date answers the one, its last the other ("from September 23, 1962, to March
# 17, 1963").
_BEGAN = re.compile(
    r"\b(premiered?|premieres|debuted|began|begun|started|opened|launched|"
    r"first (?:aired|broadcast|shown|screened|performed|held|run)|"
    r"originally (?:aired|broadcast))\b",
    re.I,
)
_ENDED = re.compile(
    r"\b(ended|finished|concluded|ceased|closed|last (?:aired|broadcast|shown|screened|held))\b",
    re.I,
)
# What heads a sentence rather than a fragment ("Peter Lund, a son of the preceding.").
VERBS = frozenset({"VERB", "AUX"})
_FRAGMENT = 0.5
_UNTIL = frozenset({"-", "–", "—", "to", "until", "till", "through"})


def _is_head(token: Any, head: str) -> bool:
    lower = str(token.lower_)
    return str(token.lemma_).lower() == head or lower == head or lower.endswith("-" + head)


def described_as(doc: Any, start: int, end: int, head: str | None, modifier: bool = True) -> bool:
    """The sentence calls the candidate (tokens ``start`` to ``end``) a ``head``: "the band
    Euphoria", "Sergio Agüero, a footballer", "Sandra Oh is a Canadian actress", "the Lakota
    and Dakota Sioux tribes". The question's "which actress" is then answered by its subject,
    not by the role named beside it. ``modifier=False`` leaves out the candidate that only
    modifies the noun ("the Lakota tribes", but also "the FC Flora coach": a coach *of* it),
    not one set beside it ("the ski jumper, Ada Lund,").
    A number is called what it counts ("150 million records" for "how many records"; "twice"
    for "how many times"), a date what "which date" asks for where it gives a day of a month."""
    if not head or end <= start:
        return False
    span = doc[start:end]
    if head == "time" and TIMES.fullmatch(span.text.strip()):
        return True  # "how many times": "twice", "a two-time champion"
    if head in {"date", "day"} and any(len(p.iso) == 10 for p, _, _ in dates_in(span.text)):
        return True  # "which date": a day ("September 23, 1962"), not a bare year
    for token in span:
        for child in token.children:
            if not start <= child.i < end and child.dep_ in _DESCRIBES and _is_head(child, head):
                return True
        outside = (modifier or token.dep_ == "appos") and not start <= token.head.i < end
        # "six NFL teams": one name before a plural says whose they are, not that it is one.
        of_many = token.dep_ == "compound" and token.head.tag_ in _PLURAL and not token.conjuncts
        if outside and token.dep_ in _DESCRIBES and _is_head(token.head, head) and not of_many:
            return True
    root = span.root
    # "the title of International Grandmaster", "the city of Karsk": the noun's "of" names it.
    of = root.head if root.dep_ == "pobj" and root.head.lower_ == "of" else None
    if of is not None and head in _OF_NAMES and of.head.i != of.i and _is_head(of.head, head):
        return True
    if root.dep_ in _SUBJECTS:  # "X is a Canadian actress", "X was an actor and singer"
        for child in root.head.children:
            if child.dep_ in {"attr", "appos"} and any(
                _is_head(t, head) for t in (child, *child.conjuncts)
            ):
                return True
    return False


def names_itself(doc: Any, start: int, end: int, head: str | None) -> bool:
    """The candidate is a name headed by the asked noun, or one of its kind ("the Sophomore
    League" for "which division"), so of the kind asked whatever its sentence calls it: "the
    National Gallery" a gallery, "the Party for Progress" a party. The noun is capitalised, as
    another word of it is; the bare noun ("the site") is none. A name headed by a noun for a
    person is a title or an award ("Outstanding Supporting Actress"), never the person asked."""
    if not head or end <= start or head in PERSON_NOUNS:
        return False
    span = doc[start:end]
    root = span.root
    if not (any(_is_head(root, h) for h in kind_nouns(head)) and root.text[:1].isupper()):
        return False
    return any(t.i != root.i and t.text[:1].isupper() for t in span)


def called_a(doc: Any, start: int, end: int, head: str, modifier: bool = False) -> bool:
    """The sentence calls the name a ``head`` (``described_as``, not as a mere modifier unless
    ``modifier``), or the name is one ("the National Gallery"): of the type asked, whatever
    the parser's label."""
    return described_as(doc, start, end, head, modifier) or names_itself(doc, start, end, head)


def asked_end(question: str) -> str | None:
    """ "birth" or "death" where the question asks when a life began or ended; "start" or
    "end" where it asks when a run did (a show, a season, a service)."""
    if _BIRTH.search(question):
        return "birth"
    if _DEATH.search(question):
        return "death"
    if _BEGAN.search(question):
        return "start"
    if _ENDED.search(question):
        return "end"
    return None


def range_end(doc: Any, start: int, end: int) -> str | None:
    """Which end of a written range a date is: "start" before "to", "until" or a dash that a
    date follows ("established in 1974 to raise money" is no range), "end" after one (a comma
    between counts for nothing), None outside a range."""
    after = [t for t in doc[end : end + 3] if t.text != ","]
    before = [t for t in doc[max(0, start - 2) : start] if t.text != ","]
    if (
        len(after) > 1
        and after[0].lower_ in _UNTIL
        and (after[1].like_num or is_month(str(after[1].text)))
    ):
        return "start"
    if before and before[-1].lower_ in _UNTIL:
        return "end"
    return None


def life_end(doc: Any, start: int, end: int) -> str | None:
    """Which end of a life a date gives, as encyclopedias write lives: "(born 2 April 1930)"
    and "(15 June 1924 – 24 April 2005)": "birth", "death" or None (no such parenthesis)."""
    before = doc[start - 1] if start > 0 else None
    after = doc[end] if end < len(doc) else None
    if before is not None and before.lower_ in {"born", "b."}:
        return "birth"
    inside = False  # within a parenthesis opened shortly before
    for token in doc[max(0, start - 12) : start]:
        inside = token.text in {"(", ";"} or (inside and token.text != ")")
    if not inside:
        return None
    if after is not None and after.text in _DASHES:
        return "birth"
    if before is not None and before.text in _DASHES:
        return "death"
    return None


def end_value(asked: str | None, doc: Any, start: int, end: int, dated: bool) -> float:
    """1 for a date giving the end of a life the question asks about ("born" -> the first date
    of "(1924 – 2005)"), or of a run ("premiered" -> the first of "from 4 March 1971 to 12
    June 1973"), -1 for the other end, 0 where either is unknown (or no date)."""
    if asked is None or not dated:
        return 0.0
    life = life_end(doc, start, end)
    if asked in {"birth", "death"}:
        found = life
    else:  # a run's start or end, and a life's dates say nothing of it
        found = None if life is not None else range_end(doc, start, end)
    return 0.0 if found is None else 1.0 if found == asked else -1.0


def asked_by(doc: Any, start: int, end: int, asked: frozenset[str]) -> bool:
    """The candidate is what a word of the question governs in the sentence: "founded by
    Betty Cohen" for "a network founded by who?", "the second wife of John Lennon" for "the
    second wife of what singer?", "Betty Cohen founded it". ``asked`` are the words that
    govern the question's wh-word (:func:`wh_governors`): every content word of a long question
    governs something in a sentence that restates it. Words meet by their stem
    (core/family_match.py)."""
    if end <= start or not asked:
        return False
    root = doc[start:end].root
    if root.dep_ not in _ARGUMENTS:  # a modifier or an apposition names, it is not governed
        return False
    governor = root.head
    if root.dep_ == "pobj" and governor.head is not governor:
        governor = governor.head  # through the preposition: "founded by X", "wife of X"
    if governor.i == root.i or start <= governor.i < end:
        return False
    return _meets_either(governor, asked)


_AGAINST = frozenset({"against", "versus", "vs", "vs."})
_MATCHES = frozenset(
    {"draw", "match", "game", "tie", "win", "victory", "defeat", "loss", "clash", "fixture"}
)
# Verbs whose object, or whose passive's agent, is the other side: "beat Fulham", "were
# hammered 4–0 by Chelsea". Not "face" (a library "facing West Mulberry Street", a hotel that
# "faces Kelso Bay"), nor "rival" ("their National League rivals Wrexham", parsed as a verb).
_BEATING = frozenset(
    {"beat", "defeat", "eliminate", "thrash", "rout", "overcome", "hammer", "outplay",
     "trounce", "crush", "edge", "upset"}
)  # fmt: skip
# A question after an opponent: "Who did X play against", "which rival", "beat whom".
_ASKS_OPPONENT = re.compile(
    r"\b(against|versus|vs\.?|opponents?|rivals?|beat|beaten|defeat\w*|faced?|lost to)\b", re.I
)


def opposed(doc: Any, start: int, end: int) -> bool:
    """The candidate is what the sentence sets its subject against: "scored against Everton",
    "the final versus Ajax", "beat Fulham", "hammered by Chelsea". An opponent answers only a
    question after one."""
    if end <= start:
        return False
    root = doc[start:end].root
    if root.dep_ == "dobj" or (root.dep_ == "pobj" and root.head.dep_ == "agent"):
        verb = root.head if root.dep_ == "dobj" else root.head.head
        if str(verb.lemma_).lower() in _BEATING:
            return True
    if root.dep_ != "pobj":
        return False
    # "a 2–2 draw with Ajax", "a victory over Ajax", "a 0–1 loss to Ajax": the other side.
    match = root.head.head
    met = root.head.lower_ in {"with", "over", "to"} and (
        match.pos_ == "NOUN" and match.lemma_.lower() in _MATCHES
    )
    return root.head.lower_ in _AGAINST or met


def asks_opponent(question: str) -> bool:
    """The question asks after an opponent (:func:`opposed` answers it)."""
    return bool(_ASKS_OPPONENT.search(question))


def prominence(doc: Any, start: int, end: int) -> float:
    """How directly the sentence's main verb governs the candidate: 1 for the root, 1/(1+n)
    n arcs below it. Of the names one sentence gives, its own arguments ("Kuhn taught at the
    University of Chicago") say more of it than the names qualifying them ("… where he
    attained the rank of Associate Professor", "former Lazio coach Roberto Mancini"). A
    fragment without a verb ("Tim Cratchit, youngest son of Bob Cratchit.", a list's row) has
    its topic for a root, not an argument: it states each of its names alike, as a verb
    states its argument (1/2)."""
    if end <= start:
        return 0.0
    token, hops = doc[start:end].root, 0
    while token.head.i != token.i and hops < len(doc):
        token, hops = token.head, hops + 1
    return 1.0 / (1.0 + hops) if token.pos_ in VERBS else _FRAGMENT


def clause_verb(token: Any) -> Any:
    """The nearest verb above the token (the token itself, a verb or the root)."""
    while token.head.i != token.i and token.pos_ not in VERBS:
        token = token.head
    return token


def _meets_either(token: Any, asked: frozenset[str]) -> bool:
    stems = {stem(str(token.lemma_)), stem(str(token.lower_))}
    return any(stem(a) in stems for a in asked)


_WH = frozenset({"who", "whom", "whose", "what", "which", "when", "where"})


def _wh_governor(doc: Any) -> tuple[Any, Any]:
    """The question's wh-word (or the noun it determines) and the token that governs it
    (through a preposition), or (None, None)."""
    for token in doc:
        if token.lower_ not in _WH or (token.i > 0 and token.head.dep_ == "relcl"):
            continue  # a relative pronoun ("a killer who was associated with …") asks nothing
        asked = token.head if token.dep_ == "det" else token  # "what crime family"
        governor = asked.head
        if governor.pos_ == "ADP" and governor.head is not governor:
            governor = governor.head  # through the preposition: "founded by", "members of"
        return (None, None) if governor.i == asked.i else (asked, governor)
    return None, None


def wh_governors(doc: Any, words: frozenset[str]) -> frozenset[str]:
    """The question's words that govern what it asks, from its parse: "directed" for "Who
    directed the film …", "founded" for "a network founded by who?", "members" for "members
    of what crime family?". A copula governs nothing ("Which company … is …")."""
    governor = _wh_governor(doc)[1]
    if governor is None:
        return frozenset()
    lemma, lower = str(governor.lemma_).lower(), str(governor.lower_)
    return frozenset(w for w in (lemma, lower) if w in words)


def verb_asked(doc: Any, words: frozenset[str]) -> frozenset[str]:
    """:func:`wh_governors` where what is asked is a verb's object ("warn" for "What does the
    Ghost warn Scrooge about?", "invent" for "What did Ines Hart invent?"). Not a noun's, nor
    a verb's subject: "Which figure engaged in a romance with …, who made …" names its answer
    by many deeds, and a sentence telling another of them is evidence too."""
    asked, governor = _wh_governor(doc)
    # "employed by what" asks the doer, a name; "worked as what" a role ("served as chief of
    # staff"): both said in many words.
    if governor is None or asked.dep_ not in _OBJECTS or asked.head.lower_ in {"by", "as"}:
        return frozenset()
    # The small parser tags some verbs as nouns ("What did Ines Hart invent"): an auxiliary
    # says it is a verb.
    if governor.pos_ != "VERB" and not any(c.dep_ in {"aux", "auxpass"} for c in governor.children):
        return frozenset()
    return wh_governors(doc, words)


_OBJECTS = frozenset({"dobj", "pobj", "obj", "dative"})


# A verb's stem shorter than this meets only its own lemma ("go" is no "good").
_VERB_STEM = 4


def states_verb(doc: Any, verbs: frozenset[str]) -> bool:
    """The sentence says what the verb says, in any form: "warned", "a warning" for "warn",
    "the inventor of" for "invent", "wrote" for "write" (by its lemma)."""
    roots = [r for r in (stem(v) for v in verbs) if len(r) >= _VERB_STEM]
    for token in doc:
        if _meets_either(token, verbs):  # "warned", "wrote" (by its lemma)
            return True
        forms = (str(token.lemma_).lower(), str(token.lower_))
        if any(f.startswith(r) for f in forms for r in roots):  # "warning", "inventor"
            return True
    return False


def group_asked(doc: Any) -> frozenset[str]:
    """The words of the group a "which of" question picks one from: "Cratchit", "children"
    for "Which of the Cratchit children is ill?", also "which one of …", "which of Bob Lund's
    daughters …". They say who may answer, not what is asked of them (empty: no group)."""
    for token in doc:
        if token.lower_ != "of" or token.dep_ != "prep":
            continue
        picker = token.head  # "which of …", or "which one of …"
        if picker.lower_ == "one":
            picker = next((c for c in picker.children if c.lower_ == "which"), picker)
        if picker.lower_ == "which" and picker.i < token.i:
            return frozenset(content_word_set(doc[token.i : token.right_edge.i + 1].text))
    return frozenset()


def states_any(words: frozenset[str], text: str) -> bool:
    """Whether the text holds one of the words, meeting by their stem ("ill", "illness")."""
    stems = {stem(w) for w in content_word_set(text)}
    return any(stem(w) in stems for w in words)


POSSESSIVE = re.compile(r"\s*'s$|\s*’s$")


def as_written(doc: Any, tokens: list[Any]) -> str:
    """Tokens as the sentence writes them ("Scrooge's countenance", not token by token)."""
    said = str(doc.text)[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)]
    return POSSESSIVE.sub("", " ".join(said.split()))


# Arcs into a clause that describes a thing: "the film released in 1986", "the singer born
# in 1952", "the group that Tommy Bolin joined in 1969".
_DESCRIBING = frozenset({"acl", "relcl", "advcl", "csubj", "csubjpass"})
_MODIFIES = frozenset({"compound", "amod", "nummod", "nmod"})


def dates_the_asked(doc: Any, head: str | None = None) -> bool:
    """A date of the question dates what it asks ("got what title in 1962", "In 2005 , which
    team …", "the commander of U-254 in Oct 1942", and "the group that Tommy Bolin joined in
    1969" where the group is the ``head`` asked), not a thing named on the way (a date in a
    clause describing it, "the film released in 1986"; a date modifying a noun, "the 1986
    film"). With no date the parse labels, the question's time is taken as asked."""
    dates = [ent for ent in doc.ents if ent.label_ in DATES]
    return not dates or any(not _describes(ent.root, head) for ent in dates)


def _describes(token: Any, asked: str | None) -> bool:
    head = token.head
    if token.dep_ in _MODIFIES and head.pos_ in {"NOUN", "PROPN"} and not is_month(head.text):
        return True  # "the 1986 film"; not the year of "Apr 1940"
    while token.head.i != token.i:
        if token.dep_ in _DESCRIBING and str(token.head.lemma_).lower() != asked:
            return True
        token = token.head
    return False


def answered_by_dated(asked: TimeSpan | None, doc: Any, head: str | None) -> bool:
    """Whether only sentences stating a time inside the asked one may answer. "Which team was
    X part of from 2005 to 2006?" asks what held over a period: a sentence stating no time
    inside it ("X is a footballer who plays for Y", the page's present) says nothing of that
    period; nor of one time the question's main clause asks of ("got what title in 1962"). A
    date describing another thing ("the film shot in 1986") names another event, not the
    answer's time, and filters nothing."""
    return asked is not None and (asked.period or dates_the_asked(doc, head))
