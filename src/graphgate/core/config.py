"""One settings tree: defaults < ``graphgate.toml`` < environment < arguments. Loading it and
checking every source for unknown keys is in :mod:`graphgate.core.config_sources`; the
sections are in ``config_index`` (indexing), ``config_query`` (store, answering, evaluation,
model) and ``config_serve`` (serving, runs, gates), and every field carries the description
the settings reference is made from (:mod:`graphgate.core.settings_reference`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from graphgate.core.config_base import OnError, Section, check_base_url, redact_url
from graphgate.core.config_index import (
    ChunkSettings,
    CommunitySettings,
    EmbedSettings,
    ExtractSettings,
    IndexSettings,
    LoadSettings,
    ResolveSettings,
    TruthSettings,
    VectorSettings,
)
from graphgate.core.config_query import (
    EvalSettings,
    LLMSettings,
    ModelPrice,
    QuerySettings,
    StoreSettings,
)
from graphgate.core.config_serve import (
    GateRule,
    GateSettings,
    RunSettings,
    ServeSettings,
    TelemetrySettings,
)

CONFIG_FILE_NAME = "graphgate.toml"

__all__ = [
    "CONFIG_FILE_NAME",
    "ChunkSettings",
    "CommunitySettings",
    "EmbedSettings",
    "EvalSettings",
    "ExtractSettings",
    "GateRule",
    "GateSettings",
    "IndexSettings",
    "LLMSettings",
    "LoadSettings",
    "ModelPrice",
    "OnError",
    "QuerySettings",
    "ResolveSettings",
    "RunSettings",
    "Section",
    "ServeSettings",
    "Settings",
    "StoreSettings",
    "TelemetrySettings",
    "TruthSettings",
    "VectorSettings",
    "check_base_url",
    "redact_url",
]


class Settings(BaseSettings):
    """Every knob graphgate has; nested keys map to ``GRAPHGATE_SECTION__KEY``."""

    model_config = SettingsConfigDict(
        env_prefix="GRAPHGATE_", env_nested_delimiter="__", extra="forbid"
    )

    seed: int = Field(
        0, description="Seed of every random choice (Leiden, sampling): same seed, same run."
    )
    load: LoadSettings = Field(LoadSettings(), description="Reading a corpus.")
    chunk: ChunkSettings = Field(ChunkSettings(), description="Splitting documents into chunks.")
    extract: ExtractSettings = Field(
        ExtractSettings(), description="Entities and relations from chunks."
    )
    resolve: ResolveSettings = Field(
        ResolveSettings(), description="Merging mentions of one entity."
    )
    truth: TruthSettings = Field(
        TruthSettings(), description="Facts over time, and conflicting statements."
    )
    communities: CommunitySettings = Field(
        CommunitySettings(), description="Hierarchical communities and their reports."
    )
    embed: EmbedSettings = Field(EmbedSettings(), description="The embedding model.")
    vectors: VectorSettings = Field(VectorSettings(), description="Vector search.")
    index: IndexSettings = Field(
        IndexSettings(), description="Where indexing's per-chunk work runs."
    )
    store: StoreSettings = Field(StoreSettings(), description="The graph store.")
    query: QuerySettings = Field(QuerySettings(), description="Retrieval and answers.")
    eval: EvalSettings = Field(EvalSettings(), description="The evaluation harness.")
    gates: GateSettings = Field(GateSettings(), description="The quality gates.")
    llm: LLMSettings = Field(LLMSettings(), description="The chat model (offline by default).")
    serve: ServeSettings = Field(ServeSettings(), description="The HTTP API, MCP and the web page.")
    runs: RunSettings = Field(RunSettings(), description="Index runs and writers.")
    telemetry: TelemetrySettings = Field(
        TelemetrySettings(), description="OpenTelemetry traces of indexing and queries."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))

    def public_dump(self) -> dict[str, Any]:
        """Settings as recorded in manifests: secrets never leave the process."""
        data = self.model_dump(mode="json")
        data["embed"]["api_key"] = "***" if self.embed.api_key else None
        data["llm"]["api_key"] = "***" if self.llm.api_key else None
        data["serve"]["write_token"] = "***" if self.serve.write_token else None
        data["serve"]["read_token"] = "***" if self.serve.read_token else None
        data["store"]["url"] = self.store.public_url()
        data["store"]["password"] = "***" if self.store.password else None
        return data
