"""Each location's stack read from the table segmenter's maps: empty, covered, or its top
card's outline and how many cards it holds.

The segmenter (:mod:`vision.segmenter`) labels every 2 × 2 mm of the play area. A
column with hardly any card in it is empty (or covered, when a hand lies where a card
would). Otherwise the top card is the largest region labelled top card in the column:
its outline is a card-sized rectangle fitted to that region, from the sides that show
(a hand over the card's foot hides its bottom edge, and then its top edge, next to the
strip above it, places it). The count is the number of card top edges from where the
stack starts down to the top card's own.

A lamp's reflection that the camera clips flat white (:func:`vision.segmenter.blown`) is
no hand; where a card could lie under it unseen (:func:`hides_a_card`), the location reads
hidden by the glare, never empty. A spot beside the place, or one too small to hide a
whole card, leaves an empty place empty: a card under it would show beyond the white.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.count import CARD_H_MM, STACK_START_MM
from vision.locate import CARD_W_MM, REACHES_OFF, STACK_REACH_MM, Column, Found, card_quad
from vision.segmenter import STRIDE, Segments
from vision.view import View

CARD_AREA_MM2 = CARD_W_MM * CARD_H_MM
NO_CARD_SHARE = 0.12  # a column with less card than this share of one card's area is empty
TOP_MIN_SHARE = 0.3  # a top card showing less than this share of itself is covered
COVERED_SHARE = 0.6  # a card under a smaller hand would show beside it: less is an empty place
EDGE_PEAK = 0.45  # an edge profile's peak this strong is a card's top edge (weaker: print lines)
EDGE_GAP_MM = 6.5  # two top edges lie at least this far apart (cascades are 8-17 mm)
# A top card's region this much shorter than a card, with no hand at either end, was cut
# at its top by print the segmenter took for older cards' strips (art in bands or rows of
# discs): the top card's foot, on bare table, places it. A cascade step is at least 8 mm.
SHORT_TOP_MM = 8.0
MAX_TILT = math.radians(8.0)  # cards lie within ±5°; beyond this the fit is not a card's
COVERED = "a hand or an object covers the location"
HIDDEN_TOP = "the top card is hidden"
GLARE = "a lamp's reflection hides the location"
_SLOPES = np.radians([-5.0, -2.5, 0.0, 2.5, 5.0])


def read_stacks(seg: Segments, view: View) -> list[Column]:
    """One :class:`Column` per location, left to right."""
    return [read_column(seg, view, i) for i in range(4)]


def _grid(seg: Segments, view: View) -> tuple[np.ndarray, np.ndarray]:
    """The millimetre x of each output column and y of each output row."""
    h, w = seg.edges.shape
    xs = view.x0 + (np.arange(w) * STRIDE + (STRIDE - 1) / 2) / view.scale
    ys = view.y0 + (np.arange(h) * STRIDE + (STRIDE - 1) / 2) / view.scale
    return xs, ys


def read_column(seg: Segments, view: View, index: int) -> Column:
    """Empty, a stack (its count and top card outline) or occluded, for column ``index``."""
    width = view.calibration.width_mm / 4
    xc = (index + 0.5) * width
    xs, ys = _grid(seg, view)
    band = np.flatnonzero(np.abs(xs - xc) <= width / 2)
    pixel_mm2 = (STRIDE / view.scale) ** 2
    card = seg.card[:, band]
    lying = (ys >= 10.0) & (ys <= 20.0 + CARD_H_MM + 10.0)
    if float(card.sum()) * pixel_mm2 < NO_CARD_SHARE * CARD_AREA_MM2:
        # pixels sure of a hand, not summed doubt: a printed mat's haze is not a hand
        covered = float((seg.cover[lying][:, band] > 0.5).sum()) * pixel_mm2
        if covered >= COVERED_SHARE * CARD_AREA_MM2:
            return Column(Found.OCCLUDED, reason=COVERED)
        # Flat white where the camera clipped may hide a card as well as a hand would.
        if hides_a_card(seg, view, xc):
            return Column(Found.OCCLUDED, reason=GLARE)
        return Column(Found.EMPTY)
    region = _top_region(seg.top[:, band] > 0.5, xs[band], ys, xc)
    if region is not None and region[-2:].any():  # the stack (or an arm) runs out of sight
        return Column(Found.OCCLUDED, reason=REACHES_OFF)
    if region is None or region.sum() * pixel_mm2 < TOP_MIN_SHARE * CARD_AREA_MM2:
        # the top card anywhere down to the reach (vision.view.STACK_REACH_MM)
        reach = view.calibration.height_mm + STACK_REACH_MM - CARD_H_MM - STACK_START_MM
        hidden_by_light = clipped_share(seg, view, xc, reach) >= TOP_HIDDEN
        return Column(Found.OCCLUDED, reason=GLARE if hidden_by_light else HIDDEN_TOP)
    fit = fit_card(region, xs[band], ys, seg.cover[:, band])
    if fit is None:
        return Column(Found.OCCLUDED, reason=HIDDEN_TOP)
    xm, top, angle = fit
    edges = edge_peaks(seg, view, xm, top)
    own = [y for y in edges if abs(y - top) <= OWN_EDGE_MM]
    if own:  # the top card's own edge, where it shows, places the card to a millimetre
        top = min(own, key=lambda y: abs(y - top))
    older = [y for y in edges if y < top - OWN_EDGE_MM]
    quad = card_quad(*_centre_below(xm, top, angle), angle)
    if _covered_share(seg, view, quad) >= HAND_ON_TOP:
        return Column(Found.OCCLUDED, reason=HAND_OVER_TOP)
    return Column(Found.STACK, len(older) + 1, quad, "", (), older[0] if older else top,
                  tuple(older))


# Where a stack's first card may lie: the layout's place, give or take a careless hand
# (the scenes lay cards ±4 mm across and ±3 mm down; twice that here). Every stack covers
# its first card's place (the later cards cover all of it but the strip), so a stack can
# lie unseen only where that place can.
PLACE_SLACK_MM = (8.0, 8.0)  # across, down
# Under a blown lamp the segmenter misses a card whose place is nearly all clipped white,
# or most of it while the rest of its place, washed out round the spot, still shows a
# trace of card (bare table there shows none). On generated pairs (a blown lamp on or
# beside an empty place, then a card laid there; 594 pairs on seeds of their own, see
# benchmarks/vision_accuracy.py --lamp-scenes) the cards it missed were 0.91 clipped or
# more, or 0.6-0.9 with a trace of 0.094 or more (empty places: 0.045 at most, but for
# three): none is read empty with the bars below, and where a card would have shown the
# empty place reads hidden 17 times, against 84 for the clipped share alone at its
# safe bar (0.75).
HIDDEN_ALL = 0.9  # a place this much clipped white: a card there goes unseen
HIDDEN_MOST = 0.6  # ... this much, with a trace of card beside the white (CARD_TRACE)
CARD_TRACE = 0.06  # the mean card probability over the rest of the place
TOP_HIDDEN = 0.7  # a top card showing less than TOP_MIN_SHARE: the white over this much


def hides_a_card(seg: Segments, view: View, xc: float) -> bool:
    """True when the clipped spot could hide a card at the place where the column at
    ``xc`` (mm) starts its stack (:data:`HIDDEN_ALL`, :data:`HIDDEN_MOST`)."""
    clipped = clipped_share(seg, view, xc)
    if clipped >= HIDDEN_ALL:
        return True
    return clipped >= HIDDEN_MOST and _card_beside(seg, view, xc) >= CARD_TRACE


def clipped_share(seg: Segments, view: View, xc: float, reach_mm: float = 0.0) -> float:
    """The largest share of a card clipped white at a place in the column at ``xc``
    (mm): within :data:`PLACE_SLACK_MM` of where the layout starts a stack, or up to
    ``reach_mm`` further down (a top card further down a cascade)."""
    if seg.blown is None:
        return 0.0
    xs, ys = _grid(seg, view)
    dx, dy = PLACE_SLACK_MM
    across = np.arange(xc - dx, xc + dx + 0.1, STRIDE)
    down = np.arange(STACK_START_MM - dy, STACK_START_MM + dy + reach_mm + 0.1, STRIDE)
    c0 = np.searchsorted(xs, across - CARD_W_MM / 2)
    c1 = np.searchsorted(xs, across + CARD_W_MM / 2)
    r0, r1 = np.searchsorted(ys, down), np.searchsorted(ys, down + CARD_H_MM)
    sums = cv2.integral((seg.blown > 0.5).astype(np.uint8))  # (h + 1, w + 1)
    inside = (sums[np.ix_(r1, c1)] - sums[np.ix_(r0, c1)] - sums[np.ix_(r1, c0)]
              + sums[np.ix_(r0, c0)])  # clipped grid pixels in each place (down × across)
    return float(inside.max()) / (CARD_AREA_MM2 * (view.scale / STRIDE) ** 2)


def _card_beside(seg: Segments, view: View, xc: float) -> float:
    """The mean card probability over the stack's places (all of :data:`PLACE_SLACK_MM`)
    outside the clipped white: a card washed out there leaves a trace."""
    assert seg.blown is not None
    xs, ys = _grid(seg, view)
    dx, dy = PLACE_SLACK_MM
    cols = np.abs(xs - xc) <= CARD_W_MM / 2 + dx
    rows = (ys >= STACK_START_MM - dy) & (ys <= STACK_START_MM + dy + CARD_H_MM)
    rest = seg.blown[rows][:, cols] < 0.5
    if not rest.any():
        return 1.0
    return float(seg.card[rows][:, cols][rest].mean())


WHITE_MM2 = 30.0  # clipped white over this much of a column may hide part of its stack


def unlit(seg: Segments, view: View, index: int) -> bool:
    """True when no lamp's clipped white lies in column ``index`` (at most
    :data:`WHITE_MM2`): where its stack's outline lies then says where the camera sees
    the column (:func:`vision.scanner.misplaced`). Under the white, part of a stack goes
    unseen and its outline can lie anywhere."""
    if seg.blown is None:
        return True
    xc = (index + 0.5) * view.calibration.width_mm / 4
    xs, _ys = _grid(seg, view)
    band = np.abs(xs - xc) <= view.calibration.width_mm / 8
    white = float((seg.blown[:, band] > 0.5).sum())
    return white * (STRIDE / view.scale) ** 2 <= WHITE_MM2


HAND_ON_TOP = 0.05  # a hand over this share of the top card hides too much to name it (the
# scenes call a card covered from 10 %; the map draws thin fingers thinner than they are)
HAND_OVER_TOP = "a hand or an object lies over the top card"


def _covered_share(seg: Segments, view: View, quad_mm: np.ndarray) -> float:
    """The share of the card outline ``quad_mm`` that the segmenter is sure a hand covers:
    a thumb over a card's face can make the classifier name another card."""
    h, w = seg.edges.shape
    inside = np.zeros((h, w), np.uint8)
    grid = ((quad_mm - (view.x0, view.y0)) * view.scale - (STRIDE - 1) / 2) / STRIDE
    cv2.fillPoly(inside, [np.round(grid * 8).astype(np.int32)], 1, cv2.LINE_8, shift=3)
    area = int(inside.sum())
    return float(((seg.cover > 0.5) & (inside > 0)).sum()) / area if area else 0.0


