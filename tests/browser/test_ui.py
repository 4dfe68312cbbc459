"""The web interface in a real browser: ask and follow a citation, walk from the subgraph to an
entity and its community, read the gates' trends, open an evaluation case, and see a write
without the token refused (and one with it done)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from tests.browser.conftest import WRITE_TOKEN
from tests.serving import running_server, wait_for_job

QUESTION = "Who is Bob Cratchit's employer?"


def _open(page: Any, base: str, hash_: str, timings: dict[str, float], name: str) -> None:
    """Load the page at ``hash_`` (a fresh load, so the timing is a page load) and wait until
    its view says it has rendered."""
    page.goto("about:blank")
    page.goto(f"{base}/#{hash_}")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    ready = page.get_attribute("body", "data-ready")
    assert ready == name, f"{hash_} ended as {ready}: {page.text_content('#error')}"
    # Navigation start to the view rendered with its data.
    timings[name] = float(page.get_attribute("body", "data-ready-at"))


def _streamed_answer(response: Any) -> dict[str, Any]:
    """The cited answer of a ``POST /query/stream`` reply: its last event, after the text."""
    events: list[tuple[str, dict[str, Any]]] = []
    for block in response.text().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in lines:
            events.append((lines.get("event", ""), json.loads(lines["data"])))
    names = [name for name, _ in events]
    assert names[0] == "retrieval" and names[-1] == "answer" and "text" in names, names
    return events[-1][1]


def _use_write_token(page: Any) -> None:
    """Enter the write token on the Documents page and wait for it to render again."""
    page.fill("#token", WRITE_TOKEN)
    page.click("#token-form button")
    page.wait_for_selector("body[data-ready='documents']", state="attached")


def test_ask_then_click_a_citation_marks_its_span(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    with page.expect_response(lambda r: r.url.endswith("/query/stream")) as answered:
        _open(page, server, f"/ask?q={quote(QUESTION)}&mode=hybrid&top_k=5", timings, "ask")
    result = _streamed_answer(answered.value)
    assert result["citations"], "the demo question is answered with citations"
    # The streamed text became the cited answer: the same text, with its markers as buttons.
    assert page.locator("#streaming").count() == 0
    assert page.text_content("[data-testid='answer']") == result["answer"]
    citation = result["citations"][0]
    page.click(f'button.cite[data-marker="{citation["marker"]}"]')
    mark = page.wait_for_selector("#citation mark.cited")
    assert mark.text_content() == citation["text"]
    assert page.get_attribute("#citation", "data-citation") == str(citation["marker"])
    # The subgraph is drawn: one node per entity the answer used.
    drawn = page.evaluate("() => GG.lastGraph.cy.nodes().length")
    assert drawn >= len(result["entities"]) > 0
    page.screenshot(path=str(shots / "ask.png"))
    # "open in document": the whole document with the same span marked.
    page.click("#citation a")
    page.wait_for_selector("body[data-ready='document']", state="attached")
    assert page.text_content("#span") == citation["text"]


def test_entity_page_from_the_subgraph_then_its_community(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    _open(page, server, f"/ask?q={quote(QUESTION)}&mode=local", timings, "ask")
    node = page.evaluate(
        "() => { const cy = GG.lastGraph.cy; const n = cy.nodes().max(x => x.degree()).ele;"
        " return {id: n.id(), name: n.data('label'), at: GG.graph.nodePagePosition(cy, n.id())}; }"
    )
    page.mouse.click(node["at"]["x"], node["at"]["y"])  # a real click on the canvas
    page.wait_for_selector("body[data-ready='entity']", state="attached", timeout=30_000)
    assert page.text_content("#entity-name").startswith(node["name"])
    assert page.locator("#entity-graph canvas").count() > 0
    assert page.locator("table.edges tbody tr").count() > 0
    page.screenshot(path=str(shots / "entity.png"))
    page.click("ol.chain a >> nth=0")
    page.wait_for_selector("body[data-ready='community']", state="attached")
    members = page.locator("p.members a").all_text_contents()
    assert node["name"] in members
    page.screenshot(path=str(shots / "community.png"))


def test_explore_search_finds_by_name(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    _open(page, server, "/explore?q=cratchit", timings, "explore")
    names = page.locator("#entity-hits a.entity-hit").all_text_contents()
    assert "Bob Cratchit" in names
    assert all("cratchit" in n.lower() for n in names[:3])
    page.screenshot(path=str(shots / "explore.png"))


def test_gates_page_draws_one_trend_chart_per_metric(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    trends = httpx.get(f"{server}/gates/trends").json()
    runs = httpx.get(f"{server}/runs").json()
    assert len(runs) >= 2 and trends
    _open(page, server, "/gates", timings, "gates")
    page.screenshot(path=str(shots / "gates.png"))
    shown = page.locator(".trend[data-metric]").evaluate_all(
        "els => els.map(e => e.dataset.metric)"
    )
    assert sorted(shown) == sorted(f"{t['gate']}.{t['metric']}" for t in trends)
    for box in page.locator(".trend[data-metric]").all():  # charts are drawn when seen
        box.scroll_into_view_if_needed()
        page.wait_for_selector(
            f".trend[data-metric='{box.get_attribute('data-metric')}'][data-drawn]",
            state="attached",
        )
    charts = page.evaluate(
        "() => [...document.querySelectorAll('.trend canvas')]"
        ".map(c => Chart.getChart(c))"
        ".map(chart => (chart ? chart.data.datasets[0].data.length : -1))"
    )
    assert charts and all(n == len(runs) for n in charts), "every chart has a point per run"
    assert page.locator(".gate[data-gate]").count() == 8
    # The baseline's value and the hard bounds are drawn as lines beside the values.
    lines = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.trend')].map(t => ["
        " t.dataset.metric,"
        " Object.fromEntries(Chart.getChart(t.querySelector('canvas')).data.datasets"
        ".map(d => [d.label, d.data[0]]))]))"
    )
    for trend in trends:
        drawn = lines[f"{trend['gate']}.{trend['metric']}"]
        assert drawn.get("baseline") == trend["baseline"] or trend["baseline"] is None
        assert drawn.get("fails below") == trend["fail_below"] or trend["fail_below"] is None
    assert any(t["baseline"] is not None for t in trends)
    page.locator(".trend-grid").first.screenshot(path=str(shots / "gate-trends.png"))
    _open(page, server, "/runs", timings, "runs")
    assert page.locator("#runs tbody tr").count() == len(runs)
    page.screenshot(path=str(shots / "runs.png"))


def test_evaluation_tables_and_a_case_against_ground_truth(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    _open(page, server, "/evals", timings, "evals")
    page.click("#evals tbody a >> nth=0")
    page.wait_for_selector("body[data-ready='eval']", state="attached")
    modes = page.locator("#by-mode tbody tr td:first-child").all_text_contents()
    assert modes == ["hybrid", "local", "vector"]
    page.screenshot(path=str(shots / "evaluation.png"))
    page.click("#cases a.case-link >> nth=0")
    page.wait_for_selector("body[data-ready='case']", state="attached")
    assert page.locator(".compare-list").count() == 3  # documents, entities, edges
    assert page.locator(".compare-list li").count() > 0
    page.screenshot(path=str(shots / "case.png"))


def test_compare_modes_answers_in_every_mode(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    _open(page, server, f"/compare?q={quote(QUESTION)}", timings, "compare")
    shown = page.locator(".compare .result").evaluate_all("els => els.map(e => e.dataset.mode)")
    assert {"vector", "local", "global", "hybrid"} <= set(shown)
    page.screenshot(path=str(shots / "compare.png"))


def test_a_write_without_the_token_is_refused_in_the_ui(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    before = httpx.get(f"{server}/documents").json()
    jobs = httpx.get(f"{server}/jobs").json()
    _open(page, server, "/documents", timings, "documents")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#documents button.delete >> nth=0")
    error = page.wait_for_selector("#error:not([hidden])")
    assert "401" in error.text_content() and "bearer token" in error.text_content()
    page.screenshot(path=str(shots / "write-refused.png"))
    assert httpx.get(f"{server}/documents").json() == before
    assert httpx.get(f"{server}/jobs").json() == jobs


def test_upload_with_the_token_adds_a_document(
    page: Any, server: str, shots: Path, tmp_path: Path, timings: dict[str, float]
) -> None:
    total = httpx.get(f"{server}/documents").json()["total"]
    upload = tmp_path / "belle.txt"
    upload.write_text("Belle was engaged to Ebenezer Scrooge.", encoding="utf-8")
    _open(page, server, "/documents", timings, "documents")
    _use_write_token(page)
    page.set_input_files("#upload", str(upload))
    page.click("#upload-form button")
    page.wait_for_selector("#jobs li[data-state='done']", timeout=120_000)
    page.screenshot(path=str(shots / "documents.png"))
    after = httpx.get(f"{server}/documents", params={"q": "belle"}).json()
    assert after["total"] == 1 and after["items"][0]["id"] == "belle.txt"
    assert httpx.get(f"{server}/documents").json()["total"] == total + 1


def _ledger_deck(path: Path) -> Path:
    """A two-slide deck written with python-pptx: slide 2 is the one a question names."""
    import pptx

    deck = pptx.Presentation()
    for title, body in (
        ("Fezziwig's Ledger", "Fezziwig kept a warehouse of goods near the river."),
        ("Section 2: Accounts", "Jeremiah Pocket kept the accounts of the Fezziwig warehouse."),
    ):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = body
    deck.save(str(path))
    return path


def test_an_uploaded_deck_is_cited_with_its_slide_and_section(
    page: Any, server: str, shots: Path, tmp_path: Path, timings: dict[str, float]
) -> None:
    deck = _ledger_deck(tmp_path / "ledger.pptx")
    _open(page, server, "/documents", timings, "documents")
    _use_write_token(page)
    page.set_input_files("#upload", str(deck))
    page.click("#upload-form button")
    page.wait_for_selector("#upload-status:has-text('indexing: job')")
    job = page.text_content("#upload-status").split("job ")[1].strip()
    assert wait_for_job(server, job)["state"] == "done", page.text_content("#error")
    question = "Who kept the accounts of the Fezziwig warehouse?"
    with page.expect_response(lambda r: r.url.endswith("/query/stream")) as answered:
        _open(page, server, f"/ask?q={quote(question)}&mode=vector&top_k=3", timings, "ask")
    citations = _streamed_answer(answered.value)["citations"]
    cited = [c for c in citations if c["doc_id"] == "ledger.pptx"]
    assert cited and cited[0]["page"] == 2 and cited[0]["section"] == ["Section 2: Accounts"]
    page.click(f'button.cite[data-marker="{cited[0]["marker"]}"]')
    page.wait_for_selector("#citation mark.cited")
    assert page.text_content("#citation [data-testid='citation-page']").strip() == "p. 2"
    shown = page.text_content("#citation [data-testid='citation-section']")
    assert shown.strip() == "— Section 2: Accounts"
    page.screenshot(path=str(shots / "citation-page.png"))


def test_a_document_in_a_subfolder_is_deleted_from_the_page(
    page: Any, server: str, shots: Path, timings: dict[str, float]
) -> None:
    """An id with slashes (a file in a subfolder) is one id for the page's delete button."""
    nested = "notes/old.md"
    auth = {"Authorization": f"Bearer {WRITE_TOKEN}"}
    body = {"documents": [{"id": nested, "text": "Old Joe keeps a rag shop near London."}]}
    added = httpx.post(f"{server}/documents", json=body, headers=auth, timeout=30).json()
    assert wait_for_job(server, added["job"])["state"] == "done"
    _open(page, server, f"/documents?q={quote('notes/old')}", timings, "documents")
    _use_write_token(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(f"#documents button.delete[data-doc='{nested}']")
    page.wait_for_selector("#upload-status:has-text('deleting: job')")
    job = page.text_content("#upload-status").split("job ")[1].strip()
    assert wait_for_job(server, job)["state"] == "done", page.text_content("#error")
    found = httpx.get(f"{server}/documents", params={"q": "notes/old"}).json()
    assert found["total"] == 0


def test_subgraph_of_500_nodes_stays_responsive(page: Any, server: str, shots: Path) -> None:
    _open(page, server, "/explore", {}, "explore")
    measured = page.evaluate(
        """async () => {
        const nodes = [], edges = [];
        const edge = (id, a, b) => ({id, source_id: `n${a}`, target_id: `n${b}`, predicate: 'r'});
        for (let i = 0; i < 500; i++) {
          nodes.push({id: `n${i}`, name: `entity ${i}`, type: `T${i % 7}`});
        }
        for (let i = 1; i < 500; i++) {
          edges.push(edge(`a${i}`, i, Math.floor(i / 3)));
          edges.push(edge(`b${i}`, i, (i * 7) % 500));
        }
        const box = document.createElement('div');
        box.className = 'graph'; box.id = 'big-graph';
        document.getElementById('view').append(box);
        const cy = await GG.graph.draw(box, {nodes, edges});
        const t0 = performance.now();
        for (let k = 0; k < 20; k++) { cy.zoom(1 + k / 10); cy.pan({x: k * 5, y: k * 3}); }
        cy.fit();
        return {draw_ms: GG.lastGraph.ms, twenty_zooms_ms: performance.now() - t0,
                nodes: cy.nodes().length, edges: cy.edges().length};
    }"""
    )
    assert measured["nodes"] == 500 and measured["edges"] > 900
    page.locator("#big-graph").scroll_into_view_if_needed()
    box = page.locator("#big-graph").bounding_box()
    started = page.evaluate("() => performance.now()")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)  # a real wheel zoom on the canvas
    page.wait_for_timeout(50)
    zoomed = page.evaluate("() => GG.lastGraph.cy.zoom()")
    measured["wheel_ms"] = page.evaluate("() => performance.now()") - started
    assert zoomed > 0
    page.locator("#big-graph").screenshot(path=str(shots / "graph-500.png"))
    print("500-node graph:", measured)
    (shots / "graph_500.json").write_text(json.dumps(measured, indent=2, sort_keys=True))


