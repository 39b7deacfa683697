"""The join code away from the page: the start-up QR code, the file doctor shows it from."""

from __future__ import annotations

import io
import socket
import stat
from pathlib import Path

import pytest
import segno

from device import config as settings
from device import joining
from device.appliance import Appliance
from device.cli import main

TOKEN = "t" * 32


def test_phones_are_sent_to_the_pis_name_or_its_one_address() -> None:
    name = socket.gethostname().split(".")[0]
    assert joining.unlock_url("0.0.0.0", 8080, TOKEN) == f"http://{name}.local:8080/unlock/{TOKEN}"
    assert joining.unlock_url("192.168.1.5", 80, TOKEN) == f"http://192.168.1.5:80/unlock/{TOKEN}"
    assert joining.unlock_url("127.0.0.1", 8080, TOKEN) is None  # no phone reaches it


def test_the_qr_code_in_text_is_the_codes_modules() -> None:
    url = f"http://raspberrypi.local:8080/unlock/{TOKEN}"
    lines = joining.qr_text(url).splitlines()
    matrix = segno.make(url, error="m").matrix
    side = len(matrix) + 4  # two modules of border each side
    assert {len(line) for line in lines} == {side} and len(lines) == -(-side // 2)
    # line 1 holds the code's rows 0 and 1 (line 0 the border), light modules drawn
    # (white on a dark terminal): upper half, lower half, both or neither
    row = lines[1][2:-2]
    light = [[not m for m in matrix[0]], [not m for m in matrix[1]]]
    drawn = ["█" if a and b else "▀" if a else "▄" if b else " "
             for a, b in zip(*light, strict=True)]
    assert row == "".join(drawn)


def test_the_join_file_is_the_companions_own_and_goes_with_it(tmp_path: Path) -> None:
    path = joining.keep(tmp_path, "http://pi.local:8080/unlock/x")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert joining.read(tmp_path) == "http://pi.local:8080/unlock/x"
    shown = joining.shown(tmp_path)
    assert shown.startswith("join: scan") and "http://pi.local:8080/unlock/x" in shown
    joining.forget(tmp_path)
    assert "no companion is running" in joining.shown(tmp_path)


def test_a_file_this_user_may_not_read_says_how_to_read_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(folder: Path) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(joining, "read", denied)
    assert "sudo companion doctor --join" in joining.shown(tmp_path)


def test_run_prints_the_code_as_a_qr_code_and_keeps_it_for_doctor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    out = io.StringIO()
    cfg = settings.load(None, system=False, user=False).replace("web", join_token=TOKEN)
    appliance = Appliance(cfg, out=out)
    appliance.url = "http://127.0.0.1:8080"
    appliance._announce_join("0.0.0.0", 8080)
    url = joining.unlock_url("0.0.0.0", 8080, TOKEN)
    assert f"scan to follow the game with the controls unlocked: {url}" in out.getvalue()
    assert joining.qr_text(str(url)) in out.getvalue()
    assert joining.read(tmp_path) == url
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    main(["doctor", "--join"])
    assert joining.qr_text(str(url)) in capsys.readouterr().out
    for close in appliance._closers:
        close()
    assert not (tmp_path / joining.FILE_NAME).exists()


def test_a_companion_on_loopback_gives_the_link_for_this_machines_browser() -> None:
    out = io.StringIO()
    cfg = settings.load(None, system=False, user=False)
    appliance = Appliance(cfg, out=out, demo=True)
    appliance.url = "http://127.0.0.1:8080"
    appliance._announce_join("127.0.0.1", 8080)
    assert out.getvalue() == (f"companion: unlock a browser here: "
                              f"http://127.0.0.1:8080/unlock/{appliance.join_token}\n")
    assert len(appliance.pin) == 6 and len(appliance.join_token) == 32
