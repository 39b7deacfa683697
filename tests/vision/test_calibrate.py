"""Calibration: markers recover the play area from generated frames; data round-trips."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision import calibrate
from vision.calibrate import Calibration, CalibrationError, parse_corners
from vision.synth.scene import SceneOptions, render

LAYOUT = {"jupiter": ["aja"], "mars": ["sevro", "eo"], "luna": [], "institute": ["judge"]}


@pytest.mark.parametrize("seed,tilt", [(1, 0.0), (2, 12.0), (3, 22.0), (4, 30.0)])
def test_markers_recover_the_play_area_within_one_percent(seed: int, tilt: float) -> None:
    frame, truth = render(LAYOUT, random.Random(seed), SceneOptions(tilt_deg=tilt))
    found = calibrate.detect(frame)
    assert found is not None and found.source == "markers"
    want = np.array(truth.calibration.corners)
    size = np.linalg.norm(want[1] - want[0])  # the play area's width in pixels
    assert np.abs(np.array(found.corners) - want).max() <= 0.01 * size


def test_no_markers_no_calibration() -> None:
    frame, _ = render(LAYOUT, random.Random(5), SceneOptions(show_markers=False))
    assert calibrate.detect(frame) is None


def test_round_trip_through_a_plain_dict() -> None:
    cal = Calibration(((100, 80), (1180, 90), (1200, 880), (90, 870)), source="manual")
    data = cal.to_dict()
    assert Calibration.from_dict(data) == cal
    assert data["source"] == "manual" and data["width_mm"] == 328.0


def test_homography_maps_play_area_corners_onto_the_corners() -> None:
    corners = ((100.0, 80.0), (1180.0, 90.0), (1200.0, 880.0), (90.0, 870.0))
    cal = Calibration(corners)
    mm = np.array([[0, 0], [328, 0], [328, 218], [0, 218]], np.float32)
    assert np.allclose(cal.to_pixels(mm), corners, atol=1e-3)


@pytest.mark.parametrize(
    "data",
    [
        {"corners": [[0, 0], [1, 0], [1, 1]]},
        {"corners": [[0, 0], [0, 10], [10, 10], [10, 0]]},  # counter-clockwise
        {"corners": "nonsense"},
        {"corners": [[0, 0], [10, 0], [10, 10], [0, 10]], "width_mm": -3},
        {},
    ],
)
def test_bad_data_is_a_value_error(data: dict) -> None:
    with pytest.raises(CalibrationError):
        Calibration.from_dict(data)


def test_parse_manual_corners() -> None:
    assert parse_corners("1,2 3,4 5,6 7,8") == ((1, 2), (3, 4), (5, 6), (7, 8))
    with pytest.raises(CalibrationError):
        parse_corners("1,2 3,4")
