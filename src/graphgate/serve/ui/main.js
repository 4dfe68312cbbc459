// The router: #/view/arg1/arg2?query -> GG.views[view](main, query, arg1, arg2).
"use strict";

(function (GG) {
  function parse(hash) {
    const [path, search] = (hash.replace(/^#\/?/, "") || "ask").split("?");
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    return { name: parts[0] || "ask", args: parts.slice(1), query: new URLSearchParams(search || "") };
  }

  async function route() {
    const { name, args, query } = parse(window.location.hash);
    const view = GG.views[name];
    const main = document.getElementById("view");
    delete document.body.dataset.ready;
    GG.showError(null);
    for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.nav === name);
    if (!view) {
      GG.render(main, GG.h("h1", {}, "Not found"), GG.h("p", {}, "No such page."));
      return;
    }
    window.scrollTo(0, 0); // a new page starts at its top (the document view then scrolls to its span)
    try {
      await view(main, query, ...args);
    } catch (err) {
      GG.showError(err);
      document.body.dataset.ready = `${name}:error`;
    }
  }

  function tokenForm() {
    const form = document.getElementById("token-form");
    const input = document.getElementById("token");
    const state = document.getElementById("token-state");
    const show = () => (state.textContent = GG.token() ? "token set" : "no token");
    input.value = GG.token();
    show();
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (input.value) sessionStorage.setItem(GG.TOKEN_KEY, input.value);
      else sessionStorage.removeItem(GG.TOKEN_KEY);
      show();
      route();
    });
  }

  window.addEventListener("hashchange", route);
  tokenForm();
  route();
})(window.GG);
