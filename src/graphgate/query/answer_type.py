"""What kind of answer a question wants, read from its wording and its parse.

The offline reader (query/reader.py) only considers candidates of the expected kind: a person
or organisation for "who", a date for "when", a place for "where", a number for "how many",
one of the options the question names for "which … , X or Y?", yes or no for "Is …?", a
noun phrase (of the type its head noun names, where it names one) for "what/which …", and a
common noun, never a name, for what a thing is ("what position", "what type of …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from graphgate.query.answer_compare import comparison
from graphgate.query.question import Question, asking_word, requested
from graphgate.query.reader_naming import asks_name

AnswerKind = Literal["entity", "date", "place", "number", "option", "yes_no", "phrase", "category"]

PEOPLE = frozenset({"PERSON"})
ORGS = frozenset({"ORG"})
PLACES = frozenset({"GPE", "LOC", "FAC"})
DATES = frozenset({"DATE"})
NUMBERS = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"})
NAMED = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW",
     "LANGUAGE"}
)  # fmt: skip

_KIND_OF_LABELS: dict[frozenset[str], AnswerKind] = {
    DATES: "date",
    PLACES: "place",
    NUMBERS: "number",
}

# Head nouns of "which/what <noun>" that name the answer's entity type (general English; a
# noun not listed asks for a noun phrase, preferably one containing that noun).
_HEAD_LABELS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("year", "date", "decade", "century", "month", "day", "era"), DATES),
    **dict.fromkeys(
        ("city", "state", "country", "county", "town", "village", "region", "province",
         "continent", "island", "nation", "capital", "territory", "borough", "district",
         "neighborhood", "neighbourhood", "municipality", "suburb", "place", "location", "locale",
         "river", "mountain", "lake"),
        PLACES,
    ),
    # A numbered formation ("which squadron": "Patrol Squadron 22 ( VP-22 )") is left a noun
    # of no type: the parser labels such names as anything or nothing. So is "navy", which
    # the parse takes for the head of "the U.S. Navy VP-25" as often as it is one.
    **dict.fromkeys(
        ("company", "team", "band", "club", "university", "college", "school", "institution",
         "organization", "organisation", "party", "station", "network", "channel", "firm",
         "group", "agency", "label", "newspaper", "magazine", "publisher", "airline",
         "corporation", "brand", "manufacturer", "studio", "league", "employer", "owner",
         "institute", "conglomerate", "retailer", "bank", "business", "entity",
         "association", "org", "society", "federation", "union", "committee", "council",
         "foundation", "charity", "ministry", "faction", "railway", "railroad", "orchestra",
         "broadcaster", "operator", "exchange", "unit", "fleet", "academy", "gallery", "museum",
         "supergroup", "movement"),
        ORGS | frozenset({"PRODUCT"}),
    ),
    **dict.fromkeys(
        ("person", "man", "woman", "actor", "actress", "singer", "author", "writer",
         "director", "player", "politician", "individual", "artist", "musician", "composer",
         "producer", "king", "queen", "president", "leader", "founder", "ceo", "coach", "trainer",
         "character", "member", "star", "poet", "painter", "scientist", "athlete", "boxer",
         "wrestler", "footballer", "rapper", "comedian", "journalist", "executive", "child",
         "son", "daughter", "wife", "husband", "brother", "sister", "father", "mother",
         "spouse", "girlfriend", "boyfriend", "fiance", "fiancee", "host", "presenter",
         "anchor", "rector", "chancellor", "dean", "chairman", "chairwoman", "chairperson",
         "ruler", "monarch", "emperor", "empress", "prince", "princess", "duke", "duchess",
         "earl", "baron", "baroness", "bishop", "archbishop", "pope", "governor", "mayor",
         "manager", "captain", "editor", "conductor", "teacher", "student", "pupil", "mentor",
         "adviser", "advisor", "successor", "predecessor", "commander", "ambassador",
         "senator", "official", "figure", "inventor", "designer", "architect", "engineer",
         "sculptor", "photographer", "dancer", "guitarist", "drummer", "vocalist", "pianist",
         "violinist", "novelist", "playwright", "screenwriter", "philosopher", "historian",
         "economist", "physicist", "chemist", "mathematician", "astronaut", "explorer",
         "admiral", "officer", "pilot", "heir", "widow", "widower", "grandson",
         "granddaughter", "nephew", "niece", "cousin", "uncle", "aunt", "parent"),
        PEOPLE,
    ),
    **dict.fromkeys(("ethnicity", "religion"), frozenset({"NORP"})),
    # "What nationality / citizenship": "Russian", or the country, "Taiwan".
    **dict.fromkeys(("nationality", "citizenship"), frozenset({"NORP", "GPE"})),
    "language": frozenset({"LANGUAGE", "NORP"}),
    **dict.fromkeys(
        ("film", "movie", "book", "album", "song", "novel", "series", "show", "game", "play",
         "opera", "poem", "painting", "episode", "single"),
        frozenset({"WORK_OF_ART", "PRODUCT", "EVENT", "ORG"}),
    ),
    **dict.fromkeys(("war", "battle", "event", "tournament", "championship"), frozenset({"EVENT"})),
    **dict.fromkeys(
        ("population", "number", "amount", "attendance", "capacity", "height", "elevation",
         "length", "revenue", "budget", "salary", "weight", "distance", "depth",
         "percentage", "total", "sum", "price", "cost"),
        NUMBERS,
    ),
}  # fmt: skip
# A nationality or group ("American", "Indian") answers only a question that asks for one: to
# any other "what/which" it is the answer's description, rarely the answer.
_ASKS_GROUP = re.compile(r"\b(in common|nationality|nationalities|origin|descent|ethnic)", re.I)
# What a thing is rather than which one: "what position did X play" (striker), "what type of
# establishments" (sportsbooks). A common noun answers, not a name.
_CATEGORY_HEADS = frozenset(
    {"position", "profession", "occupation", "job", "role", "post", "office", "rank", "genre",
     "sport", "instrument", "species", "breed", "discipline"}
)  # fmt: skip
# "Worked / served / was employed as what" asks a job ("known as what" asks a name).
_SERVING = frozenset({"work", "serve", "employ", "act", "function", "hire", "appoint"})
_KINDS = frozenset({"kind", "kinds", "type", "types", "sort", "sorts", "form", "forms"})
_KIND_OF = re.compile(r"\b(?:what|which)\s+(?:type|kind|sort|form)s?\s+of\b", re.I)
NOUN_PHRASE = "NOUN_PHRASE"
# "What is the name of the band …": the named thing's noun is the head, not "name".
_NAME_OF = frozenset({"name", "title"})
# Kinds of organisation and place a name's own last word declares ("Southern League", "Wembley
# Stadium", "Iowa State University"): asked for a team, a league is no answer. A noun in none of
# these says nothing (a party may be called a league, a federation or a front). Competitions
# with the words other languages name them by ("Coppa Italia", "La Liga", "Ligue 1").
# ("Liga" and "Copa" open clubs' names too: "Liga Deportiva Universitaria".)
_COMPETITIONS = frozenset(
    {"league", "division", "conference", "cup", "championship", "tournament", "ligue", "coppa",
     "coupe", "pokal", "serie", "bundesliga", "eredivisie", "premiership"}
)  # fmt: skip
# "the Russian Empire", "the Pskov Republic", "the United Kingdom" for "which country".
_COUNTRIES = frozenset({"country", "nation", "empire", "kingdom", "republic", "duchy", "khanate"})
# Nouns of one kind: a name headed by any is of the kind any of them asks ("the Sophomore
# League" for "which division"). Schools are not one kind ("Sehwa Girls High School" is no
# university), though any of them is no team.
_SAME_KINDS: tuple[frozenset[str], ...] = (
    frozenset({"team", "club", "side", "squad", "franchise"}),
    _COMPETITIONS,
    frozenset({"award", "prize", "medal", "trophy", "honour", "honor"}),
    frozenset({"stadium", "arena", "ground", "venue"}),
    _COUNTRIES,
)
_NAMED_KINDS = (*_SAME_KINDS, frozenset({"university", "college", "school", "academy"}))
_ALL_KINDS = frozenset().union(*_NAMED_KINDS)


def kind_nouns(head: str) -> frozenset[str]:
    """The nouns naming the kind ``head`` names ("division": "league", "conference", …); any
    other noun names only itself."""
    return next((kinds for kinds in _SAME_KINDS if head in kinds), frozenset({head}))


# Nouns that ask for something without saying of what type: no evidence "calls" an answer one.
GENERIC_HEADS = frozenset({"name", "title", "thing", "one", "work", "part", "term"})
# Nouns of a stretch of time, which a date may name ("the 2001–02 season").
_SPELL_HEADS = frozenset({"season", "period", "time", "edition", "reign", "tenure", "spell"})

# "…, X or Y?" / "… X or Y?": the options are the last two names before the question mark.
_OR = re.compile(r"\s+or\s+")
_BETWEEN = re.compile(
    r"\bbetween\s+(?:the\s+)?([A-Z0-9][^,]*?)\s+and\s+(?:the\s+)?([A-Z0-9][^,]*?)\s*,", re.I
)
# "Which was …", "Which one is …", "Which of the two came …": one of things named before.
_WHICH_OF_THEM = re.compile(
    r"\bwhich(?:\s+one|\s+of\s+(?:the\s+two|these|them|the\s+pair))?\s+"
    r"(?:was|is|were|are|came|had|has|did|does|opened|started)\b",
    re.I,
)
# Two capitalised names joined by "and" ("Little Caesars and Pizza Hut").
_NAME = r"[A-Z][\w'.&-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'.&-]*)*"
NAMES_JOINED = re.compile(rf"({_NAME})\s+and\s+({_NAME})")
# "the forming of X", "the birth of Y": the event's owner is the option.
_EVENT_OF = re.compile(r"^(?:the\s+)?(?:[a-z]+\s+){1,2}of\s+(?=[A-Z])")
_SAME = re.compile(r"\b(same|both)\b", re.I)
_WORKED_AT = re.compile(
    r"\b(?:work(?:s|ed|ing)?|employ\w*|stud(?:y|ies|ied|ying)|educat\w*|teach(?:es|ing)?|"
    r"taught|attend(?:s|ed|ing)?|enrol+(?:s|ed|ing)?|train(?:s|ed|ing)?|lectur\w*)\b",
    re.I,
)


def _asks_workplace(text: str, doc: Any | None) -> bool:
    """Whether "where" asks where one worked or studied. A word of work modifying a noun
    ("the working locations", "a working group") asks nothing of the kind."""
    if doc is None:
        return _WORKED_AT.search(text) is not None
    return any(
        _WORKED_AT.fullmatch(t.text) and not (t.dep_ in {"amod", "compound"} and t.head.i != t.i)
        for t in doc
    )


@dataclass(frozen=True)
class ExpectedAnswer:
    kind: AnswerKind
    labels: frozenset[str]  # spaCy entity labels of acceptable candidates; empty: noun phrases
    head: str | None = None  # "which <noun>": the noun (a phrase answer should contain it)
    # Labels that answer first; the others only where these are far less supported.
    preferred: frozenset[str] = frozenset()
    options: tuple[str, ...] = ()  # named alternatives, for "option" (and "yes_no" comparisons)
    # For options compared by a value: "date" or "number", and whether the least wins.
    compared_by: Literal["date", "number"] | None = None
    least_wins: bool = False


def expected_answer(question: Question, doc: Any | None = None) -> ExpectedAnswer:
    """The expected answer of ``question``; ``doc`` is its spaCy parse (names and head nouns)."""
    text = question.text
    options = _options(text, doc)
    if question.kind == "yes_no":
        return ExpectedAnswer("yes_no", frozenset(), options=options)
    compared_by, least = comparison(text)
    if options and question.kind in {"which", "who", "what", "other", "where", "when"}:
        return ExpectedAnswer(
            "option", frozenset(), options=options, compared_by=compared_by, least_wins=least
        )
    if question.kind == "count" or re.search(r"\bhow (many|much)\b", text, re.I):
        return ExpectedAnswer("number", NUMBERS, _counted_noun(text, doc), NUMBERS)
    if re.search(r"\bhow (old|long)\b", text, re.I):
        return ExpectedAnswer("number", NUMBERS | DATES, preferred=NUMBERS | DATES)
    head = _head_noun(text, doc)
    labels = _HEAD_LABELS.get(head or "")
    if question.kind == "when":
        return ExpectedAnswer("date", DATES, preferred=DATES)
    if question.kind == "where":
        # Where one works or studies is as often the employer or school as its town.
        preferred = PLACES | ORGS if _asks_workplace(text, doc) else PLACES
        return ExpectedAnswer("place", PLACES | ORGS, preferred=preferred)
    if labels is not None:
        return ExpectedAnswer(_KIND_OF_LABELS.get(labels, "entity"), labels, head, labels)
    if question.kind in {"what", "which"} and (head in _CATEGORY_HEADS or _KIND_OF.search(text)):
        return ExpectedAnswer("category", frozenset(), head, frozenset({NOUN_PHRASE}))
    if question.kind == "who":
        # "Who was Atlético Madrid's coach …": a person, no club (the small parser labels
        # many a person's name an organisation's, so it is not left out).
        return ExpectedAnswer("entity", PEOPLE | ORGS, _person_said(doc), preferred=PEOPLE)
    named = NAMED if _ASKS_GROUP.search(text) else NAMED - {"NORP"}
    if head:  # "which comedy": "English" is none ("what language" is typed above)
        named -= {"LANGUAGE"}
    if head == "title":  # a rank, a post or a championship: no person, no place
        named -= PEOPLE | PLACES
    # "Which academy": a date is none; "which season" may be one. Nor is a date or a number a
    # name or a title ("got what title in 1962", "officially named what"), nor what held at a
    # time the question gives ("what titled job from Jul 2015 to Dec 2015": "July 2015" is
    # the question's own date).
    a_name = head in _NAME_OF or asks_name(text)
    timed = question.time is not None and head not in _SPELL_HEADS
    dated = (not head or head in GENERIC_HEADS | _SPELL_HEADS) and not a_name and not timed
    numbers = frozenset() if a_name else NUMBERS
    return ExpectedAnswer("phrase", named | numbers | (DATES if dated else set()), head, named)


_DETERMINERS = frozenset({"which", "what", "whose"})
# Nouns of a person that a body may be too: a firm succeeds one, a city hosts, a club is a member.
_ALSO_BODIES = frozenset({"member", "host", "producer", "founder", "successor", "predecessor"})


def _person_said(doc: Any | None) -> str | None:
    """The person noun a copula says "who" is: "coach" for "Who was Atlético Madrid's coach" and
    "Who was the coach of UD Las Palmas"; none for "Who acquired X" or "Who was the successor"."""
    for token in doc if doc is not None else ():
        if token.lower_ != "who" or token.head.lemma_ != "be":
            continue
        for other in token.head.children:
            lemma = str(other.lemma_).lower()
            if other.i != token.i and other.dep_ in {"attr", "nsubj"} and other.pos_ == "NOUN":
                return lemma if lemma in PERSON_NOUNS - _ALSO_BODIES else None
    return None


def _head_noun(text: str, doc: Any | None) -> str | None:
    """The noun a "which/what" determines ("Which American higher learning institution" ->
    institution), from the parse where there is one, else the next word."""
    if doc is not None:
        for token in doc:  # "What is the name of the pop band …" -> band
            if token.lower_ in _NAME_OF and token.i < 6:
                named = [
                    o for c in token.children if c.lower_ == "of" for o in c.children
                    if o.dep_ == "pobj"
                ]  # fmt: skip
                if named:
                    return str(named[0].lemma_).lower()
        opens = requested(text)  # "Name the country that …": the country
        named_thing = next((c for c in doc.noun_chunks if c.start_char >= (opens or 0)), None)
        if opens is not None and named_thing is not None:
            return _kind_of(named_thing.root)
        asking = _asking_token(text, doc)
        for chunk in doc.noun_chunks:  # "Which American higher learning institution"
            if chunk[0].i == asking and len(chunk) > 1:
                # "From which university John Campbell Brown was …": a name of two or more
                # words the parse ran on into is not the noun asked; the common noun before it
                # is (a capitalised head, "which baseball League", stays the head).
                common = [t for t in chunk if t.pos_ == "NOUN"]
                if chunk.root.pos_ == "PROPN" and common and chunk.end - common[-1].i > 2:
                    return _kind_of(common[-1])
                return _kind_of(chunk.root)
        for token in doc:
            if token.i == asking and token.dep_ == "det":
                return _kind_of(token.head)
        # "what kind of city", "which of the films", a parse gone wrong
        for token in doc[asking or 0 :]:
            if token.lower_ in {"which", "what"}:
                # "worked as what": a job ("served as chief of staff")
                serving = str(token.head.head.lemma_).lower() in _SERVING
                if token.dep_ == "pobj" and token.head.lower_ == "as" and serving:
                    return "job"
                owner = token.head.head if token.head.lower_ == "of" else None
                if token.dep_ == "pobj" and owner is not None and owner.pos_ == "NOUN":
                    return _kind_of(owner)  # "the rank of what in the army": a rank
                nouns: list[str] = []
                after = doc[token.i + 1 : token.i + 8]
                if len(after) > 1 and after[0].lemma_ == "be" and after[1].pos_ == "DET":
                    after = after[2:]  # "what was the population of …": the noun it asks
                for later in after:
                    # "named what from Jul 1946": what follows another preposition than "of"
                    # ("which of the films", "which among the bands") is no noun asked.
                    if later.pos_ == "ADP" and later.lower_ not in {"of", "among"}:
                        break
                    if later.tag_ == "POS":  # "the politician Peter Beattie's title": title
                        nouns = []
                        continue
                    if later.pos_ in {"NOUN", "PROPN"} and later.lower_ not in {"kind", "type"}:
                        nouns.append(str(later.lemma_).lower())
                    elif later.pos_ not in {"ADJ", "ADP", "DET", "ADV"} or nouns:
                        break
                # The last noun of a compound is its head ("learning institution").
                return nouns[-1] if nouns else None
        return None
    found = re.search(r"\b(?:which|what|whose)\s+([a-z]+)", text, re.I)
    return found.group(1).lower().rstrip("s") if found else None


def _asking_token(text: str, doc: Any) -> int | None:
    """Where the "which", "what" or "whose" that asks is: the first ("what was the
    profession of X, whose life …" asks no life), unless a relative clause's comes before
    the wh-phrase ending the question ("a University which also has a second campus in which
    California city?")."""
    first = next((t.i for t in doc if t.lower_ in _DETERMINERS), None)
    word = asking_word(text)
    if word is None or word.group(1).lower() not in _DETERMINERS:
        return first
    return next((t.i for t in doc if t.idx == word.start(1)), first)


def _kind_of(noun: Any) -> str:
    """ "What kind of city", "citizenship of what type": city, citizenship; any other noun
    itself."""
    if noun.lower_ in _KINDS:
        kinds = [o for c in noun.children if c.lower_ == "of" for o in c.children]
        if kinds and kinds[0].pos_ in {"NOUN", "PROPN"}:
            return str(kinds[0].lemma_).lower()
        owner = noun.head.head if noun.head.lower_ == "of" else None
        if owner is not None and owner.pos_ == "NOUN":
            return str(owner.lemma_).lower()
    return str(noun.lemma_).lower()


def _counted_noun(text: str, doc: Any | None) -> str | None:
    """What "how many" counts ("how many records" -> record, "how many times" -> time): a
    number the evidence gives of that noun answers it."""
    if doc is not None:
        for token in doc:
            if (
                token.lower_ in {"many", "much"}
                and token.i > 0
                and doc[token.i - 1].lower_ == "how"
            ):
                counted = token.head  # "many" modifies what it counts
                if counted.i > token.i and counted.pos_ == "NOUN":
                    return str(counted.lemma_).lower()
                return None
        return None
    found = re.search(r"\bhow (?:many|much)\s+([a-z]+)", text, re.I)
    return found.group(1).lower().rstrip("s") if found else None


def _options(text: str, doc: Any | None) -> tuple[str, ...]:
    """The two alternatives a question names with "or" ("Who is older, X or Y?", "Which band
    was formed first The Exies or Circus Diablo?"); none when "or" joins no names."""
    body = text.strip().rstrip("?").strip()
    between = _BETWEEN.search(body)
    if between:
        return (between.group(1).strip(), between.group(2).strip())
    parts = _OR.split(body)
    if len(parts) != 2:
        return _joined_before(body)
    left, right = parts
    right = right.strip(" ,\"'")
    if "," in left:
        left = _EVENT_OF.sub("", left.rsplit(",", 1)[1].strip())
    elif ":" in left:
        left = left.rsplit(":", 1)[1]
    else:
        left = _trailing_name(left, doc)
    left = left.strip(" \"'")
    left = re.sub(r"^(the|a|an|between|either)\s+", "", left).strip()
    right = re.sub(r"^(the|a|an)\s+(?=[A-Z])", "", right).strip()
    right = _EVENT_OF.sub("", right).strip()
    if not left or not right or len(left.split()) > 8 or len(right.split()) > 8:
        return ()
    if not (left[:1].isupper() or left[:1].isdigit()) or not (
        right[:1].isupper() or right[:1].isdigit()
    ):
        return ()
    return (left, right)


def _joined_before(body: str) -> tuple[str, ...]:
    """ "X and Y were founded within a year of each other. Which was the first …?": the two
    names an earlier clause joins, where the question compares without naming them."""
    *before, asked = re.split(r"(?<=[.!?])\s+", body)
    if not before or not _WHICH_OF_THEM.search(asked) or comparison(asked)[0] is None:
        return ()
    pairs = NAMES_JOINED.findall(" ".join(before))
    return (pairs[0][0], pairs[0][1]) if len(pairs) == 1 else ()


def _trailing_name(left: str, doc: Any | None) -> str:
    """The capitalised words that end ``left`` (the first option when no comma sets it off)."""
    words = left.split()
    taken: list[str] = []
    for word in reversed(words):
        if word[:1].isupper() or word[:1].isdigit() or (taken and word.lower() in {"of", "the"}):
            taken.append(word)
        else:
            break
    while taken and taken[-1] in {"of", "the"}:
        taken.pop()
    return " ".join(reversed(taken))


def names_other_kind(head: str | None, name: str) -> bool:
    """The last word of a kind in the name declares a kind other than the asked one:
    "Southern League" or "the Conference National" for "which team", "Stadium of Light" for
    "what football team"; any word of a kind, for a person ("FC Lyra" for "which coach")."""
    words = [w.lower() for w in name.split()]
    if not head or not words:
        return False
    if head in PERSON_NOUNS:  # "FC Saarbrücken" or "La Liga" for "Who was X's coach"
        return names_no_person(name)
    kinds = [w[:-1] if w.endswith("s") and w[:-1] in _ALL_KINDS else w for w in words]
    own = next((w for w in reversed(kinds) if w in _ALL_KINDS), None)
    asked = next((kinds for kinds in _NAMED_KINDS if head in kinds), None)
    return asked is not None and own is not None and own not in asked


# Words that make a name no person's, whatever the parser labels it: "La Liga", "Copa del Rey",
# "the FA Cup", "Ajax Amsterdam Football Club", "FC Lyra" ("Arena" and "Ground" are surnames
# too); a text's title, "History of Galatasaray", "List of rectors".
_NO_PERSON = (_ALL_KINDS - {"arena", "ground", "side", "honor", "honour"}) | {
    *("liga", "copa", "fc", "afc"),
    *("history", "list", "timeline", "chronology", "bibliography"),
}


def names_no_person(name: str) -> bool:
    """A word of the name declares a competition, team, prize, venue or school."""
    return any(w.lower().strip(".,") in _NO_PERSON for w in name.split())


# Nouns that ask for a person ("which actress", "which host").
PERSON_NOUNS = frozenset(noun for noun, labels in _HEAD_LABELS.items() if labels == PEOPLE)
# Nouns for a person holding a post: those above but kin and any person, and posts more often
# written in a name than asked by ("Minister of Finance").
_NO_POSTS = frozenset(
    {"person", "man", "woman", "individual", "character", "figure", "star", "child", "son",
     "daughter", "wife", "husband", "brother", "sister", "father", "mother", "spouse",
     "girlfriend", "boyfriend", "fiance", "fiancee", "heir", "widow", "widower", "grandson",
     "granddaughter", "nephew", "niece", "cousin", "uncle", "aunt", "parent", "successor",
     "predecessor", "student", "pupil"}
)  # fmt: skip
_POST_NOUNS = (PERSON_NOUNS - _NO_POSTS) | {
    "minister", "secretary", "treasurer", "chief", "deputy", "professor", "lecturer",
    "administrator", "spokesperson", "spokesman", "spokeswoman", "commissioner", "premier",
    "superintendent", "judge", "attorney", "lieutenant", "colonel", "sergeant", "marshal",
    "congressman", "congresswoman", "assemblyman", "assemblywoman", "alderman", "councillor",
    "councilor", "councilman", "councilwoman", "consul",
}  # fmt: skip


def names_a_post(name: str) -> bool:
    """The name ends, before any "of" or "for", in a noun for a person ("Chief Mechanical
    Engineer", "Minister of Finance", "Minister for Defence"): a post, whatever label the parser
    gave it. A plural ("Royal Engineers") may name a body of them and is not read so."""
    words = re.split(r"[\s-]+", re.split(r" (?:of|for) ", name.lower())[0].strip())
    return words[-1] in _POST_NOUNS


# "What role / job / office did X hold": a post answers ("Minister of Finance"), where the
# evidence names one. "What position did X play" asks a place on a team, not a post.
_POST_HEADS = frozenset({"job", "role", "occupation", "profession", "office", "post", "position"})
_PLAYED = re.compile(r"\bplay(?:s|ed|ing)?\b", re.I)


def asks_post(expected: ExpectedAnswer, question: str) -> bool:
    """The question asks what post someone held."""
    posted = expected.kind == "category" and expected.head in _POST_HEADS
    return posted and not _PLAYED.search(question)


def asks_same(text: str) -> bool:
    """A yes/no question about two things sharing something ("the same nationality", "both")."""
    return bool(_SAME.search(text))
