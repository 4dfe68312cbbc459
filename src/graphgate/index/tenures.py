"""Who held a post when, read from the sentences that say so, whatever the extractor wrote.

An extractor reads "In May 2006, B took over as mayor of X from A" as B ``mayor_of`` X (the
offline parser) or as anything an LLM chooses; neither says that A's time as mayor ended
then. This reader takes each sentence that names a role of an organisation (truth.roles:
"mayor of X", "X named B as its mayor", "X's chief executive") and tells the incoming holder
from the outgoing one by how the sentence speaks of each ("replaced A", "from A", "after A
resigned", "A stepped down", "succeeded by B"), then dates both from the sentence: the
incoming one from the change, the outgoing one until it. A sentence it cannot read that way
(two offices, three people, two incoming holders) is left as the extractor read it:
abstaining is better than a wrong succession.

It also stores every role and one-valued relation the extractor found under its family's
predicate (core/family_match.py), so that supersession (index/truth.py) compares holders of
one post, however each text spelled it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from graphgate.core.dates import dates_in, spans_in
from graphgate.core.family_match import FamilyMatcher

Row = dict[str, Any]

# Mentions that are never the holder of a post. Names are not ruled out by their type: on
# names it has not seen, the offline model calls people ORG, NORP or GPE; how the sentence
# links a name to the post decides.
_NOT_HOLDERS = {"DATE", "TIME", "MONEY", "QUANTITY", "CARDINAL", "ORDINAL", "PERCENT"}
# A one-word place or nationality is no holder ("returned to Scotland to accept …", "an
# American football coach"); a made-up two-word name the model calls a GPE may be one.
_PLACE_LIKE = {"GPE", "LOC", "LOCATION", "FAC", "NORP"}
_CAPITALISED = re.compile(r"[A-Z][\w'’-]+(?:\s+(?:(?:of|de|van|von|der)\s+)?[A-Z][\w'’-]+)*")
_MONTH = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\b"
)
# Capitalised words that open a sentence or a clause, not a name.
_NOT_NAMES = {
    "in", "on", "at", "after", "before", "since", "the", "a", "an", "when", "while", "it",
    "he", "she", "they", "this", "that", "following", "during", "by", "from", "as", "of",
}  # fmt: skip
_GIVEN = re.compile(r"(?<![\w-])((?-i:[A-Z][a-z][\w'’-]*))\s+$")
_ORG_AFTER = re.compile(r"\s+(?:of|at|for)\s+(?:the\s+)?")
_ITS = re.compile(r"\b(?:its|their)\s+(?:new\s+|next\s+|first\s+|interim\s+|acting\s+)?$", re.I)
_POSSESSIVE = re.compile(r"['’]s?\s+(?:new\s+|next\s+|first\s+|interim\s+|acting\s+)?$")
# How a sentence names the holder who leaves: before the name ("replaced A", "from A",
# "succeeding A") or after it ("A stepped down", "after A resigned", "A, who resigned,");
# "after A" alone says nothing ("shortly after A became mayor").
_OUT_BEFORE = re.compile(
    r"\b(?:replac(?:ed|es|ing)|succeed(?:ed|s|ing)|from|following|in place of|"
    r"took over from|taking over from|ousted|dismissed|removed|sacked|fired)\s+(?:the\s+)?$",
    re.I,
)
_IN_BEFORE = re.compile(r"\b(?:replaced|succeeded|followed|taken over)\s+by\s+$", re.I)
_OUT_AFTER = re.compile(
    r"^(?:\s*,[^,]{0,60},)?\s*,?\s*(?:who\s+)?(?:had\s+|has\s+)?(?:stepped down|stood down|"
    r"resigned|retired|left|quit|departed|died|handed over|was (?:replaced|succeeded|ousted|"
    r"dismissed|removed|sacked|fired|voted out|forced out))\b",
    re.I,
)
# The words that link a name before a post to it ("B became mayor", "B took on the role of
# mayor"); an infinitive ("left X to become mayor") has its subject elsewhere.
_LINK = re.compile(
    r"^[^.;]{0,50}?(?<!\bto )\b(?:as|became|become|becomes|been|is|was|were|named|appointed|"
    r"elected|serves|served|took office|took over|replaced|succeeded|remains|remained|role|post|"
    r"position|office)\b"
    r"(?:\s+[\w'’-]+){0,3}?\s*$",
    re.I,
)
_APPOSITIVE = re.compile(r"^\s*(?:,|,?\s*(?:is|was|has been|remains)\s*)\s*(?:the\s+)?$", re.I)
_START_BEFORE = re.compile(r"\b(?:since|from|as of|starting)\s+(?:\w+\s+){0,2}$", re.I)
_END_BEFORE = re.compile(r"\b(?:until|till|to|through|up to)\s+(?:\w+\s+){0,2}$", re.I)


def revise_extraction(
    mentions: Sequence[Row], relations: Sequence[Row], matcher: FamilyMatcher
) -> tuple[list[Row], list[Row]]:
    """One chunk's mentions and relations (rows without their place): one-valued relations
    under their family's predicate and direction, and the roles its sentences state with the
    time each held. A name the extractor missed where a role puts one ("mayor of Kettleby",
    "succeeded by Bo Vik") is added as a mention: on rare names a model misses many."""
    out = [_canonical(r, matcher) for r in relations]
    found = list(mentions)
    by_sentence: dict[str, list[Row]] = defaultdict(list)
    for m in mentions:
        by_sentence[m["sentence"]].append(m)
    for sentence, named in by_sentence.items():
        read = _read_sentence(sentence, named, matcher)
        if read is None:
            continue
        predicate, org, tenures = read
        known = {m["name"] for m in named}
        for name, kind in [(org, "ORG"), *((t["source_name"], "PERSON") for t in tenures)]:
            if name not in known:
                found.append({"name": name, "type": kind, "sentence": sentence})
                known.add(name)
        holders = {t["source_name"] for t in tenures}
        out = [
            r
            for r in out
            if not (
                r["sentence"] == sentence
                and r["predicate"] == predicate
                and (r["target_name"] == org or r["source_name"] in holders)
            )
        ]
        out.extend(tenures)
    return found, out


def _canonical(r: Row, matcher: FamilyMatcher) -> Row:
    if r["kind"] != "svo":
        return r
    match = matcher.match_predicate(r["predicate"], r["sentence"])
    if match is None:
        if r["predicate"] in matcher.functional:  # "was a director of X": one of several
            return {**r, "predicate": "a_" + r["predicate"]}
        return r
    row = {**r, "predicate": match.predicate}
    stored_one = "target" if match.role else matcher.functional[match.predicate]
    if match.one != stored_one:  # "Acme has_ceo Anna": stored as Anna chief_executive_of Acme
        row["source_name"], row["target_name"] = r["target_name"], r["source_name"]
    if match.ended and not row.get("valid_to"):
        row["valid_to"] = row.get("valid_from") or _first_date(r["sentence"])
        row["valid_from"] = None
    return row


def _words(text: str) -> list[str]:
    return text.lower().split()


def _first_date(sentence: str) -> str | None:
    found = dates_in(sentence)
    return found[0][0].iso if found else None


def _read_sentence(
    sentence: str, named: Sequence[Row], matcher: FamilyMatcher
) -> tuple[str, str, list[Row]] | None:
    """(predicate, organisation, tenure rows) of the one office the sentence speaks of."""
    roles = matcher.roles_in(sentence)
    if not roles:
        return None
    places = _places(sentence, named, {w for r in roles for w in _words(sentence[r.start : r.end])})
    at_org = [(r, org) for r in roles if (org := _org_of(sentence, r, places))]
    offices = {(r.family.predicate, org) for r, org in at_org}
    if len(offices) != 1:
        return None  # none, or two offices in one sentence: left as the extractor read them
    ((predicate, org),) = offices
    org_at = {(s, e) for name, s, e, _ in places if name == org}
    role_spans = [(r.start, r.end) for r in roles]
    role = at_org[0][0]  # the mention of the post at its organisation ("CEO of X")
    post_end = max([role.end, *(e for _, e in org_at)])  # "mayor of X", "X's mayor"
    people: list[tuple[str, int, int]] = []
    for name, start, end, kind in places:
        if name == org or kind in _NOT_HOLDERS or name in {p[0] for p in people}:
            continue
        if kind in _PLACE_LIKE and " " not in name:  # "Scotland", "American"
            continue
        if any(s <= start and end <= e for s, e in [*org_at, *role_spans]):
            continue
        if _holds(sentence, start, end, role.start, post_end):
            people.append((name, start, end))
    if not people or len(people) > 2:
        return None
    outgoing = [_leaves(sentence, start, end) for _, start, end in people]
    if len(people) == 2 and outgoing[0] == outgoing[1]:
        return None  # two incoming (or two outgoing) holders: not a succession it can read
    if len(people) == 1 and any(r.ended for r in roles):
        outgoing = [True]  # "the former mayor of X, A, ..."
    bounds = _bounds(sentence)
    tenures = []
    for (name, _, _), leaves in zip(people, outgoing, strict=True):
        valid = _held(bounds, leaves, succession=len(people) == 2)
        if valid is None:
            continue
        tenures.append(
            {
                "source_name": name,
                "target_name": org,
                "predicate": predicate,
                "kind": "svo",
                "sentence": sentence,
                "valid_from": valid[0],
                "valid_to": valid[1],
            }
        )
    return predicate, org, tenures


def _places(
    sentence: str, named: Sequence[Row], roles: set[str]
) -> list[tuple[str, int, int, str]]:
    """(name, start, end, type) of each entity the sentence names, by first occurrence, the
    longest name first where two overlap; then each run of two or more capitalised words the
    extractor did not name (type ""), which a role may still link to its post."""
    found: list[tuple[str, int, int, str]] = []
    for m in sorted(named, key=lambda m: -len(m["name"])):
        name = m["name"]
        at = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence)
        if at is None or any(s <= at.start() < e for _, s, e, _ in found):
            continue
        start = at.start()
        given = _GIVEN.search(sentence[:start]) if " " not in name else None
        if given is not None and given.group(1).lower() not in _NOT_NAMES | roles:
            start = given.start(1)  # "Denduth Breirkna", of which the extractor named "Breirkna"
        found.append((sentence[start : at.end()], start, at.end(), str(m["type"]).upper()))
    for run in _CAPITALISED.finditer(sentence):
        words = run.group(0).split()
        if len(words) < 2 or words[0].lower() in _NOT_NAMES or _MONTH.search(run.group(0)):
            continue
        if not any(s < run.end() and run.start() < e for _, s, e, _ in found):
            found.append((run.group(0), run.start(), run.end(), ""))
    return sorted(found, key=lambda f: f[1])


def _org_of(sentence: str, role: Any, places: Sequence[tuple[str, int, int, str]]) -> str | None:
    """The organisation a role is held at: "mayor of X", "X named B as its mayor", "X's
    chief executive"."""
    after = _ORG_AFTER.match(sentence, role.end)
    if after is not None:
        named = next((n for n, s, _, _ in places if s == after.end()), None)
        one = _CAPITALISED.match(sentence, after.end()) if named is None else None
        if one is not None and not _MONTH.search(one.group(0)):
            return one.group(0)  # "mayor of Kettleby", a town the extractor did not name
        return named
    before = sentence[: role.start]
    if _ITS.search(before):  # the subject: "X named B as its mayor" (not a person: "B is its")
        return next((n for n, s, _, k in places if s < role.start and k != "PERSON"), None)
    possessive = _POSSESSIVE.search(before)
    if possessive is not None:
        return next((n for n, _, e, _ in places if e == possessive.start()), None)
    return None


