"""The long commands say how far they have got on a terminal, and nothing with ``--quiet``.

``cards enroll`` runs as its own process on a pseudo-terminal, as a person starts it;
``simulate`` and ``replay`` run in this process with a stderr that claims to be one.
"""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.cli import main

ROOT = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_a_terminal(argv: list[str], timeout: float = 120.0) -> str:
    """``companion ARGV`` with stdout and stderr on a new pseudo-terminal: all it wrote."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", *argv], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    said = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the follower side closed: the process is done
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(leader)
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
    assert proc.returncode == 0, said.decode(errors="replace")
    return said.decode(errors="replace")


@pytest.mark.slow
def test_enroll_on_a_terminal_shows_a_bar_with_a_count_before_its_result(tmp_path: Path) -> None:
    said = on_a_terminal(["cards", "enroll", "--images", str(ROOT / "examples" / "cards"),
                          "--out", str(tmp_path / "mine.onnx")])
    result = said.index("wrote ")
    assert 0 <= said.find("cards enroll: loading the model") < result
    assert 0 <= said.find("cards enroll: photos") < result and "/3 [" in said[:result]


@pytest.mark.slow
def test_quiet_enroll_prints_its_result_alone(tmp_path: Path) -> None:
    said = on_a_terminal(["cards", "enroll", "--images", str(ROOT / "examples" / "cards"),
                          "--out", str(tmp_path / "mine.onnx"), "--quiet"])
    assert said.strip() == f"wrote {tmp_path / 'mine.onnx'}: 3 labels from 3 images"


def test_simulate_counts_its_games_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "--games", "3", "--seed", "1", "--json"]) == 0
    assert "simulate: games" in err.getvalue() and "/3 [" in err.getvalue()
    quiet = Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert main(["simulate", "--games", "3", "--seed", "1", "--json", "--quiet"]) == 0
    assert quiet.getvalue() == ""
    capsys.readouterr()


@pytest.mark.slow
def test_replay_counts_the_folders_items_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from device.recording import GameFolder

    items = len(GameFolder.read(ROOT / "examples" / "game").items)
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["replay", str(ROOT / "examples" / "game"), "--oracle", "--json"]) == 0
    assert "replay: frames and presses" in err.getvalue()
    assert f"/{items} [" in err.getvalue()
    capsys.readouterr()
