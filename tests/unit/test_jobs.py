"""Jobs kept in the workspace: read back by any process, interrupted when their process died."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graphgate.core.runs import owner
from graphgate.serve.jobs import Job, JobBoard


def test_a_job_is_read_back_by_another_board(tmp_path: Path) -> None:
    mine, other = JobBoard(tmp_path / "jobs"), JobBoard(tmp_path / "jobs")
    job = Job("0123456789ab", "index")
    mine.add(job)
    job.state, job.result = "done", {"run_id": "r"}
    mine.save(job, force=True)
    seen = other.get(job.id)
    assert seen is not None and seen["state"] == "done" and seen["result"] == {"run_id": "r"}
    assert [j["id"] for j in other.list()] == [job.id]
    assert other.get("../../etc/passwd") is None and other.get("nope") is None


def test_a_running_job_whose_process_is_gone_is_interrupted(tmp_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    record = {
        **Job("aaaaaaaaaaaa", "index", state="running").as_dict(),
        "owner": {**owner(), "pid": int(gone.stdout), "pid_started": -1},
    }
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "aaaaaaaaaaaa.json").write_text(json.dumps(record))
    found = JobBoard(tmp_path / "jobs").get("aaaaaaaaaaaa")
    assert found is not None and found["state"] == "interrupted"
