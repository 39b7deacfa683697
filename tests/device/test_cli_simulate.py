"""``companion simulate``: the statistics it prints and its error handling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main


def test_json_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--games", "2", "--seed", "4", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["games"] == 2 and len(stats["score_mean"]) == 3


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--games", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "turns per game" in out and "end triggered by" in out


def test_same_seed_same_log_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert main(["simulate", "--games", "1", "--seed", "7", "--log", str(path),
                     "--json"]) == 0
    assert a.read_bytes() == b.read_bytes() and a.stat().st_size > 0


@pytest.mark.parametrize("args", [["--players", "7"], ["--games", "0"]])
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1
