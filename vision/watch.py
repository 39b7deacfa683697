"""Is the camera where it was? The markers as the calibrating frame showed them, compared
with each new frame at the same pixels.

Looking for the ArUco markers costs a pass of the detector over the whole frame (tens of
milliseconds, several passes when one is missing), too much for every frame; comparing
four small patches costs well under a millisecond. :class:`MarkerWatch` keeps, from the
frame the calibration was found in, a patch round each marker that was seen there, and
:meth:`~MarkerWatch.agrees` says whether a new frame still shows them in place: a
knocked camera moves every marker off its patch at once, a hand hides one or two. When
they disagree the scanner looks for the markers again (:mod:`vision.scanner`).
"""

from __future__ import annotations

import cv2
import numpy as np

# A patch's grey levels correlated with the kept ones at least this well show the same
# marker in the same place: a marker's cells make a shift of a few pixels fall well
# below it, while light that brightens or dims evenly keeps the correlation at 1.
MATCH = 0.8
PAD = 0.25  # a patch reaches this share of the marker's size beyond its code
SHOWN = 3  # markers that must agree: three calibrate the play area (vision.calibrate)


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (pixels)


class MarkerWatch:
    """The markers' patches in the calibrating frame, to compare later frames with."""

    def __init__(self, frame: np.ndarray, found: dict[int, np.ndarray]) -> None:
        self.size = frame.shape[:2]
        self.boxes: dict[int, Box] = {}
        self.patches: dict[int, np.ndarray] = {}
        for marker, quad in found.items():
            box = _box(quad, self.size)
            if box is not None:
                self.boxes[marker] = box
                self.patches[marker] = _grey(frame, box)

    def agrees(self, frame: np.ndarray) -> bool:
        """True when enough of the kept markers still show in place in ``frame``: three,
        or all of them when fewer were seen in the calibrating frame."""
        if not self.patches or frame.shape[:2] != self.size:
            return False
        same = sum(_alike(self.patches[m], _grey(frame, box)) for m, box in self.boxes.items())
        return same >= min(SHOWN, len(self.patches))


def _box(quad: np.ndarray, size: tuple[int, ...]) -> Box | None:
    """The pixels round a marker's code, inside a frame of ``size`` (h, w); None when too
    little of it is."""
    h, w = size[:2]
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    pad = PAD * (hi - lo)
    x0, y0 = np.maximum(np.floor(lo - pad).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(hi + pad).astype(int), (w, h))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def _grey(frame: np.ndarray, box: Box) -> np.ndarray:
    """The patch's grey levels, less their mean (float32)."""
    x0, y0, x1, y1 = box
    roi = frame[y0:y1, x0:x1]
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.ndim == 3 else roi
    out: np.ndarray = grey.astype(np.float32)
    return out - float(out.mean())


def _alike(kept: np.ndarray, now: np.ndarray) -> bool:
    """True when two patches of the same pixels (less their means) correlate at least
    :data:`MATCH`."""
    norm = float(np.sqrt(float((kept * kept).sum()) * float((now * now).sum())))
    if norm < kept.size:  # flat: a hand, or the marker's code clipped white
        return False
    return float((kept * now).sum()) / norm >= MATCH
