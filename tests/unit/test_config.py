from __future__ import annotations

from pathlib import Path

import pytest

from graphgate.config import CONFIG_FILE_NAME, load_settings
from graphgate.errors import ConfigError


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
