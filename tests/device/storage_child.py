"""The full-disk test's child: plays on a journal in a small filesystem it fills, then frees.

    python storage_child.py FOLDER service            # a journaled service, 40 moves full
    python storage_child.py FOLDER demo SECONDS GAP   # `companion demo`, SECONDS full
    python storage_child.py FOLDER start              # `companion run` starting on it full

FOLDER is a small filesystem of its own (``tests/device/test_storage.py`` and
``benchmarks/device_faults.py`` mount a tmpfs there). The child plays a while, fills
FOLDER with a ballast file until the disk refuses more, plays on, deletes the ballast,
waits until the backlog is written, and prints one JSON line: what the page, the voice
and the LED were told, and the events acknowledged against the events in the journal.
Its stderr is the log (the parent counts tracebacks there). Only what ``main`` had
before the storage work is used, so the same child measures the code before it.
"""

from __future__ import annotations

import errno
import io
import json
import logging
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

from devkit import policy, two_player_setup

from device import config as settings
from device.hardware.led import ERROR, StatusLight
from device.hardware.voice import sentences
from device.journal import Journal
from device.service import NewGame, Play, Service, Update
from engine.game import Game
from web.document import Documents

FAILED, SAVED = "storage-failed", "storage-saved"


def fill(folder: Path) -> Path:
    """A ballast file that takes every free byte of ``folder``'s filesystem."""
    ballast = folder / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 1 << 12, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    return ballast


class Witness:
    """Listens to the service as the page, the voice and the LED do; keeps the games."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.documents = Documents(service)
        self.updates: list[Update] = []
        self.spoken: list[str] = []
        self.led: list[str] = []
        self.page: list[tuple[str | None, str | None]] = []  # (notice, unsaved) per update
        self.games: list[Game] = [service.game]
        self.light = StatusLight(self.led.append)
        self.saved = threading.Event()
        self.playing = threading.Event()  # a few moves into a game
        self.errors = 0  # moves that raised
        service.listeners.append(self)

    def __call__(self, update: Update) -> None:
        self.updates.append(update)
        self.spoken += sentences(update, None)
        self.light(update)
        doc = json.loads(self.documents.json(update))
        self.page.append((doc["notice"], doc.get("unsaved")))
        if self.service.game is not self.games[-1]:
            self.games.append(self.service.game)
        if update.kind == SAVED:
            self.saved.set()
        if len(update.state.players) and update.kind == "event":
            self.playing.set()

    def report(self, path: Path, **extra: Any) -> dict[str, Any]:
        """What was told, and every acknowledged game against the journal."""
        reader = Journal(path)
        try:
            archived = [reader.archived_events(g.id) for g in reversed(reader.archive())]
        finally:
            reader.close()
        logs = [list(g.log) for g in self.games]
        stored = archived[-len(logs):]
        return {
            "failed": [u.message for u in self.updates if u.kind == FAILED],
            "saved": [u.message for u in self.updates if u.kind == SAVED],
            "spoken": [s for s in self.spoken if "SD card" in s or "saved again" in s],
            "led_errors": self.led.count(ERROR),
            "page_notices": sorted({n for n, _ in self.page if n}),
            "page_banners": sorted({b for _, b in self.page if b}),
            "acknowledged": sum(map(len, logs)),
            "in_journal": sum(len(s) for s, g in zip(stored, logs, strict=False) if s == g),
            "games": len(logs),
            "errors": self.errors,
            **extra,
        }


def service_mode(folder: Path) -> dict[str, Any]:
    path = folder / "journal.sqlite3"
    service = Service(rng=random.Random(1), journal=Journal(path))
    service.retry = 0.05  # absent before the storage work: harmless there
    witness = Witness(service)
    service.start()
    service.call(NewGame(two_player_setup()))
    witness.games = [service.game]
    moves(service, witness, 10)
    ballast = fill(folder)
    moves(service, witness, 40)
    full = len(service.game.log)
    ballast.unlink()
    witness.saved.wait(10)
    service.stop()
    return witness.report(path, moves_when_freed=full)


def moves(service: Service, witness: Witness, count: int) -> None:
    for _ in range(count):
        try:
            service.call(Play(policy(service.game)))  # type: ignore[arg-type]
        except Exception:
            witness.errors += 1
            logging.getLogger("child").exception("a move failed")


def demo_mode(folder: Path, seconds: float, gap: float) -> dict[str, Any]:
    """`companion demo` as its command builds it, with its temporary journal in FOLDER."""
    from device.appliance import Appliance

    os.environ["TMPDIR"] = str(folder)
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="synthetic", fps=2.0, width=640, height=480)
    cfg = cfg.replace("web", host="127.0.0.1", port=0).replace("voice", enabled=False)
    out = io.StringIO()
    appliance = Appliance(cfg, demo=True, out=out, seed=1, demo_interval=gap)
    appliance.start()
    try:
        service = appliance.service
        witness = Witness(service)
        journal = service.journal
        assert journal is not None
        assert witness.playing.wait(60), f"the demo did not play: {out.getvalue()}"
        ballast = fill(folder)
        start = time.monotonic()
        appliance.stopping.wait(seconds)
        during = sum(len(g.log) for g in witness.games)
        ballast.unlink()
        saved = witness.saved.wait(30)
        waited = time.monotonic() - start - seconds
        assert appliance.player is not None
        appliance.player.stop()  # the script stops; what it played must all be written
        return witness.report(journal.path, seconds=seconds, moves_played=during,
                              backlog_saved=saved, saved_after=round(waited, 2))
    finally:
        appliance.stop()


def start_mode(folder: Path) -> dict[str, Any]:
    """`companion run` on a full disk holding a game in play; then freed."""
    from device.appliance import Appliance, StartError

    path = folder / "journal.sqlite3"
    service = Service(rng=random.Random(1), journal=Journal(path))
    service.call(NewGame(two_player_setup()))
    moves(service, Witness(service), 10)
    assert service.journal is not None
    service.journal.close()  # a clean stop: the write-ahead log is folded in and deleted
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="replay", device=str(folder / "no-frames"))
    cfg = cfg.replace("web", host="127.0.0.1", port=0).replace("voice", enabled=False)
    cfg = cfg.replace("buttons", enabled=False).replace("led", enabled=False)
    cfg = cfg.replace("journal", path=str(path))
    ballast = fill(folder)
    refused = ""
    first = Appliance(cfg, out=io.StringIO())
    try:
        first.start()
    except StartError as exc:
        refused = str(exc)
    finally:
        first.stop()  # as run_until_stopped does
    ballast.unlink()
    appliance = Appliance(cfg, out=io.StringIO())
    appliance.start()
    appliance.stop()
    return {"refused": refused, "resumed": appliance.service.restored,
            "log": len(service.game.log)}


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    folder, mode = Path(sys.argv[1]), sys.argv[2]
    if mode == "service":
        result = service_mode(folder)
    elif mode == "start":
        result = start_mode(folder)
    else:
        result = demo_mode(folder, float(sys.argv[3]), float(sys.argv[4]))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
