"""Reading stacks from the segmenter's maps: the geometry alone, on perfect maps drawn
from a scene's truth (the network's own accuracy is tested in test_segmenter.py)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from engine.board import Location
from engine.cards import ALL_IDS
from vision.locate import REACHES_OFF, Found
from vision.segmenter import Segments
from vision.stacks import COVERED, GLARE, HAND_OVER_TOP, edge_peaks, read_stacks
from vision.synth.labels import Part, label_maps
from vision.synth.scene import SceneOptions, SceneTruth, render
from vision.view import View


def perfect(truth: SceneTruth, view: View) -> Segments:
    """What a segmenter that never errs would answer, blurred a little as a network's
    answer is at its borders."""
    parts, edges = label_maps(truth, view)
    probs = np.stack([(parts == p).astype(np.float32) for p in Part])
    probs = np.stack([cv2.GaussianBlur(p, (3, 3), 0.6) for p in probs])
    blurred = cv2.GaussianBlur(edges.astype(np.float32), (1, 5), 0.8)
    return Segments(probs / probs.sum(axis=0, keepdims=True), blurred / max(blurred.max(), 1e-6))


def scene(layout: dict[str, list[str]], seed: int, **options: object) -> tuple[SceneTruth, View]:
    _frame, truth = render(layout, random.Random(seed), SceneOptions(capture=False, **options))  # type: ignore[arg-type]
    return truth, View(truth.calibration)


def corners_mm(truth: SceneTruth, name: str) -> np.ndarray:
    return np.asarray(truth.locations[name].quads_mm[-1])


@pytest.mark.parametrize("seed", range(6))
def test_counts_and_outlines_on_perfect_maps(seed: int) -> None:
    rng = random.Random(seed)
    cards = iter(rng.sample(ALL_IDS, 40))
    layout = {loc.value: [next(cards) for _ in range(rng.randint(0, 9))] for loc in Location}
    truth, view = scene(layout, seed)
    for loc, column in zip(Location, read_stacks(perfect(truth, view), view), strict=True):
        depth = len(layout[loc.value])
        if depth == 0:
            assert column.state is Found.EMPTY, loc
            continue
        assert (column.state, column.depth) == (Found.STACK, depth), loc
        assert column.quad_mm is not None
        assert np.abs(column.quad_mm - corners_mm(truth, loc.value)).max() < 3.0, loc


def test_a_hand_over_an_empty_place_covers_it_and_one_beside_does_not() -> None:
    truth, view = scene({"jupiter": ["aja"], "luna": ["eo", "sevro"]}, 3, hands=("mars",))
    columns = read_stacks(perfect(truth, view), view)
    assert (columns[1].state, columns[1].reason) == (Found.OCCLUDED, COVERED)
    assert columns[3].state is Found.EMPTY


def test_a_hand_over_a_top_cards_foot_keeps_its_outline_from_the_top_edge() -> None:
    for seed in range(8):
        truth, view = scene({"mars": ["aja", "darrow", "sevro"]}, seed, hands=("mars",))
        column = read_stacks(perfect(truth, view), view)[1]
        if column.state is Found.STACK:  # never a wrong outline: a covered card is not named
            assert column.quad_mm is not None
            assert np.abs(column.quad_mm - corners_mm(truth, "mars")).max() < 4.0, seed


def covered_rows(seg: Segments, rows: slice, cols: slice) -> Segments:
    """``seg`` with a hand laid over the given output pixels."""
    parts = seg.parts.copy()
    parts[:, rows, cols] = 0.0
    parts[Part.COVER, rows, cols] = 1.0
    return Segments(parts, seg.edges)


def test_a_thumb_over_the_top_card_keeps_it_from_being_named() -> None:
    truth, view = scene({"mars": ["aja", "darrow", "sevro"]}, 2)
    seg = perfect(truth, view)
    quad = corners_mm(truth, "mars")
    # output pixels (2 mm) over the card's lower right: a thumb of 20 × 24 mm, then 4 × 6
    x1, y1 = ((quad[2] - (view.x0, view.y0)) * view.scale / 2).astype(int)
    thumb = covered_rows(seg, slice(y1 - 12, y1), slice(x1 - 10, x1))
    column = read_stacks(thumb, view)[1]
    assert (column.state, column.reason) == (Found.OCCLUDED, HAND_OVER_TOP)
    speck = covered_rows(seg, slice(y1 - 3, y1), slice(x1 - 2, x1))
    assert read_stacks(speck, view)[1].state is Found.STACK  # 1 % of the card: still named


def test_a_stack_running_out_of_sight_is_said_to() -> None:
    truth, view = scene({"luna": ["aja"]}, 1)
    seg = perfect(truth, view)
    parts = seg.parts.copy()
    rows, cols = np.nonzero(parts[Part.TOP] > 0.5)
    below = slice(int(rows.max()), None), slice(int(cols.min()), int(cols.max()) + 1)
    parts[(slice(None), *below)] = 0.0
    parts[(Part.TOP, *below)] = 1.0  # the card's foot runs on past the bottom of the view
    columns = read_stacks(Segments(parts, seg.edges), view)
    assert (columns[2].state, columns[2].reason) == (Found.OCCLUDED, REACHES_OFF)


def glared(seg: Segments, rows: slice, cols: slice) -> Segments:
    """``seg`` with the camera clipped flat white over the given output pixels, which the
    network then reads as bare table."""
    parts = seg.parts.copy()
    parts[:, rows, cols] = 0.0
    parts[Part.TABLE, rows, cols] = 1.0
    blown = np.zeros(seg.edges.shape, np.float32)
    blown[rows, cols] = 1.0
    return Segments(parts, seg.edges, blown)


def test_a_stack_lost_in_a_lamps_glare_is_hidden_not_empty() -> None:
    truth, view = scene({"mars": ["aja", "darrow"], "luna": ["eo"]}, 4)
    seg = perfect(truth, view)
    (x0, y0), (x1, y1) = (((corners_mm(truth, "mars")[[0, 2]] - (view.x0, view.y0))
                           * view.scale / 2).astype(int))
    whole = glared(seg, slice(y0 - 12, y1 + 3), slice(x0 - 3, x1 + 3))  # cascade and top
    assert (read_stacks(whole, view)[1].state, read_stacks(whole, view)[1].reason) == (
        Found.OCCLUDED, GLARE)
    # Most of the top card white: hidden by the light, not by a hand.
    most = glared(seg, slice(y0 + 8, y1 + 3), slice(x0 - 3, x1 + 3))
    assert (read_stacks(most, view)[1].state, read_stacks(most, view)[1].reason) == (
        Found.OCCLUDED, GLARE)


def test_a_small_glare_on_a_bare_place_leaves_it_empty() -> None:
    truth, view = scene({"mars": ["aja"]}, 4)
    seg = perfect(truth, view)
    spot = glared(seg, slice(30, 45), slice(20, 35))  # 30 × 30 mm at Jupiter: no card fits
    assert read_stacks(spot, view)[0].state is Found.EMPTY


def glared_mm(seg: Segments, view: View, spot) -> Segments:  # type: ignore[no-untyped-def]
    """``seg`` clipped flat white wherever ``spot(x_mm, y_mm)`` holds (output pixels)."""
    h, w = seg.edges.shape
    xs = view.x0 + (np.arange(w) * 2 + 0.5) / view.scale
    ys = view.y0 + (np.arange(h) * 2 + 0.5) / view.scale
    where = spot(xs[None, :], ys[:, None])
    parts = seg.parts.copy()
    parts[:, where] = 0.0
    parts[Part.TABLE, where] = 1.0
    return Segments(parts, seg.edges, where.astype(np.float32))


def test_clipped_white_beside_an_empty_place_leaves_it_empty() -> None:
    """More than half of Mars' column clipped white, but no card's place under it: a
    white-checked cloth's squares (12 mm, 4 mm apart), then a reflection reaching in from
    Jupiter's side. A reflection over the place itself hides it."""
    truth, view = scene({"luna": ["eo"]}, 4)
    seg = perfect(truth, view)
    checks = glared_mm(seg, view, lambda x, y: (x % 16 < 12) & (y % 16 < 12))
    assert read_stacks(checks, view)[1].state is Found.EMPTY
    beside = glared_mm(seg, view, lambda x, y: (x > 60) & (x < 118) & (y < 150))
    assert read_stacks(beside, view)[1].state is Found.EMPTY
    over = glared_mm(seg, view, lambda x, y: (x - 123) ** 2 + (y - 64) ** 2 < 52 ** 2)
    assert (read_stacks(over, view)[1].state, read_stacks(over, view)[1].reason) == (
        Found.OCCLUDED, GLARE)


