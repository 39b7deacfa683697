"""The bare table, photographed once: the calibration step "clear the play area and
press NEXT".

Without the table segmenter's model (see ``models/SEGMENTER_CARD.md``) the camera tells
cards from the table by difference from a picture of the table with nothing on it (the
scanner's ``learn_table``, :class:`LearnsTable`); with it, the step is skipped. Before the
first game, while none is kept, the companion asks for it on the page, aloud and with
the LED (a :data:`CALIBRATE` notice); NEXT then takes it from the next frame. The
picture is kept beside the journal and given to the scanner again at every start;
``companion doctor`` says whether one is kept.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from device.backs import RunOnCamera
from device.service import Notice, Press, Service, Update
from engine.board import Location
from engine.state import Phase
from vision.scanner import reads_by_difference

log = logging.getLogger("companion.reference")

CALIBRATE = "calibrate"  # the notice kind: said aloud, LED attention
ASK = "Clear the play area and press NEXT, so the camera learns the bare table."
FILE_NAME = "table.png"


class LearnsTable(Protocol):
    """What the scanner offers: learn the bare table from one frame (BGR, the camera's
    size). Returns the locations where something still lies (left out of what it
    learnt; empty when the play area was clear); raises ``ValueError`` when the frame
    will not do at all (no markers seen)."""

    def learn_table(self, frame: np.ndarray) -> Any: ...


def reference_path(journal: Path) -> Path:
    """Where the bare table's picture is kept: beside the journal."""
    return journal.parent / FILE_NAME


def can_learn_table() -> bool:
    """Does this vision pipeline want the bare table? Only the colour-model fallback does
    (no table segmenter installed): asking for it otherwise costs the players a step for
    nothing."""
    return reads_by_difference()


class TableReference:
    """Asks for the bare table before the first game; NEXT takes it."""

    def __init__(self, path: Path, run_on_camera: RunOnCamera,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.run_on_camera = run_on_camera
        self.clock = clock
        self._service: Service | None = None

    @property
    def kept(self) -> bool:
        return self.path.exists()

    def install(self, service: Service) -> None:
        """Take NEXT while the step is due (other presses keep their meaning)."""
        self._service = service
        service.add_press_handler(self.on_press)

    def due(self, service: Service) -> bool:
        """No picture kept, and no game set up or the last one over (in a game NEXT
        means "my part is done")."""
        return not self.kept and service.game.state.phase in (Phase.SETUP, Phase.OVER)

    def ask(self, service: Service) -> None:
        """Ask for the picture now if the step is due; give a kept one to the scanner."""
        if self.kept:
            self.run_on_camera(lambda scanner, frame: self._restore(scanner))
        elif self.due(service):
            service.submit(Notice(CALIBRATE, ASK))

    def on_press(self, service: Service, command: Press) -> Update | None:
        if command.button == "next" and self.due(service):
            self.run_on_camera(self._take)
            return service.notify(CALIBRATE, "Taking the picture of the bare table…")
        return None  # not ours: the tracker or the controls take it

    def _take(self, scanner: Any, frame: np.ndarray) -> None:
        """On the capture thread: learn the frame, keep it, say how it went."""
        try:
            cluttered = scanner.learn_table(frame) or []
        except ValueError as exc:
            self._say(f"The bare table could not be learnt: {exc}. {ASK}")
            return
        if cluttered:  # learnt elsewhere; kept only once all of it has been seen bare
            where = ", ".join(Location(name).label for name in cluttered)
            self._say(f"Something still lies on {where}. {ASK}")
            return
        self._keep(frame)
        self._say("The bare table is learnt. Start a game when you are ready.")

    def _restore(self, scanner: Any) -> None:
        frame = cv2.imread(str(self.path))
        if frame is None:
            log.warning("the bare table's picture %s cannot be read", self.path)
            return
        try:
            scanner.learn_table(frame)
        except ValueError as exc:  # the camera moved since: ask again
            log.warning("the kept bare table no longer fits: %s", exc)
            self.path.unlink(missing_ok=True)
            if self._service is not None:
                self.ask(self._service)

    def _keep(self, frame: np.ndarray) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            kept = cv2.imwrite(str(self.path), frame)
        except (OSError, cv2.error) as exc:
            kept, why = False, str(exc)
        else:
            why = "the image could not be written"
        if not kept:  # learnt for this run all the same; asked for again at the next start
            log.warning("cannot keep the bare table in %s: %s", self.path, why)

    def _say(self, message: str) -> None:
        if self._service is not None:
            self._service.submit(Notice(CALIBRATE, message))


def describe(path: Path) -> str:
    """For ``companion doctor``: whether a picture is kept, and since when."""
    if not path.exists():
        return "none kept yet"
    taken = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    return f"{path} (taken {taken})"
