"""Any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM, llama.cpp server)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Sequence

import numpy as np

from graphgate.core.config import EmbedSettings
from graphgate.core.errors import ConfigError, EmbeddingMismatchError
from graphgate.embed.base import Matrix, l2_normalise


class OpenAICompatibleEmbedder:
    def __init__(self, settings: EmbedSettings) -> None:
        self.settings = settings
        self._dimension = settings.dimension

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self.embed(["dimension probe"]).shape[1])
        return self._dimension

    def _api_key(self) -> str | None:
        if self.settings.api_key is not None:
            return self.settings.api_key.get_secret_value()
        return os.environ.get("OPENAI_API_KEY")

    def embed(self, texts: Sequence[str], max_tokens: int | None = None) -> Matrix:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.settings.batch_size):
            rows.extend(self._request(list(texts[start : start + self.settings.batch_size])))
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)
        if self._dimension is None and len(texts):
            self._dimension = int(matrix.shape[1])  # learnt from the first answer, no probe
        elif len(texts) and matrix.shape[1] != self._dimension:
            raise EmbeddingMismatchError(
                f"endpoint returned {matrix.shape[1]}-dimensional vectors, "
                f"configured embed.dimension is {self._dimension}",
                "set GRAPHGATE_EMBED__DIMENSION to the model's dimension and re-index",
            )
        return l2_normalise(matrix)

    def _request(self, batch: list[str]) -> list[list[float]]:
        url = self.settings.base_url.rstrip("/") + "/embeddings"
        body = json.dumps({"model": self.settings.model, "input": batch}).encode()
        headers = {"Content-Type": "application/json"}
        key = self._api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout_s) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise ConfigError(
                f"embedding endpoint {url} answered HTTP {exc.code}",
                "check embed.base_url, embed.model and the API key",
            ) from exc
        except (urllib.error.URLError, TimeoutError) as exc:
            raise ConfigError(
                f"cannot reach embedding endpoint {url}: {exc}", "start the server or fix base_url"
            ) from exc
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"embedding endpoint {url} sent invalid JSON", "check the server"
            ) from exc
        try:
            data = sorted(payload["data"], key=lambda d: d["index"])
            return [list(map(float, d["embedding"])) for d in data]
        except (KeyError, TypeError) as exc:
            raise ConfigError(
                f"embedding endpoint {url} answered without data[].embedding",
                "point embed.base_url at an OpenAI-compatible /v1",
            ) from exc
