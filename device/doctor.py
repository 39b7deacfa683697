"""``companion doctor``: is this machine ready for ``companion run``, and if not, what to do.

Each check looks at one thing the product needs (camera, GPIO, model, voice, port,
disk, journal, the bare table, recording games) and returns a :class:`Check`: ok, warn
(works without it) or fail (``run`` will not work as intended), with a sentence saying
what it found and how to fix it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import onnxruntime

from device import config as settings
from device.config import Config
from device.hardware.camera import parse_device
from device.journal import (
    RECOVERY_COLUMNS,
    describe_holder,
    holder,
    integrity_report,
    is_damage,
    quick_check,
    read_only,
)
from device.recovery import kept_aside
from device.reference import can_learn_table, describe, reference_path
from device.storage import free_mb
from vision.classifier import default_model_path
from vision.segmenter import default_segmenter_path

OK, WARN, FAIL = "ok", "warn", "FAIL"


@dataclass(frozen=True)
class Check:
    """One finding: what was checked, how it went, what was seen, how to fix it."""

    name: str
    status: str
    detail: str
    fix: str = ""


def check_camera(config: Config) -> Check:
    """The configured camera can be found (not opened: a running service may hold it)."""
    source = config.camera.source
    if source == "picamera":
        return _picamera()
    if source == "opencv":
        return _opencv(config.camera.device)
    if source == "replay":
        ok = Path(config.camera.device).is_dir()
        return Check("camera", OK if ok else FAIL, f"replay folder {config.camera.device}"
                     + ("" if ok else " is missing"), "" if ok else "set [camera] device")
    return Check("camera", OK, "synthetic table (demo camera)")


def _picamera() -> Check:
    try:
        from picamera2 import Picamera2
    except ImportError:
        return Check("camera", FAIL, "no camera: picamera2 is not installed"
                     + _video_devices(),
                     "on Raspberry Pi OS: sudo apt install -y python3-picamera2, and create "
                     "the venv with --system-site-packages (systemd/install.sh does both); "
                     "elsewhere use `companion demo` or [camera] source = \"opencv\"")
    cameras = Picamera2.global_camera_info()
    if not cameras:
        return Check("camera", FAIL, "no camera: libcamera sees no Raspberry Pi camera",
                     "check the ribbon cable (power off first; contacts towards the board "
                     "at the Pi end), then `rpicam-hello --list-cameras`")
    return Check("camera", OK, f"Raspberry Pi camera: {cameras[0].get('Model', 'found')}")


def _video_devices() -> str:
    found = sorted(glob.glob("/dev/video*"))
    return f" (V4L2 devices: {', '.join(found)})" if found else " and there is no /dev/video*"


def _opencv(device: str) -> Check:
    target = parse_device(device)
    if isinstance(target, int):
        path = f"/dev/video{target}"
        if not os.path.exists(path):
            return Check("camera", FAIL, f"no camera: {path} does not exist",
                         "plug the USB camera in (`ls /dev/video*` lists cameras) or set "
                         "[camera] device")
        ok = os.access(path, os.R_OK | os.W_OK)
        return Check("camera", OK if ok else FAIL, f"USB camera {path}"
                     + ("" if ok else " is not accessible"),
                     "" if ok else "add the user to the video group: sudo usermod -aG video $USER")
    ok = Path(target).exists()
    return Check("camera", OK if ok else FAIL, f"video {target}" + ("" if ok else " is missing"),
                 "" if ok else "set [camera] device to an existing file or camera index")


def check_gpio(config: Config) -> Check:
    """GPIO chips exist and are usable (buttons and LED)."""
    if not config.buttons.enabled and not config.led.enabled:
        return Check("gpio", OK, "buttons and LED are disabled in the settings")
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return Check("gpio", FAIL, "no GPIO: this machine has no /dev/gpiochip* "
                     "(not a Raspberry Pi)",
                     "on a Pi, enable nothing extra: Bookworm exposes GPIO by default; "
                     "elsewhere use the keyboard (`companion demo`) or the page's buttons")
    usable = [chip for chip in chips if os.access(chip, os.R_OK | os.W_OK)]
    if not usable:
        return Check("gpio", FAIL, f"{', '.join(chips)} not accessible to this user",
                     "add the user to the gpio group: sudo usermod -aG gpio $USER")
    try:
        import lgpio  # noqa: F401  (gpiozero's pin driver on Bookworm)
    except ImportError:
        return Check("gpio", WARN, f"{usable[0]} is usable but lgpio is not installed",
                     "sudo apt install -y python3-lgpio (the venv sees it with "
                     "--system-site-packages)")
    return Check("gpio", OK, f"{len(usable)} GPIO chip(s) usable: {', '.join(usable)}")


def check_model(config: Config) -> Check:
    """The card classifier file exists, has its labels, and onnxruntime loads it; the
    table segmenter is there too (without it the stacks fall back to a colour model)."""
    path = _model_path(config)
    if not path.is_file():
        return Check("model", FAIL, f"no model file {path}",
                     "set [vision] model, or reinstall the package, which carries the "
                     "models (`companion cards enroll` builds one from your photos)")
    labels = path.with_suffix(".labels.txt")
    if not labels.is_file():
        return Check("model", FAIL, f"{path.name} has no labels file {labels.name} beside it",
                     "copy the .labels.txt that came with the model next to it")
    try:
        onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception as exc:
        return Check("model", FAIL, f"{path} does not load: {exc}",
                     "the file is damaged: restore it from the project")
    found = f"{path} ({path.stat().st_size // 1024} KiB)"
    segmenter = default_segmenter_path()
    if not segmenter.is_file():
        return Check("model", WARN, f"{found}; no table segmenter {segmenter}: stacks are "
                     "told from the table by colour, which a patterned cloth defeats",
                     "reinstall the package, which carries the segmenter")
    return Check("model", OK, f"{found}; segmenter {segmenter.name}")


def _model_path(config: Config) -> Path:
    if config.vision.model:
        return Path(config.vision.model)
    return default_model_path()


def check_voice(config: Config) -> Check:
    """espeak-ng (or the configured program) is installed and runs."""
    if not config.voice.enabled:
        return Check("voice", OK, "voice is disabled in the settings")
    program = config.voice.command[0]
    found = shutil.which(program)
    if found is None:
        return Check("voice", WARN, f"{program} is not installed: the companion stays silent",
                     "sudo apt install -y espeak-ng")
    result = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=10,
                            check=False)
    version = (result.stdout.strip().splitlines() or ["?"])[0]
    return Check("voice", OK, f"{program}: {version}")


def check_port(config: Config) -> Check:
    """The page's port is free (or already served by a running companion)."""
    host, port = config.web.host or "0.0.0.0", config.web.port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError as exc:
            return Check("port", WARN if _is_companion(port) else FAIL,
                         f"port {port} on {host} is taken: {exc.strerror}",
                         f"stop the other program (`ss -ltnp 'sport = :{port}'` shows it) or "
                         "set [web] port; if it is companion.service, that is fine")
    return Check("port", OK, f"port {port} on {host} is free")


