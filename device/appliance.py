"""The whole product in one process: journal, service, camera and vision, buttons, LED,
voice, keyboard, web page, systemd notifications.

``companion run`` and ``companion demo`` both build an :class:`Appliance`; the demo
swaps the real camera for the synthetic table, GPIO for the keyboard, and adds the
scripted game. Start-up serves the page first and loads vision on the capture thread,
so the page is up in a second or two. SIGTERM (systemd) and SIGINT (Ctrl-C) stop every
part in reverse order, finishing queued commands and closing the journal cleanly.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from device import config as settings
from device import joining
from device.backs import BackLearner
from device.config import Config
from device.controls import BUTTONS, KEYS, LABELS
from device.demo import DemoPlayer, layout_of
from device.hands import HandReader
from device.hardware.buttons import Buttons, GPIOError
from device.hardware.camera import open_camera
from device.hardware.capture import CaptureLoop, VisionPipeline
from device.hardware.keyboard import Keyboard
from device.hardware.led import StatusLED, StatusLight
from device.hardware.voice import Announcer, Voice
from device.hardware.watchdog import Notifier, Watchdog, watchdog_interval
from device.journal import JournalBusy, JournalLock
from device.recorder import NOTICE as RECORDING_NOTICE
from device.recorder import GameRecorder
from device.recovery import JOURNAL_NOTICE, Recovery, open_journal
from device.reference import TableReference, can_learn_table, reference_path
from device.service import CameraChanges, HandSeen, Notice, Press, Service
from device.storage import Storage, free_mb, is_write_failure, problem
from device.tracking import TableTracking
from engine.endgame import hand_wanted
from vision.calibrate import Calibration
from vision.classifier import default_model_path
from vision.scanner import TableScanner
from vision.stabilize import Stabilizer
from web.app import Server, create_app
from web.auth import new_pin, new_token

log = logging.getLogger("companion")


class StartError(RuntimeError):
    """A part the product cannot run without failed to start (the port, the journal)."""


class Appliance:
    """Builds, starts and stops every part; ``demo`` selects the demo's parts."""

    def __init__(self, config: Config, *, demo: bool = False, pin_factory: Any = None,
                 keyboard_fd: int | None = None, out: TextIO | None = None,
                 seed: int | None = None, demo_interval: float = 1.5) -> None:
        self.config = config
        self.demo = demo
        self.pin_factory = pin_factory
        self.keyboard_fd = keyboard_fd
        self.out = out or sys.stdout
        self.seed = seed
        self.demo_interval = demo_interval
        self.stopping = threading.Event()
        self.notifier = Notifier()
        self.pin = config.web.pin or new_pin()
        self.join_token = config.web.join_token or new_token()
        self.url = ""
        self._closers: list[Callable[[], None]] = []
        self._tmp: str | None = None
        self.service: Service
        self.capture: CaptureLoop | None = None
        self.pipeline: VisionPipeline | None = None
        self.hands = self._hand_reader()
        self.server: Any = None
        self.player: Any = None
        self.journal_lock: JournalLock
        self.recovery: Recovery | None = None  # set when a damaged journal was replaced
        self.backs: Any = None  # device.backs.BackLearner, outside the demo
        self.reference: Any = None  # device.reference.TableReference, when vision learns one
        self.recorder: GameRecorder | None = None  # with [record] enabled, outside the demo

    # --- start ----------------------------------------------------------------------

    def start(self) -> None:
        """Start every part; the page is served before vision loads."""
        self._start_service()
        self._start_voice()
        self._start_led()
        if self.demo:
            self._start_demo_game()
        self._start_web()
        self._start_capture()
        self._start_inputs()
        self._start_watchdog()
        if self.player is not None:
            self.player.start()
        self._announce_journal()
        self.notifier.ready(f"serving {self.url}")

    def _start_service(self) -> None:
        path = self._journal_path()
        self._lock_journal(path)
        try:
            journal, self.recovery = open_journal(path)
        except Exception as exc:  # unreadable, not damaged: recovery cannot help
            raise StartError(f"cannot open the journal {path}: {exc}"
                             + _disk_hint(exc, path.parent)) from exc
        self._closers.append(journal.close)
        if self.recovery is not None:
            self._say(f"journal: {self.recovery.message}")
        storage = Storage(path.parent, min_free_mb=self.config.journal.min_free_mb)
        self.service = Service(rng=random.Random(self.seed), journal=journal, storage=storage)
        if not self.demo:  # the demo plays its scripted game itself
            self._start_tracking(path)
            self._start_recording()
        self.service.start()
        self._closers.append(self.service.stop)
        if self.service.restored:
            self._say(f"journal: {self.service.restored}")
        if self.demo:
            self._say("demo: a scripted game against Au Toma on a synthetic table camera")

    def _lock_journal(self, path: Path) -> None:
        """One companion per journal: a second one stops here, naming the first."""
        try:
            self.journal_lock = JournalLock(path)
        except JournalBusy as exc:
            raise StartError(str(exc)) from None
        except OSError as exc:
            raise StartError(f"cannot lock the journal {path}: {exc.strerror}") from exc
        self._closers.append(self.journal_lock.release)

    def _announce_journal(self) -> None:
        """Say on the page and by voice that the journal was recovered (or a game lost)."""
        if self.recovery is not None:
            self.service.submit(Notice(JOURNAL_NOTICE, self.recovery.message, source="journal"))
        elif self.service.restored.startswith("could not"):
            self.service.submit(Notice(JOURNAL_NOTICE, f"journal: {self.service.restored}",
                                       source="journal"))

    def _start_tracking(self, journal: Path) -> None:
        """The tracker, the card back learnt from the table, the bare-table step (both
        kept beside the journal)."""

        vision = self.config.vision
        self.backs = BackLearner(journal.parent / "card-back.png", self._on_camera,
                                 report=self._notice("camera"))
        TableTracking(unread_after=vision.unread_after, ask_after=vision.ask_after,
                      learn_back=self.backs).install(self.service)
        if can_learn_table():
            self.reference = TableReference(reference_path(journal), self._on_camera)
            self.reference.install(self.service)

    def _start_recording(self) -> None:
        """Each game into a game folder of its own ([record] settings), closed after the
        service and the camera stopped."""
        record, vision = self.config.record, self.config.vision
        if not record.enabled:
            return
        root = settings.record_path(self.config)
        model = Path(vision.model) if vision.model else default_model_path()
        self.recorder = GameRecorder(
            root, budget_mb=record.budget_mb, still_fps=record.still_fps,
            report=self._notice(RECORDING_NOTICE), back=self.backs.path if self.backs else None,
            corners=vision.corners or None, model=model.name,
            vision={"unread_after": vision.unread_after, "ask_after": vision.ask_after})
        self._closers.append(self.recorder.close)
        self.recorder.install(self.service)
        self._say(f"recording each game into {root} (at most {record.budget_mb:g} MB)")

    def _on_camera(self, task: Any) -> None:
        """Queue work for the capture thread (it runs between two scans)."""
        if self.pipeline is not None:
            self.pipeline.later(task)

    def _journal_path(self) -> Path:
        if self.demo:  # the demo never touches a real game's journal
            self._tmp = tempfile.mkdtemp(prefix="companion-demo-")
            return Path(self._tmp) / "journal.sqlite3"
        return settings.journal_path(self.config)

    def _start_voice(self) -> None:
        if not self.config.voice.enabled:
            return

        voice = Voice(self.config.voice.command, on_error=self._notice("voice"))
        if not voice.enabled:
            program = self.config.voice.command[0] if self.config.voice.command else "espeak-ng"
            # Said once on the console, whatever the log level: the voice is half of
            # following Au Toma's turn hands-free.
            self._say(f"voice off: {program} is not installed (sudo apt install espeak-ng"
                      " turns it on; --quiet silences this)")
            return
        self.service.listeners.append(Announcer(voice))
        self._closers.append(voice.close)

    def _start_led(self) -> None:
        if self.demo or not self.config.led.enabled:
            return

        try:
            led = StatusLED(self.config.led.pin, pin_factory=self.pin_factory)
        except Exception as exc:  # gpiozero raises several kinds when there is no GPIO
            self._warn("led", f"status LED unavailable: {exc}")
            return
        light = StatusLight(led.show, asking=lambda: self.service.question is not None)
        light(self.service.snapshot())
        self.service.listeners.append(light)
        self._closers.append(led.close)

    def _start_demo_game(self) -> None:
        game = self.config.game
        self.player = DemoPlayer(self.service, seed=1 if self.seed is None else self.seed,
                                 interval=self.demo_interval, player=game.player,
                                 level=game.automa_level)
        self._closers.append(self.player.stop)
        try:
            self.service.call(self.player.new_game())
        except ValueError as exc:  # no room on the disk: the script tries again as it plays
            self._say(f"demo: {exc}")

    def _start_web(self) -> None:
        web = self.config.web
        _check_port(web.host, web.port)
        app = create_app({"TABLE_PIN": self.pin, "JOIN_TOKEN": self.join_token,
                          "SSE_MAX_CLIENTS": web.max_clients,
                          "LISTEN_HOST": web.host or "0.0.0.0"}, service=self.service,
                         recording=self.recorder)
        self.server = Server(app, web.host, web.port).start()
        self._closers.append(self.server.stop)
        port = int(self.server.url.rsplit(":", 1)[1])  # the real one when [web] port = 0
        self.journal_lock.note(port)  # so a second companion's refusal names the page
        everywhere = web.host in ("0.0.0.0", "", "::")
        self.url = f"http://{'127.0.0.1' if everywhere else web.host}:{port}"
        self._say(f"page on {self.url}  (table PIN {self.pin})")
        self._say(lan_line(web.host, port, everywhere))
        self._announce_join(web.host, port)

    def _announce_join(self, host: str, port: int) -> None:
        """The join code: a QR code phones scan to be unlocked, and the file doctor reads."""
        url = joining.unlock_url(host, port, self.join_token)
        if url is None:  # no phone can reach the page: the link, for this machine's browser
            self._say(f"unlock a browser here: {self.url}/unlock/{self.join_token}")
            return
        self._say(f"scan to follow the game with the controls unlocked: {url}")
        print(joining.qr_text(url), file=self.out, flush=True)
        if self.demo:
            return
        folder = settings.journal_path(self.config).parent
        try:
            joining.keep(folder, url)
        except OSError as exc:
            self._warn("join", f"cannot keep the join code for `companion doctor --join`: {exc}")
            return
        self._closers.append(lambda: joining.forget(folder))

    def _start_capture(self) -> None:
        cam = self.config.camera
        layout = self._layout if cam.source == "synthetic" else None
        vision = self.config.vision
        self.pipeline = VisionPipeline(self._load_scanner, self._stabilizer(), self._changes,
                                       on_error=self._notice("vision"), on_notice=self._report,
                                       unread_after=vision.unread_after,
                                       ask_after=vision.ask_after)
        self.service.camera_frame = lambda: self.pipeline.frame if self.pipeline else None
        self.capture = CaptureLoop(lambda: _open_camera(cam, layout), self._frame,
                                   fps=cam.fps, retry=(cam.retry_min, cam.retry_max),
                                   report=self._report)
        self.capture.start()
        self._closers.append(self.capture.stop)
        if self.backs is not None:
            self.backs.restore()
        if self.reference is not None:
            self.reference.ask(self.service)

    def _frame(self, frame: Any, t: float) -> None:
        """Each camera frame: the stacks' scan, and at the end of a game the hand reader."""
        assert self.pipeline is not None
        recorder = self.recorder
        if recorder is None:
            self.pipeline(frame, t)
        else:
            recorder.taken(frame, t)
            try:
                self.pipeline(frame, t)
            finally:  # a scan that failed must not hold back the lines after it
                recorder.scanned()
        self.hands(frame, t)

    def _hand_reader(self) -> HandReader:
        def wanted() -> int | None:
            return hand_wanted(self.service.snapshot().state)

        def submit(seen: HandSeen) -> None:
            self.service.submit(seen)

        return HandReader(wanted, lambda: self.pipeline.scanner if self.pipeline else None,
                          submit)

    def _layout(self) -> dict[str, list[str | None]]:
        return layout_of(self.service.snapshot().state)

    def _load_scanner(self) -> Any:
        vision = self.config.vision
        model = Path(vision.model) if vision.model else default_model_path()
        return TableScanner(model, manual_calibration(vision.corners))

    @staticmethod
    def _stabilizer() -> Any:
        return Stabilizer()

    def _changes(self, changes: tuple[Any, ...], reading: Any,
                 strips: Mapping[str, tuple[str | None, ...]], blind: float = 0.0) -> None:
        if self.recorder is not None:
            self.recorder.changed()  # its frame's line waits for this change to run
        self.service.submit(CameraChanges(changes, reading, strips, blind=blind))

    def _report(self, kind: str, message: str) -> None:
        self.service.submit(Notice(kind, message, source="camera"))

    def _start_inputs(self) -> None:
        if self.demo:
            self._start_keyboard()
        elif self.config.buttons.enabled:
            self._start_buttons()

    def _start_buttons(self) -> None:
        b = self.config.buttons
        try:
            buttons = Buttons({name: b[name] for name in BUTTONS}, self.press,
                              bounce_time=b.bounce_time, undo_hold=b.undo_hold,
                              pin_factory=self.pin_factory)
        except GPIOError as exc:
            self._warn("buttons", f"buttons unavailable ({exc}); use the page")
            return
        self._closers.append(buttons.close)

    def _start_keyboard(self) -> None:
        fd = self.keyboard_fd
        if fd is None or not os.isatty(fd):
            return

        keyboard = Keyboard(fd, lambda button: self.press(button, "keyboard"), self.request_stop)
        keyboard.start()
        self._closers.append(keyboard.close)
        keys = ", ".join(f"{k} {LABELS[v]}" for k, v in KEYS.items())
        self._say(f"keys: {keys}, q quit")

    def _start_watchdog(self) -> None:
        interval = watchdog_interval()
        if interval is None or not self.notifier.enabled or self.capture is None:
            return
        capture, service = self.capture, self.service
        # Backoff waits and the first scan (model loading) leave gaps between beats.
        stale = max(2 * self.config.camera.retry_max, 20.0)

        def healthy() -> bool:
            return capture.is_healthy(stale) and service.is_alive

        watchdog = Watchdog(self.notifier, interval, healthy)
        watchdog.start()
        self._closers.append(watchdog.stop)

    # --- inputs -----------------------------------------------------------------------

    def press(self, button: str, source: str = "button") -> None:
        """A button press from GPIO or the keyboard (never blocks the caller)."""
        self.service.submit(Press(button, source=source))

    # --- stop -----------------------------------------------------------------------

    def request_stop(self, *_: object) -> None:
        """Ask the process to stop (signal handlers, the q key)."""
        self.stopping.set()

    def install_signal_handlers(self) -> None:
        """SIGTERM (systemd stop) and SIGINT (Ctrl-C) end :meth:`wait` cleanly."""
        signal.signal(signal.SIGTERM, self.request_stop)
        signal.signal(signal.SIGINT, self.request_stop)

    def wait(self) -> None:
        """Block until a stop is requested (a short timeout keeps signals responsive)."""
        while not self.stopping.wait(0.5):
            pass

    def stop(self) -> None:
        """Stop every part in reverse order of starting."""
        self.notifier.stopping()
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:
                log.exception("stopping %r failed", closer)
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)

    # --- helpers --------------------------------------------------------------------

    def _notice(self, kind: str) -> Callable[[str], None]:
        def notice(message: str) -> None:
            self.service.submit(Notice(kind, message))

        return notice

    def _warn(self, kind: str, message: str) -> None:
        log.warning(message)
        self.service.submit(Notice(kind, message))

    def _say(self, text: str) -> None:
        print(f"companion: {text}", file=self.out, flush=True)

    def latest_jpeg(self, quality: int = 80) -> bytes | None:
        """The camera's latest frame as JPEG (for the page), or None before the first."""
        frame = self.pipeline.frame if self.pipeline else None
        return None if frame is None else _jpeg(frame, quality)


