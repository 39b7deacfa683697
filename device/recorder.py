"""Recording the running companion's games, one game folder each (``[record]`` settings).

A :class:`GameRecorder` watches the service's commands (a :attr:`Service.taps` hook,
on the engine thread, in the order they run) and the camera's frames (from the capture
thread), and writes each game into a folder that ``companion replay`` reads
(docs/game-folder.md): ``game.json`` with the companion's random source as the game
begins, the buttons and phone answers, and a timeline line for every frame vision
scanned. A frame's picture is kept when the table changed since the last one kept,
and ``still_fps`` times a second while it is still; other lines name the last picture
kept (the stabiliser still sees every frame's time).

Order: the replay feeds the timeline line by line, so a frame whose scan handed the
service a change must come just before the command that change became, and after
every command that ran before it. Frame lines therefore wait until their change runs
(frames with no change wait only for those before them).

Disk: ``budget_mb`` bounds every game folder together. A new game first deletes the
oldest folders until half the budget is free. At :data:`THIN` of the budget the table
is told once, and from then on a picture is kept only when the table has settled in a
new state; at the budget, once more, and no frame is recorded any more (buttons and
answers still are). Pictures are encoded and written by a background thread, so the
capture loop never waits for the disk: past :data:`BACKLOG` pictures waiting, a frame
names the last picture kept instead.

:meth:`GameRecorder.bug_report` gives the current game's folder to the page's "save this
game for a bug report" (:class:`device.bugreport.BugReport` zips it).
"""

from __future__ import annotations

import logging
import queue
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.bugreport import BugReport
from device.recording import BACK_FILE, Recorder, game_json, game_text, timeline_item
from device.service import CameraChanges, NewGame, Service
from engine.events import Event, Setup
from engine.state import Phase

log = logging.getLogger("companion.recorder")

THIN = 0.8  # share of the budget after which only settled pictures are kept
BACKLOG = 6  # pictures waiting for the writer before frames name the last one instead
CHANGED = 10  # grey levels a thumbnail cell must move to count as a change of the table
THUMB = (32, 24)  # the thumbnail tables are compared by (cells average the sensor noise)
NOTICE = "recording"  # the notice kind the table is told with
FULL = "disk budget reached: no more frames"  # the timeline's note where frames stop


@dataclass
class _Slot:
    """A frame scanned (or being scanned) whose timeline line is not written yet."""

    t: float
    picture: str
    note: str = ""  # a note line instead of a frame's
    changes: int = 0  # changes its scan handed the service that have not run yet
    done: bool = False  # its scan is over
    written: bool = False


@dataclass
class _Game:
    """The folder being written and what was decided about its pictures."""

    folder: Path
    start: float
    pictures: int = 0
    last: str = ""  # the last picture kept
    last_t: float = float("-inf")
    last_thumb: np.ndarray | None = None
    previous_thumb: np.ndarray | None = None
    bytes: int = 0  # written into the folder so far
    picture_size: int = 0  # the last picture's, to foresee the next ones
    thin: bool = False
    full: bool = False
    failed: bool = False
    slots: deque[_Slot] = field(default_factory=deque)


