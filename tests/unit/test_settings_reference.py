"""The settings reference is made from the settings model: every key described, its
environment variable real, and docs/settings.md equal to what `graphgate settings` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from graphgate.cli import build_app
from graphgate.core.config import Settings
from graphgate.core.config_sources import load_settings
from graphgate.core.settings_reference import (
    reference_markdown,
    settings_reference,
    type_name,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "settings.md"


def _leaves(model: type[BaseModel], prefix: str = "") -> set[str]:
    out: set[str] = set()
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            out |= _leaves(annotation, f"{prefix}{name}.")
        else:
            out.add(f"{prefix}{name}")
    return out


def test_every_setting_is_in_the_reference_with_a_description() -> None:
    docs = settings_reference()
    keys = [d.key for d in docs]
    assert len(keys) == len(set(keys))
    assert _leaves(Settings) <= set(keys)
    assert len(_leaves(Settings)) >= 120
    undescribed = [d.key for d in docs if len(d.description) < 10]
    assert undescribed == []
    # The values of a mapping of sections are described too (gates.rules.<name>.direction).
    assert {"gates.rules.<name>.fail_jump", "llm.prices.<name>.input_per_mtok"} <= set(keys)
    # And the items of a list of tables (truth.roles: the families of core/families.py).
    assert {"truth.roles.[].terms", "truth.attributes.[].cues"} <= set(keys)


def test_types_defaults_and_bounds_are_the_models() -> None:
    by_key = {d.key: d for d in settings_reference()}
    top_k = by_key["query.top_k_chunks"]
    assert (top_k.type, top_k.default, top_k.bounds) == ("int", 5, {"ge": 1})
    assert by_key["extract.extractor"].type == "one of: nlp, llm, import"
    assert by_key["runs.write_wait_s"].type == "float or none"
    assert by_key["llm.api_key"].type == "secret string or none"
    assert by_key["llm.api_key"].default is None
    assert by_key["store.graph"].bounds == {"pattern": r"^[A-Za-z0-9_.-]{1,64}$"}
    assert by_key["chunk.context_fields"].default == Settings().chunk.context_fields
    assert type_name(dict[str, list[int]]) == "map of str to list of int"
    roles = by_key["truth.roles"]
    assert roles.type == "list of table"
    assert [r["name"] for r in roles.default] == [r.name for r in Settings().truth.roles]


def test_each_environment_variable_sets_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """For every integer setting: its variable, set to a value other than the default, is the
    value the settings load."""
    checked = 0
    for doc in settings_reference():
        if doc.type != "int" or doc.env is None:
            continue
        value = int(doc.default) + 1
        if "le" in doc.bounds and value > doc.bounds["le"]:
            value = int(doc.default) - 1
        monkeypatch.setenv(doc.env, str(value))
        loaded: object = load_settings(None)
        for part in doc.key.split("."):
            loaded = getattr(loaded, part)
        assert loaded == value, doc.key
        monkeypatch.delenv(doc.env)
        checked += 1
    assert checked >= 40


def test_docs_settings_md_is_the_generated_reference() -> None:
    """Regenerate with: graphgate settings --markdown > docs/settings.md"""
    assert DOCS.read_text() == reference_markdown()


def test_the_command_prints_json_and_markdown() -> None:
    runner = CliRunner()
    as_json = runner.invoke(build_app(), ["settings", "--json"])
    assert as_json.exit_code == 0
    rows = json.loads(as_json.stdout)
    assert {r["key"] for r in rows} == {d.key for d in settings_reference()}
    as_markdown = runner.invoke(build_app(), ["settings", "--markdown"])
    assert as_markdown.exit_code == 0 and as_markdown.stdout == reference_markdown()
    table = runner.invoke(build_app(), ["settings"])
    assert table.exit_code == 0 and "query.top_k_chunks = 5" in table.stdout
