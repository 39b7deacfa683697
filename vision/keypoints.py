"""Local features: the keypoint half of the second look (see :mod:`vision.verify`).

The card is warped upright at :data:`PX_PER_MM` around the locator's outline, ORB
keypoints are matched with each candidate's reference keypoints, and a rotation, scale
and shift is fitted with RANSAC. A candidate is confirmed when enough matches agree on
one placement near the outline, reach below the strip a card lower in a stack shows,
and clearly outnumber any other candidate's.

Reference keypoints that another card shares at the same place (a caste frame, a value
badge, a rules box) say nothing about which card this is: :func:`build_references`
drops them, so the inliers that remain are the card's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.templates import CARD_MM, corners, gray, warp_around

PX_PER_MM = 3.0  # about the frame's own resolution on the table; the references' too
REF_SIZE = (round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM))
PAD_PX = 16  # plain border so keypoints can lie up to the card's edge
REF_FEATURES = 400
QUERY_FEATURES = 300
OWN_KEPT = 150  # a card's own keypoints kept, strongest first
RATIO = 0.8  # Lowe's ratio test between a query keypoint's two nearest reference ones
RANSAC_PX = 4.0  # reprojection tolerance, query pixels (about 1.3 mm)
SHARED_MM = 2.5  # a reference keypoint this near one of another card's ...
SHARED_BITS = 30  # ... and this alike in its descriptor (of 256 bits) is not the card's own
# Around the locator's outline the second look warps this much table too (mm: sides, top
# and bottom): the card may lie a few millimetres off, or a cascade step up or down.
MARGIN_MM = (10.0, 18.0)
MIN_INLIERS = 14
HIDDEN_MM = 32.0  # the part of a card lower in a stack that is never seen
MIN_LEAD = 2.0  # the winner's inliers over the runner-up's (at least)


@dataclass(frozen=True, slots=True)
class Reference:
    """One card's own keypoints: positions on the card (mm) and ORB descriptors."""

    points_mm: np.ndarray  # (N, 2) float32
    descriptors: np.ndarray  # (N, 32) uint8


@dataclass(frozen=True, slots=True)
class Match:
    """The keypoints' answer: the confirmed card (None: none) and the evidence."""

    card: str | None
    inliers: int = 0
    runner_up: int = 0
    quad_px: np.ndarray | None = None  # the card's corners in the image looked at


def _orb(features: int) -> cv2.ORB:
    # Three pyramid levels: cards are warped to the references' scale, give or take the
    # locator's error and a photo's unknown distance (see :func:`_photo_scale`).
    return cv2.ORB.create(
        nfeatures=features,
        scaleFactor=1.3,
        nlevels=3,
        edgeThreshold=15,
        patchSize=23,
        fastThreshold=8,
    )


def keypoints(img: np.ndarray, features: int) -> tuple[np.ndarray, np.ndarray | None]:
    """ORB keypoint positions (N, 2, pixels of gray ``img``) and descriptors (N, 32),
    strongest first."""
    padded = cv2.copyMakeBorder(img, PAD_PX, PAD_PX, PAD_PX, PAD_PX, cv2.BORDER_REPLICATE)
    found, des = _orb(features).detectAndCompute(padded, None)
    if des is None or not found:
        return np.zeros((0, 2), np.float32), None
    order = np.argsort([-k.response for k in found], kind="stable")
    pts = np.array([found[i].pt for i in order], np.float32) - PAD_PX
    return pts, des[order]


def reference(image: np.ndarray) -> Reference:
    """Keypoints of a canonical card image (any size: it is scaled to :data:`REF_SIZE`)."""
    small = cv2.resize(gray(image), REF_SIZE, interpolation=cv2.INTER_AREA)
    pts, des = keypoints(small, REF_FEATURES)
    if des is None:
        return Reference(np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8))
    return Reference((pts / PX_PER_MM).astype(np.float32), des)


