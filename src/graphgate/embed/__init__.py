"""Embedders behind one interface; ``build_embedder`` picks the configured one."""

from __future__ import annotations

from graphgate.core.config import EmbedSettings
from graphgate.embed.base import Embedder


def build_embedder(settings: EmbedSettings) -> Embedder:
    if settings.provider == "openai":
        from graphgate.embed.openai_compat import OpenAICompatibleEmbedder

        return OpenAICompatibleEmbedder(settings)
    from graphgate.embed.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder(settings)


__all__ = ["Embedder", "build_embedder"]
