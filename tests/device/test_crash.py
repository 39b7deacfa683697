"""Power-cut safety: a service killed with SIGKILL mid-game restarts in the same state."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from devkit import policy, two_player_setup

from device.journal import Journal
from engine.game import Game

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
SEED = 11


def child(journal: Path, mode: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, str(CHILD), str(journal), str(SEED), mode],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def expected_game(length: int) -> Game:
    """The same seeded game, played in this process up to ``length`` events."""
    game = Game(rng=random.Random(SEED))
    game.play(two_player_setup())
    while len(game.log) < length:
        game.play(policy(game))  # type: ignore[arg-type]
    return game


@pytest.mark.parametrize("kill_after", [25, 80])
def test_sigkill_mid_game_then_restart_gives_the_identical_state(
        tmp_path: Path, kill_after: int) -> None:
    journal = tmp_path / "journal.sqlite3"
    playing = child(journal, "play")
    assert playing.stdout is not None
    acknowledged = 0
    for line in playing.stdout:  # the child keeps playing while we read
        if line.startswith("event "):
            acknowledged = int(line.split()[1])
            if acknowledged >= kill_after:
                break
    playing.send_signal(signal.SIGKILL)  # lands wherever the child happens to be
    playing.wait(10)
    playing.stdout.close()
    assert playing.returncode == -signal.SIGKILL
    assert acknowledged >= kill_after, "the game ended before the kill"

    restarted = child(journal, "check")
    out, _ = restarted.communicate(timeout=60)
    _, length, fen = out.splitlines()[0].split(" ", 2)
    rebuilt = int(length)
    # nothing acknowledged is lost; at most the command being written is
    assert rebuilt >= acknowledged
    expected = expected_game(rebuilt)
    assert len(expected.log) == rebuilt  # the journal ends on a command boundary
    assert fen == expected.state.fen()
    reader = Journal(journal)
    stored = reader.events()
    reader.close()
    assert stored == expected.log
    assert Game.replay(stored).state == expected.state
