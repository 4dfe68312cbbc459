"""Names the question lends to the evidence: a person sharing one is kin or a namesake of
what the question names ("Max Ramsay" for "Kate Ramsay … created by whom?"), an answer only
where a relative is asked; so is one the evidence calls by a nickname ('Tim Cratchit ("Tiny
Tim")' for "Bob Cratchit's employer"), a piece of the question's own name the parser cut off
("El Hadji" of "El Hadji Baye Oumar Niasse" for "Oumar Niasse's team"), and the rest of the
subject's full name written elsewhere ("Bengt" of "Bengt Holmström" for "economist
Holmström")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from graphgate.core.text import without_accents
from graphgate.query.answer_type import NOUN_PHRASE, PERSON_NOUNS
from graphgate.query.reader_evidence import NAME_JOINERS

# Words that ask after a relative: an answer sharing a name of the question is then expected
# ("Hank Williams Jr." for "Audrey Williams' son", "Tim Cratchit" for "the Cratchit children").
_KIN = re.compile(
    r"\b(?:sons?|daughters?|fathers?|mothers?|parents?|wife|wives|husbands?|brothers?|"
    r"sisters?|siblings?|child|children|family|families|married|marry|spouses?|widow(?:er)?|"
    r"uncles?|aunts?|nephews?|nieces?|cousins?|grand\w+|kin|kinsman|heirs?|descendants?)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# "Cratchit's" lends "Cratchit".
_POSSESSIVE_END = re.compile(r"['’]s?$")


def lent_names(question: str) -> frozenset[str]:
    """The capitalised words a question gives (not its first word, which is capitalised
    anyway, nor a joiner such as "The"), lower-cased; none where it asks after a relative,
    whose answer is expected to share them."""
    if _KIN.search(question):
        return frozenset()
    names = frozenset(
        _POSSESSIVE_END.sub("", w).lower() for w in _WORD.findall(question)[1:] if w[0].isupper()
    )
    return names - NAME_JOINERS


# A name and the nickname quoted beside it: 'Tim Cratchit ("Tiny Tim")', 'Robert "Bob" Lee'.
_NAME_RUN = r"[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*"
_QUOTED = r"[\"“'‘]([^\"”'’()]{2,40})[\"”'’]"
# Between a first name and a surname, one word: 'Rogers "Carry On" films' is a title's.
_QUOTED_WORD = r"[\"“'‘]([A-Z][\w.-]{1,20})[\"”'’]"
_NICKNAMED = (
    re.compile(rf"({_NAME_RUN})\s*\(\s*{_QUOTED}\s*\)"),
    re.compile(rf"([A-Z][\w.'-]*)\s+{_QUOTED_WORD}\s+([A-Z][\w.'-]*)"),
)


def nickname_of(candidate: str, sentence: str) -> str | None:
    """The full name the sentence gives beside ``candidate`` quoted as its nickname
    ("Tim Cratchit" for "Tiny Tim" in 'Tim Cratchit ("Tiny Tim"), a cripple'), or None."""
    for pattern in _NICKNAMED:
        for found in pattern.finditer(sentence):
            if found.group(2).strip() == candidate:
                return " ".join(g for i, g in enumerate(found.groups()) if i != 1)
    return None


def shares_a_name(candidate: str, lent: frozenset[str]) -> bool:
    """The candidate holds one of the names the question lends (``lent_names``): "Max Ramsay"
    for "Kate Ramsay is a character created by who?", "Simon Schatzberger" for "Simon & Simon
    starred which actor?", "St. Vincent" for "Transfiguration of Vincent is by a singer from
    what state?". The question's own name lent to the candidate, not an answer."""
    return any(w[0].isupper() and w.lower() in lent for w in _WORD.findall(candidate))


def lent_to(candidate: str, sentence: str, lent: frozenset[str], person: bool) -> bool:
    """The candidate is kin or a namesake of a name the question lends: a ``person`` sharing
    one, or the nickname of a name sharing one."""
    if person and shares_a_name(candidate, lent):
        return True
    return shares_a_name(nickname_of(candidate, sentence) or "", lent)


def part_of_named(doc: Any, start: int, end: int, names: frozenset[str]) -> bool:
    """The candidate's tokens [start, end), proper nouns, run on through proper nouns into a
    name the question lends (``names``, ``lent_names``): the parser cut a piece off that name
    ("El Hadji" of "El Hadji Baye Oumar Niasse", asked of "Oumar Niasse"). A title the
    question asks in lower case ("which colonel": "Colonel James Hay") lends no name."""
    if not names or end <= start:
        return False
    dated = {i for e in doc.ents if e.label_ in {"DATE", "TIME"} for i in range(e.start, e.end)}

    def name_word(i: int) -> bool:
        token = doc[i]
        return bool(token.pos_ == "PROPN" and token.text[:1].isupper() and i not in dated)

    if not all(name_word(i) for i in range(start, end)):
        return False
    run: list[int] = []
    i = start - 1
    while i >= 0 and name_word(i):
        run.append(i)
        i -= 1
    i = end
    while i < len(doc) and name_word(i):
        run.append(i)
        i += 1
    return any(doc[i].lower_ in names for i in run)


def unlabelled_name(label: str, text: str) -> bool:
    """A noun phrase the parser gave no entity label, every word of it capitalised: a name of
    no known type, as likely a person's as any ("Koch Industries", labelled, is no person)."""
    words = text.split()
    return label == NOUN_PHRASE and bool(words) and all(w[:1].isupper() for w in words)


def subject_words(docs: Sequence[Any], asked: Any, lent: frozenset[str]) -> frozenset[str]:
    """The other words of a person's full name (two or three words) the evidence writes with a
    name the question gives after a noun for a person (``asked``: its parse; "bengt" of "Bengt
    Holmström", asked of "economist Holmström"; "low" of "Joachim Löw", asked of "coach
    Joachim"), unaccented: the question's subject goes by them. Not a word the question gives
    of a thing ("Search", where the parser calls "Google Search" a person), nor of a longer
    run the parser calls one ("Taylor Swift Travis Kelce")."""
    people = _named_people(asked) & lent
    plain = {without_accents(w) for w in people}
    found: set[str] = set()
    for doc in docs if plain else ():
        for ent in doc.ents:
            words = {without_accents(t.lower_) for t in ent}
            full = 2 <= len(ent) <= 3 and all(t.is_alpha and t.text[:1].isupper() for t in ent)
            if ent.label_ == "PERSON" and full and words & plain:
                found |= words - plain
    return frozenset(found)


def names_the_subject(words: set[str], subject: frozenset[str], lent: frozenset[str]) -> bool:
    """A candidate of the subject's other names alone, or with the lent ones ("Bengt", "Löw",
    whatever the parser labels them), is the question's subject, not its answer."""
    plain = {without_accents(w) for w in lent}
    return bool(words & subject) and words <= subject | plain


def _named_people(asked: Any) -> set[str]:
    """The capitalised words right after a noun for a person in the question ("economist
    Bengt Holmström"), lower-cased."""
    out: set[str] = set()
    for token in asked:
        if token.lower_ in PERSON_NOUNS or token.lemma_ in PERSON_NOUNS:
            for after in asked[token.i + 1 :]:
                if not after.text[:1].isupper():
                    break
                out.add(after.lower_)
    return out
