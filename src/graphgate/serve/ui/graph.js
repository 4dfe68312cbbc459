// Subgraphs drawn with Cytoscape.js: entities as nodes (coloured by type), edges labelled with
// their predicate and time. Tapping a node opens its entity page.
"use strict";

(function (GG) {
  const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

  // One colour per entity type on every graph of every page: known types fixed, others hashed.
  const KNOWN = { PERSON: 0, ORG: 1, GPE: 2, LOC: 3, NORP: 4, DATE: 5, EVENT: 6, WORK_OF_ART: 7, FAC: 8, CONCEPT: 9 };
  function colourOf(type, seen) {
    let index = KNOWN[type];
    if (index === undefined) {
      index = 0;
      for (const ch of type) index = (index * 31 + ch.charCodeAt(0)) % PALETTE.length;
    }
    seen.set(type, PALETTE[index]);
    return PALETTE[index];
  }

  function timeLabel(edge) {
    if (!edge.valid_from && !edge.valid_to) return "";
    return ` [${edge.valid_from || "…"}–${edge.valid_to || "…"}]`;
  }

  // graph: {nodes: [{id, name, type, score?}], edges: [{id, source_id, target_id, predicate, valid_from, valid_to}]}
  async function draw(container, graph, options) {
    await GG.need("cytoscape");
    const opts = Object.assign({ highlight: null }, options || {});
    const colours = new Map();
    const ids = new Set(graph.nodes.map((n) => n.id));
    const elements = [];
    for (const node of graph.nodes) {
      elements.push({
        group: "nodes",
        data: {
          id: node.id,
          label: node.name,
          type: node.type || "",
          colour: colourOf(node.type || "", colours),
          size: 18 + Math.min(30, 60 * (node.score || 0)),
        },
        classes: node.id === opts.highlight ? "centre" : "",
      });
    }
    for (const edge of graph.edges) {
      if (!ids.has(edge.source_id) || !ids.has(edge.target_id)) continue;
      elements.push({
        group: "edges",
        data: {
          id: edge.id,
          source: edge.source_id,
          target: edge.target_id,
          label: edge.predicate + timeLabel(edge),
        },
      });
    }
    // Big or dense graphs: a cheap layout, straight unlabelled edges, textures while moving.
    const large = graph.nodes.length > 120 || graph.edges.length > 300;
    const dense = large || graph.nodes.length > 40 || graph.edges.length > 80;
    const started = performance.now();
    const cy = cytoscape({
      container,
      elements,
      textureOnViewport: large,
      hideEdgesOnViewport: large,
      style: [
        {
          selector: "node",
          style: {
            "background-color": "data(colour)",
            label: "data(label)",
            "font-size": 10,
            width: "data(size)",
            height: "data(size)",
            "text-valign": "bottom",
            "text-margin-y": 3,
            "min-zoomed-font-size": 7,
          },
        },
        { selector: "node.centre", style: { "border-width": 3, "border-color": "#222" } },
        {
          selector: "edge",
          style: {
            width: 1.2,
            "line-color": "#9aa5b1",
            "target-arrow-color": "#9aa5b1",
            "target-arrow-shape": "triangle",
            "curve-style": dense ? "haystack" : "bezier",
            label: dense ? "" : "data(label)",
            "font-size": 8,
            color: "#52606d",
            "text-rotation": "autorotate",
            "min-zoomed-font-size": 8,
          },
        },
      ],
      layout: dense
        ? { name: "concentric", animate: false, minNodeSpacing: 4, concentric: (n) => n.degree() }
        : { name: "cose", animate: false, randomize: false, numIter: 400, nodeRepulsion: () => 9000 },
    });
    cy.on("tap", "node", (event) => {
      window.location.hash = GG.entityHash(event.target.id());
    });
    const legend = GG.h(
      "div",
      { class: "legend" },
      [...colours.entries()].map(([type, colour]) =>
        GG.h("span", {}, GG.h("i", { style: `background:${colour}` }), type || "entity"),
      ),
    );
    container.after(legend);
    GG.lastGraph = { cy, ms: performance.now() - started, nodes: graph.nodes.length };
    return cy;
  }

  // Where a node is on the page (for a real mouse click on the canvas).
  function nodePagePosition(cy, id) {
    const node = cy.getElementById(id);
    const box = cy.container().getBoundingClientRect();
    const pos = node.renderedPosition();
    return { x: box.left + pos.x, y: box.top + pos.y };
  }

  GG.graph = { draw, nodePagePosition };
})(window.GG);
