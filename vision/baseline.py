"""The classic baseline the project must beat: ORB feature matching and a perceptual hash.

Both identify the same canonical card images the embedder sees, against the same
reference images, with an open-set threshold of their own.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

ORB_SIZE = (128, 176)  # ORB needs more pixels than the embedder's 64 × 88


def phash(img: np.ndarray) -> np.ndarray:
    """64-bit DCT perceptual hash (bool array): low frequencies above their median."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    small = cv2.resize(gray, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(small)[:8, :8].ravel()
    return low > np.median(low[1:])


class HashMatcher:
    """Nearest reference by Hamming distance of perceptual hashes."""

    def __init__(self, references: Mapping[str, np.ndarray], max_distance: int = 14) -> None:
        self.labels = list(references)
        self.hashes = np.stack([phash(references[k]) for k in self.labels])
        self.max_distance = max_distance

    def identify(self, img: np.ndarray) -> str | None:
        dist = (self.hashes != phash(img)).sum(axis=1)
        best = int(dist.argmin())
        return self.labels[best] if dist[best] <= self.max_distance else None


class OrbMatcher:
    """Most ratio-test ORB matches against each reference's descriptors."""

    def __init__(self, references: Mapping[str, np.ndarray], min_matches: int = 12) -> None:
        self.orb = cv2.ORB_create(nfeatures=300, fastThreshold=10)
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.labels, self.descriptors = [], []
        for label, img in references.items():
            des = self._describe(img)
            if des is not None:
                self.labels.append(label)
                self.descriptors.append(des)
        self.min_matches = min_matches

    def _describe(self, img: np.ndarray) -> np.ndarray | None:
        gray = cv2.cvtColor(cv2.resize(img, ORB_SIZE), cv2.COLOR_BGR2GRAY)
        return self.orb.detectAndCompute(gray, None)[1]

    def identify(self, img: np.ndarray) -> str | None:
        des = self._describe(img)
        if des is None or len(des) < 2:
            return None
        scores = [self._good(des, ref) for ref in self.descriptors]
        best = int(np.argmax(scores))
        return self.labels[best] if scores[best] >= self.min_matches else None

    def _good(self, des: np.ndarray, ref: np.ndarray) -> int:
        pairs = self.matcher.knnMatch(des, ref, k=2)
        return sum(1 for p in pairs if len(p) == 2 and p[0].distance < 0.75 * p[1].distance)
