"""How long `companion demo` takes from launch to serving its page, and to stop on SIGTERM.

    .venv/bin/python benchmarks/device_demo_startup.py [--runs 5] [--port 8090]

Each run starts a fresh process (`python -m device.cli demo --quiet`), polls the page
every 20 ms until it answers 200, then sends SIGTERM and times the clean exit. The
target: the page within 5 s of launch.

Beside the wall-clock time it prints the CPU time the demo process itself had used
when its page first answered (user + system, from /proc): on a machine shared with
other work the wall clock grows with the load, while the CPU time is the demo's own
cost. It then times, in fresh processes, importing only the modules the demo loads
before its page (the CLI, the appliance, the web app), to show how much of that cost
is Python imports, and the CPU time of ``companion --help`` (the cost every command pays
before it starts). ``--root DIR`` measures another checkout (e.g. an older commit).
"""

from __future__ import annotations

import argparse
import os
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a running process has used (Linux /proc), all threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(port: int, root: Path = ROOT) -> tuple[float, float, float, int]:
    """(seconds to the page, CPU seconds used by then, seconds to exit after SIGTERM,
    exit status)."""
    url = f"http://127.0.0.1:{port}/"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "demo", "--quiet",
                             "--port", str(port)], cwd=root, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not page_is_up(url):
            if proc.poll() is not None:
                raise RuntimeError(f"demo exited with {proc.returncode} before serving")
            if time.perf_counter() - start > 30:
                raise RuntimeError("no page after 30 s")
            time.sleep(0.02)
        up = time.perf_counter() - start
        cpu = cpu_seconds(proc.pid)
        time.sleep(2.0)  # let the camera loop and the scripted game run for a moment
        stop = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(30)
        return up, cpu, time.perf_counter() - stop, status
    finally:
        if proc.poll() is None:
            proc.kill()


IMPORTS = "import device.cli, device.commands.demo, device.appliance, web"


def import_cost(root: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a fresh process importing what the page needs."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", IMPORTS + "\nimport os\nt = os.times()\n"
                           "print(t.user + t.system)"], cwd=root, check=True,
                          capture_output=True, text=True)
    return time.perf_counter() - start, float(done.stdout.split()[-1])


def help_cost(root: Path) -> float:
    """CPU seconds of a fresh ``companion --help`` (children included)."""
    before = os.times()
    subprocess.run([sys.executable, "-m", "device.cli", "--help"], cwd=root, check=True,
                   capture_output=True)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to launch")
    args = parser.parse_args()
    ups, cpus, stops = [], [], []
    for i in range(args.runs):
        up, cpu, stopped, status = one_run(args.port, args.root)
        ups.append(up)
        cpus.append(cpu)
        stops.append(stopped)
        print(f"run {i + 1}: page after {up:.2f} s ({cpu:.2f} s of CPU); "
              f"SIGTERM → exit {status} in {stopped:.2f} s")
    verdict = "within" if max(ups) <= TARGET_S else "OVER"
    print(f"launch → page: median {statistics.median(ups):.2f} s, max {max(ups):.2f} s "
          f"({verdict} the {TARGET_S:g} s target); CPU by then: median "
          f"{statistics.median(cpus):.2f} s; clean stop: max {max(stops):.2f} s")
    walls, costs = zip(*(import_cost(args.root) for _ in range(args.runs)), strict=True)
    print(f"imports alone: median {statistics.median(costs):.2f} s of CPU, "
          f"{statistics.median(walls):.2f} s wall; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    helps = [help_cost(args.root) for _ in range(args.runs)]
    print(f"companion --help: median {statistics.median(helps):.2f} s of CPU")


if __name__ == "__main__":
    main()