def test_document_text_is_shown_as_text_never_run(page: Any, server: str) -> None:
    hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    body = {
        "documents": [{"id": "hostile.txt", "title": hostile, "text": f"Marley said {hostile}."}]
    }
    headers = {"Authorization": f"Bearer {WRITE_TOKEN}"}
    job = httpx.post(f"{server}/documents", json=body, headers=headers).json()["job"]
    assert wait_for_job(server, job)["state"] == "done"
    _open(page, server, "/document?id=hostile.txt", {}, "document")
    assert page.text_content("main h1") == hostile
    assert hostile in page.text_content("pre.document")
    _open(page, server, "/documents?q=hostile", {}, "documents")
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    # An answer quoting it, streamed piece by piece into the page, is text too.
    with page.expect_response(lambda r: r.url.endswith("/query/stream")) as answered:
        question = quote("Marley said img src onerror window.pwned script")
        _open(page, server, f"/ask?q={question}", {}, "ask")
    answer = _streamed_answer(answered.value)["answer"]
    assert '<img src=x onerror="' in answer and "<script>" in answer
    assert page.text_content("[data-testid='answer']") == answer
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    assert page.evaluate("() => window.pwned") is None


def test_with_a_read_token_the_page_reads_only_with_a_token(
    page: Any, ui_workspace: Path, tmp_path: Path
) -> None:
    shutil.copytree(ui_workspace, tmp_path / "ws")
    with running_server(tmp_path / "ws", WRITE_TOKEN, "ui-read-token") as (base, _):
        page.goto(f"{base}/#/runs")
        page.wait_for_selector("body[data-ready='runs:error']", state="attached")
        assert "401" in page.text_content("#error")
        page.fill("#token", "ui-read-token")
        page.click("#token-form button")
        page.wait_for_selector("body[data-ready='runs']", state="attached")
        assert page.locator("#runs tbody tr").count() >= 2
        assert page.text_content("#token-state") == "token set"
        # The read token reads; a write with it is refused with the reason.
        _open(page, base, "/documents", {}, "documents")
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#documents button.delete >> nth=0")
        error = page.wait_for_selector("#error:not([hidden])")
        assert "403" in error.text_content() and "write token" in error.text_content()


