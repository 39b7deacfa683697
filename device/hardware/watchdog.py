"""systemd notifications: READY, STOPPING, STATUS, and the watchdog's keep-alive.

The protocol is one datagram to the socket in ``$NOTIFY_SOCKET`` (no library needed).
The watchdog is pinged only while a health check passes (the capture loop beating and
the engine thread alive), so a camera driver that hangs inside a capture makes systemd
restart the service instead of leaving a frozen table.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable

log = logging.getLogger("companion.watchdog")


class Notifier:
    """Sends ``sd_notify`` messages; does nothing when not started by systemd."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one message; False when there is no socket or it is gone."""
        if not self.address:
            return False
        # A leading "@" names a socket in Linux's abstract namespace.
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(message.encode(), target)
            except OSError as exc:
                log.warning("sd_notify %r failed: %s", message, exc)
                return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")


def watchdog_interval(environ: dict[str, str] | None = None) -> float | None:
    """systemd's ``WatchdogSec`` in seconds, when it applies to this process."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1_000_000


class Watchdog:
    """Pings every ``interval / 3`` seconds while ``is_healthy()`` holds.

    A third, so one check that finds the loop briefly slow (a model loading on a Pi
    Zero) does not by itself let systemd's timer run out.
    """

    def __init__(self, notifier: Notifier, interval: float,
                 is_healthy: Callable[[], bool]) -> None:
        self.notifier = notifier
        self.interval = interval
        self.is_healthy = is_healthy
        self.pings = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._warned = False

    def tick(self) -> bool:
        """Ping if healthy; True when a ping went out."""
        if not self.is_healthy():
            if not self._warned:
                log.error("capture loop or engine stalled: no watchdog ping (systemd "
                          "restarts the service after WatchdogSec)")
            self._warned = True
            return False
        self._warned = False
        sent = self.notifier.send("WATCHDOG=1")
        self.pings += sent
        return sent

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.interval / 3):
            self.tick()
