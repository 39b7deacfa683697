"""A still table needs no new look: the last reading stands while nothing moves.

A camera over a game sees the same still table most of the time: at ten frames a second
a turn's few changes are a few seconds of a minute. :class:`StillTable` compares each
frame with the one the last reading was made from, on a coarse grid whose cells average
the sensor noise away, and answers with that reading while no cell has moved. A hand, a
card put down or taken, the camera bumped: each moves many cells, and the table is read
afresh. A reading is only kept once several full looks in a row agreed on it, so a
single misreading is never repeated; and a still table is looked at afresh every so
often all the same (a slow change, a light drifting past the grid's tolerance). On the
device this is most of the scanner's work saved; what the tracker sees is unchanged.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

CELL_PX = 16  # a cell of the grid: 256 pixels average a sensor's noise to a fraction of a level
STILL_LEVEL = 6.0  # grey levels: the most a cell may move and the table still count as still
AGREE = 3  # full looks in a row that must read the same before their reading is kept
RECHECK_EVERY = 20  # frames: a still table is read afresh at least this often (2 s at 10/s)


def signature(frame: np.ndarray) -> np.ndarray:
    """The frame's grey levels averaged over cells of ``CELL_PX`` pixels."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return _grid(grey, CELL_PX)


def _grid(grey: np.ndarray, cell: int) -> np.ndarray:
    """``grey`` averaged over cells of ``cell`` pixels."""
    h, w = grey.shape[:2]
    size = (max(1, w // cell), max(1, h // cell))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)


class PictureError(ValueError):
    """A frame file that does not decode as an image."""


class Picture:
    """A frame stored as a JPEG file, decoded only as far as each use needs: the still
    table's check reads the coarse grid from JPEG's own 1/8 scale (the mean of each 8x8
    block, a quarter of a full decode's work), a look at the table every pixel. Replaying
    a filmed game, about half its frames are never decoded in full."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    @cached_property
    def pixels(self) -> np.ndarray:
        """The whole frame, BGR."""
        return _decoded(self.path, cv2.IMREAD_COLOR)

    @cached_property
    def signature(self) -> np.ndarray:
        """The grid of :func:`signature`, from the eighth-scale decode."""
        grey = _decoded(self.path, cv2.IMREAD_REDUCED_GRAYSCALE_8)
        return _grid(grey, max(1, CELL_PX // 8))  # a cell spans CELL_PX / 8 such pixels


def _decoded(path: Path, flags: int) -> np.ndarray:
    image = cv2.imread(str(path), flags)
    if image is None:
        raise PictureError(f"{path}: not an image")
    return image


def pixels_of(frame: np.ndarray | Picture) -> np.ndarray:
    """The frame's pixels: an array as it is, a :class:`Picture` decoded in full."""
    return frame.pixels if isinstance(frame, Picture) else frame


def signature_of(frame: np.ndarray | Picture) -> np.ndarray:
    return frame.signature if isinstance(frame, Picture) else signature(frame)


def alike(a: np.ndarray, b: np.ndarray, level: float = STILL_LEVEL) -> bool:
    """True when no cell of two signatures differs by more than ``level``."""
    return a.shape == b.shape and float(np.abs(a - b).max()) <= level


class StillTable:
    """The last agreed reading, for as long as the frames show the table unmoved.

    Use :meth:`known` before reading a frame (None: read it) and :meth:`read` after.
    ``setup`` names what the reading was made with (a calibration, a classifier): a new
    one is a new look, even of the same picture.
    """

    def __init__(self, agree: int = AGREE, level: float = STILL_LEVEL,
                 recheck_every: int = RECHECK_EVERY) -> None:
        self.agree, self.level, self.recheck_every = max(1, agree), level, recheck_every
        self._anchor: np.ndarray | None = None  # the frame the current run of looks began at
        self._setup: tuple[Any, ...] = ()
        self._run: tuple[Hashable, int] | None = None  # what the looks agreed on, how often
        self._kept: Any = None
        self._reused = 0  # frames answered with the kept reading since the last look
        self._last: np.ndarray | None = None  # the signature of the frame given last
        self.saved = 0  # frames answered without a look, all told

    def known(self, frame: np.ndarray | Picture, setup: tuple[Any, ...]) -> Any:
        """The kept reading if ``frame`` shows the table as it was; None: read the frame."""
        sig = self._last = signature_of(frame)
        if not self._same(sig, setup):
            self._anchor, self._run, self._kept = None, None, None
            return None
        if self._kept is None or self._reused >= self.recheck_every:
            return None
        self._reused += 1
        self.saved += 1
        return self._kept

    def read(self, reading: Any, content: Hashable, setup: tuple[Any, ...]) -> None:
        """Note what a full look at the frame last given to :meth:`known` read.

        ``content``: what must agree between looks (not a confidence, which differs by a
        hair from frame to frame); ``setup``: what the look was made with.
        """
        if self._run is not None and self._run[0] == content and self._same_setup(setup):
            self._run = (content, self._run[1] + 1)
        else:  # a new reading starts a new run at this frame
            self._run, self._kept = (content, 1), None
            self._anchor, self._setup = self._last, setup
        if self._run[1] >= self.agree:
            self._kept, self._reused = reading, 0

    def forget(self) -> None:
        """Read the next frame afresh."""
        self._anchor, self._run, self._kept = None, None, None

    def _same(self, sig: np.ndarray, setup: tuple[Any, ...]) -> bool:
        return (self._anchor is not None and self._same_setup(setup)
                and alike(sig, self._anchor, self.level))

    def _same_setup(self, setup: tuple[Any, ...]) -> bool:
        return len(setup) == len(self._setup) and all(
            a is b for a, b in zip(setup, self._setup, strict=True))
