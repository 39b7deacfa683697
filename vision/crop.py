"""A card cut out of a picture as the canonical image the classifier reads.

:func:`warp_card` cuts the card whose corners are known (the locator's outline, a spread
hand's card); :func:`card_image` first finds the one card in a photo of it.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_W, CROP_H = 64, 88  # canonical card image fed to the embedder (pixels)


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
