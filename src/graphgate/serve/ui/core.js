// graphgate web interface: the helpers every view uses.
// Text from the index (documents, names, answers) is only ever put on the page as text nodes.
"use strict";

window.GG = window.GG || { views: {}, timings: [] };

(function (GG) {
  // h("div", {class: "x", onclick: fn}, child, "text", [more]) -> an element; strings become text.
  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else if (key === "class") el.className = value;
      else if (key === "dataset") Object.assign(el.dataset, value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      el.append(child instanceof Node ? child : String(child));
    }
    return el;
  }

  // Replace an element's content; null and false are left out, arrays flattened (as in h).
  function render(el, ...children) {
    el.replaceChildren(...children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false));
  }

  const TOKEN_KEY = "graphgate.token";
  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  class ApiError extends Error {
    constructor(status, detail, fix) {
      super(detail);
      this.status = status;
      this.detail = detail;
      this.fix = fix;
    }
  }

  function describe(body, status) {
    if (body && typeof body.detail === "string") return body.detail;
    if (body && Array.isArray(body.detail)) {
      return body.detail.map((e) => `${(e.loc || []).join(".")}: ${e.msg}`).join("; ");
    }
    return `request failed (${status})`;
  }

  // fetch JSON from the API with the reader's token; errors carry the API's detail and fix.
  async function api(path, options) {
    const opts = Object.assign({ method: "GET" }, options || {});
    const headers = { Accept: "application/json" };
    // A FormData body (files) goes as multipart; the browser writes its Content-Type.
    const form = typeof FormData !== "undefined" && opts.body instanceof FormData;
    if (opts.body !== undefined && !form) headers["Content-Type"] = "application/json";
    const t = token();
    if (t) headers.Authorization = `Bearer ${t}`;
    const response = await fetch(path, {
      method: opts.method,
      headers,
      body: opts.body === undefined ? undefined : form ? opts.body : JSON.stringify(opts.body),
    });
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    if (!response.ok) throw new ApiError(response.status, describe(body, response.status), body && body.fix);
    return body;
  }

  // POST a JSON body and read the server-sent events of the reply as they arrive:
  // onEvent(name, data) per event (data parsed from JSON). A refusal before the stream throws
  // as api() does; an "error" event throws after the events before it were handled.
  async function stream(path, body, onEvent) {
    const headers = { Accept: "text/event-stream", "Content-Type": "application/json" };
    const t = token();
    if (t) headers.Authorization = `Bearer ${t}`;
    const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    if (!response.ok) {
      let refusal = null;
      try {
        refusal = await response.json();
      } catch (_) {
        refusal = null;
      }
      throw new ApiError(response.status, describe(refusal, response.status), refusal && refusal.fix);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      buffer += decoder.decode(value || new Uint8Array(), { stream: !done });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) name = line.slice(7);
          else if (line.startsWith("data: ")) data.push(line.slice(6));
        }
        if (!data.length) continue;
        const parsed = JSON.parse(data.join("\n"));
        if (name === "error") throw new ApiError(0, parsed.detail, parsed.fix);
        onEvent(name, parsed);
      }
      if (done) return;
    }
  }

  function showError(err) {
    const box = document.getElementById("error");
    box.replaceChildren();
    if (!err) {
      box.hidden = true;
      return;
    }
    const status = err.status ? `${err.status}: ` : "";
    box.append(h("strong", {}, status + (err.detail || err.message || String(err))));
    if (err.fix) box.append(h("span", { class: "fix" }, ` — ${err.fix}`));
    box.hidden = false;
  }

  function param(query, name, fallback) {
    const value = query.get(name);
    return value === null ? fallback : value;
  }

  function fmt(value, digits) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "number") {
      if (Number.isInteger(value)) return String(value);
      return value.toFixed(digits === undefined ? 3 : digits);
    }
    return String(value);
  }

  function verdict(v) {
    return h("span", { class: `verdict v-${String(v || "none").toLowerCase()}` }, v || "—");
  }

  function table(headers, rows, attrs) {
    return h(
      "table",
      attrs || {},
      h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))),
      h("tbody", {}, rows.map((row) => h("tr", {}, row.map((cell) => h("td", {}, cell))))),
    );
  }

  function link(hash, text, attrs) {
    return h("a", Object.assign({ href: hash }, attrs || {}), text);
  }

  function entityHash(id) {
    return `#/entity/${encodeURIComponent(id)}`;
  }

  function communityHash(id) {
    return `#/community/${encodeURIComponent(id)}`;
  }

  // A chunk's text with [start, end) (offsets in its document) marked.
  function markedText(chunk, start, end) {
    const lo = Math.max(0, start - chunk.start);
    const hi = Math.min(chunk.text.length, end - chunk.start);
    if (hi <= lo) return h("p", { class: "passage" }, chunk.text);
    return h(
      "p",
      { class: "passage" },
      chunk.text.slice(0, lo),
      h("mark", { class: "cited" }, chunk.text.slice(lo, hi)),
      chunk.text.slice(hi),
    );
  }

  // Load a vendored library once, when a page first needs it ("cytoscape" or "chart").
  const libraries = {};
  function need(name) {
    if (!libraries[name]) {
      const src = document.querySelector(`meta[name="gg-lib-${name}"]`).content;
      libraries[name] = new Promise((resolve, reject) => {
        const script = h("script", { src });
        script.addEventListener("load", resolve);
        script.addEventListener("error", () => reject(new Error(`could not load ${src}`)));
        document.head.append(script);
      });
    }
    return libraries[name];
  }

  // A view renders into `main`, then says so: tests and the page-load timing wait for it.
  function ready(name, started) {
    const ms = performance.now() - started;
    GG.timings.push({ view: name, ms });
    document.body.dataset.ready = name;
    document.body.dataset.readyMs = ms.toFixed(1); // this view: its requests and drawing
    document.body.dataset.readyAt = performance.now().toFixed(1); // since navigation began
  }

  Object.assign(GG, {
    h,
    render,
    need,
    api,
    stream,
    token,
    TOKEN_KEY,
    ApiError,
    showError,
    param,
    fmt,
    verdict,
    table,
    link,
    entityHash,
    communityHash,
    markedText,
    ready,
    modes: () => (document.querySelector('meta[name="gg-modes"]').content || "").split(",").filter(Boolean),
  });
})(window.GG);