def test_an_entity_is_corrected_from_its_page(
    page: Any, ui_workspace: Path, tmp_path: Path, shots: Path
) -> None:
    """Alias, then an edge deleted, from the entity view with the write token, on a copy of the
    index (the other tests' server is left as it is); a hostile alias stays text."""
    copy = tmp_path / "ws"
    shutil.copytree(ui_workspace, copy)
    hostile = "<img src=x onerror=window.pwned=1>"
    with running_server(copy, WRITE_TOKEN) as (base, _):
        hit = httpx.get(f"{base}/entities", params={"q": "Dick Wilkins"}).json()[0]
        _open(page, base, f"/entity/{quote(hit['id'])}", {}, "entity")
        edges_before = page.locator("button.delete-edge").count()
        assert edges_before > 0
        page.fill("#token", WRITE_TOKEN)
        page.click("#token-form button")
        page.wait_for_selector("body[data-ready='entity']", state="attached")
        page.click("#curate summary")
        page.fill("#alias-name", hostile)
        page.click("#alias-form button")
        page.wait_for_function(
            "() => (document.querySelector('#entity-aliases') || {}).textContent"
            "?.includes('onerror') && document.body.dataset.ready === 'entity'",
            timeout=120_000,
        )
        assert hostile in page.text_content("#entity-aliases")
        assert page.evaluate("() => window.pwned") is None
        page.screenshot(path=str(shots / "curate.png"))
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("button.delete-edge >> nth=0")
        page.wait_for_function(
            f"() => document.querySelectorAll('button.delete-edge').length < {edges_before}"
            " && document.body.dataset.ready === 'entity'",
            timeout=120_000,
        )
        edits = httpx.get(f"{base}/curation").json()
        assert [(e["op"], e["applied"]) for e in edits] == [
            ("alias_add", True),
            ("relation_delete", True),
        ]
        assert edits[0]["names"] == [hostile]
