"""Scoring by camera: while the game waits for a hand laid face up, read its cards.

At the end of a tracked game each player lays their hand face up in the play area. The
reader runs :func:`vision.spread.find_cards` on every ``every``-th frame (it looks at the
whole play area, not only the four stacks, so it costs more than a scan) and, once
``agree`` reads in a row find the same cards, hands them to the service as a
:class:`~device.service.HandSeen`. The player checks them on the phone and confirms:
the camera suggests, a person decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from device.service import HandSeen
from vision.spread import find_cards

Finder = Callable[[np.ndarray, Any, Any], list[tuple[str | None, float, Any]]]
Reading = tuple[tuple[str, ...], int]  # (named cards, sorted; cards seen but not named)


def _find_cards(frame: np.ndarray, calibration: Any, classifier: Any) -> list[
        tuple[str | None, float, Any]]:
    return find_cards(frame, calibration, classifier)


class HandReader:
    """Frames in; a :class:`HandSeen` out when a wanted hand reads the same ``agree`` times."""

    def __init__(self, wanted: Callable[[], int | None], scanner: Callable[[], Any],
                 submit: Callable[[HandSeen], None], *, every: int = 5, agree: int = 3,
                 find: Finder = _find_cards) -> None:
        self.wanted = wanted  # the seat whose hand the game waits for, or None
        self.scanner = scanner  # the loaded TableScanner (its calibration and classifier)
        self.submit = submit
        self.every, self.agree = max(1, every), max(1, agree)
        self.find = find
        self._frames = 0
        self._last: Reading | None = None
        self._same = 0
        self._sent: tuple[int, Reading] | None = None

    def __call__(self, frame: np.ndarray, t: float) -> None:
        seat = self.wanted()
        if seat is None:
            self._last, self._same, self._sent = None, 0, None
            return
        self._frames += 1
        scanner = self.scanner()
        if self._frames % self.every or scanner is None or scanner.calibration is None:
            return
        self._settle(seat, self.read(frame, scanner))

    def read(self, frame: np.ndarray, scanner: Any) -> Reading:
        """The cards one frame shows: named ones sorted, and how many are unnamed."""
        found = self.find(frame, scanner.calibration, scanner.classifier)
        named = tuple(sorted(card for card, _conf, _quad in found if card is not None))
        return named, sum(card is None for card, _conf, _quad in found)

    def _settle(self, seat: int, reading: Reading) -> None:
        self._same = self._same + 1 if reading == self._last else 1
        self._last = reading
        if self._same >= self.agree and self._sent != (seat, reading) and any(reading):
            self._sent = (seat, reading)
            self.submit(HandSeen(seat, reading[0], reading[1]))
