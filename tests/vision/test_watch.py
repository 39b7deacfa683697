"""Watching the markers between looks: their patches in the calibrating frame against
later frames."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision import calibrate
from vision.synth import effects
from vision.synth.scene import SceneOptions, SceneTruth, render
from vision.watch import MarkerWatch


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, SceneTruth]:
    return render({"mars": ["aja"]}, random.Random(3), SceneOptions())


def shifted(frame: np.ndarray, dx: float) -> np.ndarray:
    turn = np.float32([[1, 0, dx], [0, 1, 0]])
    return cv2.warpAffine(frame, turn, (frame.shape[1], frame.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


def test_the_same_markers_in_other_light_agree(scene) -> None:
    frame, _ = scene
    watch = MarkerWatch(frame, calibrate.find_markers(frame))
    assert len(watch.patches) == 4
    for gain in (0.8, 1.2):
        later = effects.noise(cv2.convertScaleAbs(frame, alpha=gain), random.Random(1), 5.0)
        assert watch.agrees(later)
    assert watch.agrees(shifted(frame, 2))  # jitter, not a move


def test_a_knock_disagrees_and_a_hand_over_one_marker_does_not(scene) -> None:
    frame, truth = scene
    watch = MarkerWatch(frame, calibrate.find_markers(frame))
    assert not watch.agrees(shifted(frame, 12))  # about 4 mm
    hand = frame.copy()
    corner = tuple(int(v) for v in truth.calibration.corners[3])
    cv2.circle(hand, corner, 70, (90, 120, 160), -1)
    assert watch.agrees(hand)
    cv2.circle(hand, tuple(int(v) for v in truth.calibration.corners[2]), 70, (90, 120, 160), -1)
    assert not watch.agrees(hand)  # two hidden: look for them


def test_a_frame_of_another_size_never_agrees(scene) -> None:
    frame, _ = scene
    watch = MarkerWatch(frame, calibrate.find_markers(frame))
    assert not watch.agrees(cv2.resize(frame, (640, 480)))
    assert not MarkerWatch(frame, {}).agrees(frame)
