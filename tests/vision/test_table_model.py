"""The table model on every table kind the project draws: empty reads empty, counts exact.

Single frames (a new camera each time) lean on the palette of the bare table; a fixed
camera compares with its reference of the bare table, taken at calibration and kept
current under drifting light. A few generated frames per kind keep this cheap.
"""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision import count, evaluate, table
from vision.locate import bare_after, evidence, locate_column
from vision.scanner import TableScanner
from vision.synth.scene import SceneOptions, render
from vision.view import View

KINDS = sorted(evaluate.CONDITIONS)


def _columns(frame: np.ndarray, view: View, reference: table.Reference | None = None) -> list:
    ev = evidence(frame, view, reference)
    return [locate_column(ev, view, i) for i in range(4)]


@pytest.mark.parametrize("kind", ["gingham", "planks"])
def test_a_bare_patterned_table_reads_empty_from_one_frame(kind: str) -> None:
    # A printed playmat is left to the fixed camera's reference: a card-sized frame
    # printed on it looks like a card to one frame alone.
    for seed in range(2):
        rng = random.Random(50 + seed)
        frame, truth = render({}, rng, evaluate.options_for(evaluate.CONDITIONS[kind], rng))
        columns = _columns(frame, View(truth.calibration))
        assert [c.state for c in columns] == ["empty"] * 4, (kind, seed)


@pytest.mark.parametrize("kind", KINDS)
def test_a_fixed_camera_reads_empties_and_counts_on_every_table_kind(classifier, kind) -> None:
    """A still game on ``kind`` whose first frame is the cleared play area (calibration):
    after each change, every location reads as it is, the reference kept current."""
    scanner = TableScanner(classifier=classifier)
    frames = evaluate.still_game(620_000, evaluate.CONDITIONS[kind], 5, clear_first=True)
    assert scanner.learn_table(next(frames)[0]) == []
    for frame, truth in frames:
        for _ in range(2):  # a still table is seen more than once: the second scan learns
            reading = scanner.scan(frame)
        for name, t in truth.locations.items():
            got = (reading[name].state, reading[name].depth)
            assert got == (("empty", 0) if t.state == "empty" else (t.state, t.depth)), name


def test_the_reference_follows_the_light_and_never_learns_a_card() -> None:
    rng = random.Random(3)
    options = evaluate.options_for(evaluate.CONDITIONS["gingham"], rng, steady=True)
    bare, truth = render({}, random.Random(9), options)
    view = View(truth.calibration)
    reference = table.Reference(view)
    ev = evidence(bare, view)
    clear = bare_after(ev, view, _columns(bare, view), [False] * 4, calibrating=True)
    reference.update(view, ev.lab, clear, reset=True)
    # A dimmer, warmer light: the bare table still reads bare everywhere it is known.
    dim = cv2.convertScaleAbs(bare * np.array([0.8, 0.85, 0.9], np.float32))
    lab = cv2.cvtColor(view.rectify(dim), cv2.COLOR_BGR2YCrCb)
    unlike = reference.unlikeness(view, lab) > table.UNLIKE_BAR
    assert unlike[reference.known].mean() < 0.005
    # A card laid down: what the scan learns afterwards keeps clear of it.
    frame, truth = render({"mars": ["aja", "eo"]}, random.Random(9), options)
    ev = evidence(frame, view, reference)
    columns = [locate_column(ev, view, i) for i in range(4)]
    learnt = bare_after(ev, view, columns, [True] * 4)
    quad = cv2.perspectiveTransform(
        truth.locations["mars"].quad.reshape(-1, 1, 2), np.linalg.inv(view.frame_from_view)
    )
    card = np.zeros(learnt.shape, np.uint8)
    cv2.fillConvexPoly(card, np.round(quad.reshape(-1, 2)).astype(np.int32), 1)
    assert not (learnt & (card > 0)).any()


def test_a_column_under_a_hand_is_never_learnt() -> None:
    occluded = 0
    for seed in range(6):
        frame, truth = render(
            {"luna": ["aja", "eo"]}, random.Random(seed), SceneOptions(hands=("luna",))
        )
        view = View(truth.calibration)
        ev = evidence(frame, view)
        columns = [locate_column(ev, view, i) for i in range(4)]
        if columns[2].state != "occluded":
            continue
        occluded += 1
        learnt = bare_after(ev, view, columns, [True] * 4)
        assert not learnt[:, view.px(2 * 82.0, 0) : view.px(3 * 82.0, 0)].any()
    assert occluded >= 1


