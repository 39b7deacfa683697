"""Scoring by camera: find every card laid face up in the play area and name it.

Cards may lie apart (in rows, at any angle) or overlap in a cascade or fan. Each
separate region of the table's foreground is split into card outlines: a region the size
of one card is one card; a longer one is a cascade, read from its fully visible end
card, with the partly covered ones reported by position and ``None`` for their id (the
embedder reads whole cards; a covered card is named only once it is moved apart).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibrate import MARKER_MM, Calibration
from vision.classifier import CardClassifier
from vision.locate import CARD_H_MM, CARD_W_MM, card_quad
from vision.table import (
    PLAIN_SHARE,
    UNLIKE_BAR,
    Palette,
    Reference,
    colour_distance,
    normalised,
)
from vision.view import View

SCALE = 2.0  # px per mm of the top-down view
MARGIN_MM = 8.0

# cv2.minAreaRect: centre, (width, height), angle in degrees
RotatedRect = tuple[Sequence[float], Sequence[float], float]


def _view(frame: np.ndarray, cal: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """Top-down view of the play area and the matrix taking view pixels to frame pixels."""
    to_mm = np.array([[1 / SCALE, 0, -MARGIN_MM], [0, 1 / SCALE, -MARGIN_MM], [0, 0, 1]])
    m = cal.homography() @ to_mm
    size = (
        round((cal.width_mm + 2 * MARGIN_MM) * SCALE),
        round((cal.height_mm + 2 * MARGIN_MM) * SCALE),
    )
    view = cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return view, m


def _mask(view: np.ndarray) -> np.ndarray:
    """Foreground: unlike the table, as the border of the view shows it (the play area's
    margin, clear of the marker sheets at its corners).

    A slight blur first (under 1 mm) keeps wood grain and felt from counting as "unlike
    the table". A pixel is table when it is near the border's median colour (within
    three times the border's median distance from it: a robust noise figure), or near
    one of the colours a speckled or patterned table shows all round the border
    (:class:`vision.table.Palette`). Lightness counts half: light and shadow vary,
    colour less.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(view, (0, 0), 0.75 * SCALE), cv2.COLOR_BGR2YCrCb)
    ring = _ring(view.shape[:2])
    samples = lab[(ring > 0) & (lab[:, :, 0] > 0)]
    if len(samples) == 0:
        return np.zeros(view.shape[:2], np.uint8)
    med = np.median(samples, axis=0)
    noise = float(np.median(np.abs(samples - med) @ np.array([0.5, 1.0, 1.0])))
    unlike = cv2.convertScaleAbs(
        # OpenCV takes a scalar as a tuple; its stubs want an array
        colour_distance(cv2.absdiff(lab, (*map(float, med), 0.0))),  # type: ignore[call-overload]
        alpha=UNLIKE_BAR / max(10.0, 3 * noise),
    )
    if float((unlike[ring > 0] > UNLIKE_BAR).mean()) >= PLAIN_SHARE:
        flat = normalised(lab, ring > 0, SCALE)
        palette = Palette.learn(flat, ring, lab[:, :, 0] > 0)
        if palette is not None:
            unlike = cv2.min(unlike, palette.unlikeness(flat))
    mask: np.ndarray = (unlike > UNLIKE_BAR).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((OPEN_PX, OPEN_PX), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((CLOSE_PX, CLOSE_PX), np.uint8))


OPEN_PX, CLOSE_PX = 3, 9  # specks; a card split by its own table-like colours