OWN_EDGE_MM = 5.0  # an edge this close to the fitted top is the top card's own


def _centre_below(x: float, top: float, angle: float) -> tuple[float, float]:
    """The centre of a card turned ``angle`` whose top edge's middle is at (x, top)."""
    return x - CARD_H_MM / 2 * math.sin(angle), top + CARD_H_MM / 2 * math.cos(angle)


def _top_region(
    mask: np.ndarray, xs: np.ndarray, ys: np.ndarray, xc: float
) -> np.ndarray | None:
    """The largest connected top-card region whose middle lies in the column."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=4)
    best, best_area = None, 0
    for k in range(1, n):
        cx = float(np.interp(centroids[k][0], np.arange(xs.size), xs))
        area = int(stats[k, cv2.CC_STAT_AREA])
        if abs(cx - xc) <= 25.0 and area > best_area:
            best, best_area = k, area
    return None if best is None else np.asarray(labels == best)


def fit_card(
    region: np.ndarray, xs: np.ndarray, ys: np.ndarray, cover: np.ndarray
) -> tuple[float, float, float] | None:
    """Where a top card lies, from the region labelled top card: the middle of its top
    edge (x, y mm) and its slope (radians).

    The top edge borders the strip above it (or bare table) and a hand hardly ever
    reaches across it, while a hand or a shadow often blurs the card's foot: so the
    region's top places the card, unless a hand lies above it or the region falls short
    of a card with no hand at either end (:data:`SHORT_TOP_MM`). Across, the card's
    middle is the region's middle when the region is a card wide, else it is placed
    from the side no hand lies beside."""
    rows, cols = np.nonzero(region)
    pts = np.stack([xs[cols], ys[rows]], axis=1).astype(np.float32)
    a = _slope(pts, region, xs, ys)
    c, s = math.cos(a), math.sin(a)
    u = pts[:, 0] * c + pts[:, 1] * s  # across the card
    v = -pts[:, 0] * s + pts[:, 1] * c  # down the card
    half = STRIDE / 2  # a pixel's centre lies this far inside the region's edge
    u0, u1 = float(np.percentile(u, 0.5)) - half, float(np.percentile(u, 99.5)) + half
    v0, v1 = float(np.percentile(v, 0.5)) - half, float(np.percentile(v, 99.5)) + half
    if u1 - u0 < 0.5 * CARD_W_MM or v1 - v0 < 0.4 * CARD_H_MM:
        return None
    uc = _centre(u0, u1, CARD_W_MM, _covered_side(cover, region, axis=1))
    hand = _covered_side(cover, region, axis=0)
    # From the foot only onto the play area: no stack starts above it (a region cut
    # there runs off the picture, it is not a card short).
    short = v1 - v0 < CARD_H_MM - SHORT_TOP_MM and v1 - CARD_H_MM >= 0.0
    vt = v1 - CARD_H_MM if hand < 0 or (short and hand == 0) else v0
    return uc * c - vt * s, uc * s + vt * c, a


def _slope(pts: np.ndarray, region: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    """The card's slope (radians): the smallest rectangle round the region when that is
    card-shaped, else the line along the region's top edge (a hand has cut the rest)."""
    (_cx, _cy), (rw, rh), angle = cv2.minAreaRect(pts)
    a = (math.radians(angle) + math.pi / 4) % (math.pi / 2) - math.pi / 4  # the side across
    across, down = (rw, rh) if abs(math.radians(angle) - a) < 0.1 else (rh, rw)
    if abs(across - CARD_W_MM) > 6 or abs(down - CARD_H_MM) > 6:
        cols = np.flatnonzero(region.any(axis=0))
        if cols.size >= 8:
            first = region[:, cols].argmax(axis=0)
            slope, _ = np.polyfit(xs[cols], ys[first], 1)
            a = math.atan(float(slope))
    return a if abs(a) <= MAX_TILT else 0.0


