"""The table as it looks: what tells a card from the table it lies on.

The table's colour is learnt from places no card lies (the band above the stacks and the
gaps between columns); whatever differs from it is foreground.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.view import View


def table_points(view: View) -> np.ndarray:
    """:func:`background_points` of ``view``, built once."""
    if "table_points" not in view.memo:
        view.memo["table_points"] = background_points(view)
    return view.memo["table_points"]


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
    return fill_holes(closed, table_points(view)), blobs.astype(bool), dist, bar


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


def colour_distance(diff: np.ndarray) -> np.ndarray:
    """Half the lightness plus both chroma channels of a YCrCb difference (uint8,
    saturating). The same as ``cv2.transform`` with weights (0.5, 1, 1), a tenth of the
    time: that call takes a float path."""
    light, cr, cb = cv2.split(diff)
    return cv2.addWeighted(cv2.add(cr, cb), 1.0, light, 0.5, 0)
