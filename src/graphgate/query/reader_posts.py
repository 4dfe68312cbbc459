"""Posts and other common nouns as candidate answers: "Governor of South Australia", with
what it is of, beside the bare noun; a post the parse left out of its noun chunks; the date a
post's own phrase is followed by, in a sentence listing several."""

from __future__ import annotations

from typing import Any

from graphgate.core.text import normalise_name
from graphgate.query.answer_type import NOUN_PHRASE, ExpectedAnswer
from graphgate.query.reader_syntax import as_written

TIMED_LABELS = frozenset({"DATE", "TIME"})
# A candidate in a parsed sentence: its text, entity label, the token it stands at (its root,
# for a noun phrase) and the tokens it spans (start, end).
Span = tuple[str, str, int, int, int]


def common_nouns(doc: Any, expected: ExpectedAnswer) -> list[Span]:
    """The common-noun candidates of a sentence ("a striker", "sportsbooks"), each post also
    with its "of" phrase."""
    out: list[Span] = []
    named = {i for e in doc.ents for i in range(e.start, e.end)}
    chunked = {i for c in doc.noun_chunks for i in range(c.start, c.end)}
    nouns = [
        (int(chunk.root.i), words, False)
        for chunk in doc.noun_chunks
        for words in [[t for t in chunk if t.pos_ not in {"DET", "PRON"}]]
        if words
        and (
            chunk.root.pos_ == "NOUN" or (chunk.root.pos_ == "PROPN" and chunk.root.i not in named)
        )
        and not any(t.i in named for t in words)
    ]
    # A post the parse left out of every noun chunk (", Chancellor of the University of
    # Adelaide from 1983 to 1990" after another post): with its "of" phrase, a chunk too.
    taken = named | chunked
    nouns += [
        (int(t.i), [t], True) for t in doc if t.pos_ in {"NOUN", "PROPN"} and t.i not in taken
    ]
    for at, words, loose in sorted(nouns, key=lambda n: n[1][0].i):
        chief = in_chief(doc, doc[at])
        if chief is not None:  # "editor-in-chief", "Commander in Chief": one post
            words = [*words, *doc[words[-1].i + 1 : chief.i + 1]]
        titled = of_what(doc, doc[at], words[-1])
        if loose and titled is None:
            continue
        # The noun alone spans its "of" phrase too: the date after the phrase dates it.
        last = titled.i if titled is not None else words[-1].i
        out.append((as_written(doc, words), NOUN_PHRASE, at, words[0].i, last + 1))
        if titled is not None:  # "Governor of South Australia", also as the noun alone
            first = words[0]
            if doc[at].lemma_.lower() == expected.head:  # "the rank of General": General
                first = next(t for t in doc[at + 2 : titled.i + 1] if t.pos_ != "DET")
            written = as_written(doc, [first, titled])
            out.append((written, NOUN_PHRASE, at, words[0].i, titled.i + 1))
    return out


# A post's "of" phrase runs at most this far ("Chancellor of the University of Adelaide").
_OF_WORDS = 8


def in_chief(doc: Any, noun: Any) -> Any:
    """The "chief" of a post written "editor-in-chief" or "Commander in Chief" after its
    noun, or None."""
    words = [t for t in doc[noun.i + 1 : noun.i + 5] if t.text != "-"]
    if len(words) >= 2 and words[0].lower_ == "in" and words[1].lower_ == "chief":
        return words[1]
    return None


def of_what(doc: Any, noun: Any, last: Any = None) -> Any:
    """The last token of the "of" phrase right after a common noun (after ``last``, the end
    of a post of several words, "editor-in-chief"), or None: a phrase of its own words only,
    no date, no comma, no clause. Asked for a job, a role or a position, the noun is a post
    ("Governor of South Australia", "commander of the colonial forces"); any other noun gets
    its phrase too ("aftermath of Hamas"), a candidate no better than before."""
    last = noun if last is None else last
    after = last.i + 1
    if after >= len(doc) or doc[after].lower_ != "of" or doc[after].head.i not in {noun.i, last.i}:
        return None
    span = list(doc[after].subtree)
    if not span or span[0].i != after:
        return None
    # "Chancellor of the University of Adelaide from 1983 to 1990": the post ends where its
    # time begins, the time then dates it (a list of posts each gives its own).
    timed = {i for e in doc.ents if e.label_ in TIMED_LABELS for i in range(e.start, e.end)}
    cut = next(
        (
            k
            for k, t in enumerate(span)
            if t.i in timed or (t.pos_ == "ADP" and k > 1 and t.i + 1 in timed)
        ),
        len(span),
    )
    span = span[:cut]
    while len(span) > 1 and span[-1].pos_ in {"ADP", "DET", "CCONJ"}:
        span.pop()
    if len(span) < 2 or len(span) > _OF_WORDS:
        return None
    if any(t.is_punct or t.pos_ in {"VERB", "AUX", "PRON", "NUM"} for t in span[1:]):
        return None
    return span[-1]


def nested(one: str, other: str) -> bool:
    """One text is the other's post without its "of" phrase ("Governor", "Governor of South
    Australia")."""
    a, b = normalise_name(one), normalise_name(other)
    return a.startswith(f"{b} of ") or b.startswith(f"{a} of ")
