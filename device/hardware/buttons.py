"""The four table buttons on GPIO, through gpiozero.

Each button joins its BCM pin to ground (internal pull-up), so it works without a
single extra part. DIE, AUTOMA and NEXT act on press; UNDO acts only when held
(``undo_hold`` seconds), so brushing it does nothing. Presses closer together than
``bounce_time`` are one press: a backstop for pin drivers (and gpiozero's mock pins)
that do not debounce themselves. What a press *means* is decided by the service.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from device.controls import BUTTONS

log = logging.getLogger("companion.buttons")

HELD = ("undo",)  # buttons that act on a long press only


class GPIOError(RuntimeError):
    """No usable GPIO (not a Raspberry Pi, or no access to /dev/gpiochip*)."""


@contextlib.contextmanager
def quiet_fallbacks() -> Iterator[None]:
    """Hide gpiozero's warnings as it tries one pin driver after another (expected off a
    Pi; the final failure says what matters)."""
    from gpiozero.exc import PinFactoryFallback  # gpiozero: see Buttons

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        yield


class Buttons:
    """Calls ``on_press(name)`` for every (debounced) press or hold."""

    def __init__(self, pins: Mapping[str, int], on_press: Callable[[str], None], *,
                 bounce_time: float = 0.05, undo_hold: float = 2.0,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        # gpiozero only where there are buttons: it costs +0.05 s of CPU to import
        # (benchmarks/import_costs.py) and the demo, on the keyboard, never uses it
        from gpiozero import Button
        from gpiozero.exc import BadPinFactory, GPIOZeroError

        unknown = set(pins) - set(BUTTONS)
        if unknown:
            raise ValueError(f"unknown buttons {sorted(unknown)} (buttons: {', '.join(BUTTONS)})")
        self.on_press = on_press
        self.bounce_time = bounce_time
        self.clock = clock
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()  # gpiozero calls back from its own threads
        self.devices: dict[str, Any] = {}
        try:
            with quiet_fallbacks():
                for name, pin in pins.items():
                    self.devices[name] = self._make(Button, name, pin, undo_hold, pin_factory)
        except (BadPinFactory, GPIOZeroError, OSError) as exc:
            self.close()
            raise GPIOError(f"cannot use GPIO for the buttons: {exc}") from exc

    def _make(self, button_class: Any, name: str, pin: int, hold: float, factory: Any) -> Any:
        button = button_class(pin, pull_up=True, bounce_time=self.bounce_time or None,
                              hold_time=hold, pin_factory=factory)
        if name in HELD:
            button.when_held = lambda: self._fire(name)
        else:
            button.when_pressed = lambda: self._fire(name)
        return button

    def _fire(self, name: str) -> None:
        now = self.clock()
        with self._lock:
            if now - self._last.get(name, float("-inf")) < self.bounce_time:
                log.debug("%s: bounce ignored", name)
                return
            self._last[name] = now
        self.on_press(name)

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices.clear()
