// Runs and gates: every run with status and verdict; one run's eight gates; each metric's trend
// across runs with its hard bounds, the baseline's value and the history band drawn.
"use strict";

(function (GG) {
  const { h } = GG;

  function changes(run) {
    const c = run.changes || {};
    const parts = ["added", "changed", "removed"].filter((k) => c[k]).map((k) => `${k} ${c[k]}`);
    return `${run.origin || ""}${parts.length ? `: ${parts.join(", ")}` : ""}`;
  }

  GG.views.runs = async function (main) {
    const started = performance.now();
    const runs = await GG.api("/runs");
    GG.render(main, 
      h("h1", {}, "Runs"),
      h("p", {}, GG.link("#/gates", "Gates of the current run and every metric's trend →")),
      GG.table(
        ["run", "status", "verdict", "started", "built from", "documents", "entities", "edges"],
        [...runs].reverse().map((r) => [
          GG.link(`#/gates/${encodeURIComponent(r.run_id)}`, r.run_id),
          [r.status, r.current ? h("span", { class: "tag" }, "current") : null, r.baseline ? h("span", { class: "tag" }, "baseline") : null],
          GG.verdict(r.verdict),
          r.started_at || "",
          changes(r),
          GG.fmt(r.counts.documents),
          GG.fmt(r.counts.entities),
          GG.fmt(r.counts.relationships),
        ]),
        { id: "runs" },
      ),
    );
    GG.ready("runs", started);
  };

  function gateCard(gate) {
    const metrics = Object.entries(gate.metrics || {});
    return h(
      "section",
      { class: "gate", dataset: { gate: gate.gate } },
      h("h3", {}, gate.gate, " ", GG.verdict(gate.verdict)),
      GG.table(
        ["metric", "value", "verdict", "why"],
        metrics.map(([name, value]) => [name, GG.fmt(value, 4), gate.verdicts[name] ? GG.verdict(gate.verdicts[name]) : "", gate.reasons[name] || ""]),
      ),
      gate.notes && gate.notes.length ? h("ul", { class: "notes" }, gate.notes.map((n) => h("li", {}, n))) : null,
    );
  }

  function flat(value, n) {
    return Array.from({ length: n }, () => value);
  }

  function trendChart(trend) {
    const canvas = h("canvas", { height: 160 });
    const box = h(
      "div",
      { class: "trend", dataset: { metric: `${trend.gate}.${trend.metric}`, band: trend.band_runs ? `${trend.band_low},${trend.band_high}` : "" } },
      h("h4", {}, `${trend.gate}.${trend.metric}`, h("span", { class: "muted" }, trend.direction === "info" ? "" : ` (${trend.direction} is better)`)),
      h("div", { class: "chart" }, canvas),
    );
    const n = trend.points.length;
    const datasets = [
      {
        label: "value",
        data: trend.points.map((p) => p.value),
        borderColor: "#4e79a7",
        backgroundColor: "#4e79a7",
        pointBackgroundColor: trend.points.map((p) => (p.verdict === "FAIL" ? "#e15759" : p.verdict === "WARN" ? "#edc948" : "#4e79a7")),
        pointRadius: 4,
        spanGaps: true,
      },
    ];
    for (const [label, value, colour] of [
      ["fails below", trend.fail_below, "#e15759"],
      ["fails above", trend.fail_above, "#e15759"],
      ["baseline", trend.baseline, "#59a14f"],
      [`history band (${trend.band_runs} ${trend.band_source || "runs"})`, trend.band_low, "#9c9c9c"],
      [`history band (${trend.band_runs} ${trend.band_source || "runs"}) `, trend.band_high, "#9c9c9c"],
    ]) {
      if (value === null || value === undefined) continue;
      datasets.push({ label, data: flat(value, n), borderColor: colour, borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5 });
    }
    box.chart = () =>
      new Chart(canvas, {
        type: "line",
        data: { labels: trend.points.map((p) => p.run_id.slice(0, 15)), datasets },
        options: {
          animation: false,
          maintainAspectRatio: false,
          plugins: { legend: { labels: { boxWidth: 12, font: { size: 10 } } } },
          scales: { x: { ticks: { font: { size: 9 } } } },
        },
      });
    return box;
  }

  GG.views.gates = async function (main, query, runId) {
    const started = performance.now();
    GG.need("chart"); // fetched while the data is
    const runs = await GG.api("/runs");
    const current = runs.find((r) => r.current);
    const chosen = runId || (current && current.run_id);
    if (!chosen) {
      GG.render(main, h("h1", {}, "Gates"), h("p", {}, "No run yet: index a corpus first."));
      return GG.ready("gates", started);
    }
    const [gates, trends] = await Promise.all([GG.api(`/runs/${encodeURIComponent(chosen)}/gates`), GG.api("/gates/trends")]);
    const picker = h(
      "select",
      { id: "run-picker", onchange: (e) => (window.location.hash = `#/gates/${encodeURIComponent(e.target.value)}`) },
      [...runs].reverse().map((r) => h("option", { value: r.run_id, selected: r.run_id === chosen }, `${r.run_id} (${r.status}${r.current ? ", current" : ""})`)),
    );
    const charts = trends.map(trendChart);
    const byGate = new Map();
    for (const box of charts) {
      const gate = box.dataset.metric.split(".")[0];
      if (!byGate.has(gate)) byGate.set(gate, []);
      byGate.get(gate).push(box);
    }
    GG.render(main, 
      h("h1", {}, "Gates ", GG.verdict(gates.verdict)),
      h("p", {}, "Run ", picker, gates.baseline_id ? h("span", { class: "muted" }, ` compared with baseline ${gates.baseline_id}`) : null),
      gates.gates.length ? null : h("p", {}, "The gates have not run on this run: `graphgate gates --run ID`."),
      (gates.notes || []).length ? h("ul", { class: "notes" }, gates.notes.map((n) => h("li", {}, n))) : null,
      h("div", { class: "gates", id: "gate-cards" }, gates.gates.map(gateCard)),
      h("h2", {}, `Trends across ${runs.length} runs (${trends.length} metrics)`),
      [...byGate.entries()].map(([gate, boxes]) => h("section", { class: "trends" }, h("h3", {}, gate), h("div", { class: "trend-grid" }, boxes))),
    );
    await GG.need("chart");
    // A chart is drawn when it comes near the screen: dozens of metrics, a few seen at once.
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          entry.target.chart();
          entry.target.dataset.drawn = "true";
        }
      },
      { rootMargin: "300px" },
    );
    for (const box of charts) observer.observe(box);
    GG.ready("gates", started);
  };
})(window.GG);
