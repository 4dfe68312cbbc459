"""Gates 7 and 8: community summaries (coverage, redundancy, hallucination) and generation
(from the latest evaluation of this run)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

from graphgate.core.modes import DEFAULT_MODE
from graphgate.core.text import claims_of, content_word_set
from graphgate.core.types import Claim, CommunityReport, Relationship, claims_from_json
from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext
from graphgate.index.summarize import MemberRelations, relation_sentence

# Sibling groups larger than this are compared on their highest-rated reports only.
_MAX_SIBLINGS = 200


def report_claims(report: CommunityReport) -> list[Claim]:
    """The claims the summarizer stored, then any sentence of the summary that is not one of
    them (text added around the claims is judged too, never skipped), as generated ones."""
    stored = claims_from_json(report.claims_json)
    if report.summary == " ".join(c.text for c in stored):
        return stored  # the claims joined, nothing added (a claim may hold a "Dr." inside)
    known = {c.text for c in stored}
    extra = [c for c in claims_of(report.summary) if c not in known]
    return stored + [Claim(text, "generated", report.community_id) for text in extra]


def _supported(words: set[str], sources: Iterable[set[str]]) -> bool:
    return not words or any(len(words & s) >= 0.8 * len(words) for s in sources)


class _Stated(NamedTuple):
    """What the gate reads of a relation: the records' chunk lists and descriptions, held
    for every relation of the run, were most of the gate's memory."""

    id: str
    source_id: str
    target_id: str
    predicate: str
    weight: float


class _Member(NamedTuple):
    """What the gate reads of an entity (not its chunk and document lists)."""

    name: str
    aliases: list[str]
    description: str


def _stated_relations(relationships: Iterable[Relationship]) -> Iterator[_Stated]:
    """One tuple per relation, the strings they repeat (entity ids, predicates) held once."""
    held: dict[str, str] = {}
    for r in relationships:
        yield _Stated(
            r.id,
            held.setdefault(r.source_id, r.source_id),
            held.setdefault(r.target_id, r.target_id),
            held.setdefault(r.predicate, r.predicate),
            r.weight,
        )


class _ClaimSources:
    """What a report's claims may rest on: its chunks, the sentences of the relations among
    its members and their descriptions. A claim is supported when any one covers it, so what
    it cites comes first, then the rest in that order (chunks back most claims), and a
    source's words are taken only when a claim gets that far: a chunk's and a description's
    once per run (each is in a report per level), a relation's sentence each time."""

    def __init__(self, entities: dict[str, _Member], chunk_texts: dict[str, str]) -> None:
        self.entities = entities
        self.chunk_texts = chunk_texts
        self.chunk_words: dict[str, set[str]] = {}
        self.described: dict[str, set[str]] = {}

    def of(
        self,
        chunk_ids: list[str],
        internal: list[_Stated],
        members: list[str],
        cited: Claim | None = None,
    ) -> Iterator[set[str]]:
        """What a claim cites is offered first (the edge an edge claim states, the chunk
        another names), when it is among these: it backs the claim most often, and the
        words of the rest are then never needed."""
        if cited is not None and cited.kind == "edge":
            edge = next((r for r in internal if r.id == cited.ref), None)
            if edge is not None:
                yield self._stated(edge)
        elif cited is not None and cited.chunk_id in chunk_ids:
            chunk_ids = [cited.chunk_id, *chunk_ids]
        for c in chunk_ids:
            if c in self.chunk_texts:
                if c not in self.chunk_words:
                    self.chunk_words[c] = content_word_set(self.chunk_texts[c])
                yield self.chunk_words[c]
        for r in internal:
            yield self._stated(r)
        for m in dict.fromkeys(members):
            if m in self.entities:
                if m not in self.described:
                    self.described[m] = content_word_set(self.entities[m].description)
                yield self.described[m]

    def _stated(self, r: _Stated) -> set[str]:
        """Made again each time asked (a set per relation, kept, was the gate's largest
        holding, for little time saved)."""
        sentence = relation_sentence(
            self.entities[r.source_id].name, r.predicate, self.entities[r.target_id].name, r.weight
        )
        return content_word_set(sentence)


