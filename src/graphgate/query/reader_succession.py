"""Who left and who came, in a sentence that tells of a change of hands: "Baldini resigned …,
being replaced by Walter Zenga", "Kaunda was succeeded by Frederick Chiluba in 1991", "Mills
left Alfreton to return to Tamworth", "joined on a free transfer from Lyon", "resigned from the
party in 1972", "Willis sold the ship to Ferreira in 1895", "the arrival of Quique as coach",
"the AAF PGC was redesignated the Air Proving Ground Command" (a name for a name).

Such a sentence names both sides of the change beside one date. Asked what held from that date
on, the one who came answers; asked what held until it, the one who left (query/reader.py
weighs the role against the end of the asked span the date meets). Read from spaCy's dependency
parse with a few verbs of English: the verb's lemma says which of its arguments is which.
"""

from __future__ import annotations

from typing import Any

LEAVING, NONE, COMING = -1, 0, 1

# "X resigned / retired / died / left": its subject leaves.
_SUBJECT_LEAVES = frozenset({"resign", "retire", "die", "leave", "quit", "depart"})
# "X replaced / succeeded Y": Y leaves, X comes; passive "Y was replaced by X" likewise.
_TAKES_OVER = frozenset({"replace", "succeed"})
# "They sacked / dismissed Y", "Y was ousted": Y leaves.
_REMOVES = frozenset({"oust", "depose", "sack", "fire", "dismiss", "relieve"})
# "Y was sacked / released / loaned by X": the employer X is left (one "ousted by" or
# "relieved by" may be who comes).
_LETS_GO = frozenset({"sack", "fire", "dismiss", "release", "discharge", "loan"})
# "X left / quit Y": Y is left.
_OBJECT_LEFT = frozenset({"leave", "quit"})
# "joined / signed for / moved to / was loaned to X": X is reached; "… from Y": Y is left.
_MOVES = frozenset({"join", "sign", "move", "transfer", "loan", "return", "switch", "arrive"})
_TOWARDS = frozenset({"to", "for", "with"})
# "resigned / retired / withdrew / was expelled from Y": Y is left ("graduated from" a school
# stays no change of hands).
_LEFT_FROM = _SUBJECT_LEAVES | frozenset(
    {"withdraw", "defect", "expel", "split", "secede", "release", "discharge"}
)
# A change of owner. "X sold / gave / willed Y to Z", "Y was sold to Z by X": X leaves, Z comes.
_HANDS_OVER = frozenset({"sell", "give", "donate", "bequeath", "will", "cede", "lease", "hand"})
# "Z bought / acquired / inherited Y from X", "Y was bought by Z": Z comes, X leaves.
_TAKES = frozenset({"buy", "purchase", "acquire", "inherit"})


# "X was renamed / redesignated Y": the name X leaves, Y comes.
_RENAMES = frozenset({"rename", "redesignate", "retitle", "rebrand"})
# "X turned / was transformed / merged into Y" ("they converted X into Y"): X leaves, Y comes.
_BECOMES = frozenset(
    {"turn", "transform", "convert", "merge", "evolve", "reorganize", "reorganise", "develop"}
)
# The same changes named by a noun: "the arrival of Quique as coach", "Baldini's resignation",
# "the sacking of Abel Resino" ("of X" and "X's" alike).
_COMING_NOUNS = frozenset({"arrival", "appointment", "signing", "hiring", "accession"})
_LEAVING_NOUNS = frozenset(
    {"departure", "resignation", "dismissal", "sacking", "firing", "retirement", "exit",
     "removal", "ouster", "ousting", "death"}
)  # fmt: skip


def succession_role(doc: Any, start: int, end: int) -> int:
    """LEAVING, COMING or NONE: the candidate's side in the change its sentence tells of."""
    if end <= start:
        return NONE
    root = doc[start:end].root
    head = root.head
    if head.i == root.i:
        return NONE
    lemma = str(head.lemma_).lower()
    dep = str(root.dep_)
    if lemma in _BECOMES and any(c.lower_ == "into" for c in head.children):
        transitive = any(c.dep_ == "dobj" for c in head.children)
        if dep in {"nsubjpass", "dobj"} or (dep == "nsubj" and not transitive):
            return LEAVING
    if dep == "pobj" and head.lower_ == "into" and str(head.head.lemma_).lower() in _BECOMES:
        return COMING
    if dep == "nsubj":
        if lemma in _SUBJECT_LEAVES | _HANDS_OVER:
            return LEAVING
        if lemma in _TAKES_OVER | _TAKES:
            return COMING
    if dep == "nsubjpass" and lemma in _TAKES_OVER | _REMOVES | _RENAMES:
        return LEAVING
    # "was renamed Y" (a passive's object too: "was redesignated the Y Command").
    passive = any(c.dep_ in {"auxpass", "nsubjpass"} for c in head.children)
    if lemma in _RENAMES and (dep in {"oprd", "attr"} or (dep == "dobj" and passive)):
        return COMING
    if dep == "dobj":
        if lemma in _TAKES_OVER | _REMOVES | _OBJECT_LEFT:
            return LEAVING
        if lemma in _MOVES:
            return COMING
    noun = head.head if dep == "pobj" and head.lower_ == "of" else head if dep == "poss" else None
    if noun is not None and noun.pos_ == "NOUN":
        noun_lemma = str(noun.lemma_).lower()
        if noun_lemma in _COMING_NOUNS:
            return COMING
        if noun_lemma in _LEAVING_NOUNS:
            return LEAVING
    if dep == "pobj" and head.head.i != head.i:
        verb, word = str(head.head.lemma_).lower(), str(head.lower_)
        if word == "by" and head.dep_ == "agent" and verb in _TAKES_OVER | _TAKES | _HANDS_OVER:
            return LEAVING if verb in _HANDS_OVER else COMING
        if word == "by" and head.dep_ == "agent" and verb in _LETS_GO:
            return LEAVING
        if verb in _HANDS_OVER | _TAKES and word in {"to", "from"}:
            return COMING if word == "to" else LEAVING
        if verb in _MOVES:
            return LEAVING if word == "from" else COMING if word in _TOWARDS else NONE
        if word == "from" and verb in _LEFT_FROM:
            return LEAVING
    return NONE
