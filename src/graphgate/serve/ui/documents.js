// Documents: list and search, upload (PDF, Word, PowerPoint, Excel, CSV, text, Markdown, HTML,
// JSONL) and delete with the write token, and the progress of index jobs.
"use strict";

(function (GG) {
  const { h } = GG;
  const PAGE = 50;

  // The chosen files as they are, for the server to read (PDF and Office files included).
  function uploadForm(files) {
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    return form;
  }

  function jobLine(job) {
    const steps = Object.entries(job.progress || {})
      .filter(([, v]) => v && typeof v === "object")
      .map(([k, v]) => `${k} ${v.done}/${v.total}`);
    const result = job.result && job.result.run_id ? ` → run ${job.result.run_id}` : "";
    const waiting = job.progress && typeof job.progress["waiting for"] === "string" ? ` waiting for ${job.progress["waiting for"]}` : "";
    // What the loader skipped, by place and id, as text (never markup).
    const skipped = (job.result && job.result.problems) || [];
    const problems = skipped.length ? h("ul", { class: "skipped" }, ...skipped.slice(0, 10).map((p) => h("li", {}, `skipped ${p.source}: ${p.problem} — ${p.fix}`))) : null;
    return h("li", { dataset: { job: job.id, state: job.state } }, `${job.kind} ${job.id}: ${job.state}${result}${waiting}`, steps.length ? h("span", { class: "muted" }, ` (${steps.join(", ")})`) : null, job.error ? h("span", { class: "error-inline" }, ` ${job.error}`) : null, problems);
  }

  async function watchJobs(list) {
    // Polls while a job runs, so progress shows without a reload; stops when the view changes.
    const view = window.location.hash;
    for (;;) {
      let jobs;
      try {
        jobs = await GG.api("/jobs");
      } catch (_) {
        return;
      }
      list.replaceChildren(...jobs.slice(0, 10).map(jobLine));
      if (!jobs.some((j) => j.state === "queued" || j.state === "running") || window.location.hash !== view) return;
      await new Promise((r) => setTimeout(r, 700));
    }
  }

  GG.views.documents = async function (main, query) {
    const started = performance.now();
    const q = GG.param(query, "q", "");
    const offset = Math.max(0, Number(GG.param(query, "offset", "0")) || 0);
    const page = await GG.api(`/documents?q=${encodeURIComponent(q)}&offset=${offset}&limit=${PAGE}`);
    const input = h("input", { id: "doc-search", type: "search", value: q, placeholder: "id or title", maxlength: 200 });
    const search = h("form", { class: "ask" }, input, h("button", { type: "submit" }, "Search"));
    search.addEventListener("submit", (e) => {
      e.preventDefault();
      window.location.hash = `#/documents?q=${encodeURIComponent(input.value)}`;
    });
    const jobs = h("ul", { id: "jobs", class: "jobs" });
    const files = h("input", { id: "upload", type: "file", multiple: true, accept: ".pdf,.docx,.pptx,.xlsx,.csv,.txt,.md,.markdown,.html,.htm,.jsonl" });
    const status = h("span", { id: "upload-status", class: "muted" });
    const upload = h(
      "form",
      { class: "ask", id: "upload-form" },
      files,
      h("button", { type: "submit" }, "Add documents"),
      status,
    );
    upload.addEventListener("submit", async (e) => {
      e.preventDefault();
      GG.showError(null);
      try {
        if (!files.files.length) throw new GG.ApiError(0, "choose one or more files", "PDF, Word, PowerPoint, Excel, CSV, text, Markdown, HTML or JSONL");
        const job = await GG.api("/documents", { method: "POST", body: uploadForm(files.files) });
        status.textContent = `indexing: job ${job.job}`;
        watchJobs(jobs);
      } catch (err) {
        GG.showError(err);
      }
    });
    async function remove(id) {
      GG.showError(null);
      if (!window.confirm(`Delete document ${id} from the index?`)) return;
      try {
        // The id as a query value: any id (slashes, "..", "?") reaches the server as it is.
        const job = await GG.api(`/documents?id=${encodeURIComponent(id)}`, { method: "DELETE" });
        status.textContent = `deleting: job ${job.job}`;
        watchJobs(jobs);
      } catch (err) {
        GG.showError(err);
      }
    }
    const prev = offset > 0 ? GG.link(`#/documents?q=${encodeURIComponent(q)}&offset=${Math.max(0, offset - PAGE)}`, "← previous") : null;
    const next = offset + PAGE < page.total ? GG.link(`#/documents?q=${encodeURIComponent(q)}&offset=${offset + PAGE}`, "next →") : null;
    GG.render(main, 
      h("h1", {}, "Documents"),
      search,
      h("p", { class: "muted" }, `${page.total} documents${q ? " match" : ""}; showing ${page.items.length ? offset + 1 : 0}–${offset + page.items.length}`),
      GG.table(
        ["id", "title", "bytes", "version", ""],
        page.items.map((d) => [
          GG.link(`#/document?id=${encodeURIComponent(d.id)}`, d.id),
          d.title,
          d.byte_size,
          d.version,
          h("button", { type: "button", class: "delete", dataset: { doc: d.id }, onclick: () => remove(d.id) }, "delete"),
        ]),
        { id: "documents" },
      ),
      h("p", {}, prev, " ", next),
      h("h2", {}, "Add documents"),
      h("p", { class: "muted" }, "Writes need the write token (top right). Only the new content is extracted and embedded."),
      upload,
      h("h2", {}, "Jobs"),
      jobs,
    );
    watchJobs(jobs);
    GG.ready("documents", started);
  };
})(window.GG);
