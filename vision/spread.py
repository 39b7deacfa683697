"""Scoring by camera: find every card laid face up in the play area and name it.

Cards may lie apart (in rows, at any angle) or overlap in a cascade or fan. Each
separate region of the table's foreground is split into card outlines: a region the size
of one card is one card; a longer one is a cascade, read from its fully visible end
card, with the partly covered ones reported by position and ``None`` for their id (the
embedder reads whole cards; a covered card is named only once it is moved apart).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibrate import MARKER_MM, Calibration
from vision.classifier import CardClassifier
from vision.locate import CARD_H_MM, CARD_W_MM, card_quad, warp_card

SCALE = 2.0  # px per mm of the top-down view
MARGIN_MM = 8.0


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
    """Foreground: unlike the table colour sampled all along the view's border.

    A slight blur first (under 1 mm) keeps wood grain and felt from counting as
    "unlike the table"; the bar is three times the border's median distance (a robust
    noise figure: the marker sheets at the corners are in the border too).
    """
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.GaussianBlur(lab, (0, 0), 0.75 * SCALE)
    b = int(4 * SCALE)
    ring = np.concatenate([lab[:b, b:-b].reshape(-1, 3), lab[-b:, b:-b].reshape(-1, 3)])
    ring = ring[ring[:, 0] > 0]
    med = np.median(ring, axis=0)
    weights = (0.5, 1, 1)  # lightness counts half: light and shadow vary, colour less
    noise = np.median(np.linalg.norm((ring - med) * weights, axis=1))
    dist = np.linalg.norm((lab - med) * weights, axis=2)
    mask = (dist > max(10.0, 3 * float(noise))).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))


def _split(rect: tuple, count: int) -> list[np.ndarray]:
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


def _count(rect: tuple) -> int:
    """Cards in a region from its length: one card, or a cascade of CASCADE_STEP_MM steps."""
    long_mm, short_mm = max(rect[1]) / SCALE, min(rect[1]) / SCALE
    card_along = CARD_W_MM if short_mm > CARD_W_MM + 12 else CARD_H_MM
    return 1 + max(0, round((long_mm - card_along) / CASCADE_STEP_MM))


def _drop_markers(mask: np.ndarray, cal: Calibration) -> np.ndarray:
    """Clear the marker sheets at the play area's corners (they are not cards)."""
    half = MARKER_MM * 10 / 12 + 2  # code plus two white cells each side, and a little
    for x, y in ((0, 0), (cal.width_mm, 0), (cal.width_mm, cal.height_mm), (0, cal.height_mm)):
        x0, y0 = (x + MARGIN_MM - half) * SCALE, (y + MARGIN_MM - half) * SCALE
        x1, y1 = (x + MARGIN_MM + half) * SCALE, (y + MARGIN_MM + half) * SCALE
        mask[max(int(y0), 0) : max(int(y1), 0), max(int(x0), 0) : max(int(x1), 0)] = 0
    return mask


def outlines(frame: np.ndarray, cal: Calibration) -> list[tuple[np.ndarray, bool]]:
    """Card outlines (play-area mm) and whether each card is fully visible."""
    view, _ = _view(frame, cal)
    mask = _drop_markers(_mask(view), cal)
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


def find_cards(
    frame: np.ndarray, calibration: Calibration, classifier: CardClassifier | None = None
) -> list[tuple[str | None, float, np.ndarray]]:
    """Every card in the play area: (card id or None, confidence, corners in frame pixels)."""
    classifier = classifier or CardClassifier()
    cards = outlines(frame, calibration)
    quads_px = [calibration.to_pixels(q) for q, _ in cards]
    crops = [warp_card(frame, q, classifier.input_size) for q in quads_px]
    idents = classifier.identify(crops) if crops else []
    out = []
    for (_, visible), quad, ident in zip(cards, quads_px, idents, strict=True):
        card = ident.card if visible else None
        out.append((card, ident.confidence if card else 0.0, quad))
    return out
