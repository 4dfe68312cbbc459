"""Do the gates catch what they exist to catch? Regressions injected one at a time, judged
against a baseline, with controls that must pass; one run, one corpus.

    .venv/bin/python benchmarks/gate_sensitivity.py CORPUS [--testset T] [--workspace WS]

``graphgate.app.sensitivity.gate_sensitivity`` does the work: CORPUS indexed as the baseline
(seed 0) and calibrated under ``--seeds`` other seeds (the history the bands come from); then
two controls (the same settings again, recomputed; a seed not in the history) and each
injection of ``graphgate.gates.injections.INJECTIONS`` alone: settings a team might change, a
parser that reads documents differently, a stage whose output went wrong, an answerer that
cites the wrong chunk or is slower. With ``--testset`` the baseline, the controls and the
answerer's regressions are evaluated (the Gen gate). Prints the confusion table (injection x
gate: W = WARN, F = FAIL, * = expected here), the sensitivity (injections flagged at an
expected gate) and the false-alarm rate (controls flagged anywhere), and each run's reasons.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from graphgate.app.sensitivity import gate_sensitivity


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="A .jsonl corpus or a folder (the demo's).")
    parser.add_argument("--testset", type=Path, help="Questions for the Gen gate's evaluation.")
    parser.add_argument("--workspace", type=Path, help="A new folder (default: a temporary one).")
    parser.add_argument("--seeds", type=int, default=3, help="0: judged by the fixed rules.")
    args = parser.parse_args()
    root = args.workspace or Path(tempfile.mkdtemp(prefix="gate-sensitivity-"))
    started = time.perf_counter()

    def told(step: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {step}", flush=True)

    report = gate_sensitivity(
        root / "ws", args.corpus, seeds=args.seeds, testset=args.testset, told=told
    )
    print(
        f"\ncorpus {args.corpus}, baseline seed 0, {args.seeds} calibration seeds; "
        f"{report.thresholds}\n"
    )
    print(report.table())
    print(f"\n{report.summary()}")
    for row in report.rows:
        if not row.no_effect:
            print(f"\n{row.name}:")
            for reason in row.reasons[:8]:
                print(f"  {reason}")


if __name__ == "__main__":
    main()
