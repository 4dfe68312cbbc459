// Evaluations: the list, one evaluation's tables (per mode, per question type, failure
// attribution) and a case next to its ground truth.
"use strict";

(function (GG) {
  const { h } = GG;
  const HEADLINE = ["doc_recall", "entity_recall", "relationship_recall", "grounding", "citation_coverage", "answer_correct", "rouge_l"];

  GG.views.evals = async function (main) {
    const started = performance.now();
    const evals = await GG.api("/evaluations");
    GG.render(main, 
      h("h1", {}, "Evaluations"),
      evals.length
        ? GG.table(
            ["evaluation", "run", "test set", "cases", "modes", "verdict"],
            evals.map((e) => [
              GG.link(`#/eval/${encodeURIComponent(e.run_id)}/${encodeURIComponent(e.eval_id)}`, e.eval_id),
              e.run_id,
              e.testset,
              e.cases,
              e.modes.join(", "),
              GG.verdict(e.verdict),
            ]),
            { id: "evals" },
          )
        : h("p", {}, "No evaluation yet: `graphgate eval TESTSET` or POST /eval."),
    );
    GG.ready("evals", started);
  };

  function metricNames(summary) {
    const names = new Set();
    for (const mode of Object.values(summary.modes)) for (const k of Object.keys(mode.overall.metrics)) names.add(k);
    const ordered = HEADLINE.filter((k) => names.has(k));
    return ordered.concat([...names].filter((k) => !ordered.includes(k)).sort());
  }

  function statsTable(rows, metrics, id) {
    return GG.table(
      ["", "cases", ...metrics],
      rows.map(([label, stats]) => [label, stats.cases, ...metrics.map((m) => GG.fmt(stats.metrics[m] ? stats.metrics[m].mean : null))]),
      { class: "wide", id },
    );
  }

  GG.views.eval = async function (main, query, runId, evalId) {
    const started = performance.now();
    const data = await GG.api(`/evaluations/${encodeURIComponent(runId)}/${encodeURIComponent(evalId)}`);
    const s = data.summary;
    const metrics = metricNames(s);
    const modes = Object.keys(s.modes).sort();
    const types = [...new Set(modes.flatMap((m) => Object.keys(s.modes[m].by_type)))].sort();
    const failures = [...new Set(modes.flatMap((m) => Object.keys(s.modes[m].overall.failures || {})))].sort();
    const filter = { mode: GG.param(query, "mode", ""), type: GG.param(query, "type", ""), failure: GG.param(query, "failure", "") };
    const cases = data.records
      .map((r, i) => ({ r, i }))
      .filter(({ r }) => (!filter.mode || r.mode === filter.mode) && (!filter.type || r.question_type === filter.type) && (!filter.failure || r.failure === filter.failure));
    const base = `#/eval/${encodeURIComponent(runId)}/${encodeURIComponent(evalId)}`;
    GG.render(main, 
      h("h1", {}, `Evaluation ${evalId} `, GG.verdict(s.overall_verdict)),
      h("p", { class: "muted" }, `run ${runId} · ${s.testset} · ${s.cases} cases · generator ${s.generator || "?"} · judge ${s.judge || "?"}`),
      h("h2", {}, "By mode"),
      statsTable(modes.map((m) => [m, s.modes[m].overall]), metrics, "by-mode"),
      h("h2", {}, "By question type"),
      types.map((t) =>
        h("section", {}, h("h3", {}, t), statsTable(modes.filter((m) => s.modes[m].by_type[t]).map((m) => [m, s.modes[m].by_type[t]]), metrics)),
      ),
      h("h2", {}, "Failure attribution"),
      GG.table(
        ["mode", ...failures],
        modes.map((m) => [m, ...failures.map((f) => GG.link(`${base}?mode=${m}&failure=${encodeURIComponent(f)}`, String((s.modes[m].overall.failures || {})[f] || 0)))]),
        { id: "failures" },
      ),
      h("h2", {}, `Cases (${cases.length}${filter.mode || filter.type || filter.failure ? ", filtered" : ""})`),
      filter.mode || filter.type || filter.failure ? GG.link(base, "show all") : null,
      GG.table(
        ["case", "mode", "type", "failure", "question"],
        cases.slice(0, 500).map(({ r, i }) => [
          GG.link(`#/case/${encodeURIComponent(runId)}/${encodeURIComponent(evalId)}/${i}`, r.case_id, { class: "case-link" }),
          r.mode,
          r.question_type,
          r.failure || "",
          r.question,
        ]),
        { id: "cases" },
      ),
    );
    GG.ready("eval", started);
  };

  function compareList(title, retrieved, gold, key) {
    const goldKeys = new Set(gold.map(key));
    const gotKeys = new Set(retrieved.map(key));
    return h(
      "section",
      { class: "compare-list" },
      h("h3", {}, title),
      h(
        "div",
        { class: "two" },
        h("div", {}, h("h4", {}, `retrieved (${retrieved.length})`), h("ul", {}, retrieved.map((x) => h("li", { class: goldKeys.has(key(x)) ? "hit" : "" }, Array.isArray(x) ? x.join(" — ") : x)))),
        h("div", {}, h("h4", {}, `ground truth (${gold.length})`), h("ul", {}, gold.map((x) => h("li", { class: gotKeys.has(key(x)) ? "hit" : "miss" }, Array.isArray(x) ? x.join(" — ") : x)))),
      ),
    );
  }

  GG.views.case = async function (main, query, runId, evalId, index) {
    const started = performance.now();
    const data = await GG.api(`/evaluations/${encodeURIComponent(runId)}/${encodeURIComponent(evalId)}`);
    const r = data.records[Number(index)];
    if (!r) throw new GG.ApiError(404, "no such case in this evaluation", "pick one from the list");
    const norm = (x) => String(x).toLowerCase();
    const edgeKey = (e) => e.map(norm).join("|");
    GG.render(main, 
      h("h1", {}, `Case ${r.case_id} · ${r.mode}`),
      h("p", {}, GG.link(`#/eval/${encodeURIComponent(runId)}/${encodeURIComponent(evalId)}`, "← the evaluation")),
      h("p", { class: "muted" }, `${r.question_type}${r.difficulty ? ` · ${r.difficulty}` : ""} · failure: ${r.failure || "none"}`),
      h("h2", {}, r.question),
      GG.table(["", "text"], [["gold answer", r.gold_answer || "—"], ["answer", r.answer]], { class: "wide" }),
      compareList("Documents", r.retrieved_docs, r.gold_docs, norm),
      compareList("Entities", r.retrieved_entities, r.gold_entities, norm),
      compareList("Edges", r.retrieved_edges, r.gold_edges, edgeKey),
      h("h3", {}, "Metrics"),
      GG.table(["metric", "value"], Object.entries(r.metrics).map(([k, v]) => [k, GG.fmt(v)])),
    );
    GG.ready("case", started);
  };
})(window.GG);
