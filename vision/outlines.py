"""Second guesses at a covered stack's top card: the other outlines it might have.

When the locator's outline of a column does not hold up (the card on it is unsure, or
the column reads as occluded), the scanner tries the farther outlines these find along
the column's strong edges, each with the depth it would give.
"""

from __future__ import annotations

import math

import numpy as np

from vision.count import CARD_H_MM, cascade_depth
from vision.locate import Column, Evidence, edge_strength, mask_share, outline
from vision.view import STACK_REACH_MM, View

WIDE = np.radians(np.arange(-6.0, 6.1, 2.0))  # slopes a card lies at (±5°), refined ±1°
ONE_AND_HALF = math.radians(1.5)  # slopes closer than this make the same outline


def farther_outlines(
    ev: Evidence, view: View, index: int, column: Column, reach: float = 35.0, count: int = 4
) -> list[np.ndarray]:
    """More outlines for a column where no card was named: at the ``count``
    strongest straight edges, at any slope a card lies at, from where the stack's first
    card ends down to ``reach`` mm below the found bottom edge (when the column read
    occluded, down to :data:`STACK_REACH_MM` below the play area, where the longest
    stack ends).

    A lamp's soft shadow, a striped table, glare or a hand next to the stack can carry
    the mask past the top card's foot or skew it, and a printed line can end it early;
    the card's real bottom is then another strong edge nearby, or the same one at
    another slope. The classifier decides among them.
    """
    xc = (index + 0.5) * view.calibration.width_mm / 4
    y_end = view.height_mm + view.y0 - 2
    tried: tuple[float, float] | None = None
    angles = WIDE
    if column.quad_mm is not None:
        q = column.quad_mm
        angle = math.atan2(float(q[2, 1] - q[3, 1]), float(q[2, 0] - q[3, 0]))
        yb = float(np.mean(q[2:, 1])) + (xc - float(np.mean(q[2:, 0]))) * math.tan(angle)
        tried, y_end = (yb, angle), min(y_end, yb + reach)
        angles = np.union1d(WIDE, angle + np.radians([-1.0, 0.0, 1.0]))
    else:
        # No stack ends past its reach (people push a long one together to keep it there).
        y_end = min(y_end, view.calibration.height_mm + STACK_REACH_MM + 4)
    ys = np.arange(column.top_mm + CARD_H_MM - 4, y_end, 0.5)
    if ys.size < 3:
        return []
    quads = [
        outline(ev, view, xc, y, a)
        for y, a in _strong_edges(ev, view, xc, ys, angles, tried, count)
    ]
    return [q for q in quads if mask_share(ev.mask, view, q) >= 0.75]


def outline_depth(ev: Evidence, view: View, top_mm: float, quad: np.ndarray) -> int:
    """Cards in a stack starting at ``top_mm`` whose top card is outlined by ``quad``
    (asked only of the outline the classifier kept: the cascade search is not free)."""
    x, top = float(quad[:, 0].mean()), float(quad[:2, 1].mean())
    return cascade_depth(ev.rises, view, x, top_mm, top)


def _strong_edges(
    ev: Evidence,
    view: View,
    xc: float,
    ys: np.ndarray,
    angles: np.ndarray,
    tried: tuple[float, float] | None,
    count: int,
) -> list[tuple[float, float]]:
    """The ``count`` strongest straight edges (y at ``xc``, slope) among ``ys`` and
    ``angles``, 4 mm apart, leaving out the one already ``tried``.

    Searched coarsely (every other row, every 4 mm along the line), then each peak
    refined to the rows and slopes beside it: an edge's strength spreads over a
    millimetre and a degree anyway, and most of the search is over bare rows."""
    coarse = ys[::2]
    table = edge_strength(ev, view, xc, coarse, angles, step=4.0)
    best = table.max(axis=0)
    peaks = np.flatnonzero((best[1:-1] >= best[:-2]) & (best[1:-1] >= best[2:])) + 1
    peaks = peaks[best[peaks] >= 0.4 * best.max()]
    chosen: list[tuple[float, float]] = []
    for k in peaks[np.argsort(-best[peaks])]:
        if len(chosen) == count:
            break
        y, a = _refine_edge(ev, view, xc, float(coarse[k]), float(angles[table[:, k].argmax()]))
        same = tried is not None and abs(y - tried[0]) <= 4 and abs(a - tried[1]) < ONE_AND_HALF
        if not same and all(abs(y - c) > 4 for c, _ in chosen):
            chosen.append((y, a))
    return chosen


def _refine_edge(
    ev: Evidence, view: View, xc: float, y: float, angle: float
) -> tuple[float, float]:
    """The strongest edge within half a millimetre and a degree of (y, angle)."""
    ys = np.array([y - 0.5, y, y + 0.5])
    angles = angle + np.radians([-1.0, 0.0, 1.0])
    table = edge_strength(ev, view, xc, ys, angles)
    i, k = np.unravel_index(int(table.argmax()), table.shape)
    return float(ys[k]), float(angles[i])
