"""The table segmenter: a small network that reads the rectified play area and says, for
every 2 × 2 mm, whether it shows bare table, a card's strip, a stack's top card or a
hand (or an object), and where a card's top edge runs.

It replaces a colour model of the table (which a checked cloth, wood grain, a printed
mat or a lamp's reflection defeat) with what the project's renderer taught it about
cards on many tables (``python -m vision.train_segmenter``). The stacks are read from
its maps by :mod:`vision.stacks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from vision.bundled import model_file
from vision.synth.labels import Part

MODEL_NAME = "table_segmenter_2026nov"
STRIDE = 2  # view pixels per output pixel, each way
# A view pixel this bright in every channel is clipped: the camera's sensor saturated under
# a lamp's reflection (JPEG rings a few levels below 255). Such a pixel shows no hand,
# whatever the network makes of the flat white: skin and sleeves keep some colour.
BLOWN = 245
# A reflection is a spot. Clipped white over more than this share of the play area, in one
# piece, is a white table the exposure saturates: a card or a hand on it still shows.
SPOT_MAX_SHARE = 0.25
# Round a clipped spot the reflection washes everything out almost as white: view pixels
# at least this bright in every channel, joined to the spot, up to RIM_MM from it.
WASHED = 200
RIM_MM = 8


def default_segmenter_path() -> Path:
    """The segmenter the package ships (:mod:`vision.bundled`)."""
    return model_file(f"{MODEL_NAME}.onnx")


@dataclass(frozen=True)
class Segments:
    """The segmenter's answer for one rectified view, on its output grid.

    ``parts[k]`` is the probability of :class:`Part` ``k`` at each output pixel;
    ``edges`` that a card's top edge crosses it. Output pixel ``j`` covers view pixels
    ``2j`` and ``2j + 1``."""

    parts: np.ndarray  # (4, h, w) float32
    edges: np.ndarray  # (h, w) float32
    blown: np.ndarray | None = None  # (h, w): 1.0 where a reflection blows it out (blown())

    @property
    def card(self) -> np.ndarray:
        """Probability that any card shows (a strip or a top card)."""
        out: np.ndarray = self.parts[Part.STRIP] + self.parts[Part.TOP]
        return out

    @property
    def top(self) -> np.ndarray:
        out: np.ndarray = self.parts[Part.TOP]
        return out

    @cached_property  # read several times per column: the white is taken out once
    def cover(self) -> np.ndarray:
        """Probability of a hand or an object, none where the camera saw flat white (a
        blown-out reflection the network may take for a hand: it hides the card under
        it, but a stack under a lamp must be counted, not called covered)."""
        out: np.ndarray = self.parts[Part.COVER]
        if self.blown is None:
            return out
        clear: np.ndarray = np.where(self.blown > 0.5, 0.0, out).astype(np.float32)
        return clear


class Segmenter:
    """Runs the ONNX segmenter on rectified views (BGR uint8, 1 px per mm)."""

    def __init__(self, path: Path | str | None = None, threads: int = 1) -> None:
        import onnxruntime as ort  # the scanner's own import: loaded once with the classifier

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.path = Path(path) if path is not None else default_segmenter_path()
        self._session = ort.InferenceSession(
            str(self.path), options, providers=["CPUExecutionProvider"]
        )

    def __call__(self, view_bgr: np.ndarray) -> Segments:
        x = np.ascontiguousarray(view_bgr.transpose(2, 0, 1)[None], np.float32)
        parts, edges = self._session.run(None, {"view": x})
        return Segments(parts[0], edges[0], blown(view_bgr, edges.shape[-2:]))


def blown(view_bgr: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Where a reflection's spot blows the view out, on the output grid (``shape``, 2 mm
    a pixel): clipped white (:data:`BLOWN`, see :data:`SPOT_MAX_SHARE`) and the washed
    rim round it (:data:`WASHED`, :data:`RIM_MM`); 1.0 there, else 0.0."""
    b, g, r = cv2.split(view_bgr)  # cv2.min: numpy's min over the channel axis is 25× slower
    darkest = cv2.resize(cv2.min(cv2.min(b, g), r), (shape[1], shape[0]),
                         interpolation=cv2.INTER_AREA)
    clipped: np.ndarray = (darkest >= BLOWN).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(clipped, connectivity=4)
    table = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] > SPOT_MAX_SHARE * clipped.size) + 1
    if table.size:
        clipped[np.isin(labels, table)] = 0
    washed = (darkest >= WASHED).astype(np.uint8)
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    for _ in range(RIM_MM // STRIDE):  # grown a pixel at a time, only through washed ones
        clipped = cv2.bitwise_and(cv2.dilate(clipped, cross), washed)
    return clipped.astype(np.float32)
