"""A benchmark's measurement in a fresh process: the script runs itself with arguments and
prints one JSON line last; a failure stops the benchmark with the child's error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
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


def peak_rss_mb(pid: int) -> float:
    """A live process's peak RSS (VmHWM), MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def descendants(pid: int) -> list[int]:
    """A live process's children, their children, and so on (from /proc)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            out += [int(child), *descendants(int(child))]
    return out
