"""The locator on generated scenes: empty columns, stacks, outlines, depth, occlusion."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from engine.cards import ALL_IDS
from vision import count, crop, locate, outlines
from vision.count import stack_depth
from vision.locate import View, runs
from vision.synth import camera, cards, scene
from vision.synth.scene import SceneOptions, render


def test_runs_join_small_gaps() -> None:
    flags = np.array([0, 1, 1, 0, 1, 0, 0, 0, 1], bool)
    assert runs(flags, 1) == [(1, 5), (8, 9)]
    assert runs(np.zeros(4, bool), 2) == []


def test_depth_from_the_cascade() -> None:
    assert stack_depth(20.0, 20.5) == 1
    assert stack_depth(20.0, 48.0) == 3


def test_stacks_and_outlines_on_generated_scenes() -> None:
    hits = total = 0
    for seed in range(6):
        rng = random.Random(100 + seed)
        layout = {
            "jupiter": ["aja"] * rng.randint(0, 4),
            "mars": ["sevro", "eo"],
            "luna": [],
            "institute": ["judge"] * rng.randint(1, 6),
        }
        frame, truth = render(layout, rng)
        cal = truth.calibration
        for col, (_name, t) in zip(
            locate.locate(frame, View(cal)), truth.locations.items(), strict=True
        ):
            total += 1
            if t.state == "empty":
                hits += col.state == "empty"
                continue
            err = (
                np.abs(cal.to_pixels(col.quad_mm) - t.quad).max()
                if col.quad_mm is not None
                else 1e9
            )
            width = np.linalg.norm(t.quad[1] - t.quad[0])
            hits += col.state == "stack" and err < 0.1 * width and abs(col.depth - t.depth) <= 1
    assert hits >= 0.9 * total  # the benchmark measures the rates on hundreds of frames


def test_an_arm_over_a_stack_is_occluded() -> None:
    occluded = 0
    for seed in range(6):
        frame, truth = render(
            {"mars": ["aja", "eo"]}, random.Random(seed), SceneOptions(hands=("mars",))
        )
        col = locate.locate(frame, View(truth.calibration))[1]
        occluded += col.state == "occluded"
    assert occluded >= 3


def test_card_found_in_a_photo_of_one_card() -> None:
    face = cards.card_face("aja", "classic")
    photo = np.full((600, 500, 3), (60, 110, 40), np.uint8)
    photo[100:452, 120:372] = face
    quad = crop.find_card(photo)
    assert quad is not None
    assert np.abs(quad - [[120, 100], [372, 100], [372, 452], [120, 452]]).max() < 6
    assert crop.card_image(photo).shape == (88, 64, 3)


def test_a_card_image_with_plain_margins_is_the_card_itself() -> None:
    # Art on a plain margin looks like a card on a table; the printed name says otherwise.
    face = cards.card_face("judge", "modern")
    assert crop.find_card(face) is None
    assert np.array_equal(
        crop.card_image(face),
        crop.warp_card(
            face,
            np.array(
                [[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]], [0, face.shape[0]]],
                np.float32,
            ),
        ),
    )


def _luna_lit_to_the_view_bottom(layout: list[str], seed: int) -> tuple[float, float]:
    """Render ``layout`` at Luna, make its mask read foreground from 120 mm to the view's
    bottom (a lit or striped table under it), and return the column's second-look
    outlines' best corner error and the card's width (frame pixels)."""
    frame, truth = render({"luna": layout}, random.Random(seed))
    view = View(truth.calibration)
    ev = locate.evidence(frame, view)
    mask = ev.mask.copy()
    xs = slice(
        view.px(view.calibration.width_mm * 0.5 + 10, 0),
        view.px(view.calibration.width_mm * 0.75 - 10, 0),
    )
    mask[view.px(120, 1) :, xs] = True
    lit = replace(ev, mask=mask)
    col = locate.locate_column(lit, view, 2)
    assert col.state == "occluded" and col.reason == locate.REACHES_OFF
    t = truth.locations["luna"]
    errs = [
        np.abs(truth.calibration.to_pixels(q) - t.quad).max()
        for q in outlines.farther_outlines(lit, view, 2, col)
    ]
    return min(errs, default=np.inf), float(np.linalg.norm(t.quad[1] - t.quad[0]))


def test_a_mask_running_off_the_play_area_gets_a_second_look() -> None:
    # The column reads occluded, and the strong edges below the stack's first card
    # offer the real outline.
    err, width = _luna_lit_to_the_view_bottom(["aja", "eo", "sevro"], 7)
    assert err < 0.1 * width


def test_a_long_stack_running_off_the_view_is_searched_down_to_its_reach() -> None:
    # Fourteen cards pushed together end near the reach, far below where a seven-card
    # stack ends: the second look must still reach their foot.
    err, width = _luna_lit_to_the_view_bottom(list(ALL_IDS[:14]), 11)
    assert err < 0.1 * width


class _FixedCascade:
    """A scene's random source whose cascade step is ``step`` mm (the rest as drawn)."""

    def __init__(self, rng: random.Random, step: float) -> None:
        self._rng, self._step = rng, step

    def uniform(self, a: float, b: float) -> float:
        return self._step if (a, b) == (12.0, 16.0) else self._rng.uniform(a, b)


