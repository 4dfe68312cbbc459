"""``serve.blas_threads``: the limit graphgate serve sets on its process's BLAS pool."""

from __future__ import annotations

import subprocess
import sys

from graphgate.core.config import Settings

CHECK = """
import numpy, threadpoolctl
from graphgate.serve.workers import limit_blas
limit_blas({threads})
print(sorted(i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"))
"""


def test_the_limit_is_set_and_none_leaves_the_default() -> None:
    assert Settings().serve.blas_threads == 1
    out = subprocess.run(
        [sys.executable, "-c", CHECK.format(threads=1)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[1]"
    default = subprocess.run(
        [sys.executable, "-c", CHECK.format(threads=None)],
        capture_output=True,
        text=True,
        check=True,
        env={"OPENBLAS_NUM_THREADS": "2", "PATH": ""},
    )
    assert default.stdout.strip() == "[2]"
