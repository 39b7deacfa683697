"""Storage that fails out loud: a disk that refuses the journal's writes is told once, the
game goes on in memory, and the backlog is written the moment a write succeeds again."""

from __future__ import annotations

import doctest
import errno
import json
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from devkit import policy, two_player_setup
from faultkit import Faults, disk_error

from device import config as settings
from device import doctor, storage
from device.hardware.led import ERROR, StatusLight, mode_for
from device.hardware.voice import sentences
from device.journal import Journal
from device.service import NewGame, Play, Service, Undo, Update
from device.storage import FAILED, SAVED, Storage, StorageError, problem
from engine.game import Game
from web.document import Documents

AT_2104 = datetime(2026, 3, 1, 21, 4, 30)
FULL = "the SD card is full: moves since 21:04 are not saved"


def open_service(path: Path, seed: int = 1, **storage_options: object) -> tuple[Service, Faults]:
    journal = Journal(path)
    faults = Faults(journal, random.Random(seed))
    options = {"clock": lambda: AT_2104, **storage_options}
    service = Service(rng=random.Random(seed), journal=journal,
                      storage=Storage(path.parent, **options))  # type: ignore[arg-type]
    return service, faults


def listen(service: Service) -> list[Update]:
    heard: list[Update] = []
    service.listeners.append(heard.append)
    return heard


def play(service: Service, count: int) -> None:
    for _ in range(count):
        service.call(Play(policy(service.game)))  # type: ignore[arg-type]


def stored(path: Path) -> list[object]:
    """The current game's log as a fresh connection reads it from the file."""
    reader = Journal(path)
    try:
        return list(reader.events())
    finally:
        reader.close()


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(storage).failed == 0


@pytest.mark.parametrize(("error", "words"), [
    (disk_error(13), "the SD card is full"),
    (disk_error(778, "disk I/O error"), "the SD card cannot be written (I/O error)"),
    (disk_error(8, "attempt to write a readonly database"), "the SD card is read-only"),
    (OSError(errno.ENOSPC, "No space left on device"), "the SD card is full"),
    (OSError(errno.EROFS, "Read-only file system"), "the SD card is read-only"),
    (sqlite3.DatabaseError("database disk image is malformed"),
     "the journal cannot be written (database disk image is malformed)"),
])
def test_a_failed_write_is_named_in_the_tables_words(error: Exception, words: str) -> None:
    assert problem(error) == words


def test_an_io_error_on_a_disk_with_no_room_left_is_a_full_disk() -> None:
    shm = disk_error(4874, "disk I/O error")  # SQLITE_IOERR_SHMSIZE: growing the -shm file
    assert problem(shm, free=0) == "the SD card is full"
    assert problem(shm, free=300) == "the SD card cannot be written (I/O error)"


def test_a_full_disk_is_told_once_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    service, faults = open_service(path)
    service.call(NewGame(two_player_setup()))
    play(service, 5)
    saved = list(service.game.log)
    heard = listen(service)
    faults.full = True
    play(service, 20)  # every move is acknowledged, none raises
    assert faults.injected == 20
    assert len(service.game.log) > len(saved) + 19
    assert stored(path) == saved  # the disk has what it had
    told = [u for u in heard if u.kind == FAILED]
    assert [u.message for u in told] == [FULL]
    assert heard.index(told[0]) == 1  # right after the move that could not be written
    assert service.unsaved == FULL

    faults.full = False
    play(service, 1)
    assert stored(path) == service.game.log  # the whole backlog in one write
    assert [u.message for u in heard if u.kind == SAVED] == [
        "the journal is saved again: every move since 21:04 is written"]
    assert service.unsaved is None


