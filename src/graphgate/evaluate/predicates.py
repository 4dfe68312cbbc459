"""Relations compared by meaning, not spelling: gold "plays" and retrieved "play_with" are one
relation, as are "works for" and "work_for" (issue 18). Two predicates match when their first
content words (less prepositions, particles, auxiliaries, determiners) agree as written or as
spaCy lemma, through an optional synonym table; ``*`` still matches any relation (the caller's
rule)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from graphgate.core.spacy_models import load_spacy

_SKIP = {"ADP", "PART", "AUX", "DET", "PRON", "CCONJ", "SCONJ", "PUNCT"}


def spelled(text: str) -> str:
    """Case folded, underscores and hyphens as spaces."""
    return " ".join(re.sub(r"[_\-]", " ", text.casefold()).split())


class PredicateMatcher:
    """Forms are computed once per predicate string; the spaCy model loads on first use."""

    def __init__(self, spacy_model: str, synonyms: Mapping[str, str] | None = None) -> None:
        self.spacy_model = spacy_model
        self.synonyms = {spelled(k): spelled(v) for k, v in (synonyms or {}).items()}
        self._nlp: Any = None
        self._forms: dict[str, frozenset[str]] = {}

    def _pipeline(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(self.spacy_model, "predicate matching", ("parser", "ner"))
        return self._nlp

    def forms(self, predicate: str) -> frozenset[str]:
        """The first content word as written and as lemma, through the synonym table ("found"
        is both the lemma of "founded" and, to spaCy alone, a form of "find")."""
        text = spelled(predicate)
        if text not in self._forms:
            words = [t for t in self._pipeline()(text) if t.pos_ not in _SKIP]
            found = {words[0].lower_, words[0].lemma_.lower()} if words else {text}
            self._forms[text] = frozenset(self.synonyms.get(w, w) for w in found)
        return self._forms[text]

    def same(self, a: str, b: str) -> bool:
        return spelled(a) == spelled(b) or not self.forms(a).isdisjoint(self.forms(b))
