"""Bad input and bad luck from the command line: each case once broke something (issue 10).

Nothing here may end in a traceback, and no failed run may replace a good index.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from graphgate import Workspace
from graphgate.core.errors import InputError
from graphgate.gates.runner import stored_gates
from tests.conftest import write_fred_testset
from tests.serving import free_port

runner = CliRunner()


def _invoke(args: list[str], **kw: object) -> Result:
    from graphgate.cli import build_app

    result = runner.invoke(build_app(), args, **kw)  # type: ignore[arg-type]
    # A clean exit or a handled one; never an exception escaping the command.
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception,
        result.output,
    )
    return result


@pytest.fixture()
def ws(small_workspace_path: Path, tmp_path: Path) -> Path:
    shutil.copytree(small_workspace_path, tmp_path / "ws")
    return tmp_path / "ws"


def _current(ws: Path) -> str:
    return (ws / "CURRENT").read_text()


# -- 3: a run that extracted nothing never replaces a good index -----------------------------
def test_an_unreachable_model_never_replaces_a_good_index(ws: Path, small_corpus: Path) -> None:
    before = _current(ws)
    env = {
        "GRAPHGATE_LLM__PROVIDER": "openai",
        "GRAPHGATE_LLM__BASE_URL": f"http://127.0.0.1:{free_port()}/v1",
        "GRAPHGATE_LLM__MODEL": "nobody-home",
        "GRAPHGATE_LLM__MAX_RETRIES": "0",
    }
    result = _invoke(["index", str(small_corpus), "-w", str(ws), "--extractor", "llm"], env=env)
    assert result.exit_code == 2
    assert "extraction failed on 3 of 3 chunks" in result.stderr and "fix:" in result.stderr
    assert _current(ws) == before
    with Workspace(ws) as workspace:
        failed = [r for r in workspace.list_runs() if r.run_id != before]
        assert len(failed) == 1 and workspace.runs.state(failed[0]) == "failed"
        verdicts = {g["gate"]: g for g in (stored_gates(failed[0]) or {})["gates"]}
        assert verdicts["ie"]["verdicts"]["failed_chunk_share"] == "FAIL"
        assert verdicts["graph"]["verdicts"]["nodes"] == "FAIL"
        assert workspace.query("Who is Fred Holywell?").citations  # the default mode answers


def test_a_corpus_without_entities_fails_a_graph_index_but_not_a_vector_one(
    ws: Path, tmp_path: Path
) -> None:
    """Digits only; and (8) no indexable word at all: no traceback from the keyword index."""
    for name, texts in {
        "digits": ["123 456 789", "2024 1999"],
        "nothing": ["x", "the of and to", "!!! ... ???"],
    }.items():
        corpus = tmp_path / name
        corpus.mkdir()
        for n, text in enumerate(texts):
            (corpus / f"{n}.txt").write_text(text)
        before = _current(ws)
        result = _invoke(["index", str(corpus), "-w", str(ws)])
        assert result.exit_code == 2 and "found no entities" in result.stderr, result.output
        assert _current(ws) == before
        fresh = tmp_path / f"{name}-ws"
        assert (
            _invoke(["index", str(corpus), "-w", str(fresh), "--pipeline", "vector"]).exit_code == 0
        )
        answer = _invoke(["query", "what is it?", "--mode", "vector", "-w", str(fresh), "--json"])
        assert answer.exit_code == 0 and "answer" in json.loads(answer.stdout)


# -- 4: evaluation modes ------------------------------------------------------------------
def test_eval_modes_are_validated_and_an_empty_evaluation_overwrites_nothing(
    ws: Path, tmp_path: Path
) -> None:
    testset = write_fred_testset(tmp_path / "t.jsonl")
    out = tmp_path / "eval"
    base = ["eval", str(testset), "-w", str(ws), "--out", str(out)]
    for modes in (",", " , ", "vector,psychic"):
        result = _invoke([*base, "--modes", modes])
        assert result.exit_code == 2 and "mode" in result.stderr
    run = ws / "runs" / _current(ws)
    assert not (run / "eval_summary.json").exists()
    assert _invoke(["gates", "-w", str(ws)]).exit_code in {0, 1}
    assert _invoke([*base, "--modes", "vector,vector"]).exit_code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert (
        list(summary["modes"]) == ["vector"] and summary["modes"]["vector"]["overall"]["cases"] == 1
    )
    # A summary that scored no mode (as an older version could write) does not crash the gates.
    empty = {"cases": 0, "modes": {}, "verdicts": {}, "overall_verdict": "PASS", "targets": {}}
    (run / "eval_summary.json").write_text(json.dumps(empty))
    gates = _invoke(["gates", "-w", str(ws), "--json"])
    gen = next(g for g in json.loads(gates.stdout)["gates"] if g["gate"] == "gen")
    assert gen["verdict"] == "UNMEASURED"


# -- 7: user text is never markup, control characters are escaped --------------------------
def test_markup_and_escapes_in_documents_and_file_names_are_shown_literally(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a[").mkdir()  # the document id is "a[/]b.txt"
    (corpus / "a[" / "]b.txt").write_text(
        "Ebenezer Scrooge wrote [bold red]DANGER[/] in London. [/] Bob Cratchit saw "
        "\x1b[31mred\x1b[0m ink."
    )
    (corpus / "[bold]empty.txt").write_text("")
    ws = str(tmp_path / "ws")
    index = _invoke(["index", str(corpus), "-w", ws])
    assert index.exit_code == 0, index.output
    assert "[bold]empty.txt" in index.stderr
    for mode in ("vector", "local"):
        query = _invoke(["query", "What did Scrooge write in London?", "--mode", mode, "-w", ws])
        assert query.exit_code == 0, query.output
        assert "[bold red]DANGER[/]" in query.stdout and "a[/]b.txt" in query.stdout
        assert "\x1b" not in query.stdout and "\\x1b[31m" in query.stdout
    assert _invoke(["runs", "-w", ws]).exit_code == 0


# -- 10-12: bad values from the command line ----------------------------------------------
def test_top_k_is_checked_everywhere(ws: Path) -> None:
    for value in ("0", "-1", "101"):
        result = _invoke(["query", "Who is Fred?", "--top-k", value, "-w", str(ws)])
        assert result.exit_code == 2 and "top_k" in result.stderr
    with Workspace(ws) as workspace, pytest.raises(InputError, match="top_k"):
        workspace.query("Who is Fred?", top_k=0)


def test_a_question_that_is_not_unicode_is_refused(ws: Path) -> None:
    result = _invoke(["query", "who is \udcff?", "-w", str(ws)])
    assert result.exit_code == 2 and "not valid Unicode" in result.stderr


def test_files_and_folders_in_the_wrong_place_get_messages(ws: Path, tmp_path: Path) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Qui est Frédéric?\n".encode("latin-1"))
    batch = _invoke(["query", "--batch", str(latin), "-w", str(ws)])
    assert batch.exit_code == 2 and "not valid UTF-8" in batch.stderr
    testset = _invoke(["eval", str(latin), "-w", str(ws), "--out", str(tmp_path / "e")])
    assert testset.exit_code == 2 and "not valid UTF-8" in testset.stderr
    a_file = tmp_path / "file"
    a_file.write_text("x")
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": "1", "question": "Who is Fred?", "question_type": "single_hop"}\n')
    out_file = _invoke(["eval", str(good), "-w", str(ws), "--out", str(a_file)])
    assert out_file.exit_code == 2 and "is a file" in out_file.stderr
    html_dir = _invoke(
        ["eval", str(good), "-w", str(ws), "--out", str(tmp_path / "e2"), "--html", str(tmp_path)]
    )
    assert html_dir.exit_code == 2 and "is a folder" in html_dir.stderr
    html_new = tmp_path / "new" / "deeper" / "r.html"
    made = _invoke(
        ["eval", str(good), "-w", str(ws), "--out", str(tmp_path / "e3"), "--html", str(html_new)]
    )
    assert made.exit_code == 0 and html_new.exists()
    workspace_file = _invoke(["status", "-w", str(a_file)])
    assert workspace_file.exit_code == 2 and "is a file" in workspace_file.stderr
    url = _invoke(["status", "-w", str(ws)], env={"GRAPHGATE_LLM__BASE_URL": "http://[::1"})
    assert url.exit_code == 2 and "llm.base_url" in url.stderr


def test_estimate_counts_no_calls_for_the_offline_extractor(
    small_corpus: Path, tmp_path: Path
) -> None:
    offline = _invoke(["index", str(small_corpus), "-w", str(tmp_path / "ws"), "--estimate"])
    assert offline.exit_code == 0 and json.loads(offline.stdout)["calls"] == 0
    llm = _invoke(
        ["index", str(small_corpus), "-w", str(tmp_path / "ws"), "--estimate", "--extractor", "llm"]
    )
    assert json.loads(llm.stdout)["calls"] == 3


def test_unexpected_errors_get_a_line_and_exit_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import graphgate.cli as cli
    from graphgate.app.workspace import Workspace as RealWorkspace

    def broken_status(self: RealWorkspace) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(RealWorkspace, "status", broken_status)
    monkeypatch.setattr("sys.argv", ["graphgate", "status", "-w", str(tmp_path / "ws")])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    assert exc.value.code == cli.UNEXPECTED
