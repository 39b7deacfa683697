"""Open-set thresholds: the loosest score and margin that keep false accepts rare."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import numpy as np

from engine.board import Location
from vision.crop import warp_card
from vision.locate import View, locate
from vision.synth.scene import FOREIGN, SceneOptions, render

NEGATIVE = -1  # truth label of a crop that shows no enrolled card


SCORES = np.round(np.arange(0.2, 0.99, 0.01), 2)
MARGINS = np.round(np.arange(0.0, 0.6, 0.01), 2)


def choose_thresholds(
    scores: np.ndarray,
    truth: np.ndarray,
    max_false: float = 0.002,
    null: np.ndarray | None = None,
) -> dict[str, float]:
    """The loosest (min_score, min_margin) whose false accepts stay under ``max_false``.

    The margin is over the runner-up card or ``null`` (each crop's null score), whichever
    is closer, as :func:`vision.classifier.postprocess` takes it. When no pair keeps false
    accepts that rare (a tiny enrolled set can sit close to the null), the pair with the
    fewest false accepts is chosen, then the one accepting most: never "accept nothing".
    """
    top = np.sort(scores, axis=1)
    best = top[:, -1]
    rival = top[:, -2] if scores.shape[1] > 1 else np.zeros_like(best)
    if null is not None:
        rival = np.maximum(rival, null)
    margin = best - rival
    wrong = (truth == NEGATIVE) | (scores.argmax(axis=1) != truth)
    ok = (best[None, None, :] >= SCORES[:, None, None]) & (
        margin[None, None, :] >= MARGINS[None, :, None]
    )
    false = (ok & wrong).sum(axis=2) / len(truth)
    correct = (ok & ~wrong).sum(axis=2) / max(1, int((~wrong).sum()))
    feasible = false <= max_false
    # Infeasible everywhere: the fewest false accepts first, then the most accepted.
    key = np.where(feasible, correct, -1.0) if feasible.any() else correct - 1000.0 * false
    i, j = np.unravel_index(int(np.argmax(key)), key.shape)
    return {
        "min_score": float(SCORES[i]),
        "min_margin": float(MARGINS[j]),
        "accepted": float(correct[i, j]),
        "false": float(false[i, j]),
    }


def likeness_bar(backs: np.ndarray, others: np.ndarray) -> float:
    """The card-back likeness bar: just above every non-back crop's likeness, unless that
    would refuse more than one real back in fifty."""
    return round(min(float(others.max()) + 0.02, float(np.percentile(backs, 2))), 3)


def scene_crops(
    faces: Mapping[str, np.ndarray],
    scenes: int,
    seed: int,
    size: tuple[int, int],
    on_scene: Callable[[], None] | None = None,
) -> tuple[list[np.ndarray], list[int]]:
    """Top-card crops cut by the locator from generated scenes showing ``faces``, with
    truth: the label's index for a card (also under a hand: naming it is right), or
    NEGATIVE for another game's card or an object. Thresholds fitted on these see the
    crops the scanner really makes, locator errors included."""
    labels = list(faces)
    crops, truth = [], []
    for i in range(scenes):
        rng = random.Random(seed + i)
        layout = {
            loc.value: rng.sample(labels, min(len(labels), rng.choice((0, 1, 1, 2, 3, 5))))
            for loc in Location
        }
        tops = [n for n, st in layout.items() if st]
        if tops and rng.random() < 0.15:
            layout[rng.choice(tops)].append(FOREIGN)
        hands = tuple(rng.sample(tops, 1)) if tops and rng.random() < 0.3 else ()
        objects = tuple(n for n in tops[:1] if rng.random() < 0.1 and n not in hands)
        frame, truth_ = render(layout, rng, SceneOptions(faces=faces, hands=hands, objects=objects))
        cal = truth_.calibration
        for col, (name, t) in zip(locate(frame, View(cal)), truth_.locations.items(), strict=True):
            if col.quad_mm is None or t.state in ("empty", "face_down"):  # not a stack
                continue
            crops.append(warp_card(frame, cal.to_pixels(col.quad_mm), size))
            top = layout[name][-1] if layout[name] else None  # None: a hand over bare table
            truth.append(labels.index(top) if top is not None and top in faces
                         and t.state != "unknown" else NEGATIVE)
        if on_scene is not None:  # a whole deck's bars take a minute on a Pi
            on_scene()
    return crops, truth
