"""A name's other names in questions and evidence: letters the question's own name gives ("TWF"
for "Thumb Wrestling Federation"), the name a sentence defines letters by ("the Christian
Employers Association ( NCW )"), the letters asked for ("What is the abbreviation of …"), a
name bracketed after another ("the Sächsische Volkspartei ( Saxon Peoples Party )"), and a place
written with the place it lies in ("London , England")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphgate.core.text import content_word_set, normalise_name
from graphgate.query.reader_evidence import NAME_JOINERS
from graphgate.query.reader_posts import nested

_INITIALS = re.compile(r"[A-Z]{3,6}")
_ABBREVIATION = re.compile(r"[A-Z][A-Z&]{1,7}")
_JOINER = "|".join(re.escape(w) for w in sorted(NAME_JOINERS))
# "Consejo Mundial de Lucha Libre", "Emerson, Lake & Palmer"'s "Lake & Palmer".
_CAPITALISED_RUN = re.compile(rf"[A-Z][\w'-]*(?:\s+(?:(?:{_JOINER})\s+)?[A-Z][\w'-]*)+")


def abbreviates(candidate: str, question: str) -> bool:
    """The candidate is the initials of a name the question gives ("TWF" for "Thumb Wrestling
    Federation"): the question names it too."""
    letters = candidate.strip(" .").replace(".", "")
    if not _INITIALS.fullmatch(letters):
        return False
    for run in _CAPITALISED_RUN.findall(question):
        initials = "".join(w[0] for w in run.split() if w.lower() not in NAME_JOINERS)
        if letters.upper() == initials.upper():
            return True
    return False


def defined_name(abbreviation: str, text: str) -> str | None:
    """The name a sentence defines an abbreviation by: "Christian Employers Association" for
    "NCW" in "… for the Christian Employers Association ( NCW ) ." (None: it defines none). The
    letters alone do not say what they stand for, and often not in the reader's language."""
    if not _ABBREVIATION.fullmatch(abbreviation):
        return None
    after = re.compile(rf"\s*\(\s*{re.escape(abbreviation)}\s*\)")
    for run in _CAPITALISED_RUN.finditer(text):
        if after.match(text, run.end()):
            words = run.group(0).split()
            while words and not content_word_set(words[0]):
                words = words[1:]  # a sentence's capitalised "In the …", "The …"
            return " ".join(words) if len(words) > 1 else None
    return None


_ASKS_ABBREVIATION = re.compile(r"\b(?:abbreviat\w*|acronyms?|initialism)\b", re.IGNORECASE)
_ASKS_EXPANSION = re.compile(r"\b(?:stands?|stood|short)\s+for\b|\bmean", re.IGNORECASE)


def spells(letters: str, name: str) -> bool:
    """``letters`` begin with ``name``'s first initial and hold all its words' initials in
    order: "RNLN" for "Royal Netherlands Navy", "LSSP" for "Lanka Sama Samaja Party"; not
    "FDP" for "Ada Lund"."""
    initials = [w[0].upper() for w in name.split() if w.lower() not in NAME_JOINERS]
    if len(initials) < 2 or not letters.startswith(initials[0]):
        return False
    rest = iter(letters.upper())
    return all(i in rest for i in initials)


def same_letters(letters: str, name: str, sentence: str, initials: bool = False) -> bool:
    """The sentence defines ``letters`` by ``name`` ("NCW", "the Christian Employers
    Association ( NCW )"), or ``letters`` is ``name`` and the sentence defines it.
    ``initials``: the letters must also be the name's ("CSO", "Central Statistics Office"),
    not a party's after a person ("Ada Lund ( FDP )")."""
    defined = defined_name(letters, sentence)
    if defined is None:
        return False
    if initials and "".join(w[0] for w in defined.split() if w[0].isupper()) != letters:
        return False
    return normalise_name(name) in {normalise_name(defined), normalise_name(letters)}


def same_answer(one: str, other: str, sentence: str) -> bool:
    """Two candidates of one sentence that are one answer: a post and the post with its "of"
    phrase ("Governor", "Governor of South Australia"), letters and the name the sentence
    defines them by ("NCW", "the Christian Employers Association ( NCW )"), a name and the
    translation the sentence brackets after it ("the Sächsische Volkspartei ( Saxon Peoples
    Party )")."""
    return nested(one, other) or any(
        same_letters(a, b, sentence) or glossed(a, b, sentence)
        for a, b in ((one, other), (other, one))
    )


def located(place: str, container: str, sentence: str) -> bool:
    """The sentence writes ``place`` with the place it lies in after a comma ("London ,
    England , in 1950", "Tucson , Arizona"): one place, not rivals. A list ("Paris , London
    and Rome", "Paris , London , Rome") is no such pair."""
    return bool(
        re.search(
            rf"(?<![,;] )(?<!\band ){re.escape(place)}\s*,\s*{re.escape(container)}"
            r"(?!\s*(?:[,;]\s*(?:and\b|or\b|[A-Z])|&|and\b|or\b)|[\w-])",
            sentence,
        )
    )


def glossed(name: str, gloss: str, sentence: str) -> bool:
    """The sentence gives ``gloss`` in brackets right after ``name``, alone or first in them,
    or after the language it is in ("( Catalan : Front Obrer de Catalunya , FOC )"): another
    name of it (a translation, a former or a short name)."""
    bare = re.sub(r"^[Tt]he\s+", "", gloss)
    said = rf"\s*\(\s*(?:[A-Z][a-z]+\s*:\s*)?(?:the\s+)?{re.escape(bare)}\s*[),;]"
    return bool(re.search(re.escape(name) + said, sentence))


def lettered(candidates: list[str], evidence: list[str]) -> list[tuple[int, str]]:
    """For a question asking for an abbreviation: each candidate (by index, in order) as the
    letters the evidence gives it ("LXF" for "Linux Format", "Linux Format is commonly
    abbreviated to LXF"); one without letters is dropped, and so is a repeat of letters."""
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for i, candidate in enumerate(candidates):
        letters = abbreviation_of(candidate, evidence)
        if letters is not None and letters not in seen:
            seen.add(letters)
            out.append((i, letters))
    return out


def asks_abbreviation(question: str) -> bool:
    """The question asks for letters: "What is the abbreviation of …", "… this acronym"; not
    "What does the abbreviation NFB stand for?", which gives them."""
    return bool(_ASKS_ABBREVIATION.search(question)) and not _ASKS_EXPANSION.search(question)


def abbreviation_of(name: str, texts: Sequence[str]) -> str | None:
    """The abbreviation the evidence gives ``name``: "Linux Format ( LXF )", "Linux Format (
    a magazine; abbreviated LXF )", "Linux Format is commonly abbreviated to LXF", '"LXF"
    stands for "Linux Format"' (None: none is given). The name itself when it is letters
    already ("LARP")."""
    bare = name.strip(" ()[]\"'")  # the parser's "( NFB"
    if _ABBREVIATION.fullmatch(bare):
        return bare
    named = re.escape(re.sub(r"^[Tt]he\s+", "", bare))  # "the Nordic Film Board"
    letters = _ABBREVIATION.pattern
    given = (
        rf"{named}\W{{0,2}}\s*\(\s*({letters})\s*\)",
        rf"{named}\W{{0,2}}\s*\([^()]*?\babbreviated\s+(?:as\s+|to\s+)?({letters})\s*\)",
        rf"{named}\W{{0,2}}\s+(?:is\s+|was\s+)?(?:\w+\s+)?(?:abbreviated|shortened)"
        rf"\s+(?:to|as)\s+(?:the\s+)?\W?({letters})\b",
        rf"\b({letters})\W{{0,2}}\s+(?:is\s+)?(?:short|stands)\s+for\s+\W?(?:the\s+)?{named}",
    )
    for text in texts:
        for pattern in given:
            for found in re.finditer(pattern, text):
                before = text[: found.start()].split()
                # The whole name, not the end of a longer one ("Film Board" in "Nordic Film
                # Board ( NFB )").
                if not before or not before[-1][0].isupper() or before[-1].lower() in NAME_JOINERS:
                    return found.group(1)
    return None