def _centre(lo: float, hi: float, size: float, hidden: int) -> float:
    """The card's centre along one axis from the extent that shows: the whole card when
    the extent is about its size, else placed from the side that is not ``hidden``
    (-1: the low side is hidden, +1: the high side, 0: neither or both: the high side,
    a card's foot, is trusted)."""
    if abs((hi - lo) - size) <= 4.0:
        return (lo + hi) / 2
    if hidden > 0:
        return lo + size / 2
    return hi - size / 2


def _covered_side(cover: np.ndarray, region: np.ndarray, axis: int) -> int:
    """Which end of ``region`` along ``axis`` (0: rows, 1: columns) a hand lies beside:
    -1 the low end, +1 the high end, 0 neither (or both)."""
    k = np.ones((5, 5), np.uint8)
    ring = (cv2.dilate(region.astype(np.uint8), k) > 0) & ~region
    idx = np.nonzero(ring)[axis]
    if idx.size == 0:
        return 0
    mid = (np.nonzero(region)[axis].min() + np.nonzero(region)[axis].max()) / 2
    near = cover[ring] > 0.5
    low, high = near[idx < mid].mean() if (idx < mid).any() else 0.0, (
        near[idx > mid].mean() if (idx > mid).any() else 0.0)
    if high > 0.3 and high > 2 * low:
        return 1
    if low > 0.3 and low > 2 * high:
        return -1
    return 0


