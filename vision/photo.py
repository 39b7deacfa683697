"""A loose photo of one card: where the card lies in it, and which card it is.

A photo for ``companion cards identify`` shows one card, often the top card of a stack
with the older cards' strips above it and neighbours peeking in at the sides, so the
biggest region unlike the photo's border (:func:`vision.crop.find_card`) is often the
whole stack. Cards have straight edges: the photo's long straight edges, turned upright,
give the card's sides and bottom, and a card's proportions its top. The few outlines
with the most edge along them are each cut out and identified, each also as the
enrolled cards' common layout places it (:meth:`vision.templates.Templates.outline`): an
edge outline often stops at a frame printed inside the card, or takes in a strip above
it. The classifier's second look (:mod:`vision.verify`) then searches around them when
the embedder is unsure.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.classifier import CardClassifier, Identification
from vision.crop import find_card, warp_card

WORK_SIDE = 320  # the photo's shorter side while looking for edges (pixels)
ASPECT = 88.0 / 63.0
OUTLINES = 3  # edge-based outlines tried, best supported first
WHOLE_LEAD = 2.0
MIN_WIDTH = 0.5  # a card in a photo of it: at least this share of the shorter side wide
NEAR_DEG = 12.0  # a segment this close to the card's axes counts as one of its edges
# A photo this many times longer than wide is a strip, not a card: searching it would
# scale its shorter side up to WORK_SIDE (a 1 x 4000 strip became 320 x 1,280,000 pixels:
# 13 s and GBs of memory to answer "unknown").
MAX_ASPECT = 8.0


def identify_photo(classifier: CardClassifier, photo: np.ndarray) -> Identification:
    """The card a loose photo shows (``card`` None: unknown or face down).

    Each outline's crop goes to the embedder; outlines that name cards must all name the
    same one (a neighbour peeking in is never named over the card). The whole photo is
    named from only with :data:`WHOLE_LEAD` times the usual lead: it is a canonical crop
    only when the photo is the card itself. A photo is face down when most outlines read
    a card back; when only some do (a glare or a dark print can pass for a back), and
    when none reads either, the second look searches around each outline in turn, then
    where the mean card's layout shows best (:meth:`vision.templates.Templates.places`)."""
    h, w = photo.shape[:2]
    if max(h, w) > MAX_ASPECT * min(h, w):
        return Identification(None, 0.0, 0.0)
    quads, idents = _first_looks(classifier, photo)
    sure = [i for i in idents[:-1] if i.card]
    if idents[-1].card and idents[-1].margin >= WHOLE_LEAD * classifier.min_margin:
        sure.append(idents[-1])
    named = {i.card for i in sure}
    if len(named) == 1:
        return max(sure, key=lambda i: i.confidence)
    down = [i for i in idents if i.face_down]
    if named or 2 * len(down) > len(idents):
        return down[0] if down else Identification(None, 0.0, 0.0)
    unknown = Identification(None, idents[-1].confidence, idents[-1].margin)
    return _second_look(classifier, photo, quads, idents) or (down[0] if down else unknown)


def _first_looks(
    classifier: CardClassifier, photo: np.ndarray
) -> tuple[list[np.ndarray], list[Identification]]:
    """The outlines to try, the whole photo last, and the embedder's answer for each.

    Each edge outline is tried as found and as the enrolled cards' common layout places
    it (:meth:`vision.templates.Templates.outline`); a photo with no straight edge to
    outline (blur, a busy table) starts from where that layout shows best
    (:meth:`vision.templates.Templates.places`). A card named from a placed outline
    must also score best in the templates there: doubling the outlines doubles the
    embedder's chances to name a wrong card, and the templates, aligned by that very
    placement, are a second opinion (on 900 of the project's own loose photos of an
    unseen style, wrong cards went from 2 to 3 without it, and to 1 with it)."""
    h, w = photo.shape[:2]
    found = outlines(photo)
    looker = classifier.second_looker
    placed = [] if looker is None else [
        looker.templates.outline(photo, q) for q in found or looker.templates.places(photo, 2)
    ]
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    quads = [*found, *placed, whole]
    idents = classifier.identify([warp_card(photo, q, classifier.input_size) for q in quads])
    for k, quad in enumerate(placed, start=len(found)):
        idents[k] = _backed(classifier, photo, quad, idents[k])
    return quads, idents


def _backed(
    classifier: CardClassifier, photo: np.ndarray, quad: np.ndarray, ident: Identification
) -> Identification:
    """``ident``, unsure unless its card is the one the templates score best at ``quad``."""
    looker = classifier.second_looker
    if ident.card is None or looker is None:
        return ident
    scores = looker.templates.look(photo, quad)
    if looker.labels[int(np.argmax(scores))] == ident.card:
        return ident
    return Identification(None, ident.confidence, ident.margin)


def _second_look(
    classifier: CardClassifier,
    photo: np.ndarray,
    quads: list[np.ndarray],
    idents: list[Identification],
) -> Identification | None:
    looker = classifier.second_looker
    if looker is None:
        return None
    shortlist = tuple(dict.fromkeys(c for i in idents for c in i.candidates))
    for quad in [*quads, *looker.templates.places(photo)]:
        second = classifier.second_look(
            photo, quad, Identification(None, 0.0, 0.0, candidates=shortlist)
        )
        if second.card:
            return second
    return None


def outlines(photo: np.ndarray) -> list[np.ndarray]:
    """Card outlines (TL, TR, BR, BL, photo pixels) to try, likeliest first: the edge-based
    ones and the region :func:`~vision.crop.find_card` sees."""
    out = edge_outlines(photo)
    found = find_card(photo)
    if found is not None:
        out.append(found)
    return out


