"""Entity linking: which graph entities a question talks about, without needing title pages.

A question's mentions are its named entities and noun phrases (spaCy, the same model the
offline extractor uses). Each is matched against the graph's entity names and aliases in four
ways, strongest first: the exact normalised name (the longest names scanned in the question, as
before); the same after spaCy finds the span ("openai's" -> OpenAI); a fuzzy match of the
mention to a name (rapidfuzz ratio, for misspellings and inflections: "Sam Altmans"); the
one name the mention begins or ends ("Okafor" -> Margaret Okafor); the embedding of the names
nearest the mention ("NYC" -> New York City). A noun phrase whose head noun
is a concept node ("the boys" -> boy) links to it at a lower weight. Entity pages stay a
separate signal of hybrid mode; nothing here reads document titles.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Literal

from graphgate.core.config import QuerySettings
from graphgate.core.spacy_models import load_spacy
from graphgate.core.text import names_in, normalise_name
from graphgate.core.types import CONCEPT
from graphgate.embed.base import Embedder
from graphgate.store.base import GraphStore

LinkKind = Literal["name", "mention", "fuzzy", "partial", "embedding", "concept"]

# Longest entity name looked up in a question, in words (longer names are rare; not measured).
MAX_NAME_WORDS = 6
# Entity labels that are values, not things a walk can start from.
_VALUE_LABELS = {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
# A concept is weaker evidence than a name: "the company" names a kind, not the company.
_CONCEPT_WEIGHT = 0.5
# A mention that is the first or last words of one name only ("Okafor" -> Margaret Okafor) is
# likely that entity, less surely than a whole name.
_PARTIAL_WEIGHT = 0.8
# Fuzzy candidates share a word prefix of this many characters with the mention (blocking keeps
# the match to a few hundred names on a 50k-entity graph).
_PREFIX = 4
# Fuzzy and embedding matches per mention.
_PER_MENTION = 2


@dataclass(frozen=True)
class Mention:
    text: str
    kind: Literal["entity", "noun_phrase"]
    head: str  # lemma of the head noun, lower case ("" for a named entity)


@dataclass(frozen=True)
class EntityLink:
    entity_id: str
    mention: str
    matched: str  # the normalised name or alias matched ("" for an embedding match)
    kind: LinkKind
    score: float


class EntityLinker:
    """Built once per loaded index; the spaCy pipeline and the name blocks load on first use."""

    def __init__(
        self, store: GraphStore, embedder: Embedder, settings: QuerySettings, spacy_model: str
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.spacy_model = spacy_model
        self._nlp: Any = None
        self._names: dict[str, list[str]] | None = None
        self._blocks: dict[str, list[str]] | None = None

    # -- mentions --------------------------------------------------------------------------
    def pipeline(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(self.spacy_model, "entity linking")
        return self._nlp

    def mentions(self, question: str, doc: Any | None = None) -> list[Mention]:
        """Named entities (not dates or amounts), then noun phrases, in question order
        (``doc``: the question's parse, where it was parsed already)."""
        doc = doc if doc is not None else self.pipeline()(question)
        found: list[Mention] = []
        for ent in doc.ents:
            if ent.label_ not in _VALUE_LABELS:
                found.append(Mention(ent.text, "entity", ""))
        for chunk in doc.noun_chunks:
            root = chunk.root
            if root.pos_ in {"PRON", "NUM"}:
                continue
            found.append(Mention(chunk.text, "noun_phrase", root.lemma_.lower()))
        seen: set[tuple[str, str]] = set()
        unique = []
        for m in found:
            if (m.text, m.kind) not in seen:
                seen.add((m.text, m.kind))
                unique.append(m)
        return unique

    # -- matching --------------------------------------------------------------------------
    def names(self) -> dict[str, list[str]]:
        if self._names is None:
            self._names = self.store.entity_names()
        return self._names

    def _candidates(self, key: str) -> list[str]:
        if self._blocks is None:
            blocks: dict[str, list[str]] = defaultdict(list)
            for name in sorted(self.names()):
                for prefix in {w[:_PREFIX] for w in name.split() if len(w) >= _PREFIX}:
                    blocks[prefix].append(name)
            self._blocks = dict(blocks)
        found: set[str] = set()
        for word in key.split():
            if len(word) >= _PREFIX:
                found.update(self._blocks.get(word[:_PREFIX], []))
        return sorted(found)

    def fuzzy(self, mention: str) -> list[tuple[str, float]]:
        """Names within ``query.link_fuzzy_min`` (0-1) of the mention, best first."""
        from rapidfuzz import fuzz, process

        key = normalise_name(mention)
        if not key:
            return []
        cutoff = 100 * self.settings.link_fuzzy_min
        matches = process.extract(
            key, self._candidates(key), scorer=fuzz.ratio, score_cutoff=cutoff, limit=_PER_MENTION
        )
        return [(name, float(score) / 100) for name, score, _ in matches]

    def partial(self, mention: str) -> list[str]:
        """The one name (if only one) that begins or ends with the mention's words."""
        key = normalise_name(mention)
        if not key:
            return []
        words = key.split()
        found = [
            name
            for name in self._candidates(key)
            if name != key
            and (name.split()[: len(words)] == words or name.split()[-len(words) :] == words)
            and any(self.store.entity(eid).type != CONCEPT for eid in self.names()[name])
        ]
        return found if len(found) == 1 else []

    def link(self, question: str, doc: Any | None = None) -> list[EntityLink]:
        """Every entity the question refers to, each once with its strongest link."""
        names = self.names()
        best: dict[str, EntityLink] = {}

        def keep(link: EntityLink) -> None:
            if link.kind != "concept" and self.store.entity(link.entity_id).type == CONCEPT:
                # "the firm" names a kind, however exactly it matches the concept node.
                link = EntityLink(
                    link.entity_id, link.mention, link.matched, "concept", _CONCEPT_WEIGHT
                )
            if link.entity_id not in best or link.score > best[link.entity_id].score:
                best[link.entity_id] = link

        # The capitalised longest names, as local mode always matched them.
        for eid in names_in(question, self.store.entity_ids_named, MAX_NAME_WORDS):
            keep(EntityLink(eid, "", "", "name", 1.0))
        unmatched: list[str] = []
        for mention in self.mentions(question, doc):
            if mention.kind == "noun_phrase":
                for eid in names.get(mention.head, []):
                    if self.store.entity(eid).type == CONCEPT:
                        keep(
                            EntityLink(eid, mention.text, mention.head, "concept", _CONCEPT_WEIGHT)
                        )
                if mention.text.islower() and " " not in mention.text.strip():
                    continue  # "magazines" names a kind, not the entity called Magazines
            key = normalise_name(mention.text)
            if key in names:
                for eid in names[key]:
                    keep(EntityLink(eid, mention.text, key, "mention", 1.0))
                continue
            fuzzy = self.fuzzy(mention.text)
            for name, score in fuzzy:
                for eid in names[name]:
                    keep(EntityLink(eid, mention.text, name, "fuzzy", score))
            if fuzzy or not mention.text[:1].isupper():
                continue
            partial = self.partial(mention.text)
            for name in partial:
                for eid in names[name]:
                    keep(EntityLink(eid, mention.text, name, "partial", _PARTIAL_WEIGHT))
            if mention.kind == "entity" and not partial:
                unmatched.append(mention.text)
        for link in self._by_embedding(unmatched):
            keep(link)
        return sorted(best.values(), key=lambda link: (-link.score, link.entity_id))

    def _by_embedding(self, mentions: list[str]) -> list[EntityLink]:
        """Named mentions no name matched, against the embedded entity names (a name-to-name
        cosine: an entity vector also carries its passages and sits far from any bare name).
        Entities whose names were not embedded (``embed.entity_name_min_chunks``) are not
        reached this way."""
        if not mentions or not self.store.has_vector_index("entity_name"):
            return []
        links = []
        for mention, vector in zip(mentions, self.embedder.embed(mentions), strict=True):
            for eid, score in self.store.vector_search("entity_name", vector, _PER_MENTION):
                if score >= self.settings.link_embedding_min:
                    links.append(EntityLink(eid, mention, "", "embedding", float(score)))
        return links