def _ring(shape: tuple[int, int]) -> np.ndarray:
    """The view's border, 4 mm deep, cut into eight numbered stretches (two a side) and
    clear of the marker sheets at the corners (uint8, 0 elsewhere)."""
    h, w = shape
    b, corner = int(4 * SCALE), int((MARGIN_MM + MARKER_MM) * SCALE)
    ring = np.zeros(shape, np.uint8)
    for k, (rows, cols) in enumerate(
        [
            (slice(0, b), slice(corner, w // 2)),
            (slice(0, b), slice(w // 2, w - corner)),
            (slice(h - b, h), slice(corner, w // 2)),
            (slice(h - b, h), slice(w // 2, w - corner)),
            (slice(corner, h // 2), slice(0, b)),
            (slice(h // 2, h - corner), slice(0, b)),
            (slice(corner, h // 2), slice(w - b, w)),
            (slice(h // 2, h - corner), slice(w - b, w)),
        ],
        start=1,
    ):
        ring[rows, cols] = k
    return ring


def _split(rect: RotatedRect, count: int) -> list[np.ndarray]:
    """Card outlines (mm, view origin) along a cascade's long axis; the last is on top."""
    (cx, cy), (w, h), angle = rect
    if w < h:  # make the long side run along ``angle``
        w, h, angle = h, w, angle + 90
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    card_along = CARD_W_MM if h / SCALE > CARD_W_MM + 12 else CARD_H_MM
    length = w / SCALE
    step = (length - card_along) / max(count - 1, 1)
    quads = []
    for k in range(count):
        off = -length / 2 + card_along / 2 + k * step
        qx, qy = cx / SCALE + ux * off - MARGIN_MM, cy / SCALE + uy * off - MARGIN_MM
        upright = angle if card_along == CARD_W_MM else angle - 90
        quads.append(card_quad(qx, qy, math.radians(((upright + 45) % 90) - 45)))
    return quads


CASCADE_STEP_MM = 21.0  # how far each card of a scoring cascade is laid from the last


def _count(rect: RotatedRect) -> int:
    """Cards in a region from its length: one card, or a cascade of CASCADE_STEP_MM steps."""
    long_mm, short_mm = max(rect[1]) / SCALE, min(rect[1]) / SCALE
    card_along = CARD_W_MM if short_mm > CARD_W_MM + 12 else CARD_H_MM
    return 1 + max(0, round(float(long_mm - card_along) / CASCADE_STEP_MM))


def _drop_markers(mask: np.ndarray, cal: Calibration) -> np.ndarray:
    """Clear the marker sheets at the play area's corners (they are not cards)."""
    half = MARKER_MM * 10 / 12 + 2  # code plus two white cells each side, and a little
    for x, y in ((0, 0), (cal.width_mm, 0), (cal.width_mm, cal.height_mm), (0, cal.height_mm)):
        x0, y0 = (x + MARGIN_MM - half) * SCALE, (y + MARGIN_MM - half) * SCALE
        x1, y1 = (x + MARGIN_MM + half) * SCALE, (y + MARGIN_MM + half) * SCALE
        mask[max(int(y0), 0) : max(int(y1), 0), max(int(x0), 0) : max(int(x1), 0)] = 0
    return mask


def outlines(
    frame: np.ndarray, cal: Calibration, table: tuple[View, Reference] | None = None
) -> list[tuple[np.ndarray, bool]]:
    """Card outlines (play-area mm) and whether each card is fully visible; where the
    fixed camera's reference of the bare table (``table``: the scanner's view and
    reference) knows the table, foreground is what differs from it."""
    view, _ = _view(frame, cal)
    mask = _mask(view)
    if table is not None and table[1].known.any():
        mask = _with_reference(mask, frame, *table)
    mask = _drop_markers(mask, cal)
    b = int(4 * SCALE)  # the border the table is learnt from holds no card
    mask[:b], mask[-b:], mask[:, :b], mask[:, -b:] = 0, 0, 0, 0
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    card_area = CARD_W_MM * CARD_H_MM * SCALE**2
    found = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.6 * card_area:
            continue  # specks, markers
        rect = cv2.minAreaRect(contour)
        quads = _split(rect, _count(rect))
        found += [(q, k == len(quads) - 1) for k, q in enumerate(quads)]
    return found


def _with_reference(mask: np.ndarray, frame: np.ndarray, view: View, ref: Reference) -> np.ndarray:
    """``mask`` (this module's view) where the reference does not know the table; where it
    does, the pixels unlike the reference (read in the scanner's view, scaled across)."""
    lab = cv2.cvtColor(view.rectify(frame), cv2.COLOR_BGR2YCrCb)
    unlike: np.ndarray = (ref.unlikeness(view, lab) > UNLIKE_BAR).astype(np.uint8)
    # A card is far larger than the specks a change of focus or light leaves on a pattern.
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    # This module's pixel (u, v) is play-area mm (u / SCALE - MARGIN_MM, ...).
    step = view.scale / SCALE
    offset = (-MARGIN_MM - view.x0) * view.scale, (-MARGIN_MM - view.y0) * view.scale
    to_scanner = np.array([[step, 0, offset[0]], [0, step, offset[1]]], np.float32)
    size = mask.shape[::-1]
    flags = cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
    known = cv2.warpAffine(ref.known.view(np.uint8), to_scanner, size, flags=flags)
    unlike = cv2.warpAffine(unlike, to_scanner, size, flags=flags)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((CLOSE_PX, CLOSE_PX), np.uint8))
    return np.where(known > 0, unlike, mask).astype(np.uint8)


def find_cards(
    frame: np.ndarray,
    calibration: Calibration,
    classifier: CardClassifier | None = None,
    table: tuple[View, Reference] | None = None,
) -> list[tuple[str | None, float, np.ndarray]]:
    """Every card in the play area: (card id or None, confidence, corners in frame pixels).
    ``table``: the scanner's view and reference of the bare table (a fixed camera)."""
    classifier = classifier or CardClassifier()
    cards = outlines(frame, calibration, table)
    quads_px = [calibration.to_pixels(q) for q, _ in cards]
    # The second look too: a hand is read once, at the end, so its cost (about 12 ms per
    # unsure card) buys cards named that the player would otherwise add on the phone.
    idents = classifier.identify_at(frame, quads_px) if quads_px else []
    out = []
    for (_, visible), quad, ident in zip(cards, quads_px, idents, strict=True):
        card = ident.card if visible else None
        out.append((card, ident.confidence if card else 0.0, quad))
    return out
