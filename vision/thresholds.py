"""Open-set thresholds: the loosest score and margin that keep false accepts rare."""

from __future__ import annotations

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
