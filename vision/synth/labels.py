"""What the table segmenter should see in a generated scene, pixel by pixel.

The segmenter (:mod:`vision.segmenter`) reads the rectified play area (:class:`View`)
and answers, per output pixel, one of four :class:`Part` s, and separately whether a
card's top edge crosses it. These are drawn here from a scene's truth: every card's
corners and every hand or object, in the order the renderer painted them, so what a
later card or a hand covers is not labelled as the card below.
"""

from __future__ import annotations

from enum import IntEnum

import cv2
import numpy as np

from vision.synth.scene import SceneTruth
from vision.view import View

COVER_OWNER = -1


class Part(IntEnum):
    """What covers a point of the play area."""

    TABLE = 0  # bare table, the markers' paper
    STRIP = 1  # a card with another card on it: as much of it as shows (a name strip)
    TOP = 2  # the newest card of a stack, the one the classifier names
    COVER = 3  # a hand, an arm, an object


def _to_out(view: View, frame_px: np.ndarray, stride: int) -> np.ndarray:
    """Frame pixels → output-grid coordinates (output pixel j covers view pixels
    ``stride*j`` to ``stride*j + stride - 1``: its centre is at ``stride*j + (stride-1)/2``)."""
    to_view = np.linalg.inv(view.frame_from_view)
    pts = cv2.perspectiveTransform(np.asarray(frame_px, np.float64).reshape(-1, 1, 2), to_view)
    return (pts.reshape(-1, 2) - (stride - 1) / 2) / stride


def _poly(points: np.ndarray) -> list[np.ndarray]:
    return [np.round(points * 8).astype(np.int32)]  # cv2's fixed point: 3 fractional bits


def label_maps(truth: SceneTruth, view: View, stride: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The parts (uint8 :class:`Part`) and top edges (uint8 0/1) on the segmenter's output
    grid: ``view.size`` divided by ``stride``, rounded up.

    ``view`` may come from a calibration other than the truth's (markers found a pixel
    off): the labels follow the view, as the segmenter's input does."""
    w, h = (-(-view.size[0] // stride), -(-view.size[1] // stride))
    hom = truth.calibration.homography()  # play-area mm → frame pixels, the truth's

    def out(mm: np.ndarray) -> np.ndarray:
        px = cv2.perspectiveTransform(np.asarray(mm, np.float64).reshape(-1, 1, 2), hom)
        return _to_out(view, px.reshape(-1, 2), stride)

    owner = np.zeros((h, w), np.int16)
    tops: set[int] = set()
    cards: list[tuple[int, np.ndarray]] = []
    for column, loc in enumerate(truth.locations.values()):
        for k, quad in enumerate(loc.quads_mm):
            key = 1 + 32 * column + k
            corners = out(quad)
            cv2.fillPoly(owner, _poly(corners), key, cv2.LINE_8, shift=3)
            cards.append((key, corners))
        if loc.quads_mm:
            tops.add(1 + 32 * column + len(loc.quads_mm) - 1)
    for poly in truth.occluders_mm:
        cv2.fillPoly(owner, _poly(out(poly)), COVER_OWNER, cv2.LINE_8, shift=3)

    parts = np.full((h, w), Part.STRIP, np.uint8)
    parts[owner == 0] = Part.TABLE
    parts[owner == COVER_OWNER] = Part.COVER
    parts[np.isin(owner, list(tops))] = Part.TOP
    return parts, _top_edges(owner, cards)


def _top_edges(owner: np.ndarray, cards: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """Each card's top edge (TL to TR) where the card itself shows just below it."""
    edges = np.zeros(owner.shape, np.uint8)
    below = np.zeros_like(owner)
    below[:-1] = owner[1:]
    for key, corners in cards:
        line = np.zeros(owner.shape, np.uint8)
        cv2.polylines(line, _poly(corners[:2]), False, 1, 1, cv2.LINE_8, shift=3)
        edges |= line & ((owner == key) | (below == key)).astype(np.uint8)
    return edges
