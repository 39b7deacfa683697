"""Find each location's stack in the rectified play area: empty, depth, top card outline.

The frame is warped to a top-down view of the play area (:mod:`vision.view`); the table
model (:mod:`vision.table`) says which pixels are not table. Per column, the
foreground run from the top gives the stack; the top card is the lowest one, so its
bottom edge and sides give its outline, and the cards between are counted by
:mod:`vision.count`. A run that is not card-shaped (an arm reaching off the table,
something wider than a card, a ragged bottom edge) is ``occluded``. The second guesses
at a covered stack are in :mod:`vision.outlines`; cutting a card out, :mod:`vision.crop`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

import cv2
import numpy as np

from vision.count import (
    CARD_H_MM,
    CASCADE_MM,
    cascade_steps,
    colour_rises,
    count_cards,
    edge_profile,
    fit_start,
    plain_count,
    stack_depth,
)
from vision.table import Reference, bare_mask, fill_holes, foreground, table_points
from vision.view import BELOW_MM, MARGIN_MM, STACK_REACH_MM, WORK_PX_PER_MM, View, sample

__all__ = [  # names other modules have long imported from here
    "BELOW_MM", "CARD_H_MM", "CASCADE_MM", "MARGIN_MM", "STACK_REACH_MM", "WORK_PX_PER_MM",
    "View", "stack_depth",
]

CARD_W_MM = 63.0
STACK_START_MM = 20.0
SHAPELESS = "not shaped like a stack"


class Found(StrEnum):
    """What the locator found in a column (the classifier then names a stack's top)."""

    EMPTY = "empty"
    STACK = "stack"
    OCCLUDED = "occluded"


@dataclass(frozen=True, slots=True)
class Column:
    """What the locator saw in one location's column."""

    state: Found
    depth: int = 0
    quad_mm: np.ndarray | None = None  # top card corners TL, TR, BR, BL (play-area mm)
    reason: str = ""
    alternatives: tuple[tuple[np.ndarray, int], ...] = ()  # other (outline, depth) to try
    top_mm: float = 0.0  # where the stack's first card starts (y, play-area mm)
    older_mm: tuple[float, ...] = ()  # the covered cards' top edges (y mm), oldest first


def loose_mask(ev: Evidence, view: View) -> np.ndarray:
    """The foreground at a lower colour bar, closed wider: for a card so like the table
    (a dim scene, a grey frame on a grey table) that the usual mask breaks it apart."""
    mask: np.ndarray = cv2.morphologyEx(
        (ev.dist > 0.6 * ev.bar).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    mask |= ev.mask.view(np.uint8)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    return fill_holes(closed, table_points(view))


def runs(flags: np.ndarray, max_gap: int) -> list[tuple[int, int]]:
    """Half-open index ranges where ``flags`` holds, joining gaps up to ``max_gap`` long.

    >>> runs(np.array([0, 1, 1, 0, 1, 0, 0, 0, 1], bool), 1)
    [(1, 5), (8, 9)]
    """
    idx = np.flatnonzero(flags)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > max_gap + 1)
    starts = np.concatenate([[idx[0]], idx[breaks + 1]])
    ends = np.concatenate([idx[breaks], [idx[-1]]]) + 1
    return [(int(s), int(e)) for s, e in zip(starts, ends, strict=True)]


def _first_false(block: np.ndarray, axis: int) -> np.ndarray:
    """Index of the first False along ``axis`` (its length where there is none)."""
    bg = ~block
    first = bg.argmax(axis=axis)
    first[~bg.any(axis=axis)] = block.shape[axis]
    return np.asarray(first)


def _line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    xm, ym = x.mean(), y.mean()
    var = ((x - xm) ** 2).sum()
    a = float(((x - xm) * (y - ym)).sum() / var) if var > 0 else 0.0
    return a, float(ym - a * xm)


def _fit_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float] | None:
    """Least-squares ``y = a x + b`` after dropping the worst third; with median residual."""
    if x.size < 8:
        return None
    a, b = _line(x, y)
    resid = np.abs(y - (a * x + b))
    keep = resid <= np.partition(resid, 2 * resid.size // 3)[2 * resid.size // 3]
    if keep.sum() < 6:
        return None
    a, b = _line(x[keep], y[keep])
    resid = np.abs(y - (a * x + b))
    return a, b, float(np.partition(resid, resid.size // 2)[resid.size // 2])


def card_quad(cx: float, cy: float, angle: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL, mm) of a card centred at (cx, cy), turned ``angle`` rad."""
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (CARD_W_MM / 2, CARD_H_MM / 2)
    out: np.ndarray = (half @ np.array([[c, -s], [s, c]]).T + (cx, cy)).astype(np.float32)
    return out


def bottom_edge(
    mask: np.ndarray, view: View, xc: float, end: int
) -> tuple[float, float, float] | None:
    """The top card's bottom edge as ``y = a x + b`` (mm), from the core of the column."""
    xs = np.arange(view.px(xc - 22, 0), view.px(xc + 22, 0))
    r0 = max(end - int(30 * view.scale), 0)
    below = _first_false(mask[r0 : end + int(10 * view.scale), xs], axis=0) + r0
    return _fit_line(np.asarray(view.mm(xs, 0)), np.asarray(view.mm(below, 1)))


@dataclass(frozen=True)
class Evidence:
    """Per-view images the column analysis reads: masks and the lightness gradient."""

    mask: np.ndarray  # foreground, holes in cards filled
    blobs: np.ndarray  # foreground blobs wider than ~3 mm (hands, arms, objects)
    gx: np.ndarray
    gy: np.ndarray
    grad: np.ndarray  # gx and gy as one two-channel image: one lookup samples both
    dist: np.ndarray  # colour distance from the table
    bar: float  # the distance above which the mask counts a pixel
    rises: np.ndarray  # colour change from 1 px above to 1 px below (:func:`colour_rises`)
    lab: np.ndarray | None = None  # the rectified frame (YCrCb): what a reference learns


def mask_centre(ev: Evidence, view: View, base: tuple[float, float], angle: float) -> float | None:
    """Offset (mm from ``base``, along the bottom edge) of the middle of the foreground run
    just above the bottom edge, when that run is about a card wide; else None."""
    c, s = math.cos(angle), math.sin(angle)
    us = np.arange(-45, 45.01, 1.0)[None, :]
    ts = np.array([4.0, 6.0, 8.0, 10.0])[:, None]
    on = sample(ev.mask, view, base[0] + us * c + ts * s, base[1] + us * s - ts * c) > 0
    # Close gaps of up to 2 mm, then walk out from the middle to the first table pixel.
    on = cv2.morphologyEx(on.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((1, 3), np.uint8)) > 0
    right = _first_false(on[:, 45:], axis=1)
    left = _first_false(on[:, 45::-1], axis=1)
    width = left + right - 1
    ok = on[:, 45] & (np.abs(width - CARD_W_MM) <= 6)
    return float(np.median((right - left)[ok] / 2)) if ok.sum() >= 2 else None


def side_position(
    ev: Evidence,
    view: View,
    base: tuple[float, float],
    angle: float,
    guess: float,
    reach: float = 12.0,
) -> float:
    """Where along the bottom edge the card's centre lies: the offset (mm from ``base``)
    whose two sides, a card's width apart, show the strongest edges just above the bottom
    corners (only the top card is there: older cards end a cascade step higher)."""
    c, s = math.cos(angle), math.sin(angle)
    us = np.arange(guess - reach, guess + reach + 0.01, 0.5)[:, None]
    ts = np.arange(2.5, 11.6, 1.0)[None, :]
    sides = np.array([-CARD_W_MM / 2, CARD_W_MM / 2])[:, None, None]
    x = base[0] + (us + sides) * c + ts * s
    y = base[1] + (us + sides) * s - ts * c
    g = sample(ev.grad, view, x, y)
    strength = np.abs(g[..., 0] * c + g[..., 1] * s).mean(axis=2)
    # Both sides must show an edge: one strong printed line inside the card is not a side.
    score = strength[0] * strength[1]
    return float(us[int(score.argmax()), 0])


_GRID = (np.arange(8) + 0.5) / 8


def _shares(img: np.ndarray, view: View, quads_mm: np.ndarray) -> np.ndarray:
    """Share of set pixels of a boolean view image over an 8×8 grid of points in each of
    the mm quads (k, 4, 2)."""
    q = np.asarray(quads_mm, np.float64)[:, :, None, None, :]
    u, v = _GRID[None, :, None], _GRID[:, None, None]
    top = q[:, 0] + (q[:, 1] - q[:, 0]) * u
    bottom = q[:, 3] + (q[:, 2] - q[:, 3]) * u
    pts = top + (bottom - top) * v  # (k, 8, 8, 2)
    out: np.ndarray = sample(img, view, pts[..., 0], pts[..., 1]).reshape(len(q), -1).mean(axis=1)
    return out


def mask_share(img: np.ndarray, view: View, quad_mm: np.ndarray) -> float:
    """Share of set pixels of a boolean view image over a grid of points in a mm quad."""
    return float(_shares(img, view, np.asarray(quad_mm)[None])[0])


def _rotated_at(centre: np.ndarray, w: float, h: float, angle: float) -> np.ndarray:
    return _rotated(float(centre[0]), float(centre[1]), w, h, angle)


def _rotated(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (w / 2, h / 2)
    out: np.ndarray = (half @ np.array([[c, -s], [s, c]]).T + (cx, cy)).astype(np.float32)
    return out


def edge_strength(
    ev: Evidence, view: View, xc: float, ys: np.ndarray, angles: np.ndarray, step: float = 2.0
) -> np.ndarray:
    """Mean gradient across lines through (xc, y) sloped at each angle: (angles, ys),
    sampled every ``step`` mm along the lines."""
    xs = np.arange(xc - 22, xc + 22.1, step)[None, None, :]
    tan = np.tan(angles)[:, None, None]
    y = ys[None, :, None] + (xs - xc) * tan
    x = np.broadcast_to(xs, y.shape)
    c, s = np.cos(angles)[:, None, None], np.sin(angles)[:, None, None]
    g = sample(ev.grad, view, x, y)
    out: np.ndarray = np.abs(g[..., 1] * c - g[..., 0] * s).mean(axis=2)
    return out


def refine_bottom(
    ev: Evidence, view: View, xc: float, yb: float, angle: float
) -> tuple[float, float]:
    """The lowest strong straight edge near the mask's bottom with card above it and
    table below: the card's real bottom edge.

    Glare or a shadow can stretch the mask below the card, but they have soft borders;
    a checked cloth or a plank's seam just below the card has hard ones, but table on
    both sides; and such a line runs on past the card's sides, where a card's own edge
    ends (:func:`_beside`: an edge as strong beside the column as in it counts nothing).
    """
    ys = np.arange(yb - 20, yb + 6.01, 0.5)
    spread = (-6, -4, -2, 0, 2, 4, 6) if angle == 0.0 else (-2, -1, 0, 1, 2)
    angles = angle + np.radians(spread)
    inside = edge_strength(ev, view, xc, ys, angles)
    ends = np.clip(1.0 - _beside(ev, view, xc, ys, angles) / np.maximum(inside, 1e-6), 0.0, 1.0)
    table = inside * _card_above(ev, view, xc, ys, angle) * ends
    best = table.max()
    strong = np.flatnonzero(table.max(axis=0) >= 0.5 * best)
    if best <= 0 or strong.size == 0:
        return yb, angle
    k = int(strong[-1])
    k = max(range(max(k - 2, 0), min(k + 3, ys.size)), key=lambda j: table[:, j].max())
    return float(ys[k]), float(angles[int(table[:, k].argmax())])


def _beside(ev: Evidence, view: View, xc: float, ys: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """How strongly the line through (xc, y) at each angle (as :func:`edge_strength`)
    crosses the table beside the column, where no card lies (the gap to each neighbour,
    or the margin beside the play area): the weaker side, (angles, ys). Each side is
    the median of 3 points over 3 mm, at the best of the line's row and the rows 1 mm
    either side (a cloth's check is not quite parallel to the slopes tried), where the
    mask reads table there."""
    width = view.calibration.width_mm / 4
    col = min(max(int(xc // width), 0), 3)
    borders = (col * width if col else -3.0, (col + 1) * width if col < 3 else 4 * width + 3.0)
    xs = np.array([[b - 1.5, b, b + 1.5] for b in borders])  # (sides, 3)
    tan, c, s = (f(angles)[:, None, None, None, None] for f in (np.tan, np.cos, np.sin))
    y = (ys[None, None, :, None, None] + np.array([-1.0, 0.0, 1.0])[None, :, None, None, None]
         + (xs[None, None, None] - xc) * tan)  # (angles, shifts, ys, sides, 3)
    x = np.broadcast_to(xs[None, None, None], y.shape)
    g = sample(ev.grad, view, x, y)
    across = np.median(np.abs(g[..., 1] * c - g[..., 0] * s), axis=4)
    # Only the table runs on there: an arm or a hand reaching across the column is
    # foreground beside it too, and its edge may well be where the card ends.
    table = sample(ev.mask, view, x, y).mean(axis=4) < 0.5
    out: np.ndarray = (across * table).max(axis=1).min(axis=2)
    return out


def _card_above(ev: Evidence, view: View, xc: float, ys: np.ndarray, angle: float) -> np.ndarray:
    """Per row ``ys``, a weight from 0.25 (as much foreground below as above) to 1 (all
    foreground above, none below), from the mask 1-4 mm either side across the column."""
    xs = np.arange(xc - 22, xc + 22.1, 4.0)
    tilt = (xs - xc) * math.tan(angle)
    offsets = np.array([-4.0, -2.5, -1.0, 1.0, 2.5, 4.0])
    y = ys[:, None, None] + offsets[None, :, None] + tilt[None, None, :]
    on = sample(ev.mask, view, np.broadcast_to(xs, y.shape), y)
    above, below = on[:, :3].mean(axis=(1, 2)), on[:, 3:].mean(axis=(1, 2))
    out: np.ndarray = 0.25 + 0.75 * np.clip(above - below, 0.0, 1.0)
    return out


def _spills(ev: Evidence, view: View, quad: np.ndarray, angle: float) -> bool:
    """True when a large blob lies just outside the top card's bottom or lower sides,
    where only table can be (older cards end a cascade step higher): a hand or an arm."""
    c, s = math.cos(angle), math.sin(angle)
    down, right = np.array([-s, c]), np.array([c, s])
    bl, br = quad[3], quad[2]
    strips = [
        _rotated_at((bl + br) / 2 + 6 * down, CARD_W_MM - 10, 6, angle),
        _rotated_at(bl - 5 * right - 5 * down, 4, 6, angle),
        _rotated_at(br + 5 * right - 5 * down, 4, 6, angle),
    ]
    shares = _shares(ev.blobs, view, np.array(strips))
    return bool(shares[0] > 0.5 and max(shares[1:]) > 0.5)


def top_card(
    ev: Evidence, view: View, xc: float, end: int
) -> tuple[np.ndarray | None, str, list[np.ndarray]]:
    """The top card's outline (mm) from the bottom of its stack, or None and why not; and
    other plausible outlines (the classifier picks among them)."""
    edge = bottom_edge(ev.mask, view, xc, end)
    if edge is None:
        return None, "no bottom edge", []
    yb, angle = edge[0] * xc + edge[1], math.atan(edge[0])
    if abs(angle) > math.radians(7):  # cards lie within ±5°: this bottom is not a card's
        yb, angle = float(view.mm(end, 1)), 0.0
    # A dark card's bottom can fade into a dark table: the edge itself says where it is.
    # But a printed line across the card's foot can outshine a soft bottom edge, so the
    # mask's own bottom stays a candidate when it lies lower.
    bottoms = [refine_bottom(ev, view, xc, yb, angle)]
    if yb - bottoms[0][0] > 4 and abs(angle) <= math.radians(8):
        bottoms.append((yb, angle))
    reasons, quads = [], []
    for bottom, slope in bottoms:
        quad = outline(ev, view, xc, bottom, slope)
        if abs(slope) > math.radians(8):
            reasons.append("ragged bottom edge")
        elif _spills(ev, view, quad, slope):
            reasons.append("something covers the card and spills past its edges")
        elif mask_share(ev.mask, view, quad) < 0.75:
            reasons.append("the outline is not filled like a card")
        else:
            quads.append(quad)
    if not quads:
        return None, reasons[0], []
    return quads[0], "", quads[1:]


def outline(ev: Evidence, view: View, xc: float, yb: float, angle: float) -> np.ndarray:
    """The card outline (mm) whose bottom edge passes (xc, yb) at ``angle``."""
    guess = mask_centre(ev, view, (xc, yb), angle)
    # Placement offsets fit in ±12 mm; the mask's own run, when card-wide, narrows that.
    u = side_position(ev, view, (xc, yb), angle, guess or 0.0, 12.0 if guess is None else 4.0)
    px, py = xc + u * math.cos(angle), yb + u * math.sin(angle)
    cx, cy = px + CARD_H_MM / 2 * math.sin(angle), py - CARD_H_MM / 2 * math.cos(angle)
    return card_quad(cx, cy, angle)


def card_rows(core: np.ndarray, rim: int) -> np.ndarray:
    """Rows of a column's core that a card spans: foreground at both ends of the row and
    over a good part of it (glare can punch holes in the middle of a card)."""
    ends = core[:, :rim].any(axis=1) & core[:, -rim:].any(axis=1)
    out: np.ndarray = ends & (core.mean(axis=1) > 0.5)
    return out


def stack_runs(core: np.ndarray, scale: float) -> list[tuple[int, int]]:
    """Row ranges of a column's core that cards span (:func:`card_rows`, gaps up to 8 mm
    joined). A card whose edge matches the table loses that side of the mask over a
    stretch: rows that keep foreground at one end and over much of the row join the runs
    on either side of them, for up to 30 mm (a thin strip down one side does not)."""
    rim = int(3 * scale)
    found = runs(card_rows(core, rim), int(8 * scale))
    one_end = (core[:, :rim].any(axis=1) | core[:, -rim:].any(axis=1)) & (core.mean(axis=1) > 0.4)
    joined = found[:1]
    for start, end in found[1:]:
        last = joined[-1]
        if start - last[1] <= 30 * scale and one_end[last[1] : start].all():
            joined[-1] = (last[0], end)
        else:
            joined.append((start, end))
    return joined


def locate_column(ev: Evidence, view: View, index: int) -> Column:
    """Empty, a stack (depth and top card outline) or occluded, for column ``index``.

    A column whose mask is not shaped like a stack is read again from a looser mask (the
    classifier still has to name what that outline shows)."""
    column = _locate_column(ev, view, index)
    if column.reason == SHAPELESS:
        again = _locate_column(replace(ev, mask=loose_mask(ev, view)), view, index)
        if again.state is Found.STACK:
            return again
    return column


def _locate_column(ev: Evidence, view: View, index: int) -> Column:
    s = view.scale
    xc = (index + 0.5) * view.calibration.width_mm / 4
    core = ev.mask[:, view.px(xc - 24, 0) : view.px(xc + 24, 0)]
    found = [
        r
        for r in stack_runs(core, s)
        if r[1] - r[0] >= 12 * s and view.mm(r[1], 1) > STACK_START_MM
    ]
    if not found or view.mm(found[0][0], 1) > STACK_START_MM + CARD_H_MM:
        return Column(Found.EMPTY)  # nothing where a card could lie (an arm far below is fine)
    start, end = found[0]
    top_mm = float(view.mm(start, 1))
    if end >= ev.mask.shape[0] - 2:
        return Column(Found.OCCLUDED, reason=REACHES_OFF, top_mm=top_mm)
    if (end - start) / s < 80:
        return Column(Found.OCCLUDED, reason=SHAPELESS)
    quad, why, others = top_card(ev, view, xc, end)
    if quad is None:
        return Column(Found.OCCLUDED, reason=why, top_mm=top_mm)
    card_top = float(quad[:2, 1].mean())
    top_mm = fit_start(ev.rises, view, float(quad[:, 0].mean()), top_mm, card_top,
                       cascade_steps(view, card_top))

    # One edge profile down the column serves every outline's count.
    card_tops = [float(q[:2, 1].mean()) for q in (quad, *others)]
    steps = [cascade_steps(view, top) for top in card_tops]
    depths = [plain_count(top_mm, top, st) for top, st in zip(card_tops, steps, strict=True)]
    if None in depths:
        ys = np.arange(top_mm - 4, max(card_tops) + 6, 1.0)
        profile = edge_profile(ev.rises, view, float(quad[:, 0].mean()), ys)
        depths = [
            count_cards(ys, profile, top_mm, top, st) if d is None else d
            for d, top, st in zip(depths, card_tops, steps, strict=True)
        ]
    counted = [d for d in depths if d is not None]  # count_cards filled every gap
    alternatives = tuple(zip(others, counted[1:], strict=True))
    return Column(Found.STACK, counted[0], quad, "", alternatives, top_mm)


REACHES_OFF = "something reaches off the play area"  # an arm, or a stack past the view
RETRY_REASONS = (  # an occluded column worth a second look: its shape, not a hand, may
    REACHES_OFF,  # be to blame (a striped or lit table under it)
    "something covers the card and spills past its edges",
    "ragged bottom edge",
    "the outline is not filled like a card",
    "no bottom edge",
)


def hides_stack_foot(reason: str) -> bool:
    """True when a column read occluded for a reason that a stack longer than the
    camera's view also gives (its foot is out of sight, so its top card is). From the
    mask alone that looks like an arm reaching off the table; the device's notice says
    which to check."""
    return reason == REACHES_OFF


def evidence(frame: np.ndarray, view: View, reference: Reference | None = None) -> Evidence:
    """Rectify ``frame`` and compute the masks and gradients the columns are read from
    (against the fixed camera's ``reference`` of the bare table, where it knows it)."""
    lab = cv2.cvtColor(view.rectify(frame), cv2.COLOR_BGR2YCrCb)  # cheaper than Lab
    light = cv2.GaussianBlur(lab[:, :, 0], (3, 3), 0)
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)
    # OpenCV takes 0 as a scalar; its stubs want an array
    edges = cv2.convertScaleAbs(cv2.add(cv2.absdiff(gx, 0), cv2.absdiff(gy, 0)),  # type: ignore[call-overload]
                                alpha=0.25)
    mask, blobs, dist, bar = foreground(view, lab, edges, reference)
    grad = cv2.merge([gx, gy])
    return Evidence(mask, blobs, gx, gy, grad, dist, bar, colour_rises(lab), lab)


BARE_CLEARANCE_MM = 6.0  # what a reference learns stays this far from anything unlike it
BARE_MAX_SHARE = 0.02  # an empty column is learnt only when this little of it is unlike


def bare_after(
    ev: Evidence, view: View, columns: list[Column], named: list[bool], calibrating: bool = False
) -> np.ndarray:
    """Where this frame shows the bare table for certain (bool view image).

    While playing: the places no card lies; columns read empty with
    hardly anything unlike the table in them; and, where a stack's top card was
    ``named`` (its outline is a card's), the column below its top card's foot (not above
    the stack: a misread start would teach a card's strip). Always clear by
    :data:`BARE_CLEARANCE_MM` of any foreground region a card or a hand could be
    (smaller specks are the single-frame model's mistakes, which only a reference can
    correct); nothing of a column read occluded (a hand's shadow is not the table).

    ``calibrating`` (the play area was cleared on purpose): everything but the columns
    where a card is still named or a hand covers, and solid things left beside them (a
    cup); seams and printing (even a card-sized frame printed on a mat) are learnt."""
    width = view.calibration.width_mm / 4
    k = 2 * round(BARE_CLEARANCE_MM * view.scale) + 1
    if calibrating:
        bare = cv2.dilate(ev.blobs.view(np.uint8), np.ones((k, k), np.uint8)) == 0
        for i, column in enumerate(columns):
            if column.state is Found.OCCLUDED or (column.state is Found.STACK and named[i]):
                x0, x1 = view.px(i * width, 0), view.px((i + 1) * width, 0)
                bare[:, max(x0 - 4, 0) : x1 + 4] = False
        return np.asarray(bare)
    bare = bare_mask(view).astype(bool)
    for i, column in enumerate(columns):
        x0, x1 = view.px(i * width, 0), view.px((i + 1) * width, 0)
        if column.state is Found.EMPTY and _hardly_any(ev, view, i):
            bare[:, x0:x1] = True
        elif column.state is Found.STACK and column.quad_mm is not None and named[i]:
            foot = float(column.quad_mm[:, 1].max()) + BARE_CLEARANCE_MM
            bare[view.px(foot, 1) :, x0:x1] = True
        elif column.state is Found.OCCLUDED:
            bare[:, max(x0 - 4, 0) : x1 + 4] = False
    near = cv2.dilate(_large(ev.mask, SPECK_MM2 * view.scale**2), np.ones((k, k), np.uint8)) > 0
    return bare & ~near


SPECK_MM2 = 400.0  # foreground regions smaller than this are no card or hand (a card: 5544)


def _large(mask: np.ndarray, min_area: float) -> np.ndarray:
    """The connected regions of ``mask`` (bool) at least ``min_area`` pixels large (uint8)."""
    _n, labels, stats, _c = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] >= min_area
    big[0] = False
    out: np.ndarray = big[labels].astype(np.uint8)
    return out


def _hardly_any(ev: Evidence, view: View, index: int) -> bool:
    """True when almost none of column ``index`` where cards lie is unlike the table."""
    xc = (index + 0.5) * view.calibration.width_mm / 4
    rows = slice(view.px(STACK_START_MM - 6, 1), None)
    core = ev.mask[rows, view.px(xc - 30, 0) : view.px(xc + 30, 0)]
    return float(core.mean()) <= BARE_MAX_SHARE


def locate(frame: np.ndarray, view: View) -> list[Column]:
    """One :class:`Column` per location, left to right."""
    ev = evidence(frame, view)
    return [locate_column(ev, view, i) for i in range(4)]
