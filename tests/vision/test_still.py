"""A still table is not read again every frame; anything that moves is."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.scanner import TableScanner
from vision.still import STILL_LEVEL, Picture, StillTable, signature
from vision.synth import effects
from vision.synth.scene import SceneOptions, render

SETUP = (object(),)


def noisy(frame: np.ndarray, seed: int) -> np.ndarray:
    return effects.noise(frame, random.Random(seed), 5.0)


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    frame, _ = render({"mars": ["aja"], "luna": ["eo", "sevro"]}, random.Random(3),
                      SceneOptions(capture=False))
    return frame


def looks(still: StillTable, frames: list[np.ndarray], answers: list[str],
          setup: tuple[object, ...] = SETUP) -> list[str]:
    """Which frames were read afresh ("read") or answered from the kept reading."""
    out, it = [], iter(answers)
    for frame in frames:
        kept = still.known(frame, setup)
        if kept is None:
            answer = next(it)
            still.read(answer, answer, setup)
            out.append("read")
        else:
            out.append(kept)
    return out


def test_sensor_noise_is_not_a_change(table: np.ndarray) -> None:
    a, b = signature(noisy(table, 1)), signature(noisy(table, 2))
    assert float(np.abs(a - b).max()) <= STILL_LEVEL / 3


def test_three_agreeing_looks_then_the_still_table_is_not_read(table: np.ndarray) -> None:
    still = StillTable(agree=3, recheck_every=20)
    got = looks(still, [noisy(table, s) for s in range(6)], ["x"] * 6)
    assert got == ["read", "read", "read", "x", "x", "x"]
    assert still.saved == 3


def test_looks_that_disagree_are_never_kept(table: np.ndarray) -> None:
    still = StillTable(agree=3)
    got = looks(still, [noisy(table, s) for s in range(6)], ["x", "y", "x", "x", "x", "z"])
    assert got == ["read"] * 5 + ["x"]  # only the last three reads agreed


def test_a_hand_over_the_table_is_read_afresh(table: np.ndarray) -> None:
    frame, _ = render({"mars": ["aja"], "luna": ["eo", "sevro"]}, random.Random(3),
                      SceneOptions(capture=False, hands=("jupiter",)))
    still = StillTable(agree=2)
    got = looks(still, [table, table, table, frame, table], ["x", "x", "hand", "x"])
    assert got == ["read", "read", "x", "read", "read"]


def test_a_card_put_down_is_read_afresh(table: np.ndarray) -> None:
    frame, _ = render({"mars": ["aja"], "luna": ["eo", "sevro"], "jupiter": ["judge"]},
                      random.Random(3), SceneOptions(capture=False))
    still = StillTable(agree=1)
    assert looks(still, [table, table, frame], ["x", "y"]) == ["read", "x", "read"]


def test_a_new_setup_is_a_new_look_and_a_still_table_is_checked_now_and_then(
        table: np.ndarray) -> None:
    still = StillTable(agree=1, recheck_every=2)
    frames = [table] * 5
    assert looks(still, frames, ["x"] * 3) == ["read", "x", "x", "read", "x"]
    assert looks(still, [table], ["x"], setup=(object(),)) == ["read"]


def test_the_scanner_reads_a_still_table_once_and_a_change_at_once(classifier) -> None:
    scanner = TableScanner(classifier=classifier)
    layout = {"mars": ["aja"], "luna": ["eo", "sevro"]}
    frame, _ = render(layout, random.Random(5), SceneOptions(capture=False))
    readings = [scanner.scan(noisy(frame, s)) for s in range(8)]
    assert scanner.still.saved == 5  # three looks agreed, the rest were answered from them
    says = {tuple((r.state, r.top, r.depth) for r in reading.locations.values())
            for reading in readings}
    assert len(says) == 1
    assert (readings[-1]["luna"].top, readings[-1]["luna"].depth) == ("sevro", 2)
    moved, _ = render({**layout, "jupiter": ["judge"]}, random.Random(5),
                      SceneOptions(capture=False))
    assert scanner.scan(moved)["jupiter"].top == "judge"


def saved(frame: np.ndarray, path: Path) -> Picture:
    assert cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return Picture(path)


def test_a_pictures_grid_from_its_eighth_scale_is_the_full_decodes(
        table: np.ndarray, tmp_path: Path) -> None:
    picture = saved(noisy(table, 1), tmp_path / "a.jpg")
    full = signature(cv2.imread(str(picture.path)))
    assert picture.signature.shape == full.shape
    assert float(np.abs(picture.signature - full).max()) <= STILL_LEVEL / 2


def test_a_still_tables_pictures_are_decoded_in_full_only_for_a_look(
        classifier, tmp_path: Path) -> None:
    scanner = TableScanner(classifier=classifier)
    frame, _ = render({"mars": ["aja"], "luna": ["eo", "sevro"]}, random.Random(5),
                      SceneOptions(capture=False))
    pictures = [saved(noisy(frame, s), tmp_path / f"{s}.jpg") for s in range(8)]
    readings = [scanner.scan(picture) for picture in pictures]
    assert scanner.still.saved == 5
    assert ["pixels" in vars(p) for p in pictures] == [True] * 3 + [False] * 5
    assert readings[-1]["luna"].top == "sevro"