def edge_profile(seg: Segments, view: View, xc: float, ys_mm: np.ndarray) -> np.ndarray:
    """How strongly a card's top edge crosses each row ``ys_mm``: the edge probability at
    points across the middle 44 mm of the column, averaged, best over the slopes a card
    lies at."""
    xs_mm = np.arange(xc - 22, xc + 22.1, 4.0)
    y = ys_mm[None, :, None] + (xs_mm[None, None, :] - xc) * np.tan(_SLOPES)[:, None, None]
    x = np.broadcast_to(xs_mm[None, None, :], y.shape)
    col = ((x - view.x0) * view.scale - (STRIDE - 1) / 2) / STRIDE
    row = ((y - view.y0) * view.scale - (STRIDE - 1) / 2) / STRIDE
    values = cv2.remap(seg.edges, col.reshape(-1, x.shape[-1]).astype(np.float32),
                       row.reshape(-1, x.shape[-1]).astype(np.float32), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    out: np.ndarray = values.reshape(y.shape).mean(axis=2).max(axis=0)
    return out


def edge_peaks(seg: Segments, view: View, xc: float, card_top: float) -> list[float]:
    """The y (mm) of the card top edges from the play area's top down to just below
    ``card_top``: the profile's local peaks at least :data:`EDGE_PEAK` strong, at least
    :data:`EDGE_GAP_MM` apart (the stronger kept)."""
    ys = np.arange(0.0, card_top + OWN_EDGE_MM + 0.01, 0.5)
    if ys.size < 3:  # a top card placed above the play area: no edges to look for
        return []
    profile = edge_profile(seg, view, xc, ys)
    peak = np.zeros(ys.size, bool)
    peak[1:-1] = (profile[1:-1] >= profile[:-2]) & (profile[1:-1] >= profile[2:])
    found: list[float] = []
    xs, grid_ys = _grid(seg, view)
    for k in np.argsort(-profile):
        if profile[k] < EDGE_PEAK:
            break
        if (peak[k] and all(abs(ys[k] - f) >= EDGE_GAP_MM for f in found)
                and _card_below(seg, xs, grid_ys, xc, float(ys[k])) >= CARD_BELOW):
            found.append(float(ys[k]))
    return sorted(found)


CARD_BELOW = 0.5  # a top edge has card under it: a plank seam or a cloth's line has not


def _card_below(seg: Segments, xs: np.ndarray, ys: np.ndarray, xc: float, y: float) -> float:
    """How much of the band just under a line at ``y`` (1.5-5.5 mm below it, the middle
    44 mm of the column) the segmenter calls card (``xs``, ``ys``: :func:`_grid`)."""
    rows = (ys >= y + 1.5) & (ys <= y + 5.5)
    cols = np.abs(xs - xc) <= 22.0
    if not rows.any() or not cols.any():
        return 0.0
    return float(seg.card[rows][:, cols].mean())
