"""The classic baselines the project must beat: ORB matching, a perceptual hash, and the
two together as classic card scanners combine them (the hash shortlists, ORB decides).

All identify card images cut from the frame through the scanner's own locator, against
the same reference images, each with an open-set threshold of its own. They cut their
images with :func:`cut`, a single warp: the scanner's warp at twice the size and average
down buys neither matcher any accuracy (measured on held-out scenes) and costs the hash
nearly three times as long, so using it would handicap the baselines.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

ORB_SIZE = (128, 176)  # ORB needs more pixels than the embedder's 64 × 88


def cut(frame: np.ndarray, quad_px: np.ndarray, size: tuple[int, int] = ORB_SIZE) -> np.ndarray:
    """The card whose corners (TL, TR, BR, BL, frame pixels) are ``quad_px``, warped
    straight to ``size``."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad_px, np.float32), dst)
    return cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def phash(img: np.ndarray) -> np.ndarray:
    """64-bit DCT perceptual hash (bool array): low frequencies above their median."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    small = cv2.resize(gray, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(small)[:8, :8].ravel()
    out: np.ndarray = low > np.median(low[1:])
    return out


class HashMatcher:
    """Nearest reference by Hamming distance of perceptual hashes."""

    def __init__(self, references: Mapping[str, np.ndarray], max_distance: int = 14) -> None:
        self.labels = list(references)
        self.hashes = np.stack([phash(references[k]) for k in self.labels])
        self.max_distance = max_distance

    def distances(self, img: np.ndarray) -> np.ndarray:
        """Hamming distance from ``img``'s hash to each reference's, in label order."""
        out: np.ndarray = (self.hashes != phash(img)).sum(axis=1)
        return out

    def identify(self, img: np.ndarray) -> str | None:
        dist = self.distances(img)
        best = int(dist.argmin())
        return self.labels[best] if dist[best] <= self.max_distance else None

    def nearest(self, img: np.ndarray, k: int) -> list[str]:
        """The ``k`` references whose hashes lie nearest ``img``'s, nearest first."""
        order = np.argsort(self.distances(img), kind="stable")[:k]
        return [self.labels[i] for i in order]


class OrbMatcher:
    """Most ratio-test ORB matches against each reference's descriptors."""

    def __init__(self, references: Mapping[str, np.ndarray], min_matches: int = 12) -> None:
        self.orb = cv2.ORB.create(nfeatures=300, fastThreshold=10)
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.descriptors: dict[str, np.ndarray] = {}
        for label, img in references.items():
            des = self._describe(img)
            if des is not None:
                self.descriptors[label] = des
        self.min_matches = min_matches

    def _describe(self, img: np.ndarray) -> np.ndarray | None:
        gray = cv2.cvtColor(cv2.resize(img, ORB_SIZE), cv2.COLOR_BGR2GRAY)
        out: np.ndarray = self.orb.detectAndCompute(gray, None)[1]
        return out

    def identify(self, img: np.ndarray, among: list[str] | None = None) -> str | None:
        """The reference with the most good matches (only those ``among``, if given)."""
        des = self._describe(img)
        labels = [k for k in (among or self.descriptors) if k in self.descriptors]
        if des is None or len(des) < 2 or not labels:
            return None
        scores = [self._good(des, self.descriptors[k]) for k in labels]
        best = int(np.argmax(scores))
        return labels[best] if scores[best] >= self.min_matches else None

    def _good(self, des: np.ndarray, ref: np.ndarray) -> int:
        pairs = self.matcher.knnMatch(des, ref, k=2)
        return sum(1 for p in pairs if len(p) == 2 and p[0].distance < 0.75 * p[1].distance)


class ShortlistMatcher:
    """The hash shortlists the ``k`` nearest references and ORB decides among them: a
    classic scanner's way to get ORB's accuracy without matching every reference."""

    def __init__(self, references: Mapping[str, np.ndarray], k: int = 5) -> None:
        self.hash = HashMatcher(references)
        self.orb = OrbMatcher(references)
        self.k = k

    def identify(self, img: np.ndarray) -> str | None:
        return self.orb.identify(img, self.hash.nearest(img, self.k))
