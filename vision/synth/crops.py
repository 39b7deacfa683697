"""Canonical card images as the locator would cut them from a real frame, for training.

A card face is laid on a patch of table at a random camera resolution, lit, glared,
shadowed, sleeved, blurred, noised and JPEG-compressed, then cut out through a slightly
wrong outline (the locator's error) exactly as :func:`vision.crop.warp_card` cuts it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import cv2
import numpy as np

from vision.crop import warp_card
from vision.synth import effects
from vision.synth.cards import CARD_H_MM, CARD_W_MM, FACE_H, FACE_W, draw_foreign

MARGIN_MM = 8.0
PATCH_MARGIN_MM = 20.0  # table around an uncut capture: more than the second look searches
CASCADE_MM = 14.0
NEGATIVE_KINDS = ("hand", "table", "foreign", "object")


def _card_corners(rng: random.Random, jitter_deg: float = 1.5) -> np.ndarray:
    """The card's true corners (TL, TR, BR, BL) in patch millimetres."""
    cx = MARGIN_MM + CARD_W_MM / 2 + rng.uniform(-1, 1)
    cy = MARGIN_MM + CARD_H_MM / 2 + rng.uniform(-1, 1)
    a = math.radians(rng.uniform(-jitter_deg, jitter_deg))
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * (
        CARD_W_MM / 2,
        CARD_H_MM / 2,
    )
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    return (half @ rot.T + (cx, cy)).astype(np.float32)


def _paste(patch: np.ndarray, face: np.ndarray, corners_px: np.ndarray) -> None:
    src = np.array(
        [[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]], [0, face.shape[0]]], np.float32
    )
    m = cv2.getPerspectiveTransform(src, corners_px.astype(np.float32))
    h, w = patch.shape[:2]
    warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_LINEAR)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners_px).astype(np.int32), 255)
    np.copyto(patch, warped, where=mask[:, :, None] > 0)


