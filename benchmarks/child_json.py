"""A benchmark's measurement in a fresh process: the script runs itself with arguments and
prints one JSON line last; a failure stops the benchmark with the child's error."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def run_child(script: str, args: list[str], env: dict[str, str], what: str) -> dict[str, Any]:
    """``python script *args`` under ``env``; its last stdout line as JSON. ``what`` names the
    measurement in the error ("indexing X with local")."""
    done = subprocess.run(
        [sys.executable, script, *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stderr[-3000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found