def test_a_stack_start_outside_the_layout_is_the_strongest_edge_within_it() -> None:
    frame, truth = render({"mars": ["aja", "eo", "judge"]}, random.Random(6),
                          SceneOptions(capture=False, messy=False))
    view = View(truth.calibration)
    ev = evidence(frame, view)
    xc = 1.5 * view.calibration.width_mm / 4
    start = truth.locations["mars"].start_mm
    assert start is not None
    # A mask that began at the top of the view (a checked cloth read as card) or far
    # down (the first strips lost on a table of their colour) is corrected.
    for wrong in (-6.0, 55.0):
        assert abs(count.stack_start(ev.rises, view, xc, wrong) - start) <= 1.5
    assert count.stack_start(ev.rises, view, xc, 24.0) == 24.0  # a plausible start stays


def test_a_start_the_mask_misplaces_is_fitted_with_the_count() -> None:
    # A first strip the colour of the table moves the mask's first row down, still
    # inside the layout's window; a checked cloth moves it up, out of it.
    frame, truth = render({"mars": ["aja", "eo", "judge", "harmony"]}, random.Random(6),
                          SceneOptions(capture=False, messy=False))
    view = View(truth.calibration)
    ev = evidence(frame, view)
    quad = locate_column(ev, view, 1).quad_mm
    assert quad is not None
    xc, card_top = float(quad[:, 0].mean()), float(quad[:2, 1].mean())
    start = truth.locations["mars"].start_mm
    assert start is not None
    for wrong in (-6.0, start + 9.0, 55.0):
        fitted = count.fit_start(ev.rises, view, xc, wrong, card_top)
        assert abs(fitted - start) <= 1.5, wrong
    # A mask that starts where the stack does keeps its start.
    assert abs(count.fit_start(ev.rises, view, xc, start, card_top) - start) <= 1.5


@pytest.mark.parametrize(("kind", "seeds", "most"), [
    ("gingham", range(700, 712), 1), ("planks", range(706, 710), 0),
    ("playmat", range(704, 712), 2)])
def test_counts_on_patterned_tables_from_one_frame(classifier, kind, seeds,
                                                   most) -> None:
    """Stacks read as cards on a patterned table count exact (one frame, a new camera
    each): the mask's first row no longer decides where a stack starts."""
    scanner = TableScanner(classifier=classifier)
    miscounted = []
    for seed in seeds:
        rng = random.Random(seed)
        layout = evaluate.random_layout(rng, foreign=0, face_down=0)
        frame, truth = render(layout, rng, evaluate.options_for(
            evaluate.CONDITIONS[kind], rng, style="classic"))
        scanner.keep(truth.calibration)
        reading = scanner.scan(frame)
        miscounted += [(seed, name, t.depth, reading[name].depth)
                       for name, t in truth.locations.items()
                       if t.state == "card" and reading[name].state == "card"
                       and reading[name].depth != t.depth]
    assert len(miscounted) <= most, miscounted



def test_a_checked_cloth_line_below_a_card_is_not_its_foot(classifier) -> None:
    """On a checked cloth a check's line just below a top card looks like its foot; it
    runs on past the card's sides, where a card's own edge ends. Every stack, read as
    whatever it is, counts exact (as the benchmark scores it) bar two of ~30 on these
    frames (four before the outline looked beside the column)."""
    scanner = TableScanner(classifier=classifier)
    missed = []
    for seed in range(717, 727):
        rng = random.Random(seed)
        layout = evaluate.random_layout(rng, foreign=0, face_down=0)
        frame, truth = render(layout, rng, evaluate.options_for(
            evaluate.CONDITIONS["gingham"], rng, style="classic"))
        scanner.keep(truth.calibration)
        reading = scanner.scan(frame)
        missed += [(seed, name) for name, t in truth.locations.items()
                   if t.state == "card" and reading[name].depth != t.depth]
    assert len(missed) <= 2, missed
