"""Where settings come from — ``graphgate.toml``, ``GRAPHGATE_*`` variables, arguments — and the
checks that none of them is silently ignored: an unknown key anywhere is an error naming the
closest valid one, and every run records where each explicitly set key came from."""

from __future__ import annotations

import contextlib
import difflib
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_settings import SettingsConfigDict

from graphgate.core.config import CONFIG_FILE_NAME, Settings
from graphgate.core.errors import ConfigError

ENV_PREFIX = "GRAPHGATE_"
# GRAPHGATE_* variables that are not settings (read where they are used).
OTHER_VARIABLES = frozenset(
    {
        "GRAPHGATE_MCP_TOKEN",
        "GRAPHGATE_DEBUG",
        "GRAPHGATE_SERVE_TOKEN",
        "GRAPHGATE_SERVE_READ_TOKEN",
    }
)


def setting_keys() -> list[str]:
    """Every settable key, dotted ("query.top_k_chunks"); a dict-valued key ends the path."""
    keys: list[str] = []

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, info in model.model_fields.items():
            kind = info.annotation
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                walk(kind, f"{prefix}{name}.")
            else:
                keys.append(f"{prefix}{name}")

    walk(Settings, "")
    return keys


def _closest(key: str) -> str:
    found = difflib.get_close_matches(key, setting_keys(), n=1, cutoff=0.5)
    return f"did you mean {found[0]}?" if found else "see the Configuration section of the README"


def _env_key(name: str) -> str:
    return ".".join(name[len(ENV_PREFIX) :].lower().split("__"))


def check_environment(environ: dict[str, str]) -> None:
    """Every GRAPHGATE_* variable names a setting (or one of OTHER_VARIABLES)."""
    keys = setting_keys()
    for name in sorted(environ):
        if not name.startswith(ENV_PREFIX) or name in OTHER_VARIABLES:
            continue
        key = _env_key(name)
        if not any(key == k or key.startswith(f"{k}.") for k in keys):
            closest = _closest(key)
            raise ConfigError(
                f"unknown setting {name} ({key})",
                f"{closest} (variables are GRAPHGATE_SECTION__KEY; unset this one)",
            )


def _flatten(tree: dict[str, Any], keys: set[str], prefix: str = "") -> list[str]:
    """Dotted keys of a nested settings tree; a dict-valued setting is one key."""
    out: list[str] = []
    for name, value in tree.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and key not in keys:
            out += _flatten(value, keys, f"{key}.")
        else:
            out.append(key)
    return out


def setting_sources(
    workspace: Path | None, environ: dict[str, str], **overrides: Any
) -> dict[str, str]:
    """Where each explicitly set key came from: "file" (graphgate.toml), "env", "argument";
    a later source wins, as in the settings themselves."""
    sources: dict[str, str] = {}
    keys = set(setting_keys())
    toml_file = workspace / CONFIG_FILE_NAME if workspace is not None else None
    if toml_file is not None and toml_file.exists():
        with contextlib.suppress(tomllib.TOMLDecodeError, UnicodeDecodeError):
            # (load_settings reports an unreadable file)
            sources |= dict.fromkeys(_flatten(tomllib.loads(toml_file.read_text()), keys), "file")
    for name in sorted(environ):
        if name.startswith(ENV_PREFIX) and name not in OTHER_VARIABLES:
            sources[_env_key(name)] = "env"
    sources |= dict.fromkeys(_flatten(overrides, keys), "argument")
    return dict(sorted(sources.items()))


def load_settings(workspace: Path | None = None, **overrides: Any) -> Settings:
    """Settings for a workspace; ``overrides`` nest like the tree: chunk={"size_tokens": 100}.
    An unknown key — in graphgate.toml, a GRAPHGATE_* variable or an argument — is an error
    naming the closest valid key."""
    toml_file = workspace / CONFIG_FILE_NAME if workspace is not None else None
    check_environment(dict(os.environ))

    class _WorkspaceSettings(Settings):
        model_config = SettingsConfigDict(toml_file=toml_file)

    try:
        bound = _WorkspaceSettings(**overrides)
        return Settings.model_validate(bound.model_dump())
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            key = ".".join(str(x) for x in err["loc"])
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown setting {key}: {_closest(key)}")
            else:
                problems.append(f"{key}: {err['msg']}")
        raise ConfigError(
            f"invalid settings ({'; '.join(problems)})",
            f"fix {toml_file or CONFIG_FILE_NAME} or the GRAPHGATE_* environment variables",
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{toml_file} is not valid TOML ({exc})", "fix the file") from exc
