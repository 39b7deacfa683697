"""sd_notify messages and the watchdog, against a real Unix datagram socket."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.hardware.watchdog import Notifier, Watchdog, watchdog_interval


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A socket standing in for systemd's notification socket."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    try:
        yield sock, path
    finally:
        sock.close()


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def nothing_waiting(sock: socket.socket) -> bool:
    try:
        sock.recv(4096, socket.MSG_DONTWAIT)
    except (BlockingIOError, TimeoutError):  # EAGAIN: nothing was sent
        return True
    return False


def test_ready_status_and_stopping(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    notifier = Notifier(path)
    assert notifier.ready("serving http://127.0.0.1:8080")
    assert received(sock) == "READY=1\nSTATUS=serving http://127.0.0.1:8080"
    assert notifier.stopping() and received(sock) == "STOPPING=1"


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled and not notifier.ready()


def test_an_abstract_socket_address_is_supported() -> None:
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert Notifier("@" + name).send("WATCHDOG=1")
        assert received(sock) == "WATCHDOG=1"


def test_the_watchdog_interval_comes_from_systemd() -> None:
    pid = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({}) is None


def test_pings_only_while_healthy(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    healthy = [True]
    watchdog = Watchdog(Notifier(path), 10.0, lambda: healthy[0])
    assert watchdog.tick() and received(sock) == "WATCHDOG=1"
    healthy[0] = False  # the capture loop hangs
    assert not watchdog.tick()
    assert nothing_waiting(sock)
    healthy[0] = True
    assert watchdog.tick() and watchdog.pings == 2


def test_the_watchdog_thread_keeps_pinging(
        notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    watchdog = Watchdog(Notifier(path), 0.02, lambda: True)
    watchdog.start()
    try:
        assert [received(sock) for _ in range(3)] == ["WATCHDOG=1"] * 3
    finally:
        watchdog.stop()
