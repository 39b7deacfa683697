"""Find each location's stack in the rectified play area: empty, depth, top card outline."""

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
