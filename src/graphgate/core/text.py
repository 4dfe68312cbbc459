"""The text base layer: names, words and sentences, the same for indexing, answers and gates.

Everything here is a pure function of its input and imports nothing from graphgate, so every
package may use it. One definition each: a claim the summarizer writes is split back by the
Summary gate with the same rule, and a name is normalised the same way when it is indexed and
when a question names it.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

# -- names ---------------------------------------------------------------------------------
_CORPORATE = {
    "inc",
    "ltd",
    "limited",
    "llc",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "gmbh",
    "ag",
    "sa",
    "nv",
    "bv",
}
_POSSESSIVE = re.compile(r"['’]s\b")
_PUNCT = re.compile(r"[^\w\s]|_")


def without_accents(text: str) -> str:
    """``text`` with its letters' accents dropped ("Löw" -> "Low"): a name is often written
    both ways."""
    if text.isascii():  # most text: nothing to decompose (the same result, sooner)
        return text
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )


def normalise_name(name: str) -> str:
    """Blocking key: accents, case, punctuation, possessives, leading article, corporate suffix."""
    text = _POSSESSIVE.sub("", without_accents(name).casefold())
    tokens = _PUNCT.sub(" ", text).split()
    if len(tokens) > 1 and tokens[0] == "the":
        tokens = tokens[1:]
    while len(tokens) > 1 and tokens[-1] in _CORPORATE:
        tokens = tokens[:-1]
    return " ".join(tokens)


_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def page_keys(title: str) -> list[str]:
    """The names a document titled ``title`` is the page of: the normalised title, and the
    same less a trailing parenthesised qualifier ("Robert Young (musician)" is a page of
    Robert Young)."""
    keys = [normalise_name(title)]
    bare = _QUALIFIER.sub("", title)
    if bare != title:
        keys.append(normalise_name(bare))
    return list(dict.fromkeys(k for k in keys if k))


_NAME_WORD = re.compile(r"\w+(?:['’]\w+)*")


def names_in(question: str, lookup: Callable[[str], list[str]], max_words: int) -> list[str]:
    """What ``lookup`` finds for the names a question contains, in question order: the longest
    match only ("North Carolina", not also "North"), a one-word name only where capitalised."""
    tokens = _NAME_WORD.findall(question)
    spans: list[tuple[int, int, list[str]]] = []
    for n in range(min(max_words, len(tokens)), 0, -1):
        for i in range(len(tokens) - n + 1):
            if n == 1 and not tokens[i][:1].isupper():
                continue
            if any(a <= i and i + n <= b for a, b, _ in spans):
                continue
            found = lookup(" ".join(tokens[i : i + n]))
            if found:
                spans.append((i, i + n, found))
    return [item for _, _, found in sorted(spans) for item in found]


# -- words ---------------------------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "a an the of to in on at for by with from and or but is are was were be been being who whom "
    "whose what which when where why how does do did has have had this that these those it its "
    "as into than then there their they them he she his her him i you we our your not no".split()
)


@functools.lru_cache(maxsize=1 << 16)  # a pure function of a word; vocabularies repeat
def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """Lower-case words without stopwords, plurals folded ("companies" -> "company")."""
    return [_singular(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


def content_word_set(text: str) -> set[str]:
    """``set(content_words(text))``, each distinct word folded once (a long text repeats many)."""
    return {_singular(w) for w in set(_WORD.findall(text.lower())) - _STOP}


def squash(text: str) -> str:
    """Whitespace runs (newlines too) folded to single spaces."""
    return " ".join(text.split())


# -- sentences -----------------------------------------------------------------------------
# An end mark, with the closing quotes and brackets that belong to its sentence.
_END_MARK = re.compile(r"[.!?…]+[\"'”’)\]]*")
# A list item's line: "- 1994-1997 : Ann Lee", "• Ann Lee (1994–1997)".
_ITEM = re.compile(r"[ \t]*[-*•–—][ \t]")
# Words a period follows inside a sentence: titles before a name ("Dr. Lee", "St. Louis").
# A firm's "Inc." or a "Jr." often ends a sentence too, and is left to the word after it.
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "mt", "prof", "gen", "gov", "lt", "col", "capt", "sgt"}
    | {"rev", "hon", "sen", "rep", "fr", "ft", "vs", "cf", "approx"}
)
# Short words a period follows before a number: "No. 5", "Jan. 12", "vol. 3", "pp. 41".
_BEFORE_NUMBER = re.compile(r"[A-Za-z]{1,4}")


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each paragraph or list item: lines joined by hard wraps. A list item
    runs on over its wrapped lines (:func:`_continues`); a wrapped line that happens to open
    with a dash ("— the year's first") is no item."""
    start = offset = 0
    lines = text.split("\n")
    widths = _run_widths(lines)
    items = [_is_item(lines, i, widths) for i in range(len(lines))]
    in_item = False
    for i, line in enumerate(lines):
        end = offset + len(line)
        last = i == len(lines) - 1
        in_item = in_item or items[i]
        following = lines[i + 1] if not last else ""
        if (
            last
            or not following.strip()
            or items[i + 1]
            or (in_item and not _continues(line, following, widths[i]))
        ):
            yield start, end
            start = end + 1
            in_item = False
        offset = end + 1


