"""Gate 3: information extraction against a gold set, and type consistency without one."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from graphgate.core.types import COOCCURS
from graphgate.gates.base import GateResult
from graphgate.gates.context import GateContext, Triple

# The metrics that need a gold set (UNMEASURED without one).
GOLD_METRICS = tuple(
    f"{kind}_{m}"
    for kind in ("strict", "meaning", "relaxed", "entity")
    for m in ("precision", "recall", "f1")
)


def canonical(text: str) -> str:
    """NFKC, case-folded, ``_`` and ``-`` as spaces, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[_\-]", " ", text).split())


def prf(tp_pred: int, n_pred: int, tp_gold: int, n_gold: int) -> tuple[float, float, float]:
    precision = tp_pred / n_pred if n_pred else 0.0
    recall = tp_gold / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def type_shift(now: dict[str, int], before: dict[str, int]) -> float:
    """Total variation distance between two type distributions: the share of mentions that
    would have to change type for one mix to become the other (0 same, 1 disjoint)."""
    a, b = sum(now.values()), sum(before.values())
    if not a or not b:
        return 0.0 if a == b else 1.0
    types = set(now) | set(before)
    return 0.5 * sum(abs(now.get(t, 0) / a - before.get(t, 0) / b) for t in types)


class IEGate:
    name = "ie"

    def measure(self, ctx: GateContext) -> GateResult:
        types = {e.id: e.type for e in ctx.entities}
        facts, violations, checked = self._type_violations(ctx, types)
        metrics: dict[str, float | None] = {
            "predicted_triples": float(facts),
            "failed_chunk_share": self._failed_share(ctx.extraction),
            **self._yield(ctx),
        }
        details: dict[str, object] = {}
        metrics["type_violation_rate"] = violations / checked if checked else None
        metrics["type_violations"] = float(violations) if checked else None
        if ctx.gold_triples is None:
            for key in GOLD_METRICS:
                metrics[key] = None
            return GateResult(self.name, metrics, {"note": "no gold triples for this run"})
        names = {e.id: {canonical(n) for n in [e.name, *e.aliases]} for e in ctx.entities}
        gold = [(canonical(h), canonical(r), canonical(t)) for h, r, t in ctx.gold_triples]
        predicted = [
            (names[r.source_id], canonical(r.predicate), names[r.target_id])
            for r in ctx.relationships
            if r.predicate != COOCCURS
        ]
        pairs = [(names[r.source_id], names[r.target_id]) for r in ctx.relationships]

        def strict(g: Triple, p: tuple[set[str], str, set[str]]) -> bool:
            return g[0] in p[0] and g[1] == p[1] and g[2] in p[2]

        matcher = ctx.predicates

        def meaning(g: Triple, p: tuple[set[str], str, set[str]]) -> bool:
            """Strict, but the relation compared by meaning ("works for" ~ "work_for")."""
            if not (g[0] in p[0] and g[2] in p[2]):
                return False
            return g[1] == p[1] or (matcher is not None and matcher.same(g[1], p[1]))

        def relaxed(g: Triple, p: tuple[set[str], set[str]]) -> bool:
            return (g[0] in p[0] and g[2] in p[1]) or (g[0] in p[1] and g[2] in p[0])

        s_pred = sum(1 for p in predicted if any(strict(g, p) for g in gold))
        s_gold = sum(1 for g in gold if any(strict(g, p) for p in predicted))
        m_pred = sum(1 for p in predicted if any(meaning(g, p) for g in gold))
        m_gold = sum(1 for g in gold if any(meaning(g, p) for p in predicted))
        r_pred = sum(1 for p in pairs if any(relaxed(g, p) for g in gold))
        r_gold = sum(1 for g in gold if any(relaxed(g, p) for p in pairs))
        for prefix, values in (
            ("strict", prf(s_pred, len(predicted), s_gold, len(gold))),
            ("meaning", prf(m_pred, len(predicted), m_gold, len(gold))),
            ("relaxed", prf(r_pred, len(pairs), r_gold, len(gold))),
        ):
            metrics |= dict(
                zip(
                    (f"{prefix}_precision", f"{prefix}_recall", f"{prefix}_f1"), values, strict=True
                )
            )
        gold_entities = {x for g in gold for x in (g[0], g[2])}
        found = set().union(*names.values()) if names else set()
        e_pred = sum(1 for keys in names.values() if keys & gold_entities)
        metrics |= dict(
            zip(
                ("entity_precision", "entity_recall", "entity_f1"),
                prf(e_pred, len(names), len(gold_entities & found), len(gold_entities)),
                strict=True,
            )
        )
        n = ctx.settings.samples
        details["spurious"] = [
            [sorted(p[0])[0], p[1], sorted(p[2])[0]]
            for p in predicted
            if not any(strict(g, p) for g in gold)
        ][:n]
        details["missed"] = [list(g) for g in gold if not any(strict(g, p) for p in predicted)][:n]
        return GateResult(self.name, metrics, details)

    @staticmethod
    def _yield(ctx: GateContext) -> dict[str, float | None]:
        """What extraction found per 1,000 chunk tokens (a chunk size changes neither much),
        and how far its mix of mention types moved from the baseline's: the signs of an
        extractor narrowed, relations dropped or a prompt that changed what it finds, with no
        gold set needed."""
        tokens = sum(c.n_tokens for c in ctx.chunks)
        mentions = sum(ctx.mention_types.values())
        measured = bool(tokens and ctx.mention_types and ctx.extraction is not None)
        shift = None
        before = ctx.baseline.mention_types if ctx.baseline is not None else {}
        if measured and before:
            shift = type_shift(ctx.mention_types, before)
        return {
            "mentions_per_1k_tokens": 1000 * mentions / tokens if measured else None,
            "relations_per_1k_tokens": 1000 * sum(ctx.relation_kinds.values()) / tokens
            if measured
            else None,
            "type_shift": shift,
        }

    @staticmethod
    def _failed_share(extraction: dict[str, Any] | None) -> float | None:
        """Chunks the extractor gave up on (the LLM extractor's failures; 0 for NLP)."""
        if not extraction or not extraction.get("chunks"):
            return None
        return float(extraction.get("failed_chunks", 0)) / float(extraction["chunks"])

    @staticmethod
    def _type_violations(ctx: GateContext, types: dict[str, str]) -> tuple[int, int, int]:
        """Relations that are facts (not co-occurrences), and of those with a rule in the
        schema, how many join types it does not allow and how many were checked: one pass."""
        schema = {canonical(k): v for k, v in ctx.settings.ie_schema.items()}
        rules: dict[str, dict[str, list[str]] | None] = {}
        facts = violations = checked = 0
        for r in ctx.relationships:
            if r.predicate == COOCCURS:
                continue
            facts += 1
            if r.predicate not in rules:
                rules[r.predicate] = schema.get(canonical(r.predicate))
            allowed = rules[r.predicate]
            if allowed is None:
                continue
            checked += 1
            ok_s = types[r.source_id] in allowed.get("subject", [types[r.source_id]])
            ok_o = types[r.target_id] in allowed.get("object", [types[r.target_id]])
            violations += not (ok_s and ok_o)
        return facts, violations, checked
