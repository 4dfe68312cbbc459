"""Names the small parser cuts or invents, mended from its parse: two entities one word apart
that are one name ("Ernst" and "Klercker" of "Ernst af Klercker", "Port" and "Spain" of "Port
of Spain", "the Stockton and Darlington Railway"), a name cut before the proper noun it modifies
("Michigan" of "Michigan State"), a lower-case word taken for a name ("militärområdet"), and the
part of "X at Y" the question asks for ("Northwestern University" of "the Kellogg School of
Management at Northwestern University")."""

from __future__ import annotations

from typing import Any

from graphgate.query.answer_type import NAMED, kind_nouns, names_a_post

# A place or a body, "of", a place: one name the small parser may cut in two ("Port" and
# "Spain" of "Port of Spain", "Socialist Workers Party" and "Germany").
_OF_HEADS = frozenset({"GPE", "LOC", "FAC", "ORG"})
_OF_TAILS = frozenset({"GPE", "LOC"})


# The particle inside a person's name ("Ernst af Klercker", "Otto von Bismarck"), which the
# small parser may cut the name at.
_NAME_PARTICLES = frozenset(
    {"af", "al", "bin", "da", "de", "del", "della", "den", "der", "des", "di", "do", "dos",
     "du", "ibn", "la", "le", "ten", "ter", "van", "von", "zu"}
)  # fmt: skip


# The last word of a body named after the two places or people it joins ("the Stockton and
# Darlington Railway", "the Brown and Williamson Tobacco Company").
_JOINING_BODIES = frozenset(
    {"railway", "railroad", "tramway", "canal", "company", "bank", "corporation", "navigation"}
)


def _joined(last: Any, ent: Any, doc: Any) -> str | None:
    """The label of two entities one word apart that are one name (None: they are two): a
    place or a body, "of", a place; a person, a name's particle, a person; "the" X "and" a
    body's name ending in a word such as "Railway", an organisation."""
    if ent.start != last.end + 1:
        return None
    between = doc[last.end]
    if last.label_ in _OF_HEADS and ent.label_ in _OF_TAILS and between.lower_ == "of":
        return str(last.label_)
    if last.label_ == ent.label_ == "PERSON" and between.text in _NAME_PARTICLES:
        return "PERSON"
    before = [t for t in doc[max(0, last.start - 2) : last.start] if t.pos_ != "ADJ"]
    if (
        between.lower_ in {"and", "&"}
        and before
        and before[-1].lower_ == "the"
        and doc[ent.end - 1].lower_ in _JOINING_BODIES
    ):
        return "ORG"
    return None


def asked_part(ent: Any, head: str | None) -> Any:
    """The part after "at" of a name "X at Y" where only Y is of the kind asked: "Northwestern
    University" of "the Kellogg Graduate School of Management at Northwestern University" for
    "which university"; not "the University of Texas at Austin", a university whole."""
    ats = [t.i for t in ent if t.lower_ == "at"]
    if not head or len(ats) != 1:
        return ent
    nouns = kind_nouns(head)
    before, after = ent.doc[ent.start : ats[0]], ent.doc[ats[0] + 1 : ent.end]
    if not _holds_noun(after, nouns) or _holds_noun(before, nouns):
        return ent
    after.label_ = ent.label_
    return after


def _holds_noun(span: Any, nouns: frozenset[str]) -> bool:
    return any(t.lower_ in nouns or str(t.lemma_).lower() in nouns for t in span)


def _uncapitalised(text: str) -> bool:
    """Written in a cased script without a capital ("militärområdet"); a name in a script
    without case ("עזר ויצמן", "चोरी") has none to show."""
    return any(c.islower() for c in text) and not any(c.isupper() for c in text)


def joined_entities(doc: Any) -> list[Any]:
    """The sentence's entities, two that are one name (``_joined``) made one, a name cut before
    its last word made whole (``_continued``); a name written without a capital is no name
    ("militärområdet" taken for a person)."""
    out: list[Any] = []
    for ent in doc.ents:
        if ent.label_ in NAMED and _uncapitalised(str(ent.text)):
            continue
        label = _joined(out[-1], ent, doc) if out else None
        if label is not None:
            joined = doc[out[-1].start : ent.end]
            joined.label_ = label
            out[-1] = joined
        else:
            out.append(ent)
    return [_continued(ent, doc) for ent in out]


_CONTINUED = frozenset({"GPE", "LOC", "ORG", "FAC"})


def _continued(ent: Any, doc: Any) -> Any:
    """The name the parser cut before the proper noun it modifies, that noun taken in:
    "Michigan State" of "head coach of Michigan State" (labelled "Michigan"), "Halifax Town",
    "Moscow Oblast". Not a post ("Interior Minister", "United States Senator")."""
    if ent.label_ not in _CONTINUED or ent.end >= len(doc):
        return ent
    last, after = doc[ent.end - 1], doc[ent.end]
    if not (
        last.dep_ == "compound"
        and last.head.i == after.i
        and after.tag_ in {"NNP", "NNPS"}
        and after.text[:1].isupper()
        and not after.ent_type_
    ):
        return ent
    whole = doc[ent.start : ent.end + 1]
    if names_a_post(str(whole.text)):
        return ent
    whole.label_ = ent.label_
    return whole