def _sleeve(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """A sleeve: a coloured or clear rim and a faint sheen that lowers contrast."""
    colour = np.array(rng.choice(effects.SLEEVE_BGR), np.float32)
    out = face.astype(np.float32)
    rim = rng.randint(3, 7)
    out[:rim], out[-rim:], out[:, :rim], out[:, -rim:] = colour, colour, colour, colour
    sheen = rng.uniform(0.05, 0.2)
    return (out * (1 - sheen) + 255 * sheen).astype(np.uint8)


def _estimate_error(corners_mm: np.ndarray, rng: random.Random) -> np.ndarray:
    """The outline the locator would report: shifted, scaled and bent a little."""
    centre = corners_mm.mean(axis=0)
    scale = rng.uniform(0.95, 1.05)
    shift = np.array([rng.uniform(-3, 3), rng.uniform(-3, 3)], np.float32)
    wobble = np.array([[rng.gauss(0, 1.0), rng.gauss(0, 1.0)] for _ in range(4)], np.float32)
    out: np.ndarray = (corners_mm - centre) * scale + centre + shift + np.clip(wobble, -3, 3)
    return out


def _negative_face(kind: str, rng: random.Random) -> np.ndarray | None:
    if kind == "foreign":
        return draw_foreign(rng)
    if kind == "object":
        img = np.full((FACE_H, FACE_W, 3), [rng.randint(0, 255) for _ in range(3)], np.uint8)
        cv2.circle(
            img,
            (FACE_W // 2, FACE_H // 2),
            rng.randint(30, 110),
            [rng.randint(0, 255) for _ in range(3)],
            -1,
        )
        return img
    return None


def capture(
    face: np.ndarray | None, rng: random.Random, negative: str | None = None, clean: bool = False
) -> np.ndarray:
    """One canonical crop of ``face`` (or of a negative: a hand over it, bare table, ...)."""
    return capture_views(face, rng, negative, clean, views=1)[0]


def capture_views(
    face: np.ndarray | None,
    rng: random.Random,
    negative: str | None = None,
    clean: bool = False,
    views: int = 1,
) -> list[np.ndarray]:
    """``views`` crops of one simulated capture, each cut through a different wrong outline
    (the expensive part, drawing and degrading the patch, is shared)."""
    patch, corners, res = _capture(face, rng, negative, clean)
    if clean:
        return [warp_card(patch, corners * res)]
    return [warp_card(patch, _estimate_error(corners, rng) * res) for _ in range(views)]


def capture_patch(
    face: np.ndarray | None,
    rng: random.Random,
    negative: str | None = None,
    under: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """One simulated capture at camera resolution, uncut: a patch of table with the card
    (or a negative) on top of a cascade of ``under`` (older cards, oldest first, each
    showing its top strip above it), and the outline the locator would report (TL, TR,
    BR, BL, patch pixels). For what needs more pixels than a canonical crop: the second
    look, which searches a cascade step around the outline."""
    margin = (PATCH_MARGIN_MM, PATCH_MARGIN_MM + CASCADE_MM * len(under), PATCH_MARGIN_MM)
    patch, corners, res = _capture(face, rng, negative, False, margin, under)
    return patch, (_estimate_error(corners, rng) * res).astype(np.float32)


def _capture(
    face: np.ndarray | None,
    rng: random.Random,
    negative: str | None,
    clean: bool,
    margin: tuple[float, float, float] = (MARGIN_MM, MARGIN_MM, MARGIN_MM),
    under: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, np.ndarray, float]:
    """The drawn and degraded patch, the card's true corners (mm) and the px per mm.
    ``margin``: table around the card (sides, top, bottom; mm)."""
    res = 3.2 if clean else rng.uniform(2.0, 3.8)  # camera pixels per mm on the table
    side, top, bottom = margin
    size_mm = np.array((CARD_W_MM + 2 * side, CARD_H_MM + top + bottom))
    w, h = (size_mm * res).astype(int)
    patch = effects.table_texture(h, w, rng)
    corners = _card_corners(rng, 0.0 if clean else 2.5)
    if (side, top) != (MARGIN_MM, MARGIN_MM):  # untouched otherwise: training crops repeat
        corners = corners + np.array([side - MARGIN_MM, top - MARGIN_MM], np.float32)
    for k, older in enumerate(under):
        step = np.array([rng.uniform(-2, 2), -CASCADE_MM * (len(under) - k)], np.float32)
        _paste(patch, older, (corners + step) * res)
    shown = face if negative in (None, "hand") else _negative_face(negative, rng)
    if shown is not None:
        if not clean and rng.random() < 0.3:
            shown = _sleeve(shown, rng)
        _paste(patch, shown, corners * res)
    if negative == "hand":
        tip = corners.mean(axis=0) + np.array((rng.uniform(-20, 20), rng.uniform(-35, 30)))
        polys = effects.hand_polygons(tuple(tip), rng.uniform(0.3, math.pi - 0.3), rng)
        effects.fill_polygons(patch, polys, np.diag([res, res, 1]).astype(np.float32))
    if not clean:
        patch = _degrade(patch, rng, corners * res)
    return patch, corners, res


def _degrade(patch: np.ndarray, rng: random.Random, corners_px: np.ndarray) -> np.ndarray:
    patch = effects.light(patch, rng)
    if rng.random() < 0.3:
        patch = effects.shadow(patch, rng)
    if rng.random() < 0.35:
        x, y = corners_px[rng.randrange(4)] * rng.uniform(0.3, 1.0) + corners_px.mean(0) * 0.3
        # Half the reflections are brighter than the sensor's range and clip a patch of
        # the card flat white: the embedder must name a card from what the white leaves.
        blown = rng.random() < 0.5
        strength = rng.uniform(1.0, 2.5) if blown else rng.uniform(0.35, 0.9)
        radius = rng.uniform(0.1, 0.4) if blown else rng.uniform(0.08, 0.3)
        patch = effects.glare(
            patch, rng, (float(x), float(y)), radius * patch.shape[0], strength
        )
    patch = effects.blur(patch, rng, 1.4)
    patch = effects.noise(patch, rng, 8.0)
    return effects.jpeg(patch, rng)


def loose_photo(
    face: np.ndarray,
    rng: random.Random,
    under: Sequence[np.ndarray] = (),
    neighbours: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """A phone photo of one card on a table, as ``companion cards identify`` gets one: on
    top of a cascade of ``under`` (their strips above it), ``neighbours`` lying beside it
    and peeking in, the phone held a little askew (perspective, a turn), lit, glared,
    blurred, noised and JPEG-compressed. Returns the photo and the card's corners (TL,
    TR, BR, BL, pixels)."""
    res = rng.uniform(2.5, 6.0)  # photo pixels per mm
    side, top = rng.uniform(4, 20), rng.uniform(4, 12) + CASCADE_MM * len(under)
    bottom = rng.uniform(4, 20)
    size_mm = np.array((CARD_W_MM + 2 * side, CARD_H_MM + top + bottom))
    w, h = (size_mm * res).astype(int)
    photo = effects.table_texture(h, w, rng)
    card = _card_corners(rng, 3.0) + np.array([side, top], np.float32) - MARGIN_MM
    for k, older in enumerate(under):
        _paste(
            photo,
            older,
            (card + np.array([rng.uniform(-2, 2), -CASCADE_MM * (len(under) - k)],
                             np.float32)) * res,
        )
    for k, other in enumerate(neighbours):
        away = (1 if k % 2 else -1) * (CARD_W_MM + rng.uniform(3, 10))
        _paste(photo, other, (card + np.array([away, rng.uniform(-10, 10)], np.float32)) * res)
    _paste(photo, _sleeve(face, rng) if rng.random() < 0.3 else face, card * res)
    photo = _degrade(photo, rng, card * res)
    return _askew(photo, card * res, rng)


def _askew(
    photo: np.ndarray, quad: np.ndarray, rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a phone held a little off square sees it: each corner moved up to 6 %
    of the size, the whole turned up to 6°."""
    h, w = photo.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = np.array([[rng.uniform(-0.06, 0.06) * w, rng.uniform(-0.06, 0.06) * h] for _ in src])
    turn = math.radians(rng.uniform(-6, 6))
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    dst = ((src + jitter - (w / 2, h / 2)) @ rot.T + (w / 2, h / 2)).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(photo, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out, cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float32), m).reshape(
        -1, 2
    )


NULL_KINDS = ("table", "foreign", "object")


def null_crops(seed: int = 0, per_kind: int = 8) -> list[np.ndarray]:
    """Simulated crops of bare table, other games' cards and objects: where the embedder
    puts everything that is no card of its own (the head's null prototypes)."""
    rng = random.Random(seed)
    return [capture(None, rng, kind) for kind in NULL_KINDS for _ in range(per_kind)]