def build_references(images: Mapping[str, np.ndarray]) -> dict[str, Reference]:
    """Each card's reference keypoints, without those another card shares (see module)."""
    refs = {label: reference(img) for label, img in images.items()}
    labels = list(refs)
    points = np.concatenate([refs[k].points_mm for k in labels])
    descriptors = np.concatenate([refs[k].descriptors for k in labels])
    owner = np.repeat(np.arange(len(labels)), [len(refs[k].points_mm) for k in labels])
    own = ~shared(points, descriptors, owner)
    out = {}
    for i, k in enumerate(labels):
        mine = np.flatnonzero(own[owner == i])
        keep = mine[_spread_out(refs[k].points_mm[mine], OWN_KEPT)]
        out[k] = Reference(refs[k].points_mm[keep], refs[k].descriptors[keep])
    return out


def _spread_out(points_mm: np.ndarray, count: int) -> np.ndarray:
    """Indices of at most ``count`` of ``points_mm`` (strongest first), taken in turns from
    a 3 × 4 grid over the card: the strongest alone would crowd into the name and value,
    and the second look needs matches below the top strip too."""
    cell = (
        np.clip(points_mm[:, 0] // (CARD_MM[0] / 3), 0, 2) * 4
        + np.clip(points_mm[:, 1] // (CARD_MM[1] / 4), 0, 3)
    ).astype(int)
    rank = np.zeros(len(points_mm), int)
    for c in np.unique(cell):
        rank[cell == c] = np.arange((cell == c).sum())  # order within a cell: strength
    return np.sort(np.lexsort((np.arange(len(points_mm)), rank))[:count])


_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def shared(points: np.ndarray, descriptors: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Per keypoint: does another card have one within :data:`SHARED_MM` of it that is
    within :data:`SHARED_BITS` in its descriptor? Keypoints are grouped in cells of that
    size, so each is compared with its own and the eight neighbouring cells only."""
    cells = np.floor(points / SHARED_MM).astype(np.int64)
    key = cells[:, 0] * 100_000 + cells[:, 1]
    out = np.zeros(len(points), bool)
    groups: dict[int, np.ndarray] = {}
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for idx in np.split(order, bounds):
        if len(idx):
            groups[int(key[idx[0]])] = idx
    for k, idx in groups.items():
        near = [
            groups[k + dx * 100_000 + dy]
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if k + dx * 100_000 + dy in groups
        ]
        nb = np.concatenate(near)
        bits = _POPCOUNT[descriptors[idx][:, None, :] ^ descriptors[nb][None, :, :]].sum(
            axis=2, dtype=np.int32
        )
        close = np.linalg.norm(points[idx][:, None] - points[nb][None], axis=2) <= SHARED_MM
        other = owner[idx][:, None] != owner[nb][None, :]
        out[idx] = ((bits <= SHARED_BITS) & close & other).any(axis=1)
    return out


def _spread(points_mm: np.ndarray) -> bool:
    """Inliers below the top strips: a card lower in a stack shows only its top 14 mm (two
    steps when a neighbour's cascade runs long), so matches there alone could name it."""
    return bool((points_mm[:, 1] >= HIDDEN_MM).sum() >= 3)


@dataclass(frozen=True, slots=True)
class _Fit:
    inliers: int
    quad: np.ndarray | None  # the card's corners in the query image; None: implausible


class Keypoints:
    """Confirms one of a few candidate cards by local features (see the module)."""

    def __init__(
        self,
        references: Mapping[str, Reference],
        min_inliers: int = MIN_INLIERS,
        min_lead: float = MIN_LEAD,
    ) -> None:
        self.references = dict(references)
        self.min_inliers = min_inliers
        self.min_lead = min_lead
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)

    def look(self, frame: np.ndarray, quad_px: np.ndarray, candidates: Sequence[str]) -> Match:
        """Which of ``candidates`` is the card outlined by ``quad_px`` in ``frame`` (within
        a few millimetres or a cascade step of that outline), if any."""
        img, expected = warp_around(frame, quad_px, MARGIN_MM, PX_PER_MM)
        pts, des = keypoints(gray(img), 2 * QUERY_FEATURES)
        if des is not None:  # the strongest spread over the card, as the references are
            keep = _spread_out(pts / PX_PER_MM - np.array(MARGIN_MM, np.float32), QUERY_FEATURES)
            pts, des = pts[keep], des[keep]
        fits = {
            label: _fit_near(src, dst, expected)
            for label, (src, dst) in self._matches(pts, des, candidates).items()
        }
        verdict = self._decide(fits)
        if verdict.quad_px is None:
            return verdict
        back = cv2.getPerspectiveTransform(expected, np.asarray(quad_px, np.float32))
        quad = cv2.perspectiveTransform(verdict.quad_px.reshape(-1, 1, 2), back).reshape(-1, 2)
        return Match(verdict.card, verdict.inliers, verdict.runner_up, quad)

    def _matches(
        self, pts: np.ndarray, des: np.ndarray | None, candidates: Sequence[str]
    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per candidate, the matched (reference mm, query px) pairs that pass the ratio
        test among all the candidates' keypoints: a query keypoint nearly as like another
        candidate's says nothing about either."""
        labels = [k for k in dict.fromkeys(candidates) if k in self.references]
        refs = [self.references[k] for k in labels]
        if des is None or not labels or not sum(len(r.descriptors) for r in refs):
            return {k: (np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)) for k in labels}
        owner = np.repeat(np.arange(len(labels)), [len(r.descriptors) for r in refs])
        points = np.concatenate([r.points_mm for r in refs])
        pairs = self._matcher.knnMatch(des, np.concatenate([r.descriptors for r in refs]), k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
        q = np.array([m.queryIdx for m in good], np.int64)
        t = np.array([m.trainIdx for m in good], np.int64)
        return {k: (points[t[owner[t] == i]], pts[q[owner[t] == i]]) for i, k in enumerate(labels)}

    def _decide(self, fits: Mapping[str, _Fit]) -> Match:
        ranked = sorted(fits.items(), key=lambda kv: -kv[1].inliers)
        if not ranked:
            return Match(None)
        label, best = ranked[0]
        runner = ranked[1][1].inliers if len(ranked) > 1 else 0
        enough = best.inliers >= self.min_inliers and best.inliers >= self.min_lead * runner
        if best.quad is None or not enough:
            return Match(None, best.inliers, runner)
        return Match(label, best.inliers, runner, best.quad)


def _fit_near(src_mm: np.ndarray, dst_px: np.ndarray, expected: np.ndarray) -> _Fit:
    """The card placed by a rotation, scale and shift (RANSAC) from matches that lie within
    a cascade step of the outline's place: the warp has already undone the perspective,
    so anything more general would only give a wrong card more ways to fit."""
    shift = expected[0] / PX_PER_MM
    near = np.linalg.norm(dst_px / PX_PER_MM - shift - src_mm, axis=1) <= MARGIN_MM[1]
    src, dst = src_mm[near] * PX_PER_MM, dst_px[near]
    if len(src) < 3:
        return _Fit(len(src), None)
    m, mask = cv2.estimateAffinePartial2D(
        src, dst, method=cv2.RANSAC, ransacReprojThreshold=RANSAC_PX, maxIters=300
    )
    if m is None:
        return _Fit(0, None)
    inl = mask.ravel().astype(bool)
    quad = cv2.transform((corners(*CARD_MM) * PX_PER_MM).reshape(-1, 1, 2), m).reshape(-1, 2)
    scale = float(np.sqrt(abs(np.linalg.det(m[:, :2]))))
    far = np.linalg.norm(quad - expected, axis=1).max() / PX_PER_MM
    ok = 0.85 <= scale <= 1.18 and far <= MARGIN_MM[1] and _spread(src[inl] / PX_PER_MM)
    return _Fit(int(inl.sum()), quad if ok else None)
