"""How many cards a stack holds: from where it starts, where its top card starts, and the
name strips' edges between.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.table import colour_distance
from vision.view import STACK_REACH_MM, View, sample

CARD_H_MM = 88.0
CASCADE_MM = 14.0
STACK_START_MM = 20.0  # the layout: a stack's first card starts about this far down
START_SLACK_MM = 10.0  # ... give or take this much (placed by hand)


def stack_depth(top_mm: float, card_top_mm: float, cascade_mm: float = CASCADE_MM) -> int:
    """Cards in a stack from where it starts and where its top card starts.

    >>> stack_depth(20.0, 20.5), stack_depth(20.0, 48.0)
    (1, 3)
    """
    return 1 + max(0, round((card_top_mm - top_mm) / cascade_mm))


CASCADE_STEPS_MM = (11.0, 17.0)  # people cascade 12-16 mm apart; a card's jitter on top
TIGHT_STEPS_MM = (8.0, 17.0)  # ... and tighten a stack that would run past its reach
TIGHT_NEAR_MM = 16.0  # a stack ending this close to its reach may have been tightened


def cascade_steps(view: View, card_top_mm: float) -> tuple[float, float]:
    """The spacings a stack whose top card starts at ``card_top_mm`` may be cascaded at:
    people's usual 12-16 mm, or tighter when the stack ends near :data:`STACK_REACH_MM`
    (a long stack pushed together to stay in the camera's view). Only those stacks get
    the wider choice, so a short one's count is weighed as before."""
    foot = view.calibration.height_mm + STACK_REACH_MM
    near = card_top_mm + CARD_H_MM >= foot - TIGHT_NEAR_MM
    return TIGHT_STEPS_MM if near else CASCADE_STEPS_MM
_EDGE_SLOPES = np.radians([-5.0, -2.5, 0.0, 2.5, 5.0])  # cards lie within ±5°


def colour_rises(lab: np.ndarray) -> np.ndarray:
    """How much the colour (:func:`colour_distance`: lightness counts half, as printing
    is mostly lightness) changes from the pixel above to the pixel below, per view pixel
    (float32)."""
    out = np.zeros(lab.shape[:2], np.float32)
    out[1:-1] = colour_distance(cv2.absdiff(lab[:-2], lab[2:]))
    return out


def edge_profile(rises: np.ndarray, view: View, xc: float, ys: np.ndarray) -> np.ndarray:
    """How strongly a straight edge across the column crosses each row ``ys`` (mm): the
    colour change (:func:`colour_rises`) at 13 points across the middle 48 mm of the
    column, the second weakest, best over the slopes a card lies at. A card's top edge
    changes the colour all along its width; printing on the card (names, numbers, art)
    changes it only here and there, and changes mostly lightness."""
    xs = np.arange(xc - 24, xc + 24.1, 4.0)[None, None, :]
    y = ys[None, :, None] + (xs - xc) * np.tan(_EDGE_SLOPES)[:, None, None]
    change = sample(rises, view, np.broadcast_to(xs, y.shape), y)
    out: np.ndarray = np.partition(change, 1, axis=2)[..., 1].max(axis=0)
    return out


START_PRIOR = 0.1  # what a start one START_SIGMA_MM from the layout's costs a comb's fit
START_SIGMA_MM = 5.0  # hands place a stack's first card within about ±4 mm of the layout's


def fit_start(
    rises: np.ndarray,
    view: View,
    xc: float,
    mask_top: float,
    card_top_mm: float,
    steps: tuple[float, float] = CASCADE_STEPS_MM,
) -> float:
    """Where a stack starts (y, mm), fitted together with its count.

    The mask's first row is only a guess at the start: a checked cloth, a plank's seam
    or a mat's print read as card moves it up; first strips the colour of the table
    move it down, a card or two, yet still within the layout's window. So every strong
    straight edge (:func:`edge_profile`) within the window that lies a cascade step
    above the top card's edge, and the mask's first row when it lies in the window, is
    a candidate; each is weighed by how well the comb of cards from it to the top card
    fits the column's edges (:func:`comb_fit`), less a cost for lying far from
    :data:`STACK_START_MM` (where the layout puts the first card). A stack's first
    edge (table to card) is often its weakest, so a comb that skips it fits better: a
    start below a mask's first row that lies in the window pays for the strongest edge
    it leaves between the two (:data:`ABOVE_WEIGHT`), where the mask saw card. Only the
    mask can tell a one-card stack's start (its single edge is the top card's own)."""
    lo, hi = STACK_START_MM - START_SLACK_MM, STACK_START_MM + START_SLACK_MM
    ys = np.arange(lo - 4, card_top_mm + 6, 1.0)
    profile = edge_profile(rises, view, xc, ys)
    window = (ys >= lo) & (ys <= min(hi, card_top_mm - (steps[0] - GAP_SLACK_MM)))
    if not window.any():
        return stack_start(rises, view, xc, mask_top)
    peaks = window.copy()
    peaks[1:-1] &= (profile[1:-1] >= profile[:-2]) & (profile[1:-1] >= profile[2:])
    strong = np.flatnonzero(peaks & (profile >= START_PEAK_SHARE * profile[window].max()))
    # The strongest few peaks are enough (each costs a comb fit: the scan's budget).
    candidates = [float(ys[i]) for i in strong[np.argsort(-profile[strong])][:START_PEAKS]]
    if lo <= mask_top <= hi and all(abs(c - mask_top) > 1.0 for c in candidates):
        candidates.append(mask_top)
    if not candidates:
        return stack_start(rises, view, xc, mask_top)

    strength = profile / (float(profile[window].max()) or 1.0)
    seen_from = mask_top if lo <= mask_top <= hi else np.inf

    def fit(start: float) -> float:
        _count, score = comb_fit(ys, profile, start, card_top_mm, steps)
        skipped = strength[window & (ys >= seen_from - 1) & (ys <= start - ABOVE_GAP_MM)]
        left = float(skipped.max()) if skipped.size else 0.0
        return (score - START_PRIOR * ((start - STACK_START_MM) / START_SIGMA_MM) ** 2
                - ABOVE_WEIGHT * left)

    return float(max(candidates, key=fit))


ABOVE_WEIGHT = 0.5  # what the strongest edge left between the mask's start and a later
#                     start costs that start's fit (share of the window's strongest edge)
ABOVE_GAP_MM = 4.0  # ... not counting the start's own edge
START_PEAKS = 3
START_PEAK_SHARE = 0.3  # a weaker edge than this share of the window's strongest is print


def stack_start(rises: np.ndarray, view: View, xc: float, mask_top: float) -> float:
    """Where a stack's first card starts (y, mm), given where its mask starts.

    A mask that starts outside the layout's window (:data:`STACK_START_MM` ±
    :data:`START_SLACK_MM`) has met the table's own pattern above the stack (a checked
    cloth read as card) or lost the first cards' strips to a table of their colours
    (wood under gold strips): the start is then the strongest straight edge across the
    column (:func:`edge_profile`) within the window."""
    lo, hi = STACK_START_MM - START_SLACK_MM, STACK_START_MM + START_SLACK_MM
    if lo <= mask_top <= hi:
        return mask_top
    ys = np.arange(lo, hi + 0.01, 1.0)
    return float(ys[int(edge_profile(rises, view, xc, ys).argmax())])


def cascade_depth(
    rises: np.ndarray, view: View, xc: float, top_mm: float, card_top_mm: float
) -> int:
    """Cards in a stack, from the edges (:func:`edge_profile`) between where the stack
    starts and where its top card starts.

    Every count whose spacing a hand could cascade at (:data:`CASCADE_STEPS_MM`) is
    weighed by two tests, each scaled to the column: do the evenly spaced edges stand out
    from the rows halfway between them (a card's top edge is its strongest), and does
    the profile repeat itself at that spacing (a card design whose strongest edges lie
    inside the card, such as a printed banner, still repeats card after card). Both ends
    first move to the strongest edge within 3 mm: the mask's first row is a tilted card's
    highest corner, and a dark frame on a dark table can hide a card's last millimetres.
    People cascade anywhere from 12 to 16 mm, so on a deep stack the plain span / 14 mm
    estimate is one or two off."""
    steps = cascade_steps(view, card_top_mm)
    plain = plain_count(top_mm, card_top_mm, steps)
    if plain is not None:
        return plain
    ys = np.arange(top_mm - 4, card_top_mm + 6, 1.0)
    return count_cards(ys, edge_profile(rises, view, xc, ys), top_mm, card_top_mm, steps)


def plain_count(
    top_mm: float, card_top_mm: float, steps: tuple[float, float] = CASCADE_STEPS_MM
) -> int | None:
    """The count when the span alone settles it (a cascade of 11-17 mm a card, the ends
    found within 4 mm: a short stack), else None.

    >>> plain_count(20.0, 20.5), plain_count(20.0, 48.0), plain_count(20.0, 80.0)
    (1, 3, None)
    """
    span = card_top_mm - top_mm
    if span < 6.0:
        return 1
    lo, hi = steps
    fewest, most = max(1, math.ceil((span - 4) / hi)), math.floor((span + 4) / lo)
    return fewest + 1 if fewest >= most else None


def count_cards(
    ys: np.ndarray,
    profile: np.ndarray,
    top_mm: float,
    card_top_mm: float,
    steps: tuple[float, float] = CASCADE_STEPS_MM,
) -> int:
    """:func:`cascade_depth` from a column's :func:`edge_profile` over ``ys`` (mm, 1 mm
    apart, from 4 mm above ``top_mm`` to at least 6 mm below ``card_top_mm``), for a
    cascade spaced within ``steps`` (mm)."""
    return comb_fit(ys, profile, top_mm, card_top_mm, steps)[0]


def comb_fit(
    ys: np.ndarray,
    profile: np.ndarray,
    top_mm: float,
    card_top_mm: float,
    steps: tuple[float, float] = CASCADE_STEPS_MM,
) -> tuple[int, float]:
    """:func:`count_cards` and how well its comb of edges fits the profile (the score
    the count won by)."""
    strength = profile / (float(profile.max()) or 1.0)
    if card_top_mm - top_mm < 6.0:
        near = np.abs(ys - card_top_mm - 1.0) <= 3.0
        return 1, float(strength[near].max()) if near.any() else 0.0

    def strongest(y: float) -> int:
        near = np.flatnonzero(np.abs(ys - y) <= 3.0)
        return int(near[profile[near].argmax()])

    first, last = strongest(top_mm + 1.0), strongest(card_top_mm + 1.0)
    span = float(ys[last] - ys[first])
    lo, hi = steps
    gaps = np.arange(max(1, math.ceil(span / hi)), math.floor(span / lo) + 1)
    if gaps.size == 0:
        return stack_depth(ys[first], ys[last]), 0.0
    sizes = span / gaps
    edges = _card_edges(strength[first : last + 1], sizes, gaps) + first
    # Comb test on the edges found: do they stand out from the rows halfway between?
    halves = np.rint((edges[:, :-1] + edges[:, 1:]) / 2).astype(int)
    halfway = np.maximum.reduce([strength[np.clip(halves + k, 0, ys.size - 1)] for k in (-1, 0, 1)])
    used = np.arange(edges.shape[1] - 1)[None, :] < gaps[:, None]
    score = (strength[edges] * np.c_[used, np.ones(gaps.size, bool)]).sum(axis=1) / (gaps + 1)
    score -= (halfway * used).sum(axis=1) / gaps
    # Echo test: the profile against itself one, two and three even sizes on.
    inside = (ys >= top_mm - 1) & (ys <= card_top_mm + 3)
    rows, centred = ys[inside], profile[inside] - profile[inside].mean()
    wave = np.zeros_like(profile)
    wave[inside] = centred
    spread = float((centred**2).mean()) or 1.0
    lags = np.arange(1, 4)
    shifted = rows[None, None, :] + (sizes[:, None] * lags[None, :])[:, :, None]
    ok = (shifted <= ys[-1]) & (lags[None, :] <= gaps[:, None])[:, :, None]
    echo = (np.interp(shifted, ys, wave) * centred * ok).sum(axis=2)
    score += ECHO_WEIGHT * (echo / np.maximum(ok.sum(axis=2), 1)).sum(axis=1) / spread
    best = int(score.argmax())
    return int(gaps[best]) + 1, float(score[best])


ECHO_WEIGHT = 0.1  # the echo assumes an even cascade; hands cascade unevenly
GAP_SLACK_MM = 3.0  # a card lies up to this far off its place in an even cascade


def _card_edges(strength: np.ndarray, steps: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Row indices (into ``strength``, which runs from the stack's first edge to its top
    card's) of each count's card edges, one row per count in ``gaps`` (padded with the
    last edge): the path of ``gaps`` steps from the first row to the last, each within
    :data:`GAP_SLACK_MM` of ``steps``, with the most edge strength, a step's distance from
    the even step costing a little (dynamic programming, every count at once)."""
    n = strength.size
    d = np.arange(
        max(1, math.floor(steps.min() - GAP_SLACK_MM)), math.ceil(steps.max() + GAP_SLACK_MM) + 1
    )
    off = d[None, :] - steps[:, None]
    cost = np.where(np.abs(off) <= GAP_SLACK_MM, 0.1 * (off / GAP_SLACK_MM) ** 2, np.inf)
    src = np.arange(n)[:, None] - d[None, :]
    cost = cost[:, None, :] + np.where(src >= 0, 0.0, np.inf)[None]  # (counts, rows, steps)
    src = np.maximum(src, 0)
    best = np.full((gaps.size, n), -np.inf)
    best[:, 0] = 0.0
    came = np.empty((int(gaps[-1]), gaps.size, n), np.intp)
    for g in range(int(gaps[-1])):
        options = best[:, src] - cost
        came[g] = options.argmax(axis=2)
        best = options.max(axis=2) + strength
    edges = np.full((gaps.size, int(gaps[-1]) + 1), n - 1)
    at = np.full(gaps.size, n - 1)
    rows = np.arange(gaps.size)
    for g in range(int(gaps[-1]), 0, -1):
        on = gaps >= g
        at = np.where(on, at - d[came[g - 1][rows, at]], at)
        edges[on, g - 1] = at[on]
    return edges
