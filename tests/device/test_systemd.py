"""The systemd unit: `systemd-analyze verify` where available, and the settings it must keep."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"
INSTALL = UNIT.with_name("install.sh")


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(UNIT)
    return parser


def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    # verify also checks that ExecStart exists: point it at a program this machine has
    copy = tmp_path / "companion.service"
    program = shutil.which("true") or "/bin/true"
    copy.write_text(UNIT.read_text().replace("/opt/companion/.venv/bin/companion", program))
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                            check=False, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_unit_keeps_the_required_settings() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify" and service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"]) > 0
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) >= {"video", "gpio"}
    assert service["ProtectSystem"] == "strict" and service["StateDirectory"] == "companion"
    assert service["NoNewPrivileges"] == "true"
    assert service["ExecStart"].endswith("companion run")


def test_the_installer_makes_a_venv_that_sees_apts_picamera2() -> None:
    script = INSTALL.read_text()
    assert "--system-site-packages" in script and "python3-picamera2" in script
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
