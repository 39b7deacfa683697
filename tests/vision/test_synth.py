"""Synthetic cards and scenes: deterministic, truthful, distinct styles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.cards import ALL_IDS
from vision.synth import cards, effects, tables
from vision.synth.crops import capture
from vision.synth.scene import FOREIGN, SceneOptions, render


def test_scene_is_deterministic_for_a_seed() -> None:
    layout = {"mars": ["aja", "sevro"], "luna": [cards.FACE_DOWN]}
    a, ta = render(layout, random.Random(7))
    b, tb = render(layout, random.Random(7))
    assert np.array_equal(a, b)
    assert ta.calibration == tb.calibration


def test_truth_follows_the_layout() -> None:
    layout = {"jupiter": ["aja", "sevro", "eo"], "luna": [cards.FACE_DOWN], "mars": [FOREIGN]}
    frame, truth = render(layout, random.Random(3), SceneOptions(size=(640, 480)))
    assert frame.shape == (480, 640, 3)
    got = {k: (v.state, v.top, v.depth) for k, v in truth.locations.items()}
    assert got == {
        "jupiter": ("card", "eo", 3),
        "mars": ("unknown", None, 1),
        "luna": ("face_down", None, 1),
        "institute": ("empty", None, 0),
    }


def test_a_hand_makes_its_location_occluded() -> None:
    _, truth = render({"mars": ["aja"]}, random.Random(4), SceneOptions(hands=("mars",)))
    assert truth.locations["mars"].state == "occluded"
    assert truth.locations["mars"].top == "aja"


def test_bad_layouts_are_value_errors() -> None:
    with pytest.raises(ValueError):
        render({"pluto": ["aja"]}, random.Random(1))
    with pytest.raises(ValueError):
        render({"mars": ["not-a-card"]}, random.Random(1))


def test_styles_differ_and_cards_differ_within_a_style() -> None:
    classic = cards.card_face("aja", "classic")
    modern = cards.card_face("aja", "modern")
    other = cards.card_face("sevro", "classic")
    assert classic.shape == modern.shape == (cards.FACE_H, cards.FACE_W, 3)
    assert np.abs(classic.astype(int) - modern).mean() > 30
    assert np.abs(classic.astype(int) - other).mean() > 10
    assert len({cards.card_face(c, "modern").tobytes() for c in ALL_IDS[:20]}) == 20


def test_unknown_style_is_rejected() -> None:
    with pytest.raises(ValueError):
        cards.card_face("aja", "watercolour")


def test_people_push_a_long_stack_together_to_keep_it_in_reach() -> None:
    from vision.calibrate import PLAY_H_MM
    from vision.locate import STACK_REACH_MM
    from vision.synth.scene import _placements

    for seed in range(20):
        long = _placements(["aja"] * 17, 0, random.Random(seed), messy=True)
        # the newest card's foot (its centre line) ends within the reach; jitter aside
        foot = float(long[-1][2:, 1].mean())
        assert foot <= PLAY_H_MM + STACK_REACH_MM + 2.0
    # a short stack keeps the cascade people chose: the same draws, the same layout
    short = _placements(["aja"] * 4, 1, random.Random(3), messy=True)
    again = _placements(["aja"] * 4, 1, random.Random(3), messy=True)
    steps = np.diff([float(q[:2, 1].mean()) for q in short])
    assert np.allclose(short, again) and (steps > 9.0).all()


@pytest.mark.parametrize("kind", [*tables.TRAINING, *tables.MORE, tables.UNSEEN])
def test_table_kinds_are_drawn_on_the_tables_plane(kind: str) -> None:
    """The same seed draws the same table; a steeper camera shows its pattern shrunk
    with distance (the far rows of a check or a plank need more of them per pixel)."""
    options = SceneOptions(table=kind, tilt_deg=25.0, capture=False)
    a, truth = render({}, random.Random(2), options)
    b, _ = render({}, random.Random(2), options)
    assert np.array_equal(a, b)
    h, w = a.shape[:2]
    assert a.std() > 8  # a pattern, not a plain colour
    corners = np.asarray(truth.calibration.corners)
    near, far = corners[2, 0] - corners[3, 0], corners[1, 0] - corners[0, 0]
    assert far < near  # the play area's far edge is the shorter under a tilted camera
    assert a.shape == (h, w, 3)


def test_an_unknown_table_kind_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown table kind"):
        render({}, random.Random(1), SceneOptions(table="lava"))


def test_a_steady_game_keeps_each_card_where_it_was_laid() -> None:
    options = SceneOptions(steady=True, capture=False)
    _, before = render({"mars": ["aja"], "luna": ["eo"]}, random.Random(5), options)
    _, after = render({"mars": ["aja", "sevro"], "luna": ["eo"]}, random.Random(5), options)
    assert np.allclose(before.locations["luna"].quad, after.locations["luna"].quad)
    assert before.locations["mars"].start_mm == after.locations["mars"].start_mm


def test_a_lamp_washes_out_its_place_and_nothing_far_from_it() -> None:
    plain = SceneOptions(capture=False, table="planks")
    lit = SceneOptions(capture=False, table="planks", lamp=(164.0, 100.0, 30.0))
    a, truth = render({}, random.Random(6), plain)
    b, _ = render({}, random.Random(6), lit)
    x, y = truth.calibration.to_pixels(np.array([[164.0, 100.0]]))[0].astype(int)
    assert int(b[y, x].mean()) > int(a[y, x].mean()) + 60
    assert np.array_equal(a[:20, :20], b[:20, :20])


def test_a_reflection_brighter_than_the_sensor_clips_flat_white() -> None:
    grey = np.full((60, 60, 3), 120, np.uint8)
    blown = effects.glare(grey, random.Random(1), (30.0, 30.0), 10.0, strength=2.0)
    soft = effects.glare(grey, random.Random(1), (30.0, 30.0), 10.0)
    assert (blown[28:33, 28:33] == 255).all()  # the middle clipped, as a sensor clips
    assert blown[0, 0].tolist() == [120, 120, 120]  # far from it, nothing
    assert soft.max() < 255  # the default reflection washes out, never clips


def test_some_training_captures_carry_a_clipped_reflection() -> None:
    rng = random.Random(3)
    face = cards.card_face("aja", "classic")
    clipped = sum(
        int(((capture(face, rng) >= 250).all(axis=2)).mean() > 0.05) for _ in range(200)
    )
    # Glare on 35 % of captures, half of it brighter than the sensor: about 17 %.
    assert 10 <= clipped <= 70


def test_a_wide_lens_shrinks_the_far_side_more() -> None:
    def far_over_near(wide: bool) -> float:
        _, truth = render({}, random.Random(8), SceneOptions(wide=wide, tilt_deg=25.0))
        c = np.asarray(truth.calibration.corners)
        return float((c[1, 0] - c[0, 0]) / (c[2, 0] - c[3, 0]))

    assert far_over_near(True) < far_over_near(False) < 1.0