def _check_port(host: str, port: int) -> None:
    """Fail early, with a clear message, when the page's port is taken.

    (waitress leaves its half-made sockets open when its own bind fails.)
    """
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        try:
            probe.bind((host or "0.0.0.0", port))
        except OSError as exc:
            raise StartError(f"cannot serve on {host}:{port}: {exc.strerror} "
                             "(another companion running? try --port)") from exc


def _disk_hint(exc: Exception, folder: Path) -> str:
    """Why the disk refused the journal, when it did (systemd retries the start)."""
    if not is_write_failure(exc):
        return ""
    try:
        free: int | None = free_mb(folder)
    except OSError:
        free = None
    room = "" if free is None else f", {free} MB free"
    return f" ({problem(exc, free)}{room}); free some space on it"


def lan_line(host: str, port: int, everywhere: bool) -> str:
    """Where phones at the table open the page, or how to let them in."""
    if everywhere:  # phones on the table's network use the Pi's name (or its address)
        return (f"phones on this Wi-Fi: http://{socket.gethostname()}.local:{port}/"
                " (or the address `hostname -I` prints); /join shows a QR code")
    if host.startswith("127.") or host in ("localhost", "::1"):
        return "phones cannot reach the page: it listens on this machine only; start with" \
               " --host 0.0.0.0 to let the table's phones in"
    return f"phones on this network: http://{host}:{port}/ (/join shows a QR code)"


def manual_calibration(corners: list[list[float]]) -> Any:
    """The ``[vision] corners`` setting as a manual calibration (None: use the markers)."""
    if not corners:
        return None
    return Calibration(tuple((float(x), float(y)) for x, y in corners), source="manual")


def _open_camera(camera: Any, layout: Any) -> Any:
    """Open the camera on the capture thread (it can take a while)."""

    return open_camera(camera, layout)


def _jpeg(frame: np.ndarray, quality: int) -> bytes | None:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None


def run_until_stopped(appliance: Appliance) -> int:
    """Start, wait for SIGTERM/SIGINT/q, stop: the body of ``run`` and ``demo``."""
    appliance.install_signal_handlers()
    try:
        appliance.start()
    except BaseException:
        appliance.stop()
        raise
    with contextlib.suppress(KeyboardInterrupt):
        appliance.wait()
    appliance.stop()
    return 0
