"""The capture loop: one thread owns the camera, paces it, and survives its loss.

Each tick reads a frame and hands it on (in the service: scanner → stabiliser →
a :class:`~device.service.CameraChanges` command). When the camera fails, the loop
closes it, reports the loss once, and reopens it with exponential backoff, while the
game goes on untouched; when a frame arrives again it reports that too. Every pass
of the loop, waiting or not, beats the heartbeat the systemd watchdog looks at.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from device.hardware.camera import Camera, CameraError
from device.perception import ASK_AFTER_S, UNREAD_AFTER_S, view_from_stable
from engine.board import Location
from vision.locate import hides_stack_foot
from vision.stacks import GLARE
from vision.still import Picture, pixels_of
from vision.strips import Strips, Under

log = logging.getLogger("companion.capture")

FrameHandler = Callable[[np.ndarray, float], None]
Reporter = Callable[[str, str], None]  # (kind, message): "camera-lost" / "camera-back"


class Backoff:
    """Retry delays: ``low``, doubling up to ``high``; :meth:`reset` after a success."""

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high
        self.delay = low

    def next(self) -> float:
        delay = self.delay
        self.delay = min(self.high, self.delay * 2)
        return delay

    def reset(self) -> None:
        self.delay = self.low


class CaptureLoop:
    """Reads ``fps`` frames a second from a camera that ``open_camera`` opens."""

    def __init__(self, open_camera: Callable[[], Camera], on_frame: FrameHandler, *,
                 fps: float = 10.0, retry: tuple[float, float] = (0.5, 8.0),
                 report: Reporter | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.open_camera = open_camera
        self.on_frame = on_frame
        self.period = 1.0 / fps
        self.backoff = Backoff(*retry)
        self.report = report or (lambda kind, message: None)
        self.clock = clock
        self.heartbeat = clock()
        self.frames = 0
        self.connected = False
        self.last_error = ""
        self._camera: Camera | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="capture", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def is_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def is_healthy(self, stale_after: float) -> bool:
        """True while the loop runs and has beaten within ``stale_after`` seconds."""
        return self.is_alive and self.clock() - self.heartbeat < stale_after

    # --- the loop -----------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.heartbeat = self.clock()
                if self._camera is None:
                    self._open()
                else:
                    self._tick()
        finally:
            self._close()

    def _open(self) -> None:
        try:
            self._camera = self.open_camera()
        except CameraError as exc:
            self._lost(exc)

    def _tick(self) -> None:
        assert self._camera is not None
        start = self.clock()
        try:
            frame = self._camera.read()
        except CameraError as exc:
            self._close()
            self._lost(exc)
            return
        self._back()
        self.frames += 1
        self._handle(frame, start)
        self.heartbeat = self.clock()  # a slow first scan (loading the model) still beats
        self._stop.wait(max(0.0, self.period - (self.clock() - start)))

    def _handle(self, frame: np.ndarray, t: float) -> None:
        try:
            self.on_frame(frame, t)
        except Exception:  # a vision bug must not take the camera (or the watchdog) down
            log.exception("frame handler failed")

    def _lost(self, exc: Exception) -> None:
        delay = self.backoff.next()
        if self.connected or not self.last_error:  # newly lost: say so once
            self.report("camera-lost", f"camera lost: {exc}; retrying every "
                        f"{self.backoff.high:g} s at most")
            log.warning("camera lost: %s (retrying with backoff)", exc)
        else:
            log.debug("camera still missing: %s (next try in %.1f s)", exc, delay)
        self.connected, self.last_error = False, str(exc)
        self._stop.wait(delay)

    def _back(self) -> None:
        if not self.connected:
            self.backoff.reset()
            if self.last_error:
                self.report("camera-back", "camera back")
            self.connected = True

    def _close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.close()
            except Exception:  # closing a vanished camera can fail; it is gone either way
                log.debug("closing the camera failed", exc_info=True)


STACK_PAST_VIEW = "stack-past-view"  # the notice's kind (spoken by device.hardware.voice)


def past_view_message(location: str) -> str:
    """What the table is told when a stack's foot has been out of sight for a while."""
    return (f"{Location(location).label}: the camera cannot see the end of the stack. If it "
            "reaches past the mark below the markers, push its cards closer together.")


GLARE_HIDES = "glare-hides"  # the notice's kind (spoken by device.hardware.voice)


def glare_message(location: str) -> str:
    """What the table is told when a lamp's reflection has hidden a location a while."""
    return (f"{Location(location).label}: a lamp's reflection hides the cards. Move or tilt "
            "the lamp until the camera sees them again.")


CAMERA_MOVED = "camera-moved"  # the notice's kind (shown on the page and logged)


def moved_message() -> str:
    """What the table is told when the markers were found moved: the camera was knocked."""
    return ("The camera moved: the play area was found again from its markers. The game "
            "goes on; keep the camera still.")


def _notice_for(location: str, reason: str) -> tuple[str, str] | None:
    """The notice a location read occluded for ``reason`` calls for, if any: something
    the table can fix, not a hand that will move on its own."""
    if hides_stack_foot(reason):
        return STACK_PAST_VIEW, past_view_message(location)
    if reason == GLARE:
        return GLARE_HIDES, glare_message(location)
    return None


