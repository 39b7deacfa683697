"""How long `companion demo` takes from launch to serving its page, and to stop on SIGTERM.

    .venv/bin/python benchmarks/device_demo_startup.py [--runs 5] [--port 8090]

Each run starts a fresh process (`python -m device.cli demo --quiet`), polls the page
every 20 ms until it answers 200, then sends SIGTERM and times the clean exit. The
target: the page within 5 s of launch.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 5.0


def page_is_up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=0.5) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def one_run(port: int) -> tuple[float, float, int]:
    """(seconds to the page, seconds to exit after SIGTERM, exit status)."""
    url = f"http://127.0.0.1:{port}/"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "demo", "--quiet",
                             "--port", str(port)], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not page_is_up(url):
            if proc.poll() is not None:
                raise RuntimeError(f"demo exited with {proc.returncode} before serving")
            if time.perf_counter() - start > 30:
                raise RuntimeError("no page after 30 s")
            time.sleep(0.02)
        up = time.perf_counter() - start
        time.sleep(2.0)  # let the camera loop and the scripted game run for a moment
        stop = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(30)
        return up, time.perf_counter() - stop, status
    finally:
        if proc.poll() is None:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8090)
    args = parser.parse_args()
    ups, stops = [], []
    for i in range(args.runs):
        up, stopped, status = one_run(args.port)
        ups.append(up)
        stops.append(stopped)
        print(f"run {i + 1}: page after {up:.2f} s; SIGTERM → exit {status} in {stopped:.2f} s")
    verdict = "within" if max(ups) <= TARGET_S else "OVER"
    print(f"launch → page: median {statistics.median(ups):.2f} s, max {max(ups):.2f} s "
          f"({verdict} the {TARGET_S:g} s target); clean stop: max {max(stops):.2f} s")


if __name__ == "__main__":
    main()
