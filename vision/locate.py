"""Find each location's stack in the rectified play area: empty, depth, top card outline.

The frame is warped to a top-down view of the play area at :data:`WORK_PX_PER_MM`. The
table's colour is learnt from places no card lies (the band above the stacks and the
gaps between columns); whatever differs from it is foreground. Per column, the
foreground run from the top gives the stack; the top card is the lowest one, so its
bottom edge and sides give its outline. A run that is not card-shaped (an arm reaching
off the table, something wider than a card, a ragged bottom edge) is ``occluded``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibrate import Calibration

CROP_W, CROP_H = 64, 88  # canonical card image fed to the embedder (pixels)
CARD_W_MM, CARD_H_MM = 63.0, 88.0
CASCADE_MM = 14.0
STACK_START_MM = 20.0
WORK_PX_PER_MM = 1.0
MARGIN_MM = 6.0  # rectified view reaches this far beyond the play area's sides
# A stack's newest card must end at most STACK_REACH_MM below the play area's bottom edge
# (the README asks people to push a long stack's cards closer together to keep it there);
# the view reaches a little further, for a turned card's corner and a careless hand.
STACK_REACH_MM = 32.0
BELOW_MM = STACK_REACH_MM + 8.0
SHAPELESS = "not shaped like a stack"


@dataclass(frozen=True, slots=True)
class Column:
    """What the locator saw in one location's column."""

    state: str  # "empty" | "stack" | "occluded"
    depth: int = 0
    quad_mm: np.ndarray | None = None  # top card corners TL, TR, BR, BL (play-area mm)
    reason: str = ""
    alternatives: tuple[tuple[np.ndarray, int], ...] = ()  # other (outline, depth) to try
    top_mm: float = 0.0  # where the stack's first card starts (y, play-area mm)


