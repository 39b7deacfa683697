"""Capture effects shared by scenes and training crops: table, light, glare, blur, noise, JPEG.

Every function takes an explicit ``random.Random`` so a seed reproduces a frame exactly.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import cv2
import numpy as np

SKIN_BGR = (
    (120, 160, 225),
    (95, 135, 200),
    (70, 105, 165),
    (50, 75, 120),
    (40, 55, 85),
    (140, 175, 230),
)
SLEEVE_BGR = ((230, 230, 230), (25, 25, 25), (150, 60, 30), (40, 40, 160), (60, 120, 60))


def table_texture(h: int, w: int, rng: random.Random) -> np.ndarray:
    """A table top (wood grain, felt or paint): a random window of one of 48 cached textures."""
    big = _texture(rng.randrange(48))
    if h > big.shape[0] or w > big.shape[1]:
        big = cv2.resize(big, (max(w, big.shape[1]), max(h, big.shape[0])))
    y = rng.randint(0, big.shape[0] - h)
    x = rng.randint(0, big.shape[1] - w)
    return big[y : y + h, x : x + w].copy()


@lru_cache(maxsize=48)
def _texture(index: int) -> np.ndarray:
    rng = random.Random(index)
    h = w = 1024
    kind = ("wood", "felt", "plain")[index % 3]
    nrng = np.random.default_rng(index)
    if kind == "wood":
        base = np.array(
            (40 + rng.randint(0, 60), 70 + rng.randint(0, 60), 110 + rng.randint(0, 70)), np.float32
        )
        rows = nrng.normal(0, 1, (h, 1)).astype(np.float32)
        grain = cv2.GaussianBlur(rows, (1, 0), sigmaX=1, sigmaY=3) * 18
        img = base + grain[:, :, None] + nrng.normal(0, 4, (h, w, 1)).astype(np.float32)
        if rng.random() < 0.5:
            img = img.transpose(1, 0, 2)
    else:
        felts = ((40, 100, 30), (110, 70, 25), (85, 85, 85), (40, 40, 110))
        pick = rng.choice(felts) if kind == "felt" else [rng.randint(20, 220) for _ in range(3)]
        base = np.array(pick, np.float32)
        img = base + nrng.normal(0, 6 if kind == "felt" else 2, (h, w, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _ramp(h: int, w: int, angle: float) -> np.ndarray:
    """A linear ramp over the image, -0.5..0.5 along ``angle``."""
    xs = (np.arange(w, dtype=np.float32) / w - 0.5) * math.cos(angle)
    ys = (np.arange(h, dtype=np.float32) / h - 0.5) * math.sin(angle)
    return ys[:, None] + xs[None, :]


def _scale(img: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """Multiply by a smooth per-pixel, per-channel factor given on a coarse grid."""
    h, w = img.shape[:2]
    full = cv2.resize(factor.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, full, dtype=cv2.CV_8U)


def light(
    img: np.ndarray, rng: random.Random, gain: tuple[float, float] = (0.5, 1.4)
) -> np.ndarray:
    """Overall brightness, a linear light gradient and a white-balance cast."""
    g = rng.uniform(*gain)
    ramp = _ramp(9, 9, rng.uniform(0, 2 * math.pi)) * rng.uniform(0, 0.35)
    wb = np.array([rng.uniform(0.8, 1.2) for _ in range(3)], np.float32)
    return _scale(img, (g * (1 + ramp))[:, :, None] * wb)


def shadow(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """A soft-edged shadow over a random half-plane (a lamp blocked by a head or arm)."""
    d = _ramp(33, 33, rng.uniform(0, 2 * math.pi)) - rng.uniform(-0.3, 0.3)
    soft = 1 / (1 + np.exp(-d / rng.uniform(0.02, 0.08)))
    factor = 1 - (1 - rng.uniform(0.45, 0.85)) * soft
    return _scale(img, np.repeat(factor[:, :, None], 3, axis=2))


def glare(
    img: np.ndarray,
    rng: random.Random,
    centre: tuple[float, float] | None = None,
    radius: float | None = None,
    strength: float | None = None,
) -> np.ndarray:
    """A specular highlight: an elliptical gaussian blob that washes colours out to white.

    ``strength`` (default 0.35–0.9 at random) above 1 blows the blob's middle out to flat
    white, as a camera's sensor clips a reflection brighter than its range."""
    h, w = img.shape[:2]
    cx, cy = centre or (rng.uniform(0, w), rng.uniform(0, h))
    r = radius or rng.uniform(0.05, 0.25) * max(h, w)
    stretch = rng.uniform(0.4, 1.0)
    strength = strength if strength is not None else rng.uniform(0.35, 0.9)
    x0, x1 = max(int(cx - 3 * r), 0), min(int(cx + 3 * r) + 1, w)
    y0, y1 = max(int(cy - 3 * r * stretch), 0), min(int(cy + 3 * r * stretch) + 1, h)
    out = img.copy()
    if x1 <= x0 or y1 <= y0:
        return out
    gx = np.exp(-(((np.arange(x0, x1, dtype=np.float32) - cx) / r) ** 2))
    gy = np.exp(-(((np.arange(y0, y1, dtype=np.float32) - cy) / (r * stretch)) ** 2))
    amount = np.minimum(strength * gy[:, None] * gx[None, :], 1.0)[:, :, None]
    roi = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = (roi * (1 - amount) + 255 * amount).astype(np.uint8)
    return out