def _holds(sentence: str, start: int, end: int, role_start: int, post_end: int) -> bool:
    """Whether the sentence links the named one to the post: as its holder ("B became mayor
    of X", "the mayor of X, B,") or as the one who leaves or arrives ("from A", "succeeded by
    B"); "B met the mayor of X" does not."""
    if _leaves(sentence, start, end) or _IN_BEFORE.search(sentence[:start]):
        return True
    if end <= role_start:
        return bool(_LINK.match(sentence[end:role_start]))
    return start >= post_end and bool(_APPOSITIVE.match(sentence[post_end:start]))


def _leaves(sentence: str, start: int, end: int) -> bool:
    before = sentence[:start]
    if _IN_BEFORE.search(before):
        return False
    return bool(_OUT_BEFORE.search(before) or _OUT_AFTER.match(sentence[end:]))


def _bounds(sentence: str) -> tuple[str | None, str | None, str | None]:
    """(from, to, change) the sentence writes: a range, an open start or end, or one date.
    Dates in brackets are left out ("( born 31 October 1951 ) is the head coach")."""
    sentence = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), sentence)
    points = dates_in(sentence)
    if not points:
        return None, None, None
    ranges = [s for s in spans_in(sentence) if not s.point and s.start and s.end]
    if ranges and len(points) >= 2:
        if points[1][0].last < points[0][0].first:
            return None, None, None  # a range that ends before it starts says no time
        return points[0][0].iso, points[1][0].iso, None
    first, at, _ = points[0]
    if _START_BEFORE.search(sentence[:at]):
        return first.iso, None, None
    if _END_BEFORE.search(sentence[:at]):
        return None, first.iso, None
    return None, None, first.iso


def _held(
    bounds: tuple[str | None, str | None, str | None], leaves: bool, succession: bool
) -> tuple[str | None, str | None] | None:
    """A holder's (valid_from, valid_to); None when the sentence dates nothing it can use for
    a holder who leaves."""
    start, end, change = bounds
    if change is not None:
        return (None, change) if leaves else (change, None)
    if succession and (start or end):
        return (None, start or end) if leaves else (start or end, None)
    if leaves and not end:
        return None
    return start, end
