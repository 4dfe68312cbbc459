"""A question after a thing's own name, and the names a sentence gives its subject.

"What official name did the Air Armament Center have from Oct 1942 to Oct 1943?", "The station
… was called what from 1983 to 2004?", "What was the VP-42 Patrol Squadron officially named
…?" ask what the thing was called, not where it stood or who ran it. In the sentence that
answers, the name is what a verb of naming gives the subject: "was redesignated the Air Proving
Ground Command", "established as Patrol Squadron 25", "renamed X", "became X", "changed its name
to X", "known as X". Any other name in that sentence ("at Eglin Field , Florida") is where or
under whom the thing was. Read from spaCy's dependency parse with a few verbs of English.
"""

from __future__ import annotations

import re
from typing import Any

# "officially named / called …", "named what", "which name", "what official designation",
# "had which title officially"; not a plain "what title" (a person's rank or a chess title)
# nor "the man named Gary Mills" (a name the question gives).
_ASKS_NAME = re.compile(
    r"\b(?:official(?:ly)?\s+(?:named|called|known|titled|designated|name|designation)"
    r"|(?:named|called|renamed|redesignated|designated|titled)\s+(?:what|which)\b"
    r"|(?:what|which)\s+(?:official\s+)?(?:name|designation)\b"
    r"|(?:what|which)\s+title\s+officially)",
    re.I,
)
# Verbs whose complement is the name the subject took: "was redesignated X", "renamed X",
# "became X"; and with "as": "established as X", "reorganised as X", "known as X".
_NAMING = frozenset(
    {"name", "rename", "designate", "redesignate", "call", "title", "retitle", "rebrand",
     "become", "christen", "dub"}
)  # fmt: skip
_NAMING_AS = _NAMING | frozenset(
    {"establish", "activate", "reactivate", "constitute", "reconstitute", "form", "reform",
     "organize", "organise", "reorganize", "reorganise", "know", "commission", "found",
     "recommission", "register", "reestablish", "re-establish", "list"}
)  # fmt: skip
# Verbs that give the subject a new name and nothing else: "renamed HNLMS Banda" names the
# ship, while "named Nick Saban as head coach" or "became X" may give a post or its holder.
_RENAMING = frozenset({"rename", "redesignate", "rechristen", "rebrand", "retitle"})
# Dependencies of a verb's complement: "was redesignated X" (oprd, attr or a mistaken dobj),
# "became X" (attr), "renamed it X" (oprd).
_COMPLEMENTS = frozenset({"oprd", "attr", "dobj", "xcomp", "appos"})
# Where "name" stands in "changed its name to X" and "its name was changed to X".
_NAMED_SIDE = frozenset({"dobj", "nsubjpass", "nsubj"})


def asks_name(question: str) -> bool:
    """The question asks what its subject was called."""
    return _ASKS_NAME.search(question) is not None


def named_as(doc: Any, start: int, end: int, renaming: bool = False) -> bool:
    """The candidate (tokens [start, end)) is a name a verb of naming gives in its sentence:
    "redesignated X", "established as X", "changed its name to X"; or is joined by "and" or a
    comma to one ("redesignated X on …, redesignated Y on …" gives both). ``renaming``: only
    a name given in place of the subject's own ("renamed X", "changed its name to X"), which
    is the subject again, whoever ran it: no answer to who operated the ship."""
    naming, naming_as = (_RENAMING, _RENAMING) if renaming else (_NAMING, _NAMING_AS)
    if end <= start:
        return False
    root = doc[start:end].root
    for _ in range(3):  # "redesignated X (…) , redesignated Y": a conjunct shares its verb
        if root.dep_ != "conj" or root.head.i == root.i:
            break
        root = root.head
    # The small parser reads "VP-72 was redesignated VPB-122" as a name the verb modifies.
    if any(c.dep_ == "amod" and str(c.lemma_).lower() in naming for c in root.children):
        return True
    head = root.head
    if head.i == root.i:
        return False
    lemma = str(head.lemma_).lower()
    if root.dep_ in _COMPLEMENTS and lemma in naming:
        return True
    if root.dep_ != "pobj" or head.head.i == head.i:
        return False
    verb = head.head
    verb_lemma = str(verb.lemma_).lower()
    if head.lower_ == "as":
        return verb_lemma in naming_as
    if head.lower_ == "to":  # "changed its name to X", "its name was changed to X"
        return verb_lemma in {"change", "alter"} and any(
            str(c.lemma_).lower() == "name" for c in verb.children if c.dep_ in _NAMED_SIDE
        )
    return False
