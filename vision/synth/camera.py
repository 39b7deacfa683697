"""The simulated camera: where a point of the table lands in the frame, and pasting a
flat image (a card, a marker) onto the table as the camera sees it."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from vision.calibrate import MARKER_MM, PLAY_H_MM, PLAY_W_MM
from vision.view import BELOW_MM

PAPER_MM = MARKER_MM * 10 / 6  # the white sheet a marker is printed on

def camera_homography(
    rng: random.Random, size: tuple[int, int], tilt_deg: float | None, wide: bool = False
) -> np.ndarray:
    """Play-area mm → pixels for a camera on the player's side, tilted up to 30°; a
    ``wide`` lens (about 90° across) sits closer, so the far side shrinks more."""
    w, h = size
    tilt = math.radians(rng.uniform(0, 30) if tilt_deg is None else tilt_deg)
    roll = math.radians(rng.uniform(-4, 4))
    target = np.array(
        [PLAY_W_MM / 2 + rng.uniform(-10, 10), PLAY_H_MM / 2 + 15 + rng.uniform(-8, 8), 0]
    )
    f = w * (rng.uniform(0.45, 0.55) if wide else rng.uniform(0.75, 0.95))
    width, height = extent(look_at(target, 1000.0, tilt, roll, f, size))
    fill = rng.uniform(0.84, 0.94)
    scale = max(width / (fill * w), height / (fill * h))
    return look_at(target, 1000.0 * scale, tilt, roll, f, size)


def any_homography(rng: random.Random, size: tuple[int, int], wide: bool = False) -> np.ndarray:
    """Play-area mm → pixels for a camera anywhere round the table: tilted up to 30° from
    either side, turned and rolled a little, the scene filling 55-95 % of the frame (for
    training, so no single pose is all the segmenter knows)."""
    w, h = size
    tilt = math.radians(rng.uniform(-30, 30))
    roll = math.radians(rng.uniform(-7, 7))
    yaw = math.radians(rng.uniform(-9, 9))
    target = np.array(
        [PLAY_W_MM / 2 + rng.uniform(-15, 15), PLAY_H_MM / 2 + 15 + rng.uniform(-12, 12), 0]
    )
    f = w * (rng.uniform(0.45, 0.55) if wide else rng.uniform(0.7, 1.0))
    turn = _turn_about(target, yaw)
    width, height = extent(look_at(target, 1000.0, tilt, roll, f, size) @ turn)
    fill = rng.uniform(0.55, 0.95)
    scale = max(width / (fill * w), height / (fill * h))
    out: np.ndarray = look_at(target, 1000.0 * scale, tilt, roll, f, size) @ turn
    return out


def _turn_about(centre: np.ndarray, angle: float) -> np.ndarray:
    """3×3 homogeneous rotation of the table plane about ``centre`` (mm) by ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    x, y = float(centre[0]), float(centre[1])
    out: np.ndarray = np.array([[c, -s, x - c * x + s * y], [s, c, y - s * x - c * y], [0, 0, 1]])
    return out


def look_at(
    target: np.ndarray, dist: float, tilt: float, roll: float, f: float, size: tuple[int, int]
) -> np.ndarray:
    # World: X right, Y towards the player, Z down into the table (right-handed).
    centre = target + dist * np.array([0.0, math.sin(tilt), -math.cos(tilt)])
    z = (target - centre) / np.linalg.norm(target - centre)
    y = np.array([0.0, 1.0, 0.0]) - z[1] * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    x, y = x * math.cos(roll) + y * math.sin(roll), -x * math.sin(roll) + y * math.cos(roll)
    rot = np.stack([x, y, z])
    k = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1]])
    t = -rot @ centre
    hom = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
    out: np.ndarray = hom / hom[2, 2]
    return out


def extent(hom: np.ndarray) -> tuple[float, float]:
    """Pixels the scene (markers' paper and deep stacks) spans under ``hom``: width, height."""
    pts = np.array(
        [
            [-PAPER_MM, -PAPER_MM],
            [PLAY_W_MM + PAPER_MM, -PAPER_MM],
            [PLAY_W_MM + PAPER_MM, PLAY_H_MM + BELOW_MM],
            [-PAPER_MM, PLAY_H_MM + BELOW_MM],
        ],
        np.float32,
    )
    px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(-1, 2)
    return float(np.ptp(px[:, 0])), float(np.ptp(px[:, 1]))


def frame_box(frame: np.ndarray, quad: np.ndarray) -> tuple[int, int, int, int] | None:
    """The part of ``frame`` that ``quad`` covers (x0, y0, x1, y1), or None if none."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (w, h))
    return (int(x0), int(y0), int(x1), int(y1)) if x1 > x0 and y1 > y0 else None


def paste(frame: np.ndarray, img: np.ndarray, quad: np.ndarray) -> None:
    """Draw ``img`` into ``frame`` with its corners on ``quad`` (TL, TR, BR, BL pixels)."""
    box = frame_box(frame, quad)
    if box is None:
        return
    x0, y0, x1, y1 = box
    ih, iw = img.shape[:2]
    src = np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    roi = frame[y0:y1, x0:x1]
    # Transparent border: only pixels that map inside the image are written.
    cv2.warpPerspective(
        img, m, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT
    )


def project(hom: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts_mm, np.float32).reshape(-1, 1, 2), hom).reshape(
        -1, 2
    )


def rect_mm(cx: float, cy: float, w: float, h: float, angle_deg: float = 0.0) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a ``w`` × ``h`` rectangle centred at (cx, cy), rotated."""
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    out: np.ndarray = (half @ rot.T + (cx, cy)).astype(np.float32)
    return out