def _is_companion(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
            return "companion" in reply.headers.get("Server", "")
    except OSError:
        return False


def check_disk(config: Config, free: Callable[[Path], int] = free_mb) -> Check:
    """The journal's folder is writable and has room (``[journal] warn_free_mb`` and
    ``min_free_mb``); ``free`` measures it."""
    path = settings.journal_path(config)
    folder = _existing_parent(path.parent)
    if not os.access(folder, os.W_OK):
        return Check("disk", FAIL, f"cannot write to {folder} (journal {path})",
                     "run as the service user, or set [journal] path to a writable place")
    mb, journal = free(folder), config.journal
    fix = ("free some space (`du -xh / | sort -h | tail` finds what fills it): a full SD "
           "card stops saving moves")
    if mb < journal.min_free_mb:
        return Check("disk", FAIL, f"only {mb} MB free on {folder}: a new game will not "
                     f"start under {journal.min_free_mb} MB ([journal] min_free_mb)", fix)
    if mb < journal.warn_free_mb:
        return Check("disk", WARN, f"only {mb} MB free on {folder} (warns under "
                     f"{journal.warn_free_mb} MB, [journal] warn_free_mb)", fix)
    return Check("disk", OK, f"{mb} MB free on {folder}")


def check_recording(config: Config) -> Check:
    """Recording games ([record]): off, or where the folders go and whether they fit."""
    record = config.record
    if not record.enabled:
        return Check("record", OK, "recording is off (`companion run --record DIR` keeps "
                     "each game for `companion replay` and bug reports)")
    root = settings.record_path(config)
    folder = _existing_parent(root)
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        return Check("record", FAIL, f"cannot write game folders to {root}",
                     "set [record] folder to a writable place (under systemd: leave it "
                     "empty, beside the journal)")
    free_mb = shutil.disk_usage(folder).free // 2**20
    if free_mb < record.budget_mb + config.journal.warn_free_mb:  # and the journal's room
        return Check("record", WARN, f"recording into {root}: only {free_mb} MB free for a "
                     f"budget of {record.budget_mb:g} MB",
                     "lower [record] budget_mb, or free some space: the disk fills before "
                     "the budget does")
    return Check("record", OK, f"recording into {root} (at most {record.budget_mb:g} MB; "
                 f"{free_mb} MB free)")


def check_table(config: Config) -> Check:
    """The picture of the bare table (the calibration step) is kept, where it is needed."""
    if not can_learn_table():
        return Check("table", OK, "no bare-table picture needed: the table segmenter "
                     "tells cards from any table")
    path = reference_path(settings.journal_path(config))
    if path.exists():
        return Check("table", OK, f"bare table kept: {describe(path)}")
    return Check("table", WARN, "no picture of the bare table yet",
                 "before the first game, clear the play area and press NEXT when the "
                 "companion asks (it tells cards from the table better with one)")


def _existing_parent(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_journal(config: Config) -> Check:
    """The journal: intact, who uses it, and any damaged journal it was recovered from."""
    path = settings.journal_path(config)
    using = holder(path)
    user = f"; in use by the companion ({describe_holder(using)})" if using else ""
    problem = _journal_problem(path)
    if problem:
        return Check("journal", WARN, f"{path} is damaged: {problem}{user}",
                     f"`companion run` keeps it aside as {path.name}.damaged-<time> and "
                     "starts a fresh journal with every game and event still readable")
    kept = kept_aside(path)
    if kept:
        return Check("journal", WARN, f"{path}{user}; {_recovered(path, kept)}",
                     "nothing to do: what could be read is in the journal; the damaged "
                     "file is kept for reference (delete it when you no longer need it)")
    if not path.exists():
        return Check("journal", OK, f"{path} does not exist yet (the first start makes it)"
                     + user)
    return Check("journal", OK, f"{path} is intact{user}")


def _journal_problem(path: Path) -> str:
    if not path.exists():
        return ""
    try:
        with contextlib.closing(read_only(path)) as db:
            rows = quick_check(db)
    except sqlite3.Error as exc:
        return str(exc) if is_damage(exc) else ""
    except UnicodeDecodeError:  # SQLite's message quotes the damaged bytes
        return "database disk image is malformed"
    return "" if rows == [("ok",)] else integrity_report(rows)


def _recovered(path: Path, kept: list[Path]) -> str:
    """What the journal's recoveries say about the kept-aside files."""
    notes = {r["kept"]: r for r in _recoveries(path)}
    parts = []
    for file in kept:
        r = notes.get(file.name)
        if r is None:
            parts.append(f"a damaged journal is kept aside as {file}")
            continue
        note = f"; {r['note']}" if r["note"] else ""
        parts.append(f"recovered on {r['at']} from the damaged journal kept aside as {file} "
                     f"({r['problem'][:80]}): {r['games']} games and {r['events']} events "
                     f"recovered{note}")
    return "; ".join(parts)


def _recoveries(path: Path) -> list[dict[str, Any]]:
    try:
        with contextlib.closing(read_only(path)) as db:
            rows = db.execute(f"SELECT {', '.join(RECOVERY_COLUMNS)} FROM recoveries").fetchall()
    except sqlite3.Error:
        return []
    return [dict(zip(RECOVERY_COLUMNS, row, strict=True)) for row in rows]


CHECKS: tuple[Callable[[Config], Check], ...] = (
    check_camera, check_gpio, check_model, check_voice, check_port, check_disk, check_journal,
    check_table, check_recording,
)


def diagnose(config: Config) -> list[Check]:
    """Run every check (a check that crashes is reported as a failure, not raised)."""
    found = []
    for check in CHECKS:
        try:
            found.append(check(config))
        except Exception as exc:
            name = check.__name__.removeprefix("check_")
            found.append(Check(name, FAIL, f"the check itself failed: {exc}"))
    return found


def report(checks: list[Check]) -> str:
    """The findings as text, one line each plus a fix line where there is one."""
    lines = []
    for c in checks:
        lines.append(f"{c.status:>4}  {c.name:<7} {c.detail}")
        if c.fix and c.status != OK:
            lines.append(f"{'':>4}  {'':<7} fix: {c.fix}")
    failed = [c.name for c in checks if c.status == FAIL]
    lines.append("")
    if not failed:
        lines.append("ready for `companion run`")
        return "\n".join(lines)
    lines.append(f"not ready for `companion run`: {', '.join(failed)} (fixes above)")
    if set(failed) <= {"camera", "gpio"}:
        lines.append("`companion demo` works here: it needs no camera and no GPIO")
    return "\n".join(lines)
