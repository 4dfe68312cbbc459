// Curation on the entity page: rename, add an alias, merge another entity in, split names off,
// delete an edge. Each is a write with the token (top right), applied by a new run that every
// later update keeps; the page waits for the job, then shows the entity as the new run has it.
"use strict";

(function (GG) {
  const { h } = GG;

  async function finished(id, status) {
    for (;;) {
      const job = await GG.api(`/jobs/${encodeURIComponent(id)}`);
      if (job.state === "done" || job.state === "failed") return job;
      status.textContent = `applying: job ${id} ${job.state}`;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  // POST the edit, wait for its run, say how it applied, then show the entity again.
  async function apply(body, status, entityId) {
    GG.showError(null);
    delete status.dataset.state;
    try {
      const started = await GG.api("/curation", { method: "POST", body });
      status.textContent = `applying: job ${started.job}`;
      const job = await finished(started.job, status);
      if (job.state === "failed") throw new GG.ApiError(0, job.error || "the edit failed", "");
      const result = job.result;
      const outcome = result.outcome || {};
      status.textContent =
        outcome.applied === false
          ? `edit ${result.edit.n} not applied: ${outcome.reason}`
          : `edit ${result.edit.n} done: ${result.description} (run ${result.run_id})`;
      status.dataset.state = "done";
      window.location.hash = `${GG.entityHash(entityId)}?edit=${result.edit.n}`;
    } catch (err) {
      GG.showError(err);
    }
  }

  function field(id, placeholder) {
    return h("input", { id, type: "text", placeholder, maxlength: 300, required: true });
  }

  function form(id, label, inputs, onSubmit) {
    const f = h("form", { class: "ask curate", id }, ...inputs, h("button", { type: "submit" }, label));
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      onSubmit();
    });
    return f;
  }

  GG.curate = {
    status() {
      return h("p", { id: "curate-status", class: "muted", role: "status" });
    },

    // The forms under an entity: every name is sent as text, never read as markup.
    panel(e, status) {
      const rename = field("rename-name", "new name");
      const alias = field("alias-name", "another name for it");
      const merge = field("merge-name", "an entity to merge into this one");
      const names = [e.name, ...e.aliases];
      const split = h("select", { id: "split-names", multiple: true, size: Math.min(names.length, 5) }, names.map((n) => h("option", { value: n }, n)));
      const send = (body) => apply(Object.assign({ entity: e.name }, body), status, e.id);
      return h(
        "details",
        { class: "curate", id: "curate" },
        h("summary", {}, "Correct this entity"),
        h("p", { class: "muted" }, "Edits need the write token and are kept through every later update (graphgate curation list; revert with graphgate curation revert N)."),
        form("rename-form", "Rename", [rename], () => send({ op: "rename", names: [rename.value] })),
        form("alias-form", "Add alias", [alias], () => send({ op: "alias_add", names: [alias.value] })),
        form("merge-form", "Merge into this", [merge], () => send({ op: "merge", names: [merge.value] })),
        names.length > 1
          ? form("split-form", "Split off as another entity", [split], () =>
              send({ op: "split", names: Array.from(split.selectedOptions, (o) => o.value) }),
            )
          : null,
      );
    },

    // A button deleting one edge (its predicate, from its source to its target).
    deleteEdge(edge, status, entityId) {
      const button = h("button", { type: "button", class: "delete-edge", dataset: { edge: edge.id } }, "delete");
      button.addEventListener("click", () => {
        if (!window.confirm(`Delete "${edge.source} ${edge.predicate} ${edge.target}" from the graph?`)) return;
        apply({ op: "relation_delete", entity: edge.source, target: edge.target, predicate: edge.predicate }, status, entityId);
      });
      return button;
    },
  };
})(window.GG);