class GameRecorder:
    """Writes every game the service plays into a folder of its own under ``root``."""

    def __init__(self, root: str | Path, *, budget_mb: float = 2000.0, still_fps: float = 1.0,
                 report: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, back: Path | None = None,
                 corners: Any = None, vision: Mapping[str, float] | None = None,
                 model: str | None = None, quality: int = 80) -> None:
        self.root = Path(root)
        self.budget = budget_mb * 1e6
        self.still = 1.0 / still_fps
        self.report = report or (lambda message: None)
        self.clock = clock
        self.back = back  # the card back the device keeps, copied into each new folder
        self.settings = {"corners": corners, "vision": dict(vision or {}), "model": model}
        self.quality = quality
        self._lock = threading.Lock()
        self._game: _Game | None = None
        self._slot: _Slot | None = None  # the frame being scanned
        self._others = 0  # bytes the other games' folders hold
        self._backlog = 0
        self._writer = _Writer(self._wrote, self._failed)
        self.service: Service | None = None

    # --- the service's side (engine thread) -------------------------------------------

    def install(self, service: Service) -> None:
        """Watch ``service``'s commands; a game already under way is recorded from here."""
        self.service = service
        service.taps.append(self.on_command)
        game = service.game
        if game.log and isinstance(game.log[0], Setup) and game.state.phase is not Phase.OVER:
            self._begin(game.log[0], tuple(game.log[1:]))

    def on_command(self, command: object) -> None:
        """Before ``command`` runs: its timeline line, after the frames that came first."""
        if isinstance(command, NewGame):
            if isinstance(command.setup, Setup):
                self._begin(command.setup, ())
            return
        with self._lock:
            game = self._game
            if game is None or game.failed:
                return
            if isinstance(command, CameraChanges):
                self._flush(game, change_ran=True)
                return
            self._flush(game)
            item = timeline_item(command)
            if item is not None:
                self._writer.put(("line", game, item, self.clock() - game.start))

    def _begin(self, setup: Setup, events: tuple[Event, ...]) -> None:
        """A new folder: the game's start, the companion's random source as it is now."""
        assert self.service is not None
        data = game_json(setup, rng=self.service.game.rng or self.service.rng, events=events,
                         corners=self.settings["corners"], vision=self.settings["vision"],
                         model=self.settings["model"])
        with self._lock:
            self._end_game()
        self._writer.drain()  # the last game's folder is whole before it is measured
        try:
            self._others = _prune(self.root, self.budget / 2)
            folder = _new_folder(self.root)
        except OSError as exc:
            self._say(f"recording stopped: {exc}")
            return
        game = _Game(folder, self.clock())
        with self._lock:
            self._game = game
            self._writer.put(("begin", game, data, self.back))
        log.info("recording the game into %s", folder)

    # --- the camera's side (capture thread) -------------------------------------------

    def taken(self, frame: np.ndarray, t: float) -> None:
        """A frame about to be scanned, taken at ``t`` (the capture loop's clock)."""
        with self._lock:
            game = self._game
            self._slot = None
            if game is None or game.full or game.failed:
                return
            if self._check_budget(game):
                game.slots.append(_Slot(t, "", FULL, done=True))  # where frames stop
                self._flush(game)
                return
            picture = self._picture(game, frame, t)
            if picture:  # (else nothing kept yet to name)
                self._slot = _Slot(t, picture)
                game.slots.append(self._slot)

    def changed(self) -> None:
        """The frame's scan hands the service a change (call before submitting it)."""
        with self._lock:
            if self._slot is not None:
                self._slot.changes += 1

    def scanned(self) -> None:
        """The frame's scan is over."""
        with self._lock:
            slot, self._slot = self._slot, None
            if slot is not None and self._game is not None:
                slot.done = True
                self._flush(self._game)

    def _picture(self, game: _Game, frame: np.ndarray, t: float) -> str:
        """The picture this frame's line names: a new one, or the last one kept."""
        thumb = _thumbnail(frame)
        previous, game.previous_thumb = game.previous_thumb, thumb
        moved = game.last_thumb is None or _differs(thumb, game.last_thumb)
        if game.thin:  # only a table settled in a new state
            keep = moved and previous is not None and not _differs(thumb, previous)
        else:
            keep = moved or t - game.last_t >= self.still
        if keep and self._backlog < BACKLOG:
            game.pictures += 1
            game.last = f"frames/{game.pictures:06d}.jpg"
            game.last_t, game.last_thumb = t, thumb
            self._backlog += 1
            self._writer.put(("picture", game, game.last, frame.copy(), self.quality))
        return game.last

    # --- writing lines in order -------------------------------------------------------

    def _flush(self, game: _Game, change_ran: bool = False) -> None:
        """Write the waiting frame lines that may come now (lock held).

        ``change_ran``: a camera change is about to run; it came from the first frame
        with changes pending, whose line comes now.
        """
        while game.slots:
            slot = game.slots[0]
            if slot.changes:
                if not change_ran:
                    return  # its change runs later: its line (and those after) wait
                slot.changes -= 1
                change_ran = False
                self._write(game, slot)
                if slot.changes:
                    return
            if not slot.done:
                return  # still being scanned: a change may come of it
            self._write(game, slot)
            game.slots.popleft()

    def _write(self, game: _Game, slot: _Slot) -> None:
        if not slot.written:
            slot.written = True
            item = {"note": slot.note} if slot.note else {"frame": slot.picture}
            self._writer.put(("line", game, item, slot.t - game.start))

    # --- disk -------------------------------------------------------------------------

    def _check_budget(self, game: _Game) -> bool:
        """Thin or stop the pictures as the folders near the budget; True when full.

        Counts the pictures still waiting for the writer and the next one as the size of
        the last, so the budget is kept rather than overshot.
        """
        used = self._others + game.bytes + (self._backlog + 1) * game.picture_size
        if not game.thin and used >= THIN * self.budget:
            game.thin = True
            self._say(f"recording: {used / 1e6:.1f} MB of its {self.budget / 1e6:g} MB "
                      "used; from now on it keeps a picture only when the table settles")
        if not game.full and used >= self.budget:
            game.full = True
            self._say(f"recording: its {self.budget / 1e6:g} MB are used: no more frames "
                      "are kept (buttons and answers still are)")
        return game.full

    def _end_game(self) -> None:
        """Write the current game's waiting frame lines and let it go (lock held)."""
        game, self._game = self._game, None
        self._slot = None
        if game is not None:
            for slot in game.slots:
                self._write(game, slot)
            self._writer.put(("end", game))

    # --- the writer's reports (writer thread) -----------------------------------------

    def _wrote(self, game: _Game, size: int, picture: bool) -> None:
        with self._lock:
            game.bytes += size
            if picture:
                self._backlog -= 1
                game.picture_size = size or game.picture_size

    def _failed(self, game: _Game, problem: str) -> None:
        with self._lock:
            game.failed = True
        self._say(f"recording stopped: {problem}")

    def _say(self, message: str) -> None:
        log.warning("%s", message)
        self.report(message)

    # --- the page's side --------------------------------------------------------------

    @property
    def folder(self) -> Path | None:
        """The game folder being written (None before the first game)."""
        game = self._game
        return game.folder if game is not None else None

    def bug_report(self, timeout: float = 10.0) -> BugReport:
        """The current game's folder as it stands, to download as a zip.

        :raises LookupError: when no game has been recorded yet.
        """
        folder = self.folder or _latest(self.root)
        if folder is None:
            raise LookupError("no game has been recorded yet")
        self._writer.drain(timeout)
        return BugReport.of(folder)

    def close(self) -> None:
        """Write what is waiting and stop the writer."""
        with self._lock:
            self._end_game()
        self._writer.stop()