def test_the_log_says_it_once_not_once_per_move(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    service, faults = open_service(tmp_path / "journal.sqlite3")
    service.call(NewGame(two_player_setup()))
    caplog.set_level(logging.INFO)
    faults.full = True
    play(service, 30)
    faults.full = False
    play(service, 1)
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [
        ("ERROR", f"{FULL} (database or disk is full); the game goes on in memory and is "
                  "saved as soon as a write succeeds"),
        ("WARNING", "the journal is saved again: every move since 21:04 is written")]
    assert not any(r.exc_info for r in caplog.records)  # no traceback


def test_the_backlog_is_written_without_waiting_for_a_move(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    faults = Faults(journal)
    service = Service(rng=random.Random(1), journal=journal, retry=0.01)
    service.start()
    try:
        service.call(NewGame(two_player_setup()))
        written = threading.Event()
        service.listeners.append(lambda u: u.kind == SAVED and written.set())
        faults.full = True
        play(service, 10)
        assert service.unsaved is not None
        faults.full = False  # space freed; nobody moves
        assert written.wait(5)
        assert stored(path) == service.game.log
    finally:
        service.stop()


def test_stopping_writes_the_backlog_when_it_can(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    faults = Faults(journal)
    service = Service(rng=random.Random(1), journal=journal, retry=60)
    service.start()
    service.call(NewGame(two_player_setup()))
    faults.full = True
    play(service, 10)
    faults.full = False
    service.stop()
    assert stored(path) == service.game.log


class Reviser:
    """A follower that revises the table's reading: on any camera change it takes
    ``undo`` events back and plays ``events`` (as device.tracking does)."""

    def __init__(self) -> None:
        self.undo = 0
        self.events: tuple[object, ...] = ()

    def on_camera(self, service: Service, command: object) -> Update | None:
        return service.apply(self.events, undo=self.undo)  # type: ignore[arg-type]

    def on_press(self, service: Service, command: object) -> Update | None:
        return None

    def on_question(self, service: Service, command: object) -> Update:
        raise AssertionError("no questions here")

    def on_played(self, service: Service, played: Update) -> Update | None:
        return None


def revise(service: Service, reviser: Reviser, rng: random.Random) -> None:
    """Take back 1-3 events and, where a player decides, answer differently."""
    from device.service import CameraChanges

    log = service.game.log
    back = min(rng.randint(1, 3), len(log) - 1)
    probe = Game.replay(log[:len(log) - back])
    pending = probe.pending
    others = [] if pending is None or pending.player is None else \
        [o for o in pending.options if o != log[len(log) - back]]
    reviser.undo, reviser.events = back, ((rng.choice(others),) if others else ())
    service.call(CameraChanges(()))


@pytest.mark.parametrize("seed", range(8))
def test_failures_at_random_points_lose_nothing_acknowledged(tmp_path: Path, seed: int) -> None:
    """Moves, undos, revised readings and new games with SQLITE_FULL / SQLITE_IOERR /
    read-only at random statements: the game never stops, the table is told once per
    failure, and afterwards the journal holds every game as it was acknowledged."""
    path = tmp_path / "journal.sqlite3"
    service, faults = open_service(path, seed)
    heard = listen(service)
    reviser = Reviser()
    service.follower = reviser
    rng = random.Random(seed)
    service.call(NewGame(two_player_setup(seed)))
    earlier: list[list[object]] = []  # logs of the games a new game replaced
    refused = 0
    for _ in range(300):
        faults.rate = rng.choice((0.0, 0.0, 0.3, 0.9))
        roll = rng.random()
        if roll < 0.03 or service.game.is_over:
            before = list(service.game.log)
            try:
                service.call(NewGame(two_player_setup(rng.randrange(99))))
            except StorageError:
                refused += 1
                assert service.game.log == before
                continue
            earlier.append(before)
        elif roll < 0.10 and len(service.game.log) > 1:  # the setup stays
            service.call(Undo())
        elif roll < 0.18 and len(service.game.log) > 3:
            revise(service, reviser, rng)
        else:
            play(service, 1)
    faults.rate = 0.0
    service.call(Undo() if service.game.is_over else Play(policy(service.game)))  # type: ignore[arg-type]
    assert faults.injected > 20
    assert stored(path) == service.game.log  # the last write carried the whole backlog
    reader = Journal(path)
    archived = [reader.archived_events(g.id) for g in reversed(reader.archive())]
    reader.close()
    assert archived == [*earlier, service.game.log]
    told = [u.kind for u in heard if u.kind in (FAILED, SAVED)]
    assert told and told == [FAILED, SAVED] * (len(told) // 2)  # once each, in turn
    assert service.unsaved is None
    rebuilt = Service(rng=random.Random(7), journal=Journal(path))
    assert rebuilt.game.state == service.game.state


def test_a_new_game_waits_for_the_unsaved_moves(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    service, faults = open_service(path)
    service.call(NewGame(two_player_setup(2)))
    faults.full = True
    play(service, 6)
    first = list(service.game.log)
    with pytest.raises(StorageError, match="no new game while the SD card is full: the moves "
                       "since 21:04 are not saved yet"):
        service.call(NewGame(two_player_setup(3)))
    assert service.game.log == first
    faults.full = False
    service.call(NewGame(two_player_setup(3)))  # the backlog first, then the new game
    reader = Journal(path)
    assert [(g.id, g.status) for g in reader.archive()] == [(2, "playing"), (1, "abandoned")]
    assert reader.archived_events(1) == first
    reader.close()


def test_a_new_game_refuses_to_start_short_of_room(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    free = {"mb": 500}
    service, _ = open_service(path, min_free_mb=20, free=lambda folder: free["mb"])
    service.call(NewGame(two_player_setup()))
    free["mb"] = 3
    play(service, 3)  # the game in play goes on
    before = list(service.game.log)
    with pytest.raises(StorageError) as refused:
        service.call(NewGame(two_player_setup(4)))
    assert str(refused.value) == (
        f"no new game: only 3 MB free for the journal in {tmp_path}, and a game needs 20 MB "
        "([journal] min_free_mb); free some space on the SD card")
    assert service.game.log == before and stored(path) == before


def test_a_new_game_the_disk_refuses_leaves_the_saved_game_current(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    service, faults = open_service(path)
    service.call(NewGame(two_player_setup()))
    play(service, 3)
    faults.full = True
    with pytest.raises(StorageError, match="no new game: the SD card is full "
                       r"\(the game in play is saved\)"):
        service.call(NewGame(two_player_setup(5)))
    assert service.unsaved is None  # nothing is unsaved
    assert stored(path) == service.game.log


def test_a_programming_error_still_undoes_the_move(tmp_path: Path) -> None:
    service, _ = open_service(tmp_path / "journal.sqlite3")
    service.call(NewGame(two_player_setup()))
    before = list(service.game.log)
    service.journal.close()  # type: ignore[union-attr]
    with pytest.raises(sqlite3.ProgrammingError):
        play(service, 1)
    assert service.game.log == before and service.unsaved is None


# --- the LED, the voice and the page ---------------------------------------------------

def test_the_led_blinks_fast_until_the_moves_are_written(tmp_path: Path) -> None:
    service, faults = open_service(tmp_path / "journal.sqlite3")
    shown: list[str] = []
    light = StatusLight(shown.append)
    service.listeners.append(light)
    service.call(NewGame(two_player_setup()))
    faults.full = True
    play(service, 4)
    assert light.mode == ERROR
    faults.full = False
    play(service, 1)
    assert shown.count(ERROR) == 1 and light.mode == mode_for(service.snapshot()) != ERROR


def test_the_voice_says_it_once(tmp_path: Path) -> None:
    service, faults = open_service(tmp_path / "journal.sqlite3")
    said: list[str] = []
    service.listeners.append(lambda u: said.extend(sentences(u, None)))
    service.call(NewGame(two_player_setup()))
    faults.full = True
    play(service, 8)
    faults.full = False
    play(service, 1)
    assert said.count(FULL) == 1
    assert said.count("the journal is saved again: every move since 21:04 is written") == 1


def test_the_page_shows_a_banner_while_moves_are_unsaved(tmp_path: Path) -> None:
    service, faults = open_service(tmp_path / "journal.sqlite3")
    docs = Documents(service)
    service.call(NewGame(two_player_setup()))
    heard = listen(service)
    faults.full = True
    play(service, 3)
    pages = [json.loads(docs.json(u)) for u in heard]
    assert [p["unsaved"] for p in pages] == [FULL] * len(pages)
    assert [p["notice"] for p in pages] == [None] * len(pages)  # the banner says it
    faults.full = False
    back = service.call(Play(policy(service.game)))  # type: ignore[arg-type]
    told = service.snapshot()
    assert json.loads(docs.json(back))["unsaved"] is None
    assert json.loads(docs.json(told))["notice"] == \
        "the journal is saved again: every move since 21:04 is written"


# --- doctor and settings -----------------------------------------------------------------

@pytest.mark.parametrize(("free", "status"), [(5, doctor.FAIL), (150, doctor.WARN),
                                              (900, doctor.OK)])
def test_doctor_reports_the_free_space_against_the_settings(tmp_path: Path, free: int,
                                                            status: str) -> None:
    cfg = settings.load(system=None, user=None).replace(
        "journal", path=str(tmp_path / "journal.sqlite3"), warn_free_mb=200, min_free_mb=20)
    found = doctor.check_disk(cfg, free=lambda folder: free)
    assert found.status == status
    assert f"{free} MB free on {tmp_path}" in found.detail


def test_the_minimum_may_not_exceed_the_warning() -> None:
    with pytest.raises(settings.ConfigError, match=r"journal\.min_free_mb must not exceed"):
        settings.load(system=None, user=None).replace("journal", min_free_mb=300)


# --- a real small filesystem ---------------------------------------------------------------

CHILD = Path(__file__).with_name("storage_child.py")
ROOT = Path(__file__).resolve().parents[2]


def in_small_filesystem(folder: Path, size: str, *command: str) -> list[str]:
    """``command`` in a mount namespace of its own with a ``size`` tmpfs on ``folder``
    (the mount vanishes with the process; as non-root, in a user namespace too)."""
    namespace = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    script = 'mount -t tmpfs -o "size=$1" tmpfs "$2" && shift 2 && exec "$@"'
    return [*namespace, "sh", "-c", script, "sh", size, str(folder), *command]


def mountable(folder: Path) -> str:
    """Why a small filesystem cannot be mounted here ("" when it can)."""
    if shutil.which("unshare") is None:
        return "no unshare(1)"
    probe = subprocess.run(in_small_filesystem(folder, "64k", "true"), capture_output=True,
                           text=True, timeout=30, check=False)
    return "" if probe.returncode == 0 else probe.stderr.strip() or f"status {probe.returncode}"


def child_on_small_filesystem(folder: Path, mode: str) -> tuple[dict[str, Any], str]:
    """What ``storage_child.py`` in ``mode`` printed, and its log (skips where no tmpfs
    can be mounted)."""
    why = mountable(folder)
    if why:
        pytest.skip(f"cannot mount a small filesystem here (no CAP_SYS_ADMIN?): {why}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(in_small_filesystem(folder, "1m", sys.executable, str(CHILD),
                                              str(folder), mode),
                          capture_output=True, text=True, timeout=120, check=False, env=env,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


def test_a_real_full_filesystem_is_told_once_and_loses_nothing(tmp_path: Path) -> None:
    """A 1 MB tmpfs filled to the last byte for 40 moves, then freed."""
    found, log_text = child_on_small_filesystem(tmp_path, "service")
    assert len(found["failed"]) == 1 and found["failed"][0].startswith("the SD card is full: ")
    assert len(found["saved"]) == 1 and found["spoken"] == found["failed"] + found["saved"]
    assert found["page_banners"] == found["failed"] and found["led_errors"] == 1
    assert found["errors"] == 0 and found["acknowledged"] == found["in_journal"] > 50
    log = log_text.splitlines()
    assert "Traceback" not in log_text and len(log) == 2, log


def test_a_companion_started_on_a_full_disk_says_why_and_resumes_once_freed(
        tmp_path: Path) -> None:
    found, _ = child_on_small_filesystem(tmp_path, "start")
    assert found["refused"].startswith(f"cannot open the journal {tmp_path}/journal.sqlite3: ")
    assert found["refused"].endswith(" (the SD card is full, 0 MB free); free some space on it")
    assert found["resumed"] == f"resumed game 1 at event {found['log']}"
