"""Static checks run as part of the test suite: ruff everywhere, mypy --strict on every package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_package_passes_mypy_strict() -> None:
    # pyproject.toml's overrides name the files other branches are still rewriting
    result = _run("mypy", "--strict", "engine", "vision", "web", "device")
    assert result.returncode == 0, result.stdout + result.stderr
