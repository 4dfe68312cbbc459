from __future__ import annotations

from pathlib import Path

import pytest

from graphgate.core.config import CONFIG_FILE_NAME
from graphgate.core.config_sources import load_settings
from graphgate.core.errors import ConfigError


def test_defaults_without_a_file(tmp_path: Path) -> None:
    s = load_settings(tmp_path)
    assert s.chunk.size_tokens == 200
    assert s.embed.provider == "onnx"
    assert s.load.on_error == "skip"


def test_precedence_defaults_toml_env_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / CONFIG_FILE_NAME).write_text(
        "seed = 7\n[chunk]\nsize_tokens = 120\noverlap_tokens = 10\n[query]\ntop_k_chunks = 9\n"
    )
    s = load_settings(tmp_path)
    assert (s.seed, s.chunk.size_tokens, s.chunk.overlap_tokens) == (7, 120, 10)
    monkeypatch.setenv("GRAPHGATE_CHUNK__SIZE_TOKENS", "150")
    s = load_settings(tmp_path)
    assert s.chunk.size_tokens == 150 and s.chunk.overlap_tokens == 10
    s = load_settings(tmp_path, chunk={"size_tokens": 99})
    assert s.chunk.size_tokens == 99
    assert s.chunk.overlap_tokens == 10  # untouched keys still come from the file
    assert s.query.top_k_chunks == 9


def test_invalid_values_are_rejected_with_the_key_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"chunk\.size_tokens") as exc:
        load_settings(tmp_path, chunk={"size_tokens": 2})
    assert "graphgate.toml" in exc.value.fix
    with pytest.raises(ConfigError, match="no_such_section"):
        load_settings(tmp_path, no_such_section={"x": 1})
    (tmp_path / CONFIG_FILE_NAME).write_text("[chunk\nsize_tokens = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(tmp_path)


def test_secrets_never_in_public_dump(tmp_path: Path) -> None:
    s = load_settings(tmp_path, embed={"api_key": "sk-secret-123"})
    dumped = str(s.public_dump())
    assert "sk-secret-123" not in dumped
    assert s.public_dump()["embed"]["api_key"] == "***"


@pytest.mark.parametrize(
    ("variable", "closest"),
    [
        ("GRAPHGATE_STORE__BACKNED", "store.backend"),
        ("GRAPHGATE_QUERY__TEMPRAL", "query.temporal"),
        ("GRAPHGATE_QUERRY__MODE", "query.mode"),
    ],
)
def test_an_unknown_variable_names_the_closest_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, closest: str
) -> None:
    monkeypatch.setenv(variable, "x")
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path)
    assert variable in caught.value.problem and closest in caught.value.fix


def test_variables_that_are_not_settings_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GRAPHGATE_MCP_TOKEN", "GRAPHGATE_DEBUG", "GRAPHGATE_SERVE_TOKEN"):
        monkeypatch.setenv(name, "1")
    role = '[{"name": "abbot", "terms": ["abbot", "abbess"]}]'  # a list of families
    monkeypatch.setenv("GRAPHGATE_TRUTH__CUSTOM_ROLES", role)
    (added,) = load_settings(tmp_path).truth.custom_roles
    assert added.terms == ["abbot", "abbess"] and added.predicate == "abbot_of"


def test_unknown_keys_in_the_file_and_the_arguments_are_errors(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE_NAME).write_text("[query]\ntop_k_chunk = 3\n")
    with pytest.raises(ConfigError, match=r"unknown setting query\.top_k_chunk: did you mean"):
        load_settings(tmp_path)
    with pytest.raises(ConfigError, match=r"query\.top_k_chunks"):
        load_settings(tmp_path / "other", query={"top_k_chunk": 3})


def test_where_each_setting_came_from(tmp_path: Path) -> None:
    from graphgate.core.config_sources import setting_sources

    (tmp_path / CONFIG_FILE_NAME).write_text(
        "seed = 3\n[query]\ntop_k_chunks = 7\nmode = 'local'\n"
    )
    sources = setting_sources(
        tmp_path,
        {"GRAPHGATE_QUERY__MODE": "vector", "GRAPHGATE_DEBUG": "1"},
        chunk={"size_tokens": 90},
    )
    assert sources == {
        "chunk.size_tokens": "argument",
        "query.mode": "env",
        "query.top_k_chunks": "file",
        "seed": "file",
    }


def test_the_cli_exits_2_on_a_mistyped_variable(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from graphgate.cli import build_app

    result = CliRunner().invoke(
        build_app(), ["status", "-w", str(tmp_path)], env={"GRAPHGATE_STORE__BACKNED": "x"}
    )
    assert result.exit_code == 2 and "store.backend" in result.stderr