@pytest.mark.parametrize("step", [12.0, 16.0])
def test_depth_of_deep_stacks_cascaded_tight_and_loose(
    monkeypatch: pytest.MonkeyPatch, step: float
) -> None:
    """Nine to eleven cards 12 mm apart, nine 16 mm apart (ten would reach the end of
    the view): span / 14 mm alone is one or two off."""
    placements = scene._placements

    def fixed(stack: list[str], column: int, rng: random.Random, messy: bool) -> list:
        return placements(stack, column, _FixedCascade(rng, step), messy)  # type: ignore[arg-type]

    monkeypatch.setattr(scene, "_placements", fixed)
    stacks, exact = _depths_read(700, 4, lambda seed, i: 9 + (seed + i) % (3 if step < 14 else 1))
    assert stacks >= 14 and exact >= stacks - 1


DEPTH_NAMES = ["aja", "sevro", "eo", "judge", "cassius", "mustang", "ragnar", "victra", "roque"]


def _depths_read(first_seed: int, scenes: int, size: Callable[[int, int], int]) -> tuple[int, int]:
    """Stacks located, and of those read at their true depth, over ``scenes`` generated
    frames whose location ``i`` holds ``size(seed, i)`` cards."""
    exact = stacks = 0
    for seed in range(scenes):
        rng = random.Random(first_seed + seed)
        layout = {loc: [rng.choice(DEPTH_NAMES) for _ in range(size(seed, i))]
                  for i, loc in enumerate(("jupiter", "mars", "luna", "institute"))}
        frame, truth = render(layout, rng, SceneOptions(tilt_deg=10.0))
        columns = locate.locate(frame, View(truth.calibration))
        for col, t in zip(columns, truth.locations.values(), strict=True):
            stacks += col.state == "stack"
            exact += col.state == "stack" and col.depth == t.depth
    return stacks, exact


def test_depth_of_a_stack_cascaded_unevenly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six cards whose gaps run 14.6 / 12.4 / 11.9 / 10.5 / 13.2 mm, as a hand lays them
    (an even comb over the span fits five cards about as well)."""
    gaps = (14.6, 12.4, 11.9, 10.5, 13.2)

    def uneven(stack: list[str], column: int, rng: random.Random, messy: bool) -> list:
        cx = scene.COLUMN_MM * (column + 0.5)
        tops = scene.STACK_TOP_MM + np.concatenate([[0.0], np.cumsum(gaps)])
        return [
            camera.rect_mm(
                cx + rng.uniform(-3, 3),
                top + locate.CARD_H_MM / 2,
                locate.CARD_W_MM,
                locate.CARD_H_MM,
                rng.uniform(-3, 3),
            )
            for top in tops[: len(stack)]
        ]

    monkeypatch.setattr(scene, "_placements", uneven)
    stacks, exact = _depths_read(900, 3, lambda seed, i: 6)  # every true depth is 6
    assert stacks >= 10 and exact >= stacks - 1


def test_a_long_stack_pushed_together_is_still_read() -> None:
    """17 cards pushed together to end within the reach the README asks for: the top
    card's outline, and the count from the tighter cascade."""
    found = 0
    for seed in range(4):
        layout = {"mars": random.Random(seed).sample(ALL_IDS, 17)}
        frame, truth = render(layout, random.Random(seed), SceneOptions(capture=False))
        col = locate.locate(frame, View(truth.calibration))[1]
        quad = truth.locations["mars"].quad
        err = np.abs(truth.calibration.to_pixels(col.quad_mm) - quad).max()
        width = np.linalg.norm(quad[1] - quad[0])
        found += col.state == "stack" and err < 0.1 * width and abs(col.depth - 17) <= 1
    assert found >= 3


def test_a_stack_past_the_view_says_its_foot_is_out_of_sight(monkeypatch) -> None:
    monkeypatch.setattr(scene, "STACK_REACH_MM", 400.0)  # nobody pushes this one together
    frame, truth = render({"luna": ["aja"] * 16}, random.Random(1), SceneOptions(capture=False))
    col = locate.locate(frame, View(truth.calibration))[2]
    assert col.state == "occluded" and locate.hides_stack_foot(col.reason)


def test_tighter_cascades_are_weighed_only_near_the_reach() -> None:
    view = View(render({}, random.Random(0))[1].calibration)
    foot = view.calibration.height_mm + locate.STACK_REACH_MM
    assert count.cascade_steps(view, 60.0) == count.CASCADE_STEPS_MM
    assert count.cascade_steps(view, foot - locate.CARD_H_MM - 5) == count.TIGHT_STEPS_MM