# A line at least this share of its paragraph's longest line was wrapped, not ended.
_WRAP_SHARE = 0.6
# A run of lines at least this wide may be hard-wrapped; a narrower one is a list of short
# rows ("- 1994: Ann Lee" then a heading), no prose.
_WRAP_WIDTH = 40
_END_OF_LINE = re.compile(r"[.!?…:;][\"'”’)\]]*\s*$")


def _run_widths(lines: list[str]) -> list[int]:
    """For each line, the longest line of its run of non-blank lines."""
    widths = [0] * len(lines)
    first = 0
    for i in range(len(lines) + 1):
        if i == len(lines) or not lines[i].strip():
            width = max((len(x.rstrip()) for x in lines[first:i]), default=0)
            widths[first:i] = [width] * (i - first)
            first = i + 1
    return widths


def _reaches(line: str, width: int) -> bool:
    """The line runs (nearly) to the width of the lines around it."""
    return len(line.rstrip()) >= _WRAP_SHARE * width


def _wrapped(line: str, width: int) -> bool:
    """The line ran to its run's width and stopped mid-sentence: a hard wrap."""
    return width >= _WRAP_WIDTH and _reaches(line, width) and not _END_OF_LINE.search(line)


def _is_item(lines: list[str], i: int, widths: list[int]) -> bool:
    """A list item's first line; a dash after a hard-wrapped line carries its sentence on."""
    line = lines[i]
    if not _ITEM.match(line):
        return False
    dash = line.lstrip()[:1] in {"–", "—"}
    return not (dash and i > 0 and lines[i - 1].strip() and _wrapped(lines[i - 1], widths[i]))


def _continues(line: str, following: str, width: int) -> bool:
    """An item's line runs on into the next (not an item): indented under it, carried on
    by a lower-case word, or hard-wrapped."""
    return following[:1] in {" ", "\t"} or following.lstrip()[:1].islower() or _wrapped(line, width)


def _ends_sentence(text: str, mark: re.Match[str], begin: int, end: int) -> bool:
    """Whether an end mark inside a line ends its sentence. Not inside a word or number
    ("6.21", "U.S.", "Yahoo!Inc"), not before a lower-case word, a comma or a number it
    counts ("Inc., a subsidiary", "No. 5"), not after a title ("Dr. Lee") or an initial
    ("J. R. Smith") or a word dotted within ("U.S. Army")."""
    after = mark.end()
    if after < end and text[after].isalnum():
        return False
    following = text[after:end].lstrip()
    if not following:
        return True
    first = following[0]
    words = text[begin : mark.start()].rsplit(None, 1)
    word = words[-1].lstrip("\"'(“‘[") if words else ""
    if first.islower() or first in ",;:":
        return False
    if first.isdigit() and mark.group(0) == ".":
        return not _BEFORE_NUMBER.fullmatch(word)
    if mark.group(0) != ".":
        return True
    return not (
        word.lower() in _ABBREVIATIONS or (len(word) == 1 and word.isupper()) or "." in word
    )


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence of passage text, stripped: for citing exact spans.
    A sentence ends at . ! ? (with its closing quotes) before the next sentence's word, at a
    paragraph's end, or at the end of a list item's line ("- 1994-1997 : Ann Lee"); a period
    of a number, an abbreviation or an initial ends none (:func:`_ends_sentence`). A
    hard-wrapped sentence runs on over its line breaks (:func:`_line_ends`); a line that stops
    short of its paragraph's width (a heading, a verse, an address) ends one."""
    for begin, end in _blocks(text):
        marks = _END_MARK.finditer(text, begin, end)
        cuts = [m.end() for m in marks if _ends_sentence(text, m, begin, end)]
        cuts += _line_ends(text, begin, end)
        start = begin
        for cut in sorted({*cuts, end}):
            raw = text[start:cut]
            body = raw.strip()
            if body:
                first = start + len(raw) - len(raw.lstrip())
                yield first, first + len(body)
            start = cut


