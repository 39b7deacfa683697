"""Single-key commands from a terminal: the table's buttons where there is no GPIO.

Keys (see :data:`device.controls.KEYS`): d = DIE, a = AUTOMA, n = NEXT, u = UNDO,
q = quit. A terminal is switched to cbreak mode (keys arrive without Enter) and
restored on close.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import termios
import threading
import tty
from collections.abc import Callable
from typing import Any

from device.controls import KEYS

QUIT = "q"


class Keyboard:
    """Reads keys from file descriptor ``fd`` on a thread; calls ``on_button`` / ``on_quit``."""

    def __init__(self, fd: int, on_button: Callable[[str], None],
                 on_quit: Callable[[], None]) -> None:
        self.fd = fd
        self.on_button = on_button
        self.on_quit = on_quit
        self._saved: list[Any] | None = None  # termios attributes, as tcgetattr gives them
        self._wake_r, self._wake_w = os.pipe()  # wakes the reader for close()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()

    def close(self) -> None:
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = {key.fd for key, _ in selector.select()}
                if self._wake_r in ready:
                    return
                data = os.read(self.fd, 64)
                if not data:
                    return  # end of input
                for key in data.decode(errors="ignore").lower():
                    if not self._key(key):
                        return

    def _key(self, key: str) -> bool:
        """Handle one key; False after quit."""
        if key == QUIT:
            self.on_quit()
            return False
        if key in KEYS:
            self.on_button(KEYS[key])
        return True
