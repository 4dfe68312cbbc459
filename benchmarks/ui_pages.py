"""How fast the web interface's pages load, in a real browser, on a real index.

    .venv/bin/python benchmarks/ui_pages.py --workspace WS            # an indexed workspace
    .venv/bin/python benchmarks/ui_pages.py --corpus corpus.jsonl     # index it first
        [--question Q] [--loads 5] [--chromium /usr/bin/chromium]

Every page is loaded ``--loads`` times from a blank tab (scripts cached after the first, as a
returning reader has them); a load is navigation start to the page's view rendered with its data
(``body[data-ready]``). The server is warmed with one query first (the index loaded). Printed:
p50 and max per page, and the busiest entity's neighbourhood drawn at 500 nodes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/serving.py: a real server on a free loopback port

from graphgate import Workspace  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.serving import running_server  # noqa: E402


def _load(page: Any, base: str, hash_: str) -> float:
    page.goto("about:blank")
    page.goto(f"{base}/#{hash_}")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=120_000)
    ready = page.get_attribute("body", "data-ready")
    if ready is None or ready.endswith(":error"):
        raise SystemExit(f"{hash_}: {page.text_content('#error')}")
    return float(page.get_attribute("body", "data-ready-at"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--question", default="Which magazine was started first?")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    workspace = args.workspace or Path(tempfile.mkdtemp(prefix="gg-ui-")) / "ws"
    with Workspace(workspace) as ws:
        if args.corpus:
            ws.index(args.corpus)
        entities = ws.loaded().store.entities()
        hub_id = max(entities, key=lambda e: (e.mention_count, e.id)).id if entities else None
    from playwright.sync_api import sync_playwright

    with running_server(workspace, "bench-token") as (base, _), sync_playwright() as pw:
        # Warm: the index loaded (first query) and the explorer's lists read (first browse).
        httpx.post(f"{base}/query", json={"question": args.question}, timeout=300)
        httpx.get(f"{base}/entities", params={"q": "warm"}, timeout=300)
        status = httpx.get(f"{base}/status").json()
        entity = httpx.get(f"{base}/entities/{hub_id}").json() if hub_id else None
        community = entity["communities"][-1]["id"] if entity and entity["communities"] else None
        docs = httpx.get(f"{base}/documents", params={"limit": 1}).json()["items"]
        pages: dict[str, str] = {
            "ask (hybrid)": f"/ask?q={quote(args.question)}&mode=hybrid",
            "explore search": "/explore?q=john",
            "runs": "/runs",
            "gates + trends": "/gates",
            "evaluations": "/evals",
            "documents": "/documents",
        }
        if hub_id:
            pages["entity (hub)"] = f"/entity/{quote(hub_id)}"
            pages["entity, 500 neighbours"] = f"/entity/{quote(hub_id)}?nodes=500"
        if community:
            pages["community"] = f"/community/{quote(community)}"
        if docs:
            pages["document"] = f"/document?id={quote(docs[0]['id'])}"
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        rows = []
        for name, hash_ in pages.items():
            times = [_load(page, base, hash_) for _ in range(args.loads)]
            extra = ""
            if "500" in name:
                graph = page.evaluate("() => ({n: GG.lastGraph.nodes, ms: GG.lastGraph.ms})")
                extra = f"{graph['n']} nodes drawn in {graph['ms']:.0f} ms"
            rows.append((name, statistics.median(times), max(times), extra))
        browser.close()
    counts = status.get("counts") or {}
    print(
        f"\nindex: {counts.get('Document')} documents, {counts.get('Entity')} entities, "
        f"{counts.get('RELATED')} edges; {args.loads} loads per page\n"
    )
    print("| page | p50 ms | max ms | note |\n|---|---|---|---|")
    for name, p50, worst, extra in rows:
        print(f"| {name} | {p50:.0f} | {worst:.0f} | {extra} |")


if __name__ == "__main__":
    main()
