"""Real ``companion run`` processes for tests and benchmarks: start, read, stop."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def companion_run(tmp_path: Path, journal: Path) -> subprocess.Popen[str]:
    """``companion run`` on ``journal``: no camera frames, GPIO or voice, any free port."""
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[camera]\nsource = "replay"\ndevice = "{tmp_path / "no-frames"}"\n'
        '[buttons]\nenabled = false\n[led]\nenabled = false\n[voice]\nenabled = false\n'
        f'[web]\nhost = "127.0.0.1"\nport = 0\n[journal]\npath = "{journal}"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    return subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)


def read_until(process: subprocess.Popen[str], text: str, timeout: float = 60) -> list[str]:
    """Stdout lines up to the first containing ``text`` (fails after ``timeout``)."""
    assert process.stdout is not None
    lines: list[str] = []
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while not lines or text not in lines[-1]:
            left = deadline - time.monotonic()
            assert left > 0 and selector.select(left), f"no {text!r} after {lines}"
            line = process.stdout.readline()
            assert line, f"the companion exited: {lines} {process.stderr.read()}"  # type: ignore[union-attr]
            lines.append(line)
    return lines


def stop(process: subprocess.Popen[str], how: int = signal.SIGTERM) -> int:
    """Signal the process, collect it, return its status."""
    process.send_signal(how)
    process.communicate(timeout=30)
    return process.returncode
