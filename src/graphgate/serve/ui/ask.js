// Ask: a question in one mode (answer, citations, subgraph, timings) or in every mode side by side.
"use strict";

(function (GG) {
  const { h } = GG;

  function askForm(query, compare) {
    const modes = GG.modes();
    const question = h("input", {
      id: "question",
      name: "question",
      type: "text",
      required: true,
      maxlength: 4000,
      placeholder: "Ask the index a question",
      value: GG.param(query, "q", ""),
    });
    const mode = h(
      "select",
      { id: "mode", name: "mode", disabled: compare },
      modes.map((m) => h("option", { value: m, selected: m === GG.param(query, "mode", "hybrid") }, m)),
    );
    const topK = h("input", { id: "top-k", type: "number", min: 1, max: 100, value: GG.param(query, "top_k", "5") });
    const asOf = h("input", { id: "as-of", type: "text", size: 10, placeholder: "as of (2016-03)", value: GG.param(query, "as_of", "") });
    const form = h(
      "form",
      { class: "ask", id: "ask-form" },
      question,
      h("label", {}, "mode ", mode),
      h("label", {}, "top-k ", topK),
      h("label", {}, asOf),
      h("button", { type: "submit", id: "ask-button" }, compare ? "Compare modes" : "Ask"),
      compare ? GG.link("#/ask", "one mode") : h("button", { type: "button", id: "compare-button", onclick: () => go(true) }, "Compare modes"),
    );
    function go(all) {
      const params = new URLSearchParams({ q: question.value, top_k: topK.value });
      if (!all) params.set("mode", mode.value);
      if (asOf.value) params.set("as_of", asOf.value);
      window.location.hash = `#/${all ? "compare" : "ask"}?${params}`;
    }
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      go(compare);
    });
    return form;
  }

  function requestBody(query, mode) {
    const body = { question: GG.param(query, "q", ""), mode, top_k: Number(GG.param(query, "top_k", "5")) };
    const asOf = GG.param(query, "as_of", "");
    if (asOf) body.as_of = asOf;
    return body;
  }

  function request(query, mode) {
    return GG.api("/query", { method: "POST", body: requestBody(query, mode) });
  }

  // One mode, streamed: the passages found, then the answer's text as it is written (as text,
  // never markup), then the cited answer. Resolves with the answer.
  function streamed(query, mode, live) {
    let answer = null;
    return GG.stream("/query/stream", requestBody(query, mode), (name, data) => {
      if (name === "retrieval") {
        live.passages.textContent = `${data.passages.length} passages retrieved (run ${data.run_id}); answering…`;
      } else if (name === "text") {
        live.text.append(data.text);
      } else if (name === "answer") {
        answer = data;
      }
    }).then(() => answer);
  }

  // The answer text with each [n] as a button that opens cited passage n.
  function answerText(result, onCite) {
    const parts = result.answer.split(/(\[\d+\])/);
    const byMarker = new Map(result.citations.map((c) => [c.marker, c]));
    return h(
      "div",
      { class: "answer", "data-testid": "answer" },
      parts.map((part) => {
        const m = /^\[(\d+)\]$/.exec(part);
        const citation = m && byMarker.get(Number(m[1]));
        if (!citation) return part;
        return h("button", { class: "cite", type: "button", dataset: { marker: citation.marker }, onclick: () => onCite(citation) }, part);
      }),
    );
  }

  async function showCitation(panel, citation) {
    panel.replaceChildren(h("p", { class: "muted" }, "loading…"));
    try {
      const chunk = await GG.api(`/chunk?id=${encodeURIComponent(citation.chunk_id)}`);
      panel.replaceChildren(
        h("h3", {}, `[${citation.marker}] `, chunk.title || chunk.doc_id),
        h(
          "p",
          { class: "muted" },
          `document ${chunk.doc_id}`,
          citation.page ? h("span", { "data-testid": "citation-page" }, ` p. ${citation.page}`) : null,
          citation.section && citation.section.length
            ? h("span", { "data-testid": "citation-section" }, ` — ${citation.section.join(" › ")}`)
            : null,
          `, passage ${chunk.index}, characters ${citation.start}–${citation.end}`,
          chunk.date ? `, dated ${chunk.date}` : "",
          citation.community_id ? [" · from the report of ", GG.link(GG.communityHash(citation.community_id), "its community")] : null,
          " · ",
          GG.link(`#/document?id=${encodeURIComponent(chunk.doc_id)}&at=${citation.start}&to=${citation.end}`, "open in document"),
        ),
        GG.markedText(chunk, citation.start, citation.end),
      );
      panel.dataset.citation = String(citation.marker);
    } catch (err) {
      GG.showError(err);
    }
  }

  function subgraphOf(result) {
    const nodes = new Map(result.entities.map((e) => [e.id, { id: e.id, name: e.name, type: e.type, score: e.score }]));
    for (const e of result.edges) {
      if (!nodes.has(e.source_id)) nodes.set(e.source_id, { id: e.source_id, name: e.source, type: "" });
      if (!nodes.has(e.target_id)) nodes.set(e.target_id, { id: e.target_id, name: e.target, type: "" });
    }
    return { nodes: [...nodes.values()], edges: result.edges };
  }

  function timings(result) {
    const rows = Object.entries(result.timings_ms || {}).map(([k, v]) => [k, GG.fmt(v, 1)]);
    return GG.table(["step", "ms"], rows, { class: "timings" });
  }

  function conflicts(result) {
    if (!result.conflicts || !result.conflicts.length) return null;
    return h(
      "section",
      { class: "conflicts" },
      h("h3", {}, "Sources disagree"),
      result.conflicts.map((c) =>
        h(
          "div",
          { class: "conflict" },
          h("strong", {}, `${c.subject} — ${c.about}`),
          h("ul", {}, c.sides.map((s) => h("li", {}, `${s.value}: "${s.text}" (${s.doc_id}${s.date ? `, ${s.date}` : ""})`))),
        ),
      ),
    );
  }

  function resultView(result, compact) {
    const panel = h("div", { class: "citation-panel", id: compact ? undefined : "citation" });
    const graphBox = h("div", { class: compact ? "graph small" : "graph", id: compact ? undefined : "subgraph" });
    const out = h(
      "section",
      { class: "result", dataset: { mode: result.mode } },
      h("h2", {}, compact ? result.mode : "Answer", h("span", { class: "muted" }, ` ${result.generator} · run ${result.run_id}`)),
      result.time ? h("p", { class: "muted" }, `as of ${result.time.label}`) : null,
      h(
        "p",
        { class: "short-answer", "data-testid": "short-answer" },
        result.short_answer == null ? h("span", { class: "muted" }, "No short answer: the evidence supports none.") : h("strong", {}, result.short_answer),
      ),
      answerText(result, (c) => showCitation(panel, c)),
      panel,
      conflicts(result),
      h("h3", {}, `Subgraph: ${result.entities.length} entities, ${result.edges.length} edges`),
      graphBox,
      result.entities.length
        ? h("p", { class: "entity-links" }, "Entities: ", result.entities.map((e) => [GG.link(GG.entityHash(e.id), e.name), " "]))
        : null,
      result.communities.length
        ? h("p", {}, "Communities used: ", result.communities.map((c) => [GG.link(GG.communityHash(c.id), `${c.title} (level ${c.level})`), " "]))
        : null,
      h("details", { open: !compact }, h("summary", {}, "Timings"), timings(result)),
      h(
        "details",
        {},
        h("summary", {}, `Passages (${result.chunks.length})`),
        GG.table(["chunk", "document", "score"], result.chunks.map((c) => [c.id, c.doc_id, GG.fmt(c.score)])),
      ),
    );
    return { out, graphBox, graph: subgraphOf(result) };
  }

  GG.views.ask = async function (main, query) {
    const started = performance.now();
    GG.need("cytoscape"); // fetched while the data is
    GG.render(main, h("h1", {}, "Ask"), askForm(query, false));
    if (!GG.param(query, "q", "")) return GG.ready("ask", started);
    const mode = GG.param(query, "mode", "hybrid");
    const live = {
      passages: h("p", { class: "muted" }, "retrieving…"),
      text: h("div", { class: "answer", "data-testid": "answer-streaming" }),
    };
    const pending = h("section", { class: "result", id: "streaming" }, h("h2", {}, "Answer"), live.passages, live.text);
    main.append(pending);
    const result = await streamed(query, mode, live);
    const view = resultView(result, false);
    pending.replaceWith(view.out);
    if (view.graph.nodes.length) await GG.graph.draw(view.graphBox, view.graph);
    GG.lastResult = result;
    GG.ready("ask", started);
  };

  GG.views.compare = async function (main, query) {
    const started = performance.now();
    GG.need("cytoscape"); // fetched while the data is
    GG.render(main, h("h1", {}, "Compare modes"), askForm(query, true));
    if (!GG.param(query, "q", "")) return GG.ready("compare", started);
    const modes = GG.modes().filter((m) => m !== "cypher");
    const grid = h("div", { class: "compare" });
    main.append(grid);
    const results = await Promise.all(
      modes.map((m) => request(query, m).catch((err) => ({ error: err, mode: m }))),
    );
    for (const result of results) {
      if (result.error) {
        grid.append(h("section", { class: "result" }, h("h2", {}, result.mode), h("p", { class: "error-inline" }, result.error.detail || String(result.error))));
        continue;
      }
      const view = resultView(result, true);
      grid.append(view.out);
      if (view.graph.nodes.length) await GG.graph.draw(view.graphBox, view.graph);
    }
    GG.ready("compare", started);
  };
})(window.GG);
