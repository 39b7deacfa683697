"""Learning the players' card back from the table.

The classifier knows one card back (the one drawn in training, or ``back.jpg`` in an
enrol folder); a table's own backs may differ, and a face-down card the classifier does
not know reads as unknown. When the table says a card lies face down at a location, or
the game knows one does (after Firewall Expert, say) where the camera reads nothing,
that location's top card is cut from the next frame and handed to the classifier's
``learn_back`` (:class:`LearnsBack`). The crop is kept beside the journal and learnt
again at every start, so a table teaches its back once.

The work runs on the capture thread, between two scans (the caller passes a
``run_on_camera`` that queues it there), so the classifier never changes mid-scan.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from engine.board import Location
from vision.locate import View, locate

log = logging.getLogger("companion.backs")

CameraTask = Callable[[Any, np.ndarray], None]  # (scanner, frame) on the capture thread
RunOnCamera = Callable[[CameraTask], None]


class LearnsBack(Protocol):
    """What the classifier offers: learn the card back from one card image (BGR crop,
    the classifier's input size). It may update itself and return None, or return the
    classifier to use from now on."""

    def learn_back(self, image: np.ndarray) -> Any: ...


class BackLearner:
    """Cuts a location's top card from the camera and teaches the classifier its back."""

    def __init__(self, path: Path | None, run_on_camera: RunOnCamera,
                 report: Callable[[str], None] | None = None) -> None:
        self.path = path  # the last back learnt, as an image file (None: not kept)
        self.run_on_camera = run_on_camera
        self.report = report or (lambda message: None)

    def __call__(self, location: Location) -> None:
        """Learn the back lying on top of ``location`` (from the next frame)."""
        self.run_on_camera(lambda scanner, frame: self._learn_at(scanner, frame, location))

    def restore(self) -> None:
        """Learn the back kept from an earlier game, if there is one."""
        if self.path is not None and self.path.exists():
            self.run_on_camera(lambda scanner, frame: self._learn_kept(scanner))

    def _learn_at(self, scanner: Any, frame: np.ndarray, location: Location) -> None:
        crop = top_card_image(scanner, frame, location)
        if crop is None:
            self.report(f"{location.label}: no card to learn the back from")
            return
        if teach(scanner, crop):
            if self.path is not None:
                _save(self.path, crop)
            self.report(f"learnt the card back from {location.label}")

    def _learn_kept(self, scanner: Any) -> None:
        crop = cv2.imread(str(self.path)) if self.path is not None else None
        if crop is not None:
            teach(scanner, crop)


def teach(scanner: Any, crop: np.ndarray) -> bool:
    """Hand ``crop`` to the scanner's classifier as the card back; False when it cannot
    learn one (a classifier without :class:`LearnsBack`)."""
    classifier = getattr(scanner, "classifier", None)
    learn = getattr(classifier, "learn_back", None)
    if learn is None:
        log.info("the classifier cannot learn a card back; enrol back.jpg instead")
        return False
    newer = learn(crop)
    if newer is not None and hasattr(newer, "identify"):
        scanner.classifier = newer  # the classifier returned its successor
    return True


def top_card_image(scanner: Any, frame: np.ndarray, location: Location) -> np.ndarray | None:
    """The top card at ``location`` as the classifier sees cards (None: no card found).

    A scanner may offer ``top_card_image(frame, location)`` itself; otherwise the stack
    is located afresh (a face-down card is a card-shaped thing all the same).
    """
    own = getattr(scanner, "top_card_image", None)
    if own is not None:
        found: np.ndarray | None = own(frame, location)
        return found
    if scanner.calibration is None:
        return None

    view = getattr(scanner, "view", None) or View(scanner.calibration)
    column = locate(frame, view)[location.pos]
    if column.quad_mm is None:
        return None
    crop: np.ndarray = scanner.crop_quad(frame, column.quad_mm)
    return crop


def _save(path: Path, crop: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        kept = cv2.imwrite(str(path), crop)
    except (OSError, cv2.error) as exc:
        kept, why = False, str(exc)
    else:
        why = "the image could not be written"
    if not kept:  # the back is learnt for this run all the same
        log.warning("cannot keep the card back in %s: %s", path, why)