def lamp(
    img: np.ndarray, centre: tuple[float, float], radius: float, strength: float = 0.8
) -> np.ndarray:
    """A lamp reflected in a glossy table: a bright disc (``radius`` pixels) with a soft
    rim, washing colours towards white; the same place in every frame of a fixed camera.
    A ``strength`` above 1 blows the disc's middle out to flat white, as a camera's
    sensor clips a bright reflection."""
    h, w = img.shape[:2]
    cx, cy = centre
    ys, xs = np.ogrid[0:h, 0:w]
    d = np.sqrt(((xs - cx) / radius) ** 2 + ((ys - cy) / radius) ** 2).astype(np.float32)
    amount = np.minimum(strength * np.clip(1.6 - d, 0, 1) ** 1.5, 1.0)
    out = img.astype(np.float32)
    out += (255 - out) * amount[:, :, None]
    return out.astype(np.uint8)


def soft_shadow(
    img: np.ndarray, polys_px: list[np.ndarray], offset: tuple[float, float], sigma: float,
    strength: float,
) -> None:
    """Darken (in place) where the pixel polygons, shifted by ``offset`` and blurred by
    ``sigma`` pixels, would shade the table: the soft shadow a lamp to one side casts."""
    pts = [np.asarray(p, np.float32) + np.asarray(offset, np.float32) for p in polys_px]
    every = np.concatenate(pts)
    pad = 3 * sigma + 2
    h, w = img.shape[:2]
    x0, y0 = (max(int(v), 0) for v in every.min(axis=0) - pad)
    x1, y1 = min(int(every[:, 0].max() + pad) + 1, w), min(int(every[:, 1].max() + pad) + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((q - (x0, y0)) * 16).astype(np.int32) for q in pts], 1.0,
                 cv2.LINE_AA, shift=4)
    if sigma >= 0.5:
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - strength * mask)[:, :, None]).astype(np.uint8)


