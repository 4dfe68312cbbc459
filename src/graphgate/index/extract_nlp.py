"""The offline extractor: spaCy NER for entities, the dependency parse for relations."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from graphgate.core.config import ExtractSettings
from graphgate.core.dates import dates_in
from graphgate.core.spacy_models import load_spacy
from graphgate.core.types import CONCEPT, COOCCURS, Chunk, Mention, RawRelation
from graphgate.core.workers import WarmPool, spawnable
from graphgate.index.extract_base import Extraction, Progress

_SUBJECTS = {"nsubj", "nsubjpass"}
_OBJECTS = {"dobj", "attr", "oprd", "dative"}
_ROLES = {"attr", "oprd"}
_STARTS = {"since", "from", "in", "on"}
_ENDS = {"until", "till", "through", "to"}
_LEADING = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)
_TRAILING_POSSESSIVE = re.compile(r"['’]s?$")


def clean_name(text: str) -> str:
    """Surface form as a node name: whitespace folded, articles and possessive marks dropped."""
    name = " ".join(text.split())
    name = _LEADING.sub("", name)
    name = _TRAILING_POSSESSIVE.sub("", name).strip(" ,;:-\"'“”‘’()[]")
    return name


class NlpExtractor:
    """Deterministic for a given spaCy model and text; nothing leaves the machine."""

    name = "nlp"
    # Bumped whenever the same text and settings would extract differently: it is part of the
    # content-cache key, so cached extractions of an older revision are not reused.
    revision = "6"

    def __init__(self, settings: ExtractSettings) -> None:
        self.settings = settings
        self._nlp: Any = None
        self._types = set(settings.entity_types)
        self._pool = WarmPool(settings.processes, _start_extractor, (settings,))

    def _load(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(self.settings.spacy_model, "extraction")
        return self._nlp

    def report(self) -> dict[str, Any]:
        return {}

    def names(self, chunks: Sequence[Chunk]) -> list[list[str]]:
        """Named entities per chunk (the LLM extractor's hints)."""
        nlp = self._load()
        out = []
        for doc in nlp.pipe((c.text for c in chunks), batch_size=self.settings.batch_size):
            names = [clean_name(e.text) for e in doc.ents if e.label_ in self._types]
            out.append(list(dict.fromkeys(n for n in names if len(n) > 1)))
        return out

    def extract(self, chunks: Sequence[Chunk], progress: Progress | None = None) -> Extraction:
        mentions: list[Mention] = []
        relations: list[RawRelation] = []
        # Starting workers costs seconds: worth it for a larger batch of chunks, or when they
        # are still up from an earlier run of this workspace (an update's few new chunks).
        parallel = (
            self.settings.processes > 1
            and (self._pool.warm or len(chunks) >= self.settings.parallel_from)
            and spawnable()
        )
        if parallel:
            # Even shares, so a small update keeps every worker busy.
            size = min(self.settings.batch_size, -(-len(chunks) // self.settings.processes))
            batches = [list(chunks[i : i + size]) for i in range(0, len(chunks), size)]
            parts: Iterable[list[tuple[list[Mention], list[RawRelation]]]] = self._pool.map(
                _extract_batch, batches
            )
        else:
            parts = [self.extract_each(chunks)]
        try:
            for part in parts:
                for m, r in part:
                    mentions.extend(m)
                    relations.extend(r)
                if progress is not None:
                    progress(len(part))
        finally:
            if not self.settings.keep_workers:
                self._pool.close()
        return Extraction(mentions, relations)

    def close(self) -> None:
        """Ends the parser workers kept for the next update."""
        self._pool.close()

    def worker_pids(self) -> list[int]:
        return self._pool.pids()

    def extract_each(
        self, chunks: Sequence[Chunk]
    ) -> list[tuple[list[Mention], list[RawRelation]]]:
        """Mentions and relations per chunk, in this process. Each block of a chunk (a
        paragraph, a heading) is parsed on its own: a title is never read as the start of
        the sentence under it ("Kettleby news In January 2011, ...")."""
        nlp = self._load()
        owners: list[tuple[int, str | None]] = []  # chunk, and its body when a heading
        texts: list[str] = []
        for i, chunk in enumerate(chunks):
            blocks = text_blocks(chunk.text, titled=chunk.index == 0)
            body = "\n".join(b for b, heading in blocks if not heading)
            for block, heading in blocks:
                owners.append((i, body if heading else None))
                texts.append(block)
        out: list[tuple[list[Mention], list[RawRelation]]] = [([], []) for _ in chunks]
        docs = nlp.pipe(texts, batch_size=self.settings.batch_size)
        for (i, under), doc in zip(owners, docs, strict=True):
            mentions, relations = self._from_doc(chunks[i], doc)
            if under is not None:
                # A name only a heading writes is the title's wording ("Kettleby news"), not
                # a thing the text speaks of; one the text writes too is kept.
                mentions = [m for m in mentions if m.name in under]
                relations = []
            out[i][0].extend(mentions)
            out[i][1].extend(relations)
        return out

    def _from_doc(self, chunk: Chunk, doc: Any) -> tuple[list[Mention], list[RawRelation]]:
        token_entity: dict[int, str] = {}
        mentions: list[Mention] = []
        relations: list[RawRelation] = []
        for sent in doc.sents:
            sentence = " ".join(sent.text.split())
            names: list[str] = []
            for ent in sent.ents:
                if ent.label_ not in self._types:
                    continue
                name = clean_name(ent.text)
                if len(name) < 2 or not any(ch.isalpha() for ch in name):
                    continue
                for token in ent:
                    token_entity[token.i] = name
                mentions.append(Mention(chunk.id, chunk.doc_id, name, ent.label_, sentence))
                if name not in names:
                    names.append(name)
            if self.settings.concepts:
                for name in self._concepts(sent, token_entity):
                    mentions.append(Mention(chunk.id, chunk.doc_id, name, CONCEPT, sentence))
            relations.extend(self._svo(chunk, sent, sentence, token_entity))
            if self.settings.cooccurrence_edges:
                for a, b in combinations(sorted(names), 2):
                    relations.append(
                        RawRelation(
                            chunk.id, chunk.doc_id, a, b, COOCCURS, "cooccurrence", sentence
                        )
                    )
        return mentions, relations

    @staticmethod
    def _concepts(sent: Any, token_entity: dict[int, str]) -> list[str]:
        """Common-noun concepts ("the boy" -> boy): the lemma of each noun phrase's head noun
        that is not part of a named entity. Marked on the token so relations can use them."""
        found: list[str] = []
        for token in sent:
            if token.pos_ != "NOUN" or token.i in token_entity or not token.is_alpha:
                continue
            name = token.lemma_.lower()
            if len(name) < 3 or token.is_stop:
                continue
            token_entity[token.i] = name
            found.append(name)
        return found

    def _svo(
        self, chunk: Chunk, sent: Any, sentence: str, token_entity: dict[int, str]
    ) -> Iterable[RawRelation]:
        for token in sent:
            if token.dep_ not in _SUBJECTS or token.head.pos_ not in {"VERB", "AUX"}:
                continue
            verb = token.head
            subjects = _with_conjuncts(token, token_entity)
            if not subjects:
                continue
            lemma = verb.lemma_.lower()
            passive = token.dep_ == "nsubjpass"
            start, end = time_bounds(verb)
            for child in verb.children:
                objects, predicate, reverse = _objects(child, lemma, passive, token_entity)
                when = (start, end)
                if objects and when == (None, None) and child.dep_ in _ROLES:
                    when = time_bounds(child)  # "mayor of Bergen from 1990 to 1994"
                for subject in subjects:
                    for obj in objects:
                        if obj == subject:
                            continue
                        source, target = (obj, subject) if reverse else (subject, obj)
                        yield RawRelation(
                            chunk.id,
                            chunk.doc_id,
                            source,
                            target,
                            predicate,
                            "svo",
                            sentence,
                            *when,
                        )


def text_blocks(text: str, titled: bool = False) -> list[tuple[str, bool]]:
    """(block, is a heading): each Markdown heading line on its own, and (``titled``: a
    document's first chunk) a title line standing alone over the text it names; the rest of
    the chunk stays one block, as written. A heading is never glued to the sentence under it."""
    blocks: list[tuple[str, bool]] = []
    body: list[str] = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        following = next((x for x in lines[i + 1 :] if x.strip()), "")
        # A title stands alone: a blank line under it (a wrapped line of prose never does).
        alone = i + 1 < len(lines) and not lines[i + 1].strip()
        first = titled and alone and not any(x.strip() for x in lines[:i])
        if line.lstrip().startswith("#") or (first and following and _is_title(line, following)):
            if body:
                blocks.append(("\n".join(body), False))
                body = []
            blocks.append((line, True))
        else:
            body.append(line)
    if body:
        blocks.append(("\n".join(body), False))
    return [(b, heading) for b, heading in blocks if b.strip()]


_FUNCTION_END = re.compile(r"\b(?:a|an|the|of|and|or|to|in|on|for|with|by|as|at|from)$", re.I)


def _is_title(line: str, following: str) -> bool:
    """A short line without end punctuation over a line that starts a sentence."""
    stripped = line.strip()
    return (
        0 < len(stripped.split()) <= 8
        and not re.search(r"[.!?:;,\"'”’)\-]$", stripped)
        and not _FUNCTION_END.search(stripped)
        and following.lstrip()[:1].isupper()
    )


def _objects(
    child: Any, lemma: str, passive: bool, token_entity: dict[int, str]
) -> tuple[list[str], str, bool]:
    """Entities a verb's child points at, the predicate, and whether the edge runs backwards
    (the agent of a passive verb is the source: "GitHub was acquired by Microsoft")."""
    role = child
    if child.dep_ == "prep" and child.lower_ == "as":  # "succeeded Berg as chief executive of X"
        role = next((p for p in child.children if p.dep_ == "pobj"), child)
    if (child.dep_ in _ROLES or role is not child) and role.i not in token_entity:
        # A role held at an entity: "was mayor of Bergen", "was elected chief executive of X".
        for prep in (c for c in role.children if c.dep_ == "prep" and role.pos_ == "NOUN"):
            pobjs = [p for p in prep.children if p.dep_ == "pobj"]
            objects = [o for p in pobjs for o in _with_conjuncts(p, token_entity)]
            if objects:
                return objects, f"{role.lemma_.lower()}_{prep.lower_}", False
    if child.dep_ in _OBJECTS:
        return _with_conjuncts(child, token_entity), lemma, False
    if child.dep_ == "agent" and passive:
        return [o for p in child.children for o in _with_conjuncts(p, token_entity)], lemma, True
    if child.dep_ == "prep":
        pobjs = [p for p in child.children if p.dep_ == "pobj"]
        objects = [o for p in pobjs for o in _with_conjuncts(p, token_entity)]
        return objects, f"{lemma}_{child.lower_}", False
    return [], lemma, False


def time_bounds(verb: Any) -> tuple[str | None, str | None]:
    """(valid_from, valid_to) from the verb's time phrases, at the precision written ("from
    1990 to 1995", "since March 2004", "until 5 May 2010", "In 2001, ..."); None where the
    sentence states none."""
    start: str | None = None
    end: str | None = None
    preps = [c for c in verb.children if c.dep_ == "prep"]
    preps += [
        g
        for p in preps
        for c in p.children
        if c.dep_ == "pobj"
        for g in c.children
        if g.dep_ == "prep"
    ]
    preps += [g for p in preps for g in p.children if g.dep_ == "prep"]
    for prep in preps:
        word = prep.lower_
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        if word not in _STARTS | _ENDS or not objects:
            continue
        phrase = " ".join(t.text for t in objects[0].subtree)
        found = dates_in(phrase)
        if not found:
            continue
        if word in _STARTS and start is None:
            start = found[0][0].iso
        elif word in _ENDS and end is None:
            end = found[0][0].iso
    return start, end


def _with_conjuncts(token: Any, token_entity: dict[int, str]) -> list[str]:
    names: list[str] = []
    for t in [token, *token.conjuncts]:
        name = token_entity.get(t.i)
        if name is not None and name not in names:
            names.append(name)
    return names


# The extractor of a worker process (set by the pool's setup; never used in the parent).
_worker_extractor: list[NlpExtractor] = []


def _start_extractor(settings: ExtractSettings) -> None:
    _worker_extractor.append(NlpExtractor(settings))
    _worker_extractor[0]._load()


def _extract_batch(chunks: list[Chunk]) -> list[tuple[list[Mention], list[RawRelation]]]:
    return _worker_extractor[0].extract_each(chunks)
