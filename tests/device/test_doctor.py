"""`companion doctor`: on this machine (no camera, no GPIO) it says so, with fixes."""

from __future__ import annotations

import glob
import os
import socket
import sqlite3
from pathlib import Path

import pytest
from journalkit import build, damage, truncated

from device.cli import main
from device.config import load
from device.doctor import (
    FAIL,
    OK,
    WARN,
    check_disk,
    check_journal,
    check_model,
    check_port,
    check_recording,
    check_voice,
)
from device.journal import JournalLock
from device.recovery import open_journal


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user settings; the journal in a temporary state folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    return tmp_path


def test_doctor_here_says_there_is_no_camera_and_no_gpio(
        isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if glob.glob("/dev/gpiochip*") or glob.glob("/dev/video*"):
        pytest.skip("this machine has a camera device or GPIO")
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    free = _free_port()
    settings = isolated / "s.toml"
    settings.write_text(f"[web]\nport = {free}\n")
    status = main(["doctor", "--config", str(settings)])
    out = capsys.readouterr().out
    lines = out.splitlines()
    camera = next(i for i, line in enumerate(lines) if line.split()[1:2] == ["camera"])
    gpio = next(i for i, line in enumerate(lines) if line.split()[1:2] == ["gpio"])
    assert lines[camera].split()[0] == FAIL and "no camera" in lines[camera]
    assert "fix:" in lines[camera + 1] and "python3-picamera2" in lines[camera + 1]
    assert lines[gpio].split()[0] == FAIL and "no GPIO" in lines[gpio]
    assert "fix:" in lines[gpio + 1]
    assert "port" in out and f"port {free}" in out
    assert "not ready for `companion run`: camera, gpio" in out
    assert status == 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_taken_port_fails_with_the_way_to_find_who_holds_it(isolated: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        port = sock.getsockname()[1]
        found = check_port(load(system=None, user=None).replace("web", port=port))
    assert found.status == FAIL and f"port {port}" in found.detail
    assert "ss -ltnp" in found.fix


def test_a_missing_model_and_voice_program_are_named(isolated: Path) -> None:
    cfg = load(system=None, user=None)
    model = check_model(cfg.replace("vision", model=str(isolated / "none.onnx")))
    assert model.status == FAIL and "none.onnx" in model.detail
    voice = check_voice(cfg.replace("voice", command=["no-such-speaker-xyz"]))
    assert voice.status == WARN and "apt install" in voice.fix


def test_the_disk_check_finds_room_for_the_journal(isolated: Path) -> None:
    good = check_disk(load(system=None, user=None))
    assert good.status == OK and "MB free" in good.detail


def test_a_damaged_journal_is_a_warning_saying_what_run_will_do(isolated: Path) -> None:
    cfg = load(system=None, user=None)
    broken = isolated / "broken.sqlite3"
    broken.write_bytes(b"not a database at all" * 100)
    found = check_journal(cfg.replace("journal", path=str(broken)))
    assert found.status == WARN and "is damaged: file is not a database" in found.detail
    assert "keeps it aside as broken.sqlite3.damaged-" in found.fix
    fine = isolated / "fine.sqlite3"
    sqlite3.connect(fine).close()
    assert check_journal(cfg.replace("journal", path=str(fine))).status == OK


def test_after_a_recovery_doctor_names_the_kept_file_and_what_was_recovered(
        isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = isolated / "journal.sqlite3"
    build(path, games=2, last=10)
    damage(path, truncated(0.6))
    journal, recovery = open_journal(path)
    journal.close()
    assert recovery is not None
    settings = isolated / "s.toml"
    settings.write_text(f"[journal]\npath = \"{path}\"\n")
    main(["doctor", "--config", str(settings)])
    line = next(x for x in capsys.readouterr().out.splitlines() if " journal " in x)
    assert line.split()[0] == WARN
    assert f"kept aside as {recovery.kept}" in line
    assert f"{recovery.games} games and {recovery.events} events recovered" in line


def test_the_journal_check_names_the_companion_using_it(isolated: Path) -> None:
    path = isolated / "journal.sqlite3"
    lock = JournalLock(path)
    lock.note(port=8123)
    try:
        found = check_journal(load(system=None, user=None).replace("journal", path=str(path)))
    finally:
        lock.release()
    assert f"in use by the companion (PID {os.getpid()}, page on port 8123)" in found.detail
    found = check_journal(load(system=None, user=None).replace("journal", path=str(path)))
    assert "in use" not in found.detail


def test_recording_is_off_or_said_where_it_goes_and_whether_it_fits(isolated: Path) -> None:
    cfg = load(system=None, user=None)
    assert check_recording(cfg).status == OK and "off" in check_recording(cfg).detail
    on = cfg.replace("record", enabled=True, folder=str(isolated / "games"))
    found = check_recording(on)
    assert found.status in (OK, WARN) and str(isolated / "games") in found.detail
    huge = on.replace("record", budget_mb=1e6)  # a terabyte: more than this disk has free
    assert check_recording(huge).status == WARN and "budget_mb" in check_recording(huge).fix
    blocked = isolated / "file"
    blocked.write_text("")
    stuck = on.replace("record", folder=str(blocked / "games"))
    assert check_recording(stuck).status == FAIL
