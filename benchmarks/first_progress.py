"""How soon a long command shows its progress on a terminal: seconds from the start of
``companion cards enroll`` to its first bar, on a pseudo-terminal, as a person sees it.

    .venv/bin/python benchmarks/first_progress.py [--runs 5] [--images examples/cards]

Each run starts a fresh ``companion`` process (the interpreter, its imports and all),
reads its terminal until the bar's text appears, then stops it. Prints the median and
the slowest of the runs, wall-clock.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARK = b"cards enroll: "


def first_bar(images: Path, out: Path, timeout: float = 120.0) -> float:
    """Seconds until ``cards enroll`` wrote its first progress on a new terminal."""
    leader, follower = pty.openpty()
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "cards", "enroll", "--images",
                             str(images), "--out", str(out)], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    said, seen = b"", None
    try:
        while seen is None and time.perf_counter() - started < timeout:
            ready, _, _ = select.select([leader], [], [], 0.01)
            if not ready:
                continue
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            said += chunk
            if seen is None and MARK in said:
                seen = time.perf_counter() - started
    finally:
        proc.terminate()
        proc.wait(timeout)
        os.close(leader)
    if seen is None:
        raise RuntimeError(f"no progress seen (exit {proc.returncode}): {said[-400:]!r}")
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--images", type=Path, default=ROOT / "examples" / "cards")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        seconds = [first_bar(args.images, Path(tmp) / "mine.onnx") for _ in range(args.runs)]
    print(f"cards enroll --images {args.images.name}: first progress after median "
          f"{statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s "
          f"({args.runs} runs, wall-clock)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