def test_most_of_a_place_under_the_white_hides_it_where_a_trace_of_card_shows() -> None:
    """Four fifths of Mars' place clipped white: with bare table plainly round it a card
    there would show, so the place is empty; with a trace of card round it (a card's
    edges washed out, the segmenter unsure of them) a card could go unseen."""
    truth, view = scene({"luna": ["eo"]}, 4)
    seg = perfect(truth, view)
    spot = glared_mm(seg, view, lambda x, y: (x - 123) ** 2 + (y - 64) ** 2 < 40 ** 2)
    assert read_stacks(spot, view)[1].state is Found.EMPTY
    h, w = seg.edges.shape
    xs = view.x0 + (np.arange(w) * 2 + 0.5) / view.scale
    ys = view.y0 + (np.arange(h) * 2 + 0.5) / view.scale
    ring = (xs[None, :] - 123) ** 2 + (ys[:, None] - 64) ** 2 < 60 ** 2
    parts = spot.parts.copy()
    parts[:, ring & (spot.blown < 0.5)] = 0.25  # washed: no part sure, half of it card
    washed = Segments(parts, spot.edges, spot.blown)
    assert (read_stacks(washed, view)[1].state, read_stacks(washed, view)[1].reason) == (
        Found.OCCLUDED, GLARE)


def test_art_taken_for_strips_does_not_add_cards() -> None:
    """Art in bands (or rows of discs) that the network labels as two older cards' strips,
    with their top edges: the top card's foot, on bare table, still places it."""
    truth, view = scene({"luna": ["aja"]}, 5, messy=False)  # square to the grid, as cut
    seg = perfect(truth, view)
    parts, edges = seg.parts.copy(), seg.edges.copy()
    rows, cols = np.nonzero(parts[Part.TOP] > 0.5)
    top, left, right = int(rows.min()), int(cols.min()), int(cols.max()) + 1
    art = slice(top + 6, top + 18)  # 12 to 36 mm down the card: two 12 mm "strips"
    parts[:, art, left:right] = 0.0
    parts[Part.STRIP, art, left:right] = 1.0
    for row in (top + 6, top + 12):
        edges[row, left:right] = 1.0
    column = read_stacks(Segments(parts, edges), view)[2]
    assert (column.state, column.depth) == (Found.STACK, 1)
    assert column.quad_mm is not None
    assert np.abs(column.quad_mm - corners_mm(truth, "luna")).max() < 3.0


def test_no_edges_are_looked_for_above_the_play_area() -> None:
    truth, view = scene({"luna": ["aja"]}, 5)
    seg = perfect(truth, view)
    assert edge_peaks(seg, view, 205.0, -20.0) == []  # no crash, nothing found