def warp_card(
    img: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H)
) -> np.ndarray:
    """The card whose corners (TL, TR, BR, BL, pixels) are ``quad``, as a canonical image.

    Warps at twice the size, then area-averages down: cheap, and free of the aliasing a
    direct warp from a 3 px/mm frame would show on the card's printed text.
    """
    w, h = size
    dst = np.array([[0, 0], [2 * w, 0], [2 * w, 2 * h], [0, 2 * h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    big = cv2.warpPerspective(
        img, m, (2 * w, 2 * h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


class View:
    """The play area seen from above: pixel ↔ millimetre conversions and the warp."""

    def __init__(self, calibration: Calibration, px_per_mm: float = WORK_PX_PER_MM) -> None:
        self.calibration = calibration
        self.scale = px_per_mm
        self.x0, self.y0 = -MARGIN_MM, -MARGIN_MM
        self.width_mm = calibration.width_mm + 2 * MARGIN_MM
        self.height_mm = calibration.height_mm + MARGIN_MM + BELOW_MM
        self.size = (round(self.width_mm * px_per_mm), round(self.height_mm * px_per_mm))
        to_mm = np.array(
            [[1 / px_per_mm, 0, self.x0], [0, 1 / px_per_mm, self.y0], [0, 0, 1]], np.float64
        )
        self.frame_from_view = calibration.homography() @ to_mm
        # The warp is fixed while the calibration is: its pixel map is built once, and a
        # remap through fixed-point maps costs half a warpPerspective per frame.
        w, h = self.size
        grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), axis=-1).astype(np.float32)
        where = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), self.frame_from_view)
        self._maps = cv2.convertMaps(where.reshape(h, w, 2), None, cv2.CV_16SC2)
        self.table_points = background_points(self)

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The top-down view (pixels outside the frame are black)."""
        return cv2.remap(
            frame, *self._maps, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )

    def px(self, mm: float, axis: int) -> int:
        """Millimetres along x (axis 0) or y (axis 1) → view pixel index."""
        return round((mm - (self.x0, self.y0)[axis]) * self.scale)

    def px_array(self, mm: np.ndarray, axis: int) -> np.ndarray:
        """Millimetres along an axis → view pixel indices (int array)."""
        return np.round((np.asarray(mm) - (self.x0, self.y0)[axis]) * self.scale).astype(int)

    def mm(self, px: np.ndarray | float, axis: int) -> np.ndarray | float:
        """View pixel index → millimetres along x (axis 0) or y (axis 1)."""
        return np.asarray(px) / self.scale + (self.x0, self.y0)[axis]


def background_points(view: View) -> np.ndarray:
    """View pixels (x, y) where no card should lie: above the stacks, between and beside
    the columns, every 2 mm."""
    cal = view.calibration
    step = 2.0
    band = [(x, y) for x in np.arange(24, cal.width_mm - 24, step) for y in (4.0, 9.0)]
    bottom = view.height_mm + view.y0 - 3
    lines = [
        (x, y)
        for x in (-3.0, cal.width_mm / 4, cal.width_mm / 2, 3 * cal.width_mm / 4, cal.width_mm + 3)
        for y in np.arange(24 if 0 < x < cal.width_mm else 26, bottom, step)
        if 0 < x < cal.width_mm or y < cal.height_mm - 22
    ]
    pts = np.array(band + lines)
    return np.stack([view.px_array(pts[:, 0], 0), view.px_array(pts[:, 1], 1)], axis=1)


def _knots(view: View) -> list[float]:
    """x (mm) of the vertical table lines: beside the play area and between the columns."""
    w = view.calibration.width_mm
    return [-3.0, w / 4, w / 2, 3 * w / 4, w + 3.0]


def _line_colours(view: View, lab: np.ndarray) -> tuple[np.ndarray, float]:
    """Table colour down each vertical table line, per view row (uint8, (rows, lines, 3)),
    and the table's pixel noise (median absolute deviation along the lines)."""
    cal = view.calibration
    xs = np.concatenate([np.arange(view.px(x, 0) - 2, view.px(x, 0) + 3) for x in _knots(view)])
    strips = lab[:, np.clip(xs, 0, lab.shape[1] - 1)].reshape(lab.shape[0], -1, 5, 3)
    med = np.sort(strips, axis=2)[:, :, 2]  # median of five: (rows, lines, 3)
    inner = strips[view.px(30, 1) : view.px(200, 1), 1:-1].astype(np.int16)
    noise = float(np.median(np.abs(inner - med[view.px(30, 1) : view.px(200, 1), 1:-1, None])))
    # Markers lie at the ends of the outer lines: hold their colour past those ends.
    r0, r1 = view.px(20.0, 1), view.px(cal.height_mm - 20, 1)
    for i in (0, med.shape[1] - 1):
        med[:r0, i], med[r1:, i] = med[r0, i], med[r1 - 1, i]
    # A card corner or a stray finger touches a line for a few mm: a long median skips it.
    k = int(15 * view.scale) | 1
    return cv2.medianBlur(np.ascontiguousarray(med), k), noise


def background_field(view: View, lab: np.ndarray) -> tuple[np.ndarray, float]:
    """The table's colour everywhere (uint8): per row, linear between the table lines.

    Lamps, soft shadows and a tilted camera change the table's colour across the view;
    interpolating between lines that no card covers follows them. The lines are close to
    evenly spaced across the view, so a linear resize does the interpolation.
    """
    lines, noise = _line_colours(view, lab)
    field = cv2.resize(lines, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    return field, noise


def foreground(
    view: View, lab: np.ndarray, edges: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Masks of pixels that differ from the table's colour (or, given ``edges``, sit on
    much stronger edges than the table has: a dark card on a dark table still has its
    printing): holes in cards filled, and blobs wider than ~7 mm (hands, arms, objects);
    with each pixel's colour distance from the table (0 outside the camera's view) and
    the bar it was held to."""
    field, noise = background_field(view, lab)
    diff = cv2.absdiff(lab, field)
    dist = colour_distance(diff)
    dist[lab[:, :, 0] == 0] = 0  # outside the camera's view
    bar = max(10.0, 4.0 * noise)
    mask = cv2.morphologyEx(
        (dist > bar).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    blobs = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    if edges is not None:
        mask |= _busy(view, edges)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return fill_holes(closed, view.table_points), blobs.astype(bool), dist, bar


def loose_mask(ev: Evidence, view: View) -> np.ndarray:
    """The foreground at a lower colour bar, closed wider: for a card so like the table
    (a dim scene, a grey frame on a grey table) that the usual mask breaks it apart."""
    mask = cv2.morphologyEx(
        (ev.dist > 0.6 * ev.bar).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    mask |= ev.mask.view(np.uint8)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    return fill_holes(closed, view.table_points)


def _busy(view: View, edges: np.ndarray) -> np.ndarray:
    """Where edges are far denser than on the table lines (printing, card borders)."""
    density = cv2.blur(edges, (5, 5))
    xs = [view.px(x, 0) for x in _knots(view)[1:-1]]
    table = float(np.median(density[:, xs]))
    busy = (density > max(12.0, 3.0 * table)).astype(np.uint8)
    # The blur and the gradient reach ~3 px past a card's edge: take that back.
    return cv2.erode(busy, np.ones((5, 5), np.uint8))


def fill_holes(mask: np.ndarray, table_points: np.ndarray) -> np.ndarray:
    """``mask`` plus every background region that touches none of ``table_points``
    (view pixels (x, y) where the table shows): holes inside cards and stacks."""
    table = (mask == 0).astype(np.uint8)
    count, labels = cv2.connectedComponents(table, connectivity=4)
    h, w = mask.shape
    pts = table_points[
        (table_points[:, 0] >= 0)
        & (table_points[:, 0] < w)
        & (table_points[:, 1] >= 0)
        & (table_points[:, 1] < h)
    ]
    keep = np.zeros(count, bool)
    keep[labels[pts[:, 1], pts[:, 0]]] = True
    keep[0] = False  # label 0 is the foreground itself
    return ~keep[labels]


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
    return first


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
    return (half @ np.array([[c, -s], [s, c]]).T + (cx, cy)).astype(np.float32)


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


def _sample(img: np.ndarray, view: View, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
    """Nearest-pixel values of a view image at millimetre points (0 outside); a
    two-channel image gives a trailing axis of 2. One remap call: several times cheaper
    than numpy's rounding and fancy indexing."""
    mx = ((x_mm - view.x0) * view.scale).astype(np.float32)
    my = ((y_mm - view.y0) * view.scale).astype(np.float32)
    shape = mx.shape
    if my.shape != shape:
        mx, my = np.broadcast_arrays(mx, my)
        shape = mx.shape
    if img.dtype == bool:
        img = img.view(np.uint8)
    if mx.size == 0:
        return np.zeros((*shape, *img.shape[2:]), np.float32)
    n = mx.size
    cols = min(n, 4096)  # remap's maps must stay under 32767 a side
    rows = -(-n // cols)
    mx, my = mx.reshape(-1), my.reshape(-1)
    if rows * cols != n:
        mx, my = np.pad(mx, (0, rows * cols - n)), np.pad(my, (0, rows * cols - n))
    out = cv2.remap(
        img,
        mx.reshape(rows, cols),
        my.reshape(rows, cols),
        cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    out = out.reshape(rows * cols, *img.shape[2:])[:n]
    return out.reshape(*shape, *img.shape[2:]).astype(np.float32, copy=False)


def mask_centre(ev: Evidence, view: View, base: tuple[float, float], angle: float) -> float | None:
    """Offset (mm from ``base``, along the bottom edge) of the middle of the foreground run
    just above the bottom edge, when that run is about a card wide; else None."""
    c, s = math.cos(angle), math.sin(angle)
    us = np.arange(-45, 45.01, 1.0)[None, :]
    ts = np.array([4.0, 6.0, 8.0, 10.0])[:, None]
    on = _sample(ev.mask, view, base[0] + us * c + ts * s, base[1] + us * s - ts * c) > 0
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
    g = _sample(ev.grad, view, x, y)
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
    return _sample(img, view, pts[..., 0], pts[..., 1]).reshape(len(q), -1).mean(axis=1)


def _share(img: np.ndarray, view: View, quad_mm: np.ndarray) -> float:
    """Share of set pixels of a boolean view image over a grid of points in a mm quad."""
    return float(_shares(img, view, np.asarray(quad_mm)[None])[0])


def _rotated(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (w / 2, h / 2)
    return (half @ np.array([[c, -s], [s, c]]).T + (cx, cy)).astype(np.float32)


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
    g = _sample(ev.grad, view, x, y)
    return np.abs(g[..., 1] * c - g[..., 0] * s).mean(axis=2)


def refine_bottom(
    ev: Evidence, view: View, xc: float, yb: float, angle: float
) -> tuple[float, float]:
    """The lowest strong straight edge near the mask's bottom: the card's real bottom edge.

    Glare or a shadow can stretch the mask below the card, but they have soft borders.
    """
    ys = np.arange(yb - 20, yb + 6.01, 0.5)
    spread = (-6, -4, -2, 0, 2, 4, 6) if angle == 0.0 else (-2, -1, 0, 1, 2)
    angles = angle + np.radians(spread)
    table = edge_strength(ev, view, xc, ys, angles)
    best = table.max()
    strong = np.flatnonzero(table.max(axis=0) >= 0.5 * best)
    if best <= 0 or strong.size == 0:
        return yb, angle
    k = int(strong[-1])
    k = max(range(max(k - 2, 0), min(k + 3, ys.size)), key=lambda j: table[:, j].max())
    return float(ys[k]), float(angles[int(table[:, k].argmax())])


def _spills(ev: Evidence, view: View, quad: np.ndarray, angle: float) -> bool:
    """True when a large blob lies just outside the top card's bottom or lower sides,
    where only table can be (older cards end a cascade step higher): a hand or an arm."""
    c, s = math.cos(angle), math.sin(angle)
    down, right = np.array([-s, c]), np.array([c, s])
    bl, br = quad[3], quad[2]
    strips = [
        _rotated(*((bl + br) / 2 + 6 * down), CARD_W_MM - 10, 6, angle),
        _rotated(*(bl - 5 * right - 5 * down), 4, 6, angle),
        _rotated(*(br + 5 * right - 5 * down), 4, 6, angle),
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
        elif _share(ev.mask, view, quad) < 0.75:
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


def colour_distance(diff: np.ndarray) -> np.ndarray:
    """Half the lightness plus both chroma channels of a YCrCb difference (uint8,
    saturating). The same as ``cv2.transform`` with weights (0.5, 1, 1), a tenth of the
    time: that call takes a float path."""
    light, cr, cb = cv2.split(diff)
    return cv2.addWeighted(cv2.add(cr, cb), 1.0, light, 0.5, 0)


def edge_profile(ev: Evidence, view: View, xc: float, ys: np.ndarray) -> np.ndarray:
    """How strongly a straight edge across the column crosses each row ``ys`` (mm): the
    colour change (:func:`colour_rises`) at 13 points across the middle 48 mm of the
    column, the second weakest, best over the slopes a card lies at. A card's top edge
    changes the colour all along its width; printing on the card (names, numbers, art)
    changes it only here and there, and changes mostly lightness."""
    xs = np.arange(xc - 24, xc + 24.1, 4.0)[None, None, :]
    y = ys[None, :, None] + (xs - xc) * np.tan(_EDGE_SLOPES)[:, None, None]
    change = _sample(ev.rises, view, np.broadcast_to(xs, y.shape), y)
    return np.partition(change, 1, axis=2)[..., 1].max(axis=0)


def cascade_depth(ev: Evidence, view: View, xc: float, top_mm: float, card_top_mm: float) -> int:
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
    return count_cards(ys, edge_profile(ev, view, xc, ys), top_mm, card_top_mm, steps)


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
    if card_top_mm - top_mm < 6.0:
        return 1

    def strongest(y: float) -> int:
        near = np.flatnonzero(np.abs(ys - y) <= 3.0)
        return int(near[profile[near].argmax()])

    first, last = strongest(top_mm + 1.0), strongest(card_top_mm + 1.0)
    span = float(ys[last] - ys[first])
    lo, hi = steps
    gaps = np.arange(max(1, math.ceil(span / hi)), math.floor(span / lo) + 1)
    if gaps.size == 0:
        return stack_depth(ys[first], ys[last])
    steps = span / gaps
    strength = profile / (float(profile.max()) or 1.0)
    edges = _card_edges(strength[first : last + 1], steps, gaps) + first
    # Comb test on the edges found: do they stand out from the rows halfway between?
    halves = np.rint((edges[:, :-1] + edges[:, 1:]) / 2).astype(int)
    halfway = np.maximum.reduce([strength[np.clip(halves + k, 0, ys.size - 1)] for k in (-1, 0, 1)])
    used = np.arange(edges.shape[1] - 1)[None, :] < gaps[:, None]
    score = (strength[edges] * np.c_[used, np.ones(gaps.size, bool)]).sum(axis=1) / (gaps + 1)
    score -= (halfway * used).sum(axis=1) / gaps
    # Echo test: the profile against itself one, two and three even steps on.
    inside = (ys >= top_mm - 1) & (ys <= card_top_mm + 3)
    rows, centred = ys[inside], profile[inside] - profile[inside].mean()
    wave = np.zeros_like(profile)
    wave[inside] = centred
    spread = float((centred**2).mean()) or 1.0
    lags = np.arange(1, 4)
    shifted = rows[None, None, :] + (steps[:, None] * lags[None, :])[:, :, None]
    ok = (shifted <= ys[-1]) & (lags[None, :] <= gaps[:, None])[:, :, None]
    echo = (np.interp(shifted, ys, wave) * centred * ok).sum(axis=2)
    score += ECHO_WEIGHT * (echo / np.maximum(ok.sum(axis=2), 1)).sum(axis=1) / spread
    return int(gaps[int(score.argmax())]) + 1


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


def card_rows(core: np.ndarray, rim: int) -> np.ndarray:
    """Rows of a column's core that a card spans: foreground at both ends of the row and
    over a good part of it (glare can punch holes in the middle of a card)."""
    ends = core[:, :rim].any(axis=1) & core[:, -rim:].any(axis=1)
    return ends & (core.mean(axis=1) > 0.5)


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
        if again.state == "stack":
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
        return Column("empty")  # nothing where a card could lie (an arm far below is fine)
    start, end = found[0]
    top_mm = float(view.mm(start, 1))
    if end >= ev.mask.shape[0] - 2:
        return Column("occluded", reason=REACHES_OFF, top_mm=top_mm)
    if (end - start) / s < 80:
        return Column("occluded", reason=SHAPELESS)
    quad, why, others = top_card(ev, view, xc, end)
    if quad is None:
        return Column("occluded", reason=why, top_mm=top_mm)

    # One edge profile down the column serves every outline's count.
    card_tops = [float(q[:2, 1].mean()) for q in (quad, *others)]
    steps = [cascade_steps(view, top) for top in card_tops]
    depths = [plain_count(top_mm, top, st) for top, st in zip(card_tops, steps, strict=True)]
    if None in depths:
        ys = np.arange(top_mm - 4, max(card_tops) + 6, 1.0)
        profile = edge_profile(ev, view, float(quad[:, 0].mean()), ys)
        depths = [
            count_cards(ys, profile, top_mm, top, st) if d is None else d
            for d, top, st in zip(depths, card_tops, steps, strict=True)
        ]
    alternatives = tuple(zip(others, depths[1:], strict=True))
    return Column("stack", depths[0], quad, "", alternatives, top_mm)


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
    return [q for q in quads if _share(ev.mask, view, q) >= 0.75]


def outline_depth(ev: Evidence, view: View, top_mm: float, quad: np.ndarray) -> int:
    """Cards in a stack starting at ``top_mm`` whose top card is outlined by ``quad``
    (asked only of the outline the classifier kept: the cascade search is not free)."""
    x, top = float(quad[:, 0].mean()), float(quad[:2, 1].mean())
    return cascade_depth(ev, view, x, top_mm, top)


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


def evidence(frame: np.ndarray, view: View) -> Evidence:
    """Rectify ``frame`` and compute the masks and gradients the columns are read from."""
    lab = cv2.cvtColor(view.rectify(frame), cv2.COLOR_BGR2YCrCb)  # cheaper than Lab
    light = cv2.GaussianBlur(lab[:, :, 0], (3, 3), 0)
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)
    edges = cv2.convertScaleAbs(cv2.add(cv2.absdiff(gx, 0), cv2.absdiff(gy, 0)), alpha=0.25)
    mask, blobs, dist, bar = foreground(view, lab, edges)
    return Evidence(mask, blobs, gx, gy, cv2.merge([gx, gy]), dist, bar, colour_rises(lab))


def locate(frame: np.ndarray, view: View) -> list[Column]:
    """One :class:`Column` per location, left to right."""
    ev = evidence(frame, view)
    return [locate_column(ev, view, i) for i in range(4)]


def _order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points → TL, TR, BR, BL of a portrait quad (a landscape one is turned upright)."""
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    quad = pts[np.argsort(angles)]  # clockwise on screen, starting anywhere
    quad = np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)
    top = np.linalg.norm(quad[1] - quad[0])
    side = np.linalg.norm(quad[3] - quad[0])
    return np.roll(quad, -1, axis=0) if top > side else quad


def find_card(img: np.ndarray, min_share: float = 0.15) -> np.ndarray | None:
    """Corners (TL, TR, BR, BL, pixels) of the card in a photo of one card on a surface:
    the largest region unlike the photo's border, as a rotated rectangle."""
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.concatenate(
        [
            lab[:4].reshape(-1, 3),
            lab[-4:].reshape(-1, 3),
            lab[:, :4].reshape(-1, 3),
            lab[:, -4:].reshape(-1, 3),
        ]
    )
    dist = np.linalg.norm(lab - np.median(ring, axis=0), axis=2)
    mask = (
        dist > max(20.0, 3 * float(np.median(np.linalg.norm(ring - np.median(ring, 0), axis=1))))
    ).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < min_share * img.shape[0] * img.shape[1]:
        return None
    quad = _order_corners(cv2.boxPoints(cv2.minAreaRect(biggest)).astype(np.float32))
    ratio = np.linalg.norm(quad[1] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    return quad if 0.55 <= ratio <= 0.9 and not _printed_outside(mask, biggest) else None


def _printed_outside(mask: np.ndarray, region: np.ndarray) -> bool:
    """True when much unlike the border lies outside ``region``: a card's name and value
    printed on a plain margin around its art, so the photo is the card itself (a table
    around a card shows little there)."""
    inside = np.zeros_like(mask)
    cv2.drawContours(inside, [region], -1, 1, thickness=-1)
    inside = cv2.dilate(inside, np.ones((9, 9), np.uint8))
    return int((mask & (1 - inside)).sum()) > 0.02 * mask.size


def card_image(img: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """A photo of one card → canonical image: the card found in it, else the whole photo
    (already a crop of the card)."""
    quad = find_card(img)
    if quad is None:
        h, w = img.shape[:2]
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return warp_card(img, quad, size)
