"""Open-set thresholds: the loosest score and margin that keep false accepts rare."""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np

NEGATIVE = -1  # truth label of a crop that shows no enrolled card


def choose_thresholds(
    scores: np.ndarray, truth: np.ndarray, max_false: float = 0.002
) -> dict[str, float]:
    """The loosest (min_score, min_margin) whose false accepts stay under ``max_false``."""
    top = np.sort(scores, axis=1)
    best, margin = top[:, -1], top[:, -1] - top[:, -2]
    guess = scores.argmax(axis=1)
    wrong = (truth == NEGATIVE) | (guess != truth)
    result = {"min_score": 1.0, "min_margin": 1.0, "accepted": 0.0, "false": 0.0}
    for s in np.arange(0.2, 0.95, 0.01):
        for m in np.arange(0.0, 0.3, 0.01):
            ok = (best >= s) & (margin >= m)
            false = float((ok & wrong).sum()) / len(truth)
            correct = float((ok & ~wrong).sum()) / max(1, int((~wrong).sum()))
            if false <= max_false and correct > result["accepted"]:
                result = {
                    "min_score": round(float(s), 2),
                    "min_margin": round(float(m), 2),
                    "accepted": correct,
                    "false": false,
                }
    return result


def scene_crops(
    faces: Mapping[str, np.ndarray],
    scenes: int,
    seed: int,
    size: tuple[int, int],
) -> tuple[list[np.ndarray], list[int]]:
    """Top-card crops cut by the locator from generated scenes showing ``faces``, with
    truth: the label's index for a card (also under a hand: naming it is right), or
    NEGATIVE for another game's card or an object. Thresholds fitted on these see the
    crops the scanner really makes, locator errors included."""
    from engine.board import Location
    from vision.locate import View, locate, warp_card
    from vision.synth.scene import FOREIGN, SceneOptions, render

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
            if col.state != "stack" or t.state in ("empty", "face_down"):
                continue
            crops.append(warp_card(frame, cal.to_pixels(col.quad_mm), size))
            top = layout[name][-1]
            truth.append(labels.index(top) if top in faces and t.state != "unknown" else NEGATIVE)
    return crops, truth
