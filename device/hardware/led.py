"""The status LED: steady when ready, slow blink when the table must answer on the page,
fast blink on an error (camera lost, moves not saved, a button pressed at the wrong
moment).

:func:`mode_for` decides the mode from updates (pure, testable); :class:`StatusLED`
drives a gpiozero ``LED`` (its blinking runs on gpiozero's own thread).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from device.hardware.buttons import quiet_fallbacks
from device.hardware.capture import GLARE_HIDES, STACK_PAST_VIEW
from device.reference import CALIBRATE
from device.service import Update
from device.storage import FAILED, SAVED
from device.tracking import LOCATION_QUESTION
from engine.decisions import Kind
from engine.state import Phase

log = logging.getLogger("companion.led")

READY, ATTENTION, ERROR, OFF = "ready", "attention", "error", "off"
# (on seconds, off seconds) per blinking mode
BLINKS = {ATTENTION: (0.8, 0.8), ERROR: (0.12, 0.12)}
# Decisions the buttons cannot answer: somebody must choose on the page.
NEEDS_PAGE = frozenset({Kind.PLACE, Kind.TARGET, Kind.FACE, Kind.CHOOSE, Kind.BLOCK})


class StatusLight:
    """Follows updates and keeps the mode; an error lasts until the next good update,
    a lost camera until it is back, unsaved moves until they are written, and a question
    the table has not answered yet (``asking``) keeps asking for attention while the
    game goes on."""

    def __init__(self, show: Callable[[str], None],
                 asking: Callable[[], bool] = lambda: False) -> None:
        self.show = show
        self.asking = asking
        self.mode = OFF
        self.camera_lost = False
        self.unsaved = False

    def __call__(self, update: Update) -> None:
        if update.kind == "camera-lost":
            self.camera_lost = True
        elif update.kind == "camera-back":
            self.camera_lost = False
        elif update.kind in (FAILED, SAVED):
            self.unsaved = update.kind == FAILED
        mode = ERROR if self.camera_lost or self.unsaved else mode_for(update)
        self.set(ATTENTION if mode == READY and self.asking() else mode)

    def set(self, mode: str) -> None:
        if mode != self.mode:
            self.mode = mode
            self.show(mode)


def mode_for(update: Update) -> str:
    """The LED mode one update calls for (ignoring a lost camera)."""
    if update.kind == "error":
        return ERROR
    if update.kind in ("question", LOCATION_QUESTION, CALIBRATE, STACK_PAST_VIEW, GLARE_HIDES):
        # the table must settle or fix something
        return ATTENTION
    state = update.state
    pending = state.pending
    if state.phase is Phase.OVER or (pending is not None and pending.kind in NEEDS_PAGE):
        return ATTENTION
    return READY


class StatusLED:
    """A single LED on ``pin`` (BCM) showing a mode."""

    def __init__(self, pin: int, *, pin_factory: Any = None) -> None:
        from gpiozero import LED  # only where there is an LED: see Buttons

        with quiet_fallbacks():
            self.led = LED(pin, pin_factory=pin_factory)

    def show(self, mode: str) -> None:
        if mode in BLINKS:
            on, off = BLINKS[mode]
            self.led.blink(on_time=on, off_time=off, background=True)
        elif mode == READY:
            self.led.on()
        else:
            self.led.off()

    def close(self) -> None:
        self.led.close()
