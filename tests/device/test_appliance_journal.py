"""`companion run` and its journal: one companion per journal, and a damaged journal that
never stops it (kept aside, said on the page, by voice and on the console)."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from devkit import two_player_setup
from journalkit import NOT_SQLITE, build, damage, truncated
from runkit import companion_run, read_until, stop

from device import config as settings
from device.appliance import Appliance, StartError
from device.hardware.voice import sentences
from device.journal import JournalBusy, JournalLock
from device.recovery import JOURNAL_NOTICE, SPOKEN
from device.service import NewGame, Update
from device.storage import StorageError, free_mb
from web.document import Documents


def quiet_config(journal: Path, camera: Path) -> settings.Config:
    """`companion run` with no camera frames, GPIO or voice, on any free port."""
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="replay", device=str(camera))
    cfg = cfg.replace("web", host="127.0.0.1", port=0)
    cfg = cfg.replace("buttons", enabled=False).replace("led", enabled=False)
    cfg = cfg.replace("voice", enabled=False)
    return cfg.replace("journal", path=str(journal))


def test_a_second_lock_names_the_holder_and_the_kernel_frees_it(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    first = JournalLock(journal)
    first.note(port=8080)
    with pytest.raises(JournalBusy) as refused:
        JournalLock(journal)
    assert f"(PID {os.getpid()}, page on port 8080)" in str(refused.value)
    assert "\n" not in str(refused.value)
    first.release()
    JournalLock(journal).release()


def test_a_second_appliance_on_one_journal_is_refused(tmp_path: Path) -> None:
    cfg = quiet_config(tmp_path / "journal.sqlite3", tmp_path / "no-frames")
    first = Appliance(cfg, out=io.StringIO())
    first.start()
    try:
        second = Appliance(cfg, out=io.StringIO())
        with pytest.raises(StartError, match=f"in use by another companion \\(PID {os.getpid()}"):
            second.start()
        second.stop()
    finally:
        first.stop()


@pytest.fixture
def recovered(tmp_path: Path) -> Iterator[Appliance]:
    """An appliance started on a journal whose second half was cut off."""
    journal = tmp_path / "journal.sqlite3"
    build(journal, games=2, last=20)
    damage(journal, truncated(0.5))
    appliance = Appliance(quiet_config(journal, tmp_path / "no-frames"), out=io.StringIO())
    appliance.start()
    try:
        yield appliance
    finally:
        appliance.stop()


def test_a_recovered_journal_is_said_on_the_page_by_voice_and_on_the_console(
        recovered: Appliance) -> None:
    assert recovered.recovery is not None
    update = next_notice(recovered)
    assert recovered.recovery.kept.name in update.message
    assert Documents(recovered.service).build(update)["notice"] == update.message
    assert sentences(update, None) == [SPOKEN]
    console = recovered.out.getvalue()  # type: ignore[attr-defined]
    assert "journal: the journal was damaged" in console
    assert recovered.recovery.kept.name in console


def test_a_saved_game_that_cannot_be_rebuilt_is_said_on_the_page(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    build(journal, games=1, last=10)
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE events SET event = '{\"type\": \"Nonsense\"}' WHERE seq = 3")
    db.close()
    appliance = Appliance(quiet_config(journal, tmp_path / "no-frames"), out=io.StringIO())
    appliance.start()
    try:
        update = next_notice(appliance)
    finally:
        appliance.stop()
    assert appliance.recovery is None  # SQLite finds the file sound: it is kept in use
    assert "could not rebuild the saved game" in update.message


def test_the_room_a_new_game_needs_is_the_setting(tmp_path: Path) -> None:
    more = free_mb(tmp_path) + 1000  # than this disk has
    cfg = quiet_config(tmp_path / "journal.sqlite3", tmp_path / "no-frames")
    cfg = cfg.replace("journal", warn_free_mb=more, min_free_mb=more)
    appliance = Appliance(cfg, out=io.StringIO())
    appliance.start()
    try:
        with pytest.raises(StorageError, match=f"a game needs {more} MB "
                           r"\(\[journal\] min_free_mb\)"):
            appliance.service.call(NewGame(two_player_setup()))
    finally:
        appliance.stop()


def next_notice(appliance: Appliance) -> Update:
    """The journal notice the appliance publishes at start (fails after 10 s)."""
    sub = appliance.service.subscribe(last_seq=0)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        update = sub.get(timeout=1)
        if update is not None and update.kind == JOURNAL_NOTICE:
            return update
    raise AssertionError("no journal notice")


# ---- real processes ------------------------------------------------------------------

@pytest.mark.slow
def test_two_companions_on_one_journal_the_second_refused_until_the_first_is_killed(
        tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    first = companion_run(tmp_path, journal)
    try:
        port = read_until(first, "page on")[-1].split("http://127.0.0.1:")[1].split()[0]
        second = companion_run(tmp_path, journal)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 1
        assert err.splitlines() == [
            f"companion: the journal {journal} is in use by another companion "
            f"(PID {first.pid}, page on port {port}); stop it first "
            "(sudo systemctl stop companion)"]
    finally:
        assert stop(first, signal.SIGKILL) == -signal.SIGKILL
    third = companion_run(tmp_path, journal)  # the kernel freed the dead one's lock
    try:
        read_until(third, "page on")
    finally:
        assert stop(third) == 0


@pytest.mark.slow
def test_companion_run_starts_on_a_file_that_is_not_a_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(NOT_SQLITE.apply(b"x" * 20000))
    process = companion_run(tmp_path, journal)
    try:
        lines = read_until(process, "page on")
    finally:
        assert stop(process) == 0
    said = next(line for line in lines if "journal: the journal was damaged" in line)
    kept = journal.with_name(said.split(" is kept as ")[1].split(";")[0])
    assert kept.read_bytes() == NOT_SQLITE.apply(b"x" * 20000)