def shade(img: np.ndarray, mask: np.ndarray, rng: random.Random) -> None:
    """Round shading over a painted shape (in place, where ``mask``): a light side and a
    dark side, so a hand or an object is not one flat colour."""
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    ramp = _ramp(y1 - y0, x1 - x0, rng.uniform(0, 2 * math.pi)) * rng.uniform(0.3, 0.9)
    bumps = cv2.resize(np.asarray([[rng.uniform(-0.12, 0.12) for _ in range(5)] for _ in range(5)],
                                  np.float32), (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    factor = np.clip(1 + ramp + bumps, 0.3, 1.6)
    roi = img[y0:y1, x0:x1]
    shaded = np.clip(roi * factor[:, :, None], 0, 255).astype(np.uint8)
    inside = mask[y0:y1, x0:x1]
    roi[inside] = shaded[inside]


def blur(img: np.ndarray, rng: random.Random, max_sigma: float = 1.6) -> np.ndarray:
    """Defocus (gaussian) or a little motion blur."""
    if rng.random() < 0.25:
        n = rng.randint(3, 7)
        kernel: np.ndarray = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        return cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = rng.uniform(0, max_sigma)
    return img if sigma < 0.3 else cv2.GaussianBlur(img, (0, 0), sigma)


@lru_cache(maxsize=1)
def _grain() -> np.ndarray:
    """Unit gaussian noise stored as uint8 around 128 (σ = 32), cut into windows."""
    nrng = np.random.default_rng(7)
    return np.clip(nrng.normal(128, 32, (1100, 1400, 3)), 0, 255).astype(np.uint8)


def noise(img: np.ndarray, rng: random.Random, max_sigma: float = 8.0) -> np.ndarray:
    """Sensor noise: gaussian, per pixel and channel."""
    sigma = rng.uniform(0, max_sigma)
    if sigma < 0.5:
        return img
    pool = _grain()
    h, w = img.shape[:2]
    if h > pool.shape[0] or w > pool.shape[1]:
        pool = cv2.resize(
            pool, (max(w, pool.shape[1]), max(h, pool.shape[0])), interpolation=cv2.INTER_NEAREST
        )
    y, x = rng.randint(0, pool.shape[0] - h), rng.randint(0, pool.shape[1] - w)
    k = sigma / 32
    return cv2.addWeighted(img, 1.0, pool[y : y + h, x : x + w], k, -128 * k)


def jpeg(img: np.ndarray, rng: random.Random, quality: tuple[int, int] = (45, 95)) -> np.ndarray:
    """A JPEG round trip, as a camera stream or a saved frame would have."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(*quality)])
    if not ok:
        return img
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None  # what imencode just wrote always decodes
    return decoded


def hand_polygons(
    tip: tuple[float, float], angle: float, rng: random.Random, scale: float = 1.0
) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
    """A hand and forearm in table millimetres, fingertips at ``tip``, arm along ``angle``.

    ``angle`` (radians) points from the fingertips towards the elbow; the arm runs 400 mm
    so it leaves any frame.
    """
    skin = rng.choice(SKIN_BGR)
    sleeve = (rng.randint(20, 220), rng.randint(20, 220), rng.randint(20, 220))
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = -uy, ux
    s = scale * rng.uniform(0.85, 1.15)

    def at(along: float, across: float) -> tuple[float, float]:
        return (
            tip[0] + ux * along * s + px * across * s,
            tip[1] + uy * along * s + py * across * s,
        )

    polys = []
    for i, (across, length) in enumerate(((-30, 62), (-11, 72), (8, 70), (26, 58))):
        start = 8 + rng.uniform(0, 10) if i else 20
        finger = [
            at(start, across - 8),
            at(start, across + 8),
            at(length + 10, across + 9),
            at(length + 10, across - 9),
        ]
        polys.append((np.array(finger, np.float32), skin))
    palm = [at(60, -40), at(55, 38), at(140, 34), at(150, -36)]
    thumb = [at(95, 36), at(60, 62), at(72, 74), at(120, 44)]
    arm = [at(140, -34), at(135, 34), at(420, 42), at(420, -42)]
    cuff = [at(240, -40), at(240, 40), at(420, 46), at(420, -46)]
    polys += [
        (np.array(palm, np.float32), skin),
        (np.array(thumb, np.float32), skin),
        (np.array(arm, np.float32), skin),
        (np.array(cuff, np.float32), sleeve),
    ]
    return polys


def fill_polygons(
    img: np.ndarray, polys: list[tuple[np.ndarray, tuple[int, int, int]]], to_pixels: np.ndarray
) -> None:
    """Draw millimetre polygons through a 3×3 homography (mm → pixels), with round joints."""
    for pts, colour in polys:
        px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), to_pixels).reshape(-1, 2)
        cv2.fillPoly(img, [np.round(px * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
