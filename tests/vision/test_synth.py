"""Synthetic cards and scenes: deterministic, truthful, distinct styles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.cards import ALL_IDS
from vision.synth import cards
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