# --- the background writer ---------------------------------------------------------------


class _Writer:
    """One thread that encodes and writes what the recorder decided, in order.

    Tasks: ``("begin", game, game.json's data, card back)``, ``("picture", game, name,
    frame, quality)``, ``("line", game, item, t)``, ``("end", game)``; each names its
    game, and a game whose folder failed takes nothing more.
    """

    def __init__(self, wrote: Callable[[_Game, int, bool], None],  # (game, bytes, picture?)
                 failed: Callable[[_Game, str], None]) -> None:
        self._tasks: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self._wrote, self._failed = wrote, failed
        self._recorders: dict[int, Recorder] = {}  # by id(game)
        self._thread = threading.Thread(target=self._run, name="recorder", daemon=True)
        self._thread.start()

    def put(self, task: tuple[Any, ...]) -> None:
        self._tasks.put(task)

    def drain(self, timeout: float = 10.0) -> bool:
        """Wait until everything put so far is written (False on timeout)."""
        if threading.current_thread() is self._thread:
            return True
        done = threading.Event()
        self._tasks.put(("mark", done))
        return done.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        self._tasks.put(("stop",))
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            task = self._tasks.get()
            kind = task[0]
            if kind == "stop":
                for recorder in self._recorders.values():
                    recorder.close()
                return
            if kind == "mark":
                task[1].set()
                continue
            game = task[1]
            size = 0
            try:
                size = self._do(kind, game, task[2:])
            except (OSError, cv2.error) as exc:  # said once; the game goes on unrecorded
                broken = self._recorders.pop(id(game), None)
                if broken is not None:
                    broken.close()
                if broken is not None or kind == "begin":
                    self._failed(game, str(exc))
            if kind in ("picture", "line"):
                self._wrote(game, size, kind == "picture")

    def _do(self, kind: str, game: _Game, args: tuple[Any, ...]) -> int:
        """One task; the bytes it wrote."""
        if kind == "begin":
            self._recorders[id(game)] = _begin(game.folder, *args)
            return 0
        recorder = self._recorders.get(id(game))
        if recorder is None:
            return 0  # the folder failed: nothing more goes into it
        if kind == "end":
            self._recorders.pop(id(game)).close()
            return 0
        before = recorder.bytes
        if kind == "picture":
            name, frame, recorder.quality = args
            recorder.picture(frame, name)
        elif kind == "line":
            recorder.line(*args)
        return recorder.bytes - before


def _begin(folder: Path, data: dict[str, Any], back: Path | None) -> Recorder:
    """A folder's recorder, with ``game.json`` and the device's card back written."""
    recorder = Recorder(folder, clock=lambda: 0.0)
    (folder / "game.json").write_text(game_text(data), encoding="utf-8")
    if back is not None and back.is_file():
        shutil.copyfile(back, folder / BACK_FILE)
    return recorder


# --- helpers -----------------------------------------------------------------------------


def _thumbnail(frame: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, THUMB, interpolation=cv2.INTER_AREA).astype(np.int16)


def _differs(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.abs(a - b).max() > CHANGED)


def _new_folder(root: Path) -> Path:
    """``root/game-YYYYmmdd-HHMMSS`` (with a suffix when one already exists)."""
    stamp = time.strftime("game-%Y%m%d-%H%M%S")
    folder, n = root / stamp, 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{n}"
    folder.mkdir(parents=True)
    return folder


def _game_folders(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return [f for f in root.iterdir() if f.is_dir() and f.name.startswith("game-")]


def _latest(root: Path) -> Path | None:
    folders = sorted(_game_folders(root), key=lambda f: f.name)
    return folders[-1] if folders else None


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def _prune(root: Path, keep: float) -> int:
    """Delete the oldest game folders until they hold at most ``keep`` bytes; what they
    hold then."""
    folders = sorted(_game_folders(root), key=lambda f: f.name)
    sizes = {f: _size(f) for f in folders}
    total = sum(sizes.values())
    while folders and total > keep:
        oldest = folders.pop(0)
        shutil.rmtree(oldest, ignore_errors=True)
        total -= sizes[oldest]
        log.info("recording: deleted %s to stay within the disk budget", oldest)
    return total