def edge_outlines(photo: np.ndarray, count: int = OUTLINES) -> list[np.ndarray]:
    """Upright card-proportioned rectangles whose sides and bottom lie on the photo's
    long straight edges, the best supported first."""
    scale = WORK_SIDE / min(photo.shape[:2])
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) if photo.ndim == 3 else photo
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 40, 120)
    side = min(small.shape)
    segs = cv2.HoughLinesP(
        edges, 1, math.pi / 180, 40, minLineLength=0.2 * side, maxLineGap=0.03 * side
    )
    if segs is None:
        return []
    segs = segs.reshape(-1, 4).astype(np.float32)
    tilt = _tilt(segs)
    rot = cv2.getRotationMatrix2D((small.shape[1] / 2, small.shape[0] / 2), math.degrees(tilt), 1)
    upright = cv2.warpAffine(cv2.dilate(edges, np.ones((3, 3), np.uint8)), rot, small.shape[::-1])
    pts = cv2.transform(segs.reshape(-1, 1, 2), rot).reshape(-1, 4)
    rects = [_fitted(r, upright) for r in _rectangles(pts, upright)[:count]]
    back = cv2.invertAffineTransform(rot)
    return [cv2.transform(r.reshape(-1, 1, 2), back).reshape(-1, 2) / scale for r in rects]


def _tilt(segs: np.ndarray) -> float:
    """The card's turn (radians): the length-weighted median angle of the near-horizontal
    segments (folded into ±45°)."""
    dx, dy = segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]
    ang = (np.arctan2(dy, dx) + math.pi / 4) % (math.pi / 2) - math.pi / 4
    length = np.hypot(dx, dy)
    order = np.argsort(ang)
    cum = np.cumsum(length[order])
    return float(ang[order][np.searchsorted(cum, cum[-1] / 2)])


def _lines(values: np.ndarray, weights: np.ndarray, tol: float) -> list[float]:
    """Positions of lines from segment positions: neighbours within ``tol`` merged."""
    out: list[tuple[float, float]] = []
    for v, wt in sorted(zip(values.tolist(), weights.tolist(), strict=True)):
        if out and v - out[-1][0] <= tol:
            pos, total = out[-1]
            out[-1] = ((pos * total + v * wt) / (total + wt), total + wt)
        else:
            out.append((v, wt))
    return [p for p, _ in out]


def _rectangles(pts: np.ndarray, upright: np.ndarray) -> list[np.ndarray]:
    """Card-proportioned rectangles from upright segments, most edge along them first."""
    h, w = upright.shape
    dx, dy = pts[:, 2] - pts[:, 0], pts[:, 3] - pts[:, 1]
    ang = np.degrees(np.arctan2(dy, dx)) % 180
    length = np.hypot(dx, dy)
    flat = (ang < NEAR_DEG) | (ang > 180 - NEAR_DEG)
    tall = np.abs(ang - 90) < NEAR_DEG
    tol = 0.02 * min(h, w)
    ys = _lines((pts[flat, 1] + pts[flat, 3]) / 2, length[flat], tol)
    xs = _lines((pts[tall, 0] + pts[tall, 2]) / 2, length[tall], tol)
    found = []
    for i, left in enumerate(xs):
        for right in xs[i + 1 :]:
            if right - left < MIN_WIDTH * min(h, w):
                continue
            for bottom in ys:
                top = bottom - (right - left) * ASPECT
                if top < -0.1 * h:
                    continue
                rect = np.array(
                    [[left, top], [right, top], [right, bottom], [left, bottom]], np.float32
                )
                found.append((_support(upright, rect), rect))
    found.sort(key=lambda f: -f[0])
    return [r for _s, r in found]


def _support(edges: np.ndarray, rect: np.ndarray) -> float:
    """How much of the rectangle's outline lies on edges: the mean of its sides' shares
    (a long side cannot make up for a missing one)."""
    shares = []
    for a, b in zip(rect, np.roll(rect, -1, axis=0), strict=True):
        mask = np.zeros_like(edges)
        cv2.line(mask, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), 255, 1)
        on = mask > 0
        shares.append(float((edges[on] > 0).sum()) / max(int(on.sum()), 1))
    return float(np.mean(shares))


BAND = 0.04  # edge pixels this near a side (share of the shorter side) refit it


def _fitted(rect: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The rectangle's sides refitted to the edge pixels near each (a photo's perspective
    makes a card a trapezoid), corners where they meet; the rectangle if that fails."""
    ys, xs = np.nonzero(edges)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    band = BAND * min(edges.shape)
    lines = []
    for a, b in zip(rect, np.roll(rect, -1, axis=0), strict=True):
        d = (b - a) / (np.linalg.norm(b - a) + 1e-6)
        rel = pts - a
        along, off = rel @ d, rel @ np.array([-d[1], d[0]])
        near = (np.abs(off) <= band) & (along >= 0) & (along <= np.linalg.norm(b - a))
        if near.sum() < 10:
            return rect
        lines.append(cv2.fitLine(pts[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel())
    quad = np.array([_meet(lines[i - 1], lines[i]) for i in range(4)], np.float32)
    moved = np.linalg.norm(quad - rect, axis=1).max()
    return quad if np.isfinite(quad).all() and moved <= 3 * band else rect


def _meet(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Where two lines (vx, vy, x0, y0) cross."""
    a = np.array([[p[0], -q[0]], [p[1], -q[1]]])
    if abs(np.linalg.det(a)) < 1e-6:
        return np.array([np.inf, np.inf])
    t = np.linalg.solve(a, np.array([q[2] - p[2], q[3] - p[3]]))
    return np.array([p[2] + t[0] * p[0], p[3] + t[0] * p[1]])
