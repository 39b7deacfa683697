"""The web tests, many times in a row, with every core kept busy: flakes show up here.

Starts one ``yes > /dev/null`` per core (``--busy``), runs ``pytest tests/web`` ``--runs``
times, stops the busy processes it started (by their own ids), and prints each run's
result and the count of green runs (a failed run's output goes to a file in the temp
directory, named in the line). Any test that fails even once is a bug.

Reproduce (from the repository root)::

    .venv/bin/python benchmarks/web_stress.py --runs 20 --busy 2
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def busy(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that keep a core each at 100 %."""
    return [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]


def run_once(paths: list[str], log: Path) -> tuple[bool, float, str]:
    """One pytest run: green or not, its wall time, and its summary (the whole output of
    a failed run is kept in ``log``)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *paths], cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else done.stderr.strip()[-200:]
    failures = [line for line in lines if re.match(r"(FAILED|ERROR) ", line)]
    if done.returncode != 0:
        log.write_text(done.stdout + done.stderr)
        failures.append(f"output: {log}")
    return done.returncode == 0, elapsed, "\n    ".join([summary, *failures])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 2,
                        help="processes spinning alongside (default: one per core)")
    parser.add_argument("paths", nargs="*", default=["tests/web"])
    args = parser.parse_args()
    spinners = busy(args.busy)
    green = 0
    try:
        for n in range(1, args.runs + 1):
            log = Path(tempfile.gettempdir()) / f"web_stress_run{n}.log"
            ok, elapsed, summary = run_once(args.paths, log)
            green += ok
            print(f"run {n:2d}: {'green' if ok else 'FAILED'} in {elapsed:5.1f} s  {summary}",
                  flush=True)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    print(f"{green}/{args.runs} runs green with {args.busy} busy processes alongside")
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
