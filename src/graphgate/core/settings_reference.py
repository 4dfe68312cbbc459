"""The settings reference, generated from the settings model itself: every key with its type,
default, bounds, environment variable and description. ``graphgate settings`` prints it and
docs/settings.md holds it (a test keeps the file equal to what this makes), so the reference
cannot drift from the code."""

from __future__ import annotations

import json
import types
from dataclasses import asdict, dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from graphgate.core.config import Settings

_BOUNDS = ("gt", "ge", "lt", "le", "pattern", "min_length", "max_length")
_ENV_PREFIX = "GRAPHGATE_"


@dataclass(frozen=True)
class SettingDoc:
    key: str  # dotted, e.g. query.top_k_chunks; "<name>" stands for a key of a mapping
    section: str
    type: str
    default: Any  # JSON value; secrets and unset values are null
    bounds: dict[str, Any]
    env: str | None  # the environment variable (None inside a mapping's values)
    description: str


def type_name(annotation: Any) -> str:
    """A type as a reader writes it: "int", "float or none", "one of: nlp, llm"."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        return "one of: " + ", ".join(str(a) for a in args)
    if origin in (Union, types.UnionType):
        named = [type_name(a) for a in args if a is not type(None)]
        return " or ".join(named) + (" or none" if type(None) in args else "")
    if origin is list:
        return f"list of {type_name(args[0])}"
    if origin is dict:
        return f"map of {type_name(args[0])} to {type_name(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, SecretStr):
        return "secret string"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "section" if annotation.__name__.endswith("Settings") else "table"
    return getattr(annotation, "__name__", str(annotation))


def _default(field: FieldInfo) -> Any:
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return None
    else:
        value = field.default
    if isinstance(value, SecretStr):
        return None
    if isinstance(value, BaseModel):
        return None  # a section: its keys are listed one by one
    if isinstance(value, dict):
        return {
            k: v.model_dump(mode="json") if isinstance(v, BaseModel) else v
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [v.model_dump(mode="json") if isinstance(v, BaseModel) else v for v in value]
    return value


def _bounds(field: FieldInfo) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for meta in field.metadata:
        for name in _BOUNDS:
            value = getattr(meta, name, None)
            if value is not None:
                found[name] = value
    return found


def _value_model(annotation: Any) -> tuple[type[BaseModel], str] | None:
    """The model of a mapping's values (gates.rules: GateRule) or of a list's items
    (truth.roles: RoleFamily), when it is one, and how its keys are written."""
    origin = get_origin(annotation)
    if origin in (dict, list):
        value = get_args(annotation)[-1]
        if isinstance(value, type) and issubclass(value, BaseModel):
            return value, "<name>" if origin is dict else "[]"
    return None


def _docs(model: type[BaseModel], prefix: str, section: str, env: bool) -> list[SettingDoc]:
    out: list[SettingDoc] = []
    for name, field in model.model_fields.items():
        key = f"{prefix}{name}"
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            out += _docs(annotation, f"{key}.", name, env)
            continue
        env_name = _ENV_PREFIX + key.upper().replace(".", "__") if env else None
        out.append(
            SettingDoc(
                key,
                section,
                type_name(annotation),
                _default(field),
                _bounds(field),
                env_name,
                field.description or "",
            )
        )
        values = _value_model(annotation)
        if values is not None:
            model_of, written = values
            out += _docs(model_of, f"{key}.{written}.", section, False)
    return out


def settings_reference() -> list[SettingDoc]:
    """Every setting, in the order the model declares them (top-level keys first)."""
    return _docs(Settings, "", "(top level)", True)


def section_descriptions() -> dict[str, str]:
    return {
        name: field.description or ""
        for name, field in Settings.model_fields.items()
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
    }


def reference_json() -> str:
    return json.dumps([asdict(d) for d in settings_reference()], indent=2) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(value: Any) -> str:
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, dict) and "name" in v for v in value)
    ):
        # A list of families: their names here, each in full in `graphgate settings --json`.
        names = ", ".join(str(v["name"]) for v in value)
        return f"{len(value)} tables: {_cell(names)}"
    return "`" + _cell(json.dumps(value, ensure_ascii=False)) + "`"


def reference_markdown() -> str:
    lines = [
        "# Settings reference",
        "",
        "Generated from the settings model by `graphgate settings --markdown`; a test keeps "
        "this file equal to it. Settings are read, each overriding the one before: defaults, "
        "`graphgate.toml` in the workspace (sections as TOML tables), environment variables "
        "(`GRAPHGATE_SECTION__KEY`), then arguments (keyword arguments of `Workspace`, "
        "and the command options marked `[config]`). An unknown key is an error in every source.",
        "",
    ]
    docs = settings_reference()
    sections = section_descriptions()
    for section in ["(top level)", *sections]:
        rows = [d for d in docs if d.section == section]
        title = "Top level" if section == "(top level)" else f"`[{section}]`"
        about = "" if section == "(top level)" else f" — {sections[section]}"
        lines += [f"## {title}{about}", ""]
        lines += [
            "| key | type | default | bounds | environment | description |",
            "|---|---|---|---|---|---|",
        ]
        for d in rows:
            bounds = ", ".join(f"{k} {v}" for k, v in d.bounds.items())
            lines.append(
                f"| `{d.key}` | {_cell(d.type)} | {_code(d.default)} | {_cell(bounds)} | "
                f"{f'`{d.env}`' if d.env else ''} | {_cell(d.description)} |"
            )
        lines.append("")
    return "\n".join(lines)
