"""Whole scripted games through the real camera path, as `benchmarks/tracking.py --camera`
measures them: every change of the table drawn frame by frame by the scene generator
(hands over the changing locations, light drifting, sensor noise, JPEG), scanned with
the committed classifier, settled by the stabiliser, then tracked and compared with the
truth. About a minute for both: the slowest tests in the suite, and the most telling.
"""

from __future__ import annotations

import pytest

from device.perception import Perception, ScriptedCamera, camera_perceiver
from device.replay import Report, replay_script
from device.script import Script, write_script
from vision.scanner import TableScanner
from vision.stabilize import Stabilizer

pytestmark = pytest.mark.slow


def through_the_camera(script: Script, seed: int) -> Report:
    perception = Perception(TableScanner(), Stabilizer())
    return replay_script(script, camera_perceiver(perception, ScriptedCamera(seed=seed)))


def test_a_three_player_game_through_the_camera_matches_the_truth() -> None:
    report = through_the_camera(write_script(3, seed=1), seed=1)
    assert report.matches, report.problems
    assert report.turns >= 25 and report.corrections == 0
    assert report.tracked_scores == report.truth_scores


def test_a_solo_game_through_the_camera_matches_the_truth() -> None:
    report = through_the_camera(write_script(seed=0, automa_level=2), seed=0)
    assert report.matches, report.problems
    assert report.corrections == 0
    assert report.tracked_trigger == report.truth_trigger
