"""A camera knocked partway through a whole game, filmed into a game folder and replayed
as ``companion replay --oracle`` does (:func:`device.recording.replay`): recalibrated
from its markers at the next frame, no card named wrong in any frame, the game tracked
to its truth."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from device.perception import Room, ScriptedCamera
from device.recording import GameFolder, replay, write_scripted
from engine.board import LOCATIONS
from engine.endgame import final_table
from engine.scoring import score
from engine.state import Phase
from engine.tracking.replay import turn_rows
from engine.tracking.script import Layout, write_script
from vision.scanner import Sight, TableReading, TableScanner
from vision.stabilize import Stabilizer

pytestmark = pytest.mark.slow
# The shortest 2-player game of seeds 0-7 (65 moments, 324 frames at 5 frames a second,
# as test_camera_games films its solo game), knocked 30 s in: turned 2.5°, moved 30 px
# right and 20 px up (about 10 mm on the table, 13 mm at the far corners).
PLAYERS, SEED = 2, 6
KNOCK = (30.0, 2.5, 30.0, -20.0)


@dataclass
class Filming(ScriptedCamera):
    """The scripted camera, keeping each frame's time, layout and hands (the truth)."""

    shot: list[tuple[float, Layout, tuple[str, ...]]] = field(default_factory=list)

    def frames(self, layout: Layout, hands_over: tuple[str, ...] = (),
               covered: tuple[str, ...] = ()) -> Iterator[tuple[np.ndarray, float]]:
        for frame, t in super().frames(layout, hands_over, covered):
            self.shot.append((t, layout, hands_over))
            yield frame, t


class Watching(TableScanner):
    """The scanner, keeping each reading and the camera moves found by then."""

    def __init__(self) -> None:
        super().__init__()
        self.readings: list[tuple[TableReading, int]] = []

    def scan(self, frame: np.ndarray) -> TableReading:
        reading = super().scan(frame)
        self.readings.append((reading, self.moves))
        return reading


def misnamed(reading: TableReading, layout: Layout, hands: tuple[str, ...]) -> list[str]:
    """Locations where ``reading`` names a card other than the top one lying there."""
    wrong = []
    for loc, stack in zip(LOCATIONS, layout, strict=True):
        got = reading[loc]
        if got.state is Sight.CARD and loc.value not in hands:
            top = str(stack[-1][0]) if stack else None
            if got.top != top:
                wrong.append(f"{loc.value}: {got.top}, truth {top}")
    return wrong


def totals(state: Any) -> tuple[int, ...]:
    return tuple(p.total for p in score(final_table(state)).players)


def test_a_camera_knocked_mid_game_is_recalibrated_and_the_game_tracked(
        tmp_path: Path) -> None:
    script = write_script(PLAYERS, seed=SEED)
    camera = Filming(seed=SEED, fps=5.0, hand_frames=1, still_frames=5, room=Room(nudge=KNOCK))
    scanner = Watching()
    outcome = replay(GameFolder.read(write_scripted(script, tmp_path, camera)), scanner,
                     Stabilizer(), oracle=True)
    assert len(scanner.readings) == len(camera.shot) and outcome.refused == []
    knocked = next(k for k, (t, _layout, _hands) in enumerate(camera.shot) if t >= KNOCK[0])
    found = next(k for k, (_reading, moves) in enumerate(scanner.readings) if moves)
    assert found == knocked  # the first knocked frame is read with the new calibration
    assert scanner.moves == 1
    wrong = [f"frame {k}: {w}" for k, ((reading, _), (_t, layout, hands)) in
             enumerate(zip(scanner.readings, camera.shot, strict=True))
             for w in misnamed(reading, layout, hands)]
    assert wrong == []
    truth, tracked = script.truth_states(), outcome.service.game.states
    assert tracked[-1].phase is Phase.OVER
    assert turn_rows(tracked) == turn_rows(truth)
    assert totals(tracked[-1]) == totals(truth[-1])
