"""Who held a post at the asked time, from the index's dated facts, for every mode.

The facts are the one-valued relations the index closed at each succession (index/truth.py):
"B mayor_of X from 2006", "A mayor_of X 2001 to 2006". A passage that states such a fact about
something the question names fits the asked time when the fact held then — and best when the
fact's start is stated, not only its end — and does not when none of its facts held then,
whatever the date of its document (a later report about an earlier time still counts).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from graphgate.core.dates import TimeSpan, span_of
from graphgate.core.errors import IndexMissingError
from graphgate.core.family_match import FamilyMatcher
from graphgate.core.runs import Run
from graphgate.core.text import content_word_set, normalise_name
from graphgate.query.base import RetrievedEdge

# How well a passage's facts fit the asked time (query/temporal.py ranks by it): one held
# then from a stated start; one held then without a start, or only facts that ended before
# (the passage may tell the change that ended them); every fact begins after it.
HELD_FROM_START, HELD, NOT_HELD = 3, 2, 0
_COLUMNS = (
    "id", "source_id", "target_id", "predicate", "weight", "chunk_ids",
    "valid_from", "valid_to", "observed_at",
)  # fmt: skip


@dataclass(frozen=True)
class HeldFact:
    edge: RetrievedEdge
    family: str  # "mayor"
    role: bool
    span: TimeSpan | None

    def holds(self, asked: TimeSpan) -> bool:
        return self.span is not None and self.span.overlaps(asked)


def _fullest(name: str, aliases: list[str] | None) -> str:
    """The fullest form of a name among its aliases ("Ada Lund" over "Lund")."""
    longer = [a for a in aliases or [] if name in a and len(a) > len(name)]
    return max(longer, key=len) if longer else name


class HeldFacts:
    """The run's dated one-valued facts, by chunk, read once per loaded run."""

    def __init__(
        self, facts: Sequence[HeldFact], aliases: dict[str, list[str]] | None = None
    ) -> None:
        self.aliases = aliases or {}
        self.by_chunk: dict[str, list[HeldFact]] = defaultdict(list)
        for f in facts:
            for cid in f.edge.chunk_ids:
                self.by_chunk[cid].append(f)

    @classmethod
    def read(cls, run: Run, families: FamilyMatcher) -> HeldFacts:
        try:
            # Only the columns and rows used (the descriptions and other predicates are most
            # of a large index's relationships), and the names of only their ends.
            present = pq.read_schema(run.artifact_path("relationships")).names
            table = run.read_artifact("relationships", [c for c in _COLUMNS if c in present])
            one_valued = pa.array(sorted(families.functional), pa.string())
            table = table.filter(pc.is_in(table["predicate"], one_valued))
            rels = table.to_pylist()
            ends = pa.concat_arrays(
                [table["source_id"].combine_chunks(), table["target_id"].combine_chunks()]
            )
            entities = run.read_artifact("entities", ["id", "name", "aliases"])
            entities = entities.filter(pc.is_in(entities["id"], ends)).to_pydict()
            del table, ends
            names = dict(zip(entities["id"], entities["name"], strict=True))
            aliases = dict(zip(entities["id"], entities["aliases"], strict=True))
        except (IndexMissingError, KeyError, ValueError, OSError):
            return cls([])
        facts = []
        for r in rels:
            predicate = r["predicate"]
            if predicate not in families.functional or not (r["valid_from"] or r["valid_to"]):
                continue
            try:
                span = span_of(r["valid_from"], r["valid_to"])
            except ValueError:
                continue
            source = _fullest(
                names.get(r["source_id"], r["source_id"]), aliases.get(r["source_id"])
            )
            edge = RetrievedEdge(
                r["id"], r["source_id"], source, predicate,
                r["target_id"], names.get(r["target_id"], r["target_id"]), r["weight"],
                list(r["chunk_ids"]), 0.0, r["valid_from"], r["valid_to"], r.get("observed_at"),
            )  # fmt: skip
            name = families.family_name(predicate)
            facts.append(HeldFact(edge, name, families.is_role(predicate), span))
        used = {f.edge.target_id if f.role else f.edge.source_id for f in facts}
        return cls(facts, {i: list(aliases[i] or []) for i in used if aliases.get(i)})

    def about(self, chunk_id: str, question: str) -> list[HeldFact]:
        """The chunk's facts about something the question names (by its one-valued end)."""
        lowered = question.lower()
        return [f for f in self.by_chunk.get(chunk_id, []) if self._named(f, lowered)]

    def fit(self, chunk_id: str, question: str, asked: TimeSpan) -> int | None:
        """How the chunk's facts about the question fit the asked time; None: it states none."""
        facts = self.about(chunk_id, question)
        if not facts:
            return None
        held = [f for f in facts if f.holds(asked)]
        if any(f.edge.valid_from for f in held):
            return HELD_FROM_START
        if held or asked.start is None:
            return HELD
        later = all(f.span is not None and f.span.after(asked.end or asked.start) for f in facts)
        return NOT_HELD if later else HELD

    def holders(
        self, chunk_ids: Iterable[str], question: str, asked: TimeSpan, families: FamilyMatcher
    ) -> list[RetrievedEdge]:
        """Facts of the posts the question asks about ("Who was the mayor of X?") that held at
        the asked time, from the retrieved chunks: per post, the one with the latest start."""
        asked_roles = {m.family.predicate for m in families.roles_in(question)}
        found: dict[str, HeldFact] = {}
        for cid in chunk_ids:
            for f in self.about(cid, question):
                if f.edge.predicate in asked_roles and f.holds(asked):
                    found.setdefault(f.edge.id, f)
        # One holder per post: the latest stated start (a later start closed earlier ones).
        best: dict[tuple[str, str], HeldFact] = {}
        for f in found.values():
            key = (f.edge.predicate, f.edge.target_id)
            if key not in best or (best[key].edge.valid_from or "") < (f.edge.valid_from or ""):
                best[key] = f
        return [f.edge for f in best.values()]

    def _named(self, f: HeldFact, lowered_question: str) -> bool:
        """The question names the fact's one-valued end (the post's organisation), by its
        name or an alias."""
        one, one_id = (
            (f.edge.target, f.edge.target_id) if f.role else (f.edge.source, f.edge.source_id)
        )
        return any(
            len(n) > 2 and n.lower() in lowered_question
            for n in (one, *self.aliases.get(one_id, []))
        )


def held_answer(edge: RetrievedEdge, question: str, words: frozenset[str]) -> str | None:
    """The end of a held fact that answers the question (``words``: its content words): the
    one it does not name. "Scotland's Alex McLeish" names the holder "Alexander McLeish" of
    the Scotland post by a word its end "Scotland" does not lend, so the fact answers
    neither who nor which team (None); "Koch Industries" lends "Koch" to "Charles Koch"."""
    asked = normalise_name(question)
    ends = (edge.source, edge.target)
    for name, other in (ends, ends[::-1]):
        named = normalise_name(name) in asked
        lent = content_word_set(name) & words - content_word_set(other)
        if named or lent:
            continue
        return name
    return None