Task = Callable[[Any, np.ndarray], None]  # (scanner, frame), run on the capture thread


class Submit(Protocol):
    """Where the pipeline hands its changes: the stabiliser's changes and states, the
    strips read, and (``blind``) the seconds the camera delivered no frame before."""

    def __call__(self, changes: tuple[Any, ...], reading: Any,
                 strips: Mapping[str, Under], blind: float = 0.0) -> None: ...


class VisionPipeline:
    """Frame → ``scanner.scan`` → ``stabilizer.update`` → changes for the service.

    The scanner is loaded on the first frame, on the capture thread (an ONNX model takes
    a second or two), so the page is up before vision is. If it cannot be loaded the
    failure is reported once and frames are still kept for the page. Work that changes
    the scanner (learning the bare table, a card back) is queued with :meth:`later` and
    done between two scans, with the frame at hand.
    """

    def __init__(self, load_scanner: Callable[[], Any], stabilizer: Any,
                 submit: Submit, *,
                 on_error: Callable[[str], None] | None = None,
                 on_notice: Callable[[str, str], None] | None = None,
                 unread_after: float = UNREAD_AFTER_S, ask_after: float = ASK_AFTER_S) -> None:
        self._load_scanner = load_scanner
        self._scanner: Any = None
        self.failure = ""
        self.stabilizer = stabilizer
        self.submit = submit
        self.on_error = on_error or (lambda message: None)
        self.on_notice = on_notice or (lambda kind, message: None)
        self.unread_after, self.ask_after = unread_after, ask_after
        self.reading: Any = None
        self.view: Any = None  # the last stable view handed on
        self._frame: np.ndarray | Picture | None = None
        self.scans = 0
        self.moves = 0  # camera moves the scanner found (its markers seen elsewhere)
        self._tasks: queue.SimpleQueue[Task] = queue.SimpleQueue()
        self.strips = Strips()  # the cards seen on top, to name covered strips by

    def later(self, task: Task) -> None:
        """Run ``task(scanner, frame)`` on the capture thread before the next scan."""
        self._tasks.put(task)

    @property
    def frame(self) -> np.ndarray | None:
        """The last frame given (for the page, and for work done between scans)."""
        return None if self._frame is None else pixels_of(self._frame)

    def __call__(self, frame: np.ndarray | Picture, t: float) -> None:
        """``frame``: BGR pixels, or a picture file decoded only as far as it is used."""
        self._frame = frame
        scanner = self._scanner or self._load()
        if scanner is None:
            return
        self._run_tasks(scanner, frame)
        self.reading = scanner.scan(frame)
        self.scans += 1
        self._check_moved(scanner)
        if self.stabilizer is None:
            return
        changes = self.stabilizer.update(self.reading, t)
        gap = float(getattr(self.stabilizer, "gap", 0.0))
        if gap:
            # The camera was blind a while: say so, then hand on the table as it is
            # now even if it looks as before (something may have come and gone).
            self.submit((), None, {}, gap)
            self.view = None
        for change in changes:
            notice = _notice_for(change.location, change.reason) if (
                change.kind == "occluded") else None
            if notice is not None:
                self.on_notice(*notice)
        # The stabiliser settles a stack's depth without a change event (a covered card
        # banished, two slid under the top one): the tracker needs those too.
        view = view_from_stable(self.stabilizer.state, self.unread_after, self.ask_after)
        if changes or (view is not None and view != self.view):
            self.view = view or self.view
            strips = self.strips.table(pixels_of(frame), scanner, self.reading,
                                       self.stabilizer.state)
            self.submit(tuple(changes), self.stabilizer.state, strips)

    def _check_moved(self, scanner: Any) -> None:
        """Say so when the scanner found the markers moved and recalibrated. The stable
        table stands meanwhile: the tracker hears of the next change as after a pause."""
        moves = int(getattr(scanner, "moves", 0))
        if moves != self.moves:
            self.moves = moves
            log.warning("the camera moved (markers found elsewhere): recalibrated, move %d",
                        moves)
            self.on_notice(CAMERA_MOVED, moved_message())

    def _run_tasks(self, scanner: Any, frame: np.ndarray | Picture) -> None:
        while True:
            try:
                task = self._tasks.get_nowait()
            except queue.Empty:
                return
            try:
                task(scanner, pixels_of(frame))  # decoded only if there is work
            except Exception as exc:  # a failed lesson must not stop the camera
                log.exception("vision task failed")
                self.on_error(f"vision: {exc}")

    @property
    def scanner(self) -> Any:
        """The loaded scanner (None until the first frame, or if it failed to load)."""
        return self._scanner

    def _load(self) -> Any:
        if self.failure:
            return None
        try:
            self._scanner = self._load_scanner()
        except Exception as exc:  # a missing model or module: the camera still serves the page
            self.failure = f"vision unavailable: {exc}"
            log.error("%s", self.failure)
            self.on_error(self.failure)
        return self._scanner
