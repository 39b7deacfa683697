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
    hom = truth.calibration.homography()  # play-area mm → frame pixels, the truth's
    cards, tops = [], set()
    for loc in truth.locations.values():
        cards += [_project(hom, quad) for quad in loc.quads_mm]
        if loc.quads_mm:
            tops.add(len(cards) - 1)
    covers = [_project(hom, poly) for poly in truth.occluders_mm]
    return rasterise(cards, tops, covers, view, stride)


def spread_labels(
    placed: list[tuple[str, np.ndarray, bool]], view: View, stride: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    """The same for cards laid out for scoring (:func:`vision.synth.scene.render_spread`'s
    cards: id, corners in frame pixels, fully visible): each fully visible card is a top
    card, each partly covered one a strip."""
    tops = {k for k, (_id, _quad, whole) in enumerate(placed) if whole}
    return rasterise([quad for _id, quad, _whole in placed], tops, [], view, stride)


def _project(hom: np.ndarray, mm: np.ndarray) -> np.ndarray:
    pts = cv2.perspectiveTransform(np.asarray(mm, np.float64).reshape(-1, 1, 2), hom)
    out: np.ndarray = pts.reshape(-1, 2)
    return out


def rasterise(
    cards_px: list[np.ndarray], tops: set[int], covers_px: list[np.ndarray], view: View,
    stride: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Parts and top edges from cards (corners TL TR BR BL in frame pixels, in the order
    they were laid), which of them are top cards, and hands or objects over them."""
    w, h = (-(-view.size[0] // stride), -(-view.size[1] // stride))
    owner = np.zeros((h, w), np.int16)
    cards = []
    for key, quad in enumerate(cards_px, start=1):
        corners = _to_out(view, quad, stride)
        cv2.fillPoly(owner, _poly(corners), key, cv2.LINE_8, shift=3)
        cards.append((key, corners))
    for poly in covers_px:
        cv2.fillPoly(owner, _poly(_to_out(view, poly, stride)), COVER_OWNER, cv2.LINE_8, shift=3)
    parts = np.full((h, w), Part.STRIP, np.uint8)
    parts[owner == 0] = Part.TABLE
    parts[owner == COVER_OWNER] = Part.COVER
    parts[np.isin(owner, [k + 1 for k in tops])] = Part.TOP
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