class SummaryGate:
    name = "summary"

    def measure(self, ctx: GateContext) -> GateResult:
        entities = {e.id: _Member(e.name, e.aliases, e.description) for e in ctx.entities}
        communities = {c.id: c for c in ctx.communities}
        relations = MemberRelations(_stated_relations(ctx.relationships))
        entity_cov: list[float] = []
        relation_cov: list[float] = []
        hallucinated: list[dict[str, str]] = []
        words_of: dict[str, set[str]] = {}
        sources = _ClaimSources(entities, {c.id: c.text for c in ctx.chunks})
        for report in ctx.reports:
            community = communities.get(report.community_id)
            if community is None:
                continue
            text = report.summary.lower()
            names = [entities[m] for m in community.members if m in entities]
            entity_cov.append(
                sum(any(n.lower() in text for n in [e.name, *e.aliases]) for e in names)
                / len(names)
                if names
                else 0.0
            )
            internal = relations.inside(community.members)
            if internal:
                relation_cov.append(
                    sum(
                        entities[r.source_id].name.lower() in text
                        and entities[r.target_id].name.lower() in text
                        for r in internal
                    )
                    / len(internal)
                )
            for claim in report_claims(report):
                found = sources.of(report.chunk_ids, internal, community.members, claim)
                if not _supported(content_word_set(claim.text), found):
                    hallucinated.append({"community": report.community_id, "claim": claim.text})
            words_of[report.community_id] = content_word_set(report.summary)
        metrics: dict[str, float | None] = {
            "reports": float(len(ctx.reports)),
            "entity_coverage": float(np.mean(entity_cov)) if entity_cov else None,
            "relation_coverage": float(np.mean(relation_cov)) if relation_cov else None,
            "redundancy": self._redundancy(ctx, words_of),
            "hallucinated_claims": float(len(hallucinated)) if ctx.reports else None,
        }
        return GateResult(
            self.name, metrics, {"hallucinated": hallucinated[: ctx.settings.samples]}
        )

    @staticmethod
    def _redundancy(ctx: GateContext, words_of: dict[str, set[str]]) -> float | None:
        """Mean over reports of the highest word overlap (Jaccard) with a sibling report."""
        parent = {c.id: c.parent for c in ctx.communities}
        rating = {r.community_id: r.rating for r in ctx.reports}
        groups: dict[str | None, list[str]] = defaultdict(list)
        for cid in words_of:
            groups[parent.get(cid)].append(cid)
        best: list[float] = []  # in the order the pairs first name each report
        for members in groups.values():
            members = sorted(members, key=lambda c: (-rating[c], c))[:_MAX_SIBLINGS]
            if len(members) > 1:
                best.extend(_highest_jaccard([words_of[m] for m in members]))
        return float(np.mean(best)) if best else None


def _highest_jaccard(word_sets: list[set[str]]) -> list[float]:
    """Each set's highest Jaccard similarity with another of the list (0 where both are
    empty), from one matrix product of their word incidences: a top-level group of 200
    reports is 20,000 pairs."""
    vocabulary = {w: i for i, w in enumerate({w for words in word_sets for w in words})}
    incidence = np.zeros((len(word_sets), max(len(vocabulary), 1)), dtype=np.float64)
    for row, words in enumerate(word_sets):
        incidence[row, [vocabulary[w] for w in words]] = 1.0
    shared = incidence @ incidence.T  # exact: counts far below 2**53
    sizes = incidence.sum(axis=1)
    union = sizes[:, None] + sizes[None, :] - shared
    with np.errstate(invalid="ignore", divide="ignore"):
        jaccard = np.where(union > 0, shared / union, 0.0)
    np.fill_diagonal(jaccard, -np.inf)
    return [float(x) for x in jaccard.max(axis=1)]


class GenGate:
    name = "gen"

    def measure(self, ctx: GateContext) -> GateResult:
        summary = ctx.eval_summary
        keys = (
            "faithfulness",
            "answer_correctness",
            "citation_accuracy",
            "rouge_l",
            "latency_p50_ms",
            "latency_p95_ms",
            "llm_calls",
            "tokens",
            "cost",
            "conflicts_surfaced",
            "successions_as_conflicts",
        )
        if not summary:
            return GateResult(
                self.name,
                dict.fromkeys(keys),
                {"note": "no evaluation of this run yet (graphgate eval)"},
            )
        modes = list(summary["modes"])
        if not modes:
            return GateResult(
                self.name,
                dict.fromkeys(keys),
                {"note": "the latest evaluation of this run scored no mode"},
            )
        # The default query mode is what users get: judge it when it was evaluated.
        mode = DEFAULT_MODE if DEFAULT_MODE in modes else modes[0]
        overall = summary["modes"][mode]["overall"]["metrics"]

        def mean(name: str) -> float | None:
            stat = overall.get(name)
            return None if stat is None or stat["mean"] is None else float(stat["mean"])

        latency = summary.get("latency_ms", {}).get(mode, {})
        llm = summary.get("llm") or {}
        offline = summary.get("generator") == "extractive" and not llm
        metrics: dict[str, float | None] = {
            # The gate's names are the methodology's; the harness measures them as grounding
            # and citation coverage.
            "faithfulness": mean("grounding"),
            "answer_correctness": mean("answer_correctness"),
            "citation_accuracy": mean("citation_coverage"),
            "rouge_l": mean("rouge_l"),
            "latency_p50_ms": latency.get("p50"),
            "latency_p95_ms": latency.get("p95"),
            # An extractive generator with no judge model makes no calls: zero, not unmeasured.
            "llm_calls": float(llm["calls"]) if llm else (0.0 if offline else None),
            "tokens": float(llm["prompt_tokens"] + llm["completion_tokens"])
            if llm
            else (0.0 if offline else None),
            "cost": float(llm["cost"]) if llm else (0.0 if offline else None),
            # Of the answers whose retrieval held conflicting statements, the share that cite
            # both sides of every one (unmeasured when no retrieval met a conflict).
            "conflicts_surfaced": mean("conflicts_surfaced"),
            # Of the questions with one answer at their time (temporal cases of the test set),
            # the share whose answer showed it as one side of a disagreement: an orderly change
            # of holder read as a conflict (unmeasured without such cases).
            "successions_as_conflicts": mean("successions_as_conflicts"),
        }
        return GateResult(self.name, metrics, {"mode": mode, "testset": summary.get("testset")})
