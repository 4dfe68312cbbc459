// Explore: entity search, entity pages, community pages, and documents with a span marked.
"use strict";

(function (GG) {
  const { h } = GG;

  // The strongest edges first; a hub's hundreds wait for a click. ``remove`` makes an edge's
  // delete button (curate.js).
  function edgesTable(edges, centre, limit, remove) {
    const shown = limit ? edges.slice(0, limit) : edges;
    const table = GG.table(
      ["source", "predicate", "target", "valid from", "valid to", "weight", "evidence", ""],
      shown.map((e) => [
        e.source_id === centre ? e.source : GG.link(GG.entityHash(e.source_id), e.source),
        e.predicate,
        e.target_id === centre ? e.target : GG.link(GG.entityHash(e.target_id), e.target),
        e.valid_from || "",
        e.valid_to || "",
        GG.fmt(e.weight, 1),
        e.chunk_ids.slice(0, 3).map((c) => [GG.link(`#/chunk?id=${encodeURIComponent(c)}`, c), " "]),
        remove ? remove(e) : "",
      ]),
      { class: "edges" },
    );
    if (shown.length === edges.length) return table;
    const more = h("button", { type: "button", class: "more" }, `show all ${edges.length}`);
    more.addEventListener("click", () => GG.render(box, edgesTable(edges, centre, 0, remove)));
    const box = h("div", {}, table, more);
    return box;
  }

  function communityChain(refs) {
    if (!refs.length) return h("p", { class: "muted" }, "in no community");
    return h(
      "ol",
      { class: "chain" },
      refs.map((c) => h("li", {}, GG.link(GG.communityHash(c.id), c.title), h("span", { class: "muted" }, ` level ${c.level}, ${c.size} members`))),
    );
  }

  GG.views.explore = async function (main, query) {
    const started = performance.now();
    const q = GG.param(query, "q", "");
    const input = h("input", { id: "entity-search", type: "search", value: q, placeholder: "entity name or alias", maxlength: 200 });
    const form = h("form", { class: "ask" }, input, h("button", { type: "submit" }, "Search"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      window.location.hash = `#/explore?q=${encodeURIComponent(input.value)}`;
    });
    GG.render(main, h("h1", {}, "Explore the graph"), form);
    if (q) {
      const hits = await GG.api(`/entities?q=${encodeURIComponent(q)}&limit=50`);
      main.append(
        hits.length
          ? GG.table(
              ["entity", "type", "aliases", "mentions"],
              hits.map((e) => [GG.link(GG.entityHash(e.id), e.name, { class: "entity-hit" }), e.type, e.aliases.join(", "), e.mention_count]),
              { id: "entity-hits" },
            )
          : h("p", {}, "No entity has that name or alias."),
      );
    }
    GG.ready("explore", started);
  };

  GG.views.entity = async function (main, query, id) {
    const started = performance.now();
    GG.need("cytoscape"); // fetched while the data is
    const nodes = Number(GG.param(query, "nodes", "60"));
    const e = await GG.api(`/entities/${encodeURIComponent(id)}?nodes=${nodes}`);
    const graphBox = h("div", { class: "graph", id: "entity-graph" });
    const status = GG.curate.status();
    const remove = (edge) => GG.curate.deleteEdge(edge, status, e.id);
    GG.render(main, 
      h("h1", { id: "entity-name" }, e.name, h("span", { class: "type" }, e.type)),
      e.aliases.length ? h("p", { id: "entity-aliases" }, "Also: ", e.aliases.join(", ")) : null,
      h("p", { class: "description" }, e.description),
      GG.curate.panel(e, status),
      status,
      h("p", { class: "muted" }, `${e.mention_count} mentions in ${e.doc_ids.length} documents`),
      h("h2", {}, "Communities, coarsest first"),
      communityChain(e.communities),
      h(
        "h2",
        {},
        `Neighbours (${e.graph.nodes.length - 1}${e.graph.truncated ? ", strongest shown" : ""})`,
        e.graph.truncated ? h("span", {}, " ", GG.link(`${GG.entityHash(id)}?nodes=500`, "show up to 500")) : null,
      ),
      graphBox,
      h("h2", {}, `Edges (${e.edges.length})`),
      edgesTable(e.edges, e.id, 100, remove),
      h("h2", {}, `Mentions (${e.mentions.length}${e.mentions.length > 100 ? ", the first 100 shown" : ""})`),
      h(
        "ul",
        { class: "mentions" },
        e.mentions.slice(0, 100).map((m) => {
          const at = m.context.toLowerCase().indexOf(m.text.toLowerCase());
          return h(
            "li",
            {},
            GG.link(`#/document?id=${encodeURIComponent(m.doc_id)}&at=${m.start}&to=${m.end}`, `${m.doc_id} @${m.start}`),
            ": …",
            at < 0 ? m.context : [m.context.slice(0, at), h("mark", {}, m.context.slice(at, at + m.text.length)), m.context.slice(at + m.text.length)],
            "…",
          );
        }),
      ),
    );
    await GG.graph.draw(graphBox, e.graph, { highlight: e.id });
    GG.ready("entity", started);
  };

  GG.views.community = async function (main, query, id) {
    const started = performance.now();
    GG.need("cytoscape"); // fetched while the data is
    const c = await GG.api(`/communities/${encodeURIComponent(id)}`);
    const graphBox = h("div", { class: "graph", id: "community-graph" });
    GG.render(main, 
      h("h1", {}, c.title),
      h("p", { class: "muted" }, `level ${c.level} · ${c.members.length} members`, c.rating === null ? "" : ` · rating ${GG.fmt(c.rating, 1)}`),
      c.parent ? h("p", {}, "Parent: ", GG.link(GG.communityHash(c.parent.id), c.parent.title)) : null,
      c.children.length ? h("p", {}, "Children: ", c.children.map((x) => [GG.link(GG.communityHash(x.id), `${x.title} (${x.size})`), " "])) : null,
      h("h2", {}, "Report"),
      h("p", { class: "summary" }, c.summary || "No report (a community this small is not summarised)."),
      c.claims.length
        ? h("ul", { class: "claims" }, c.claims.map((cl) => h("li", {}, cl.text, cl.chunk_id ? [" ", GG.link(`#/chunk?id=${encodeURIComponent(cl.chunk_id)}`, "source")] : null)))
        : null,
      h("h2", {}, "Members"),
      h("p", { class: "members" }, c.members.map((m) => [GG.link(GG.entityHash(m.id), m.name), " "])),
      graphBox,
    );
    await GG.graph.draw(graphBox, c.graph);
    GG.ready("community", started);
  };

  GG.views.chunk = async function (main, query) {
    const started = performance.now();
    const chunk = await GG.api(`/chunk?id=${encodeURIComponent(GG.param(query, "id", ""))}`);
    GG.render(main, 
      h("h1", {}, chunk.title),
      h("p", { class: "muted" }, `passage ${chunk.index} of `, GG.link(`#/document?id=${encodeURIComponent(chunk.doc_id)}&at=${chunk.start}&to=${chunk.end}`, chunk.doc_id)),
      h("p", { class: "passage" }, chunk.text),
    );
    GG.ready("chunk", started);
  };

  GG.views.document = async function (main, query) {
    const started = performance.now();
    const doc = await GG.api(`/document?id=${encodeURIComponent(GG.param(query, "id", ""))}`);
    const at = Number(GG.param(query, "at", "-1"));
    const to = Number(GG.param(query, "to", "-1"));
    const text = doc.text;
    const body =
      at >= 0 && to > at && to <= text.length
        ? h("pre", { class: "document" }, text.slice(0, at), h("mark", { id: "span", class: "cited" }, text.slice(at, to)), text.slice(to))
        : h("pre", { class: "document" }, text);
    GG.render(main, 
      h("h1", {}, doc.title),
      h("p", { class: "muted" }, `${doc.id} · ${doc.chunks.length} passages · ${text.length} characters`),
      Object.keys(doc.metadata).length ? GG.table(["field", "value"], Object.entries(doc.metadata).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) : null,
      body,
    );
    const mark = document.getElementById("span");
    if (mark) mark.scrollIntoView({ block: "center" });
    GG.ready("document", started);
  };
})(window.GG);