def _line_ends(text: str, begin: int, end: int) -> list[int]:
    """The line breaks of a paragraph that end a sentence without an end mark: after a line
    that stops short of the paragraph's width, unless a lower-case word continues it."""
    lines = text[begin:end].split("\n")
    width = max(len(line.rstrip()) for line in lines)
    out = []
    offset = begin
    for line, following in itertools.pairwise(lines):
        offset += len(line)
        if not _reaches(line, width) and not following.lstrip()[:1].islower():
            out.append(offset)
        offset += 1
    return out


# A heading or a title page written in capitals ("PATHFINDER PHYSIOLOGY No. 1 CHILD'S HEALTH
# PRIMER FOR PRIMARY CLASSES"): this many distinct words of four or more capital letters.
_SHOUTED_WORDS = 3
_SHOUTED = re.compile(r"\b[A-Z][A-Z'’]{3,}\b")


def written_in_capitals(text: str) -> bool:
    """Whether a sentence is a heading or a title page set in capitals: most of its letters
    capitals, in several long words. Such a line names things and states nothing of them.
    Letters ("WPSL ( 2011 ) , NWSL ( 2013–2020 )") are capitals too, but short and few."""
    upper = sum(c.isupper() for c in text)
    lower = sum(c.islower() for c in text)
    return upper > lower and len(set(_SHOUTED.findall(text))) >= _SHOUTED_WORDS


def first_sentence(text: str) -> str:
    """Up to the first end of a sentence, by the rules of :func:`sentence_spans`."""
    for mark in _END_MARK.finditer(text):
        if _ends_sentence(text, mark, 0, len(text)):
            return text[: mark.end()]
    return text


_TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*$")


def terminated(text: str) -> str:
    """A claim ends like a sentence, so that :func:`claims_of` splits it back whole."""
    return text if _TERMINAL.search(text) else text + "."


def claims_of(text: str) -> list[str]:
    """Summary text cut after every word that ends a sentence (closing quotes included): the
    inverse of joining :func:`terminated` claims with spaces."""
    claims: list[str] = []
    current: list[str] = []
    for word in text.split():
        current.append(word)
        if _TERMINAL.search(word):
            claims.append(" ".join(current))
            current = []
    if current:
        claims.append(" ".join(current))
    return claims


# -- a passage's context -------------------------------------------------------------------
def _date_words(value: str) -> str:
    """An ISO date as written in text too: "2023-10-07 (October 7, 2023)"."""
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return f"{when.date().isoformat()} ({when:%B} {when.day}, {when.year})"


def context_header(title: str, metadata: Mapping[str, Any], fields: Sequence[str]) -> str:
    """What a passage is from — its document's title, source, author, date — one line each way
    a question may name it. Prefixed to the passage where it is embedded and keyword-indexed;
    citations keep the passage's own character spans."""
    parts: list[str] = []
    for name in fields:
        value = title if name == "title" else metadata.get(name)
        if value is None or isinstance(value, dict | list) or not str(value).strip():
            continue
        text = squash(str(value))
        parts.append(_date_words(text) if name in _DATE_FIELDS else text)
    return " · ".join(parts)


_DATE_FIELDS = {"published_at", "date", "published", "created_at"}


def document_headers(
    documents: Iterable[Mapping[str, Any]], fields: Sequence[str]
) -> dict[str, str]:
    """:func:`context_header` per document id, from rows with ``id``, ``title`` and
    ``metadata_json`` (the documents artifact)."""
    return {
        str(d["id"]): context_header(
            str(d["title"]), json.loads(d["metadata_json"] or "{}"), fields
        )
        for d in documents
    }


def in_context(header: str, passage: str) -> str:
    """The text embedded and keyword-indexed for a passage: its header line, then the passage."""
    return f"{header}\n{passage}" if header else passage
