"""Settings: defaults, the override order, validation messages, `companion config show`."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from device import config as settings
from device.cli import main
from device.config import ConfigError, load


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_are_complete_and_valid() -> None:
    cfg = load(system=None, user=None)
    assert cfg.files == ()
    assert cfg.camera.source == "picamera"
    assert (cfg.buttons.die, cfg.buttons.undo_hold, cfg.led.pin) == (17, 2.0, 24)
    assert cfg.voice.command[0] == "espeak-ng"


def test_later_files_override_earlier_ones_key_by_key(tmp_path: Path) -> None:
    system = write(tmp_path / "system.toml", "[web]\nport = 9000\n[camera]\nfps = 5\n")
    user = write(tmp_path / "user.toml", "[web]\nport = 9100\n")
    extra = write(tmp_path / "extra.toml", "[camera]\nsource = 'opencv'\n")
    cfg = load(extra, system=system, user=user)
    assert cfg.web.port == 9100  # user over system
    assert cfg.camera.fps == 5.0  # an int where a number is wanted becomes a float
    assert cfg.camera.source == "opencv"  # --config over everything
    assert cfg.web.host == "0.0.0.0"  # untouched keys keep their defaults
    assert cfg.files == (system, user, extra)


def test_missing_standard_files_are_skipped_but_a_named_one_is_an_error(tmp_path: Path) -> None:
    assert load(system=tmp_path / "none.toml", user=tmp_path / "no.toml").files == ()
    with pytest.raises(ConfigError, match="no such settings file"):
        load(tmp_path / "missing.toml", system=None, user=None)


@pytest.mark.parametrize(("text", "message"), [
    ("[camera]\nfsp = 3\n", r"unknown setting camera\.fsp .*known: source"),
    ("[camra]\nfps = 3\n", r"unknown table \[camra\]"),
    ("[camera]\nfps = 'fast'\n", r"camera\.fps must be a number, not 'fast'"),
    ("[buttons]\nenabled = 1\n", r"buttons\.enabled must be true or false"),
    ("[buttons]\ndie = 40\n", r"buttons\.die must be a whole number, 2 to 27, not 40"),
    ("[buttons]\ndie = 24\n", r"led\.pin and buttons\.die both use GPIO24"),
    ("[camera]\nsource = 'webcam'\n", r"camera\.source must be one of picamera, .*, not 'webcam'"),
    ("[web]\npin = '12'\n", r"web\.pin = '12' must be empty \(random\) or 4 to 6 digits"),
    ("[camera]\nretry_min = 9\nretry_max = 2\n", r"retry_min must not exceed"),
    ("[voice]\ncommand = ['espeak-ng', 3]\n", r"voice\.command = .* must be a program and"),
    ("[voice]\ncommand = 'espeak-ng'\n", r"voice\.command must be a list, not 'espeak-ng'"),
    ("[vision]\ncorners = [[1, 2], [3, 4]]\n", r"vision\.corners = .* four \[x, y\] pixel"),
    ("[web\nport = 1\n", r"not valid TOML"),
])
def test_bad_settings_are_refused_naming_file_and_key(tmp_path: Path, text: str,
                                                      message: str) -> None:
    bad = write(tmp_path / "bad.toml", text)
    with pytest.raises(ConfigError, match=message) as caught:
        load(bad, system=None, user=None)
    assert str(bad) in str(caught.value)


def test_a_bad_value_is_blamed_on_the_file_that_set_it(tmp_path: Path) -> None:
    system = write(tmp_path / "system.toml", "[web]\nport = 70000\n")
    user = write(tmp_path / "user.toml", "[web]\nhost = '127.0.0.1'\n")
    with pytest.raises(ConfigError, match=r"system\.toml: web\.port"):
        load(system=system, user=user)


def test_replace_validates_too() -> None:
    cfg = load(system=None, user=None)
    assert cfg.replace("web", port=0).web.port == 0
    with pytest.raises(ConfigError, match=r"camera\.source"):
        cfg.replace("camera", source="nope")


def test_to_toml_round_trips() -> None:
    cfg = load(system=None, user=None)
    parsed = tomllib.loads(cfg.to_toml())
    assert parsed == {name: dict(section) for name, section in cfg.tables.items()}


def test_journal_lives_in_systemds_state_directory(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    cfg = load(system=None, user=None)
    assert settings.journal_path(cfg) == tmp_path / "journal.sqlite3"
    assert settings.journal_path(cfg.replace("journal", path="/x/j.db")) == Path("/x/j.db")


def test_config_show_prints_the_merged_settings(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    mine = write(tmp_path / "mine.toml", "[led]\npin = 5\n")
    assert main(["config", "show", "--config", str(mine)]) == 0
    out = capsys.readouterr().out
    assert f"merged from: built-in defaults, {mine}" in out
    assert tomllib.loads(out)["led"]["pin"] == 5


def test_config_show_with_a_bad_file_exits_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    bad = write(tmp_path / "bad.toml", "[led]\npin = 'seven'\n")
    assert main(["config", "show", "--config", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "led.pin must be a whole number" in err
