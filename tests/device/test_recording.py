"""Recorded game folders: written by the device or from a script, read back, replayed."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.cli import main
from device.perception import ScriptedCamera
from device.recording import GameFolder, Recorder, RecordingError, write_scripted
from device.service import AnswerQuestion, Play, Press, Undo
from engine.board import Location
from engine.events import GainFrom, Lead
from engine.setup import new_game
from engine.tracking.script import write_script

pytestmark = pytest.mark.xdist_group("recording")  # one worker films `scripted` once
MODEL = Path(__file__).resolve().parents[2] / "models"


def test_the_recorder_writes_a_folder_that_reads_back(tmp_path: Path) -> None:
    clock = iter(range(100))
    recorder = Recorder(tmp_path, clock=lambda: float(next(clock)))
    setup = new_game(["Ann", "Bo"], random.Random(1))
    recorder.game(setup, seed=7)
    recorder.frame(np.zeros((48, 64, 3), np.uint8))
    for command in (Press("die"), Play(Lead("eo", Location.MARS)), AnswerQuestion(2), Undo()):
        recorder.command(command)
    recorder.close()
    folder = GameFolder.read(tmp_path)
    assert folder.setup == setup and folder.seed == 7 and folder.script is None
    kinds = [next(k for k in ("frame", "button", "answer", "question", "undo") if k in item)
             for item in folder.items]
    assert kinds == ["frame", "button", "answer", "question", "undo"]
    assert (tmp_path / folder.items[0]["frame"]).exists()


@pytest.mark.parametrize(("name", "text", "message"), [
    ("game.json", "{", "not valid JSON"),
    ("game.json", '{"format": 9}', "format 9"),
    ("timeline.jsonl", '{"t": 0, "frame": "a", "button": "die"}', "expected one of"),
])
def test_a_broken_folder_names_the_file_and_the_problem(tmp_path: Path, name: str, text: str,
                                                        message: str) -> None:
    recorder = Recorder(tmp_path)
    recorder.game(new_game(["Ann", "Bo"], random.Random(1)), seed=1)
    recorder.close()
    (tmp_path / name).write_text(text)
    with pytest.raises(RecordingError, match=message):
        GameFolder.read(tmp_path)


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    script = write_script(3, seed=4)
    short = replace(script, moments=script.moments[:6])
    camera = ScriptedCamera(seed=1, hand_frames=2, still_frames=7)
    return write_scripted(short, tmp_path_factory.mktemp("game"), camera)


def test_a_scripted_folder_holds_frames_buttons_and_the_truth(scripted: Path) -> None:
    folder = GameFolder.read(scripted)
    assert folder.script is not None and folder.script.truth[0] == folder.script.truth_setup
    assert any("frame" in item for item in folder.items)
    assert any("table" in item for item in folder.items)


@pytest.mark.skipif(not any(MODEL.glob("*.onnx")), reason="no classifier in models/")
def test_companion_replay_runs_the_whole_pipeline(scripted: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite3"
    assert main(["replay", str(scripted), "--oracle", "--json", "--journal", str(journal)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["frames"] > 20 and summary["views"] >= 1
    assert summary["events"] > 1 and journal.exists()
    assert set(summary) >= {"questions", "table_answers", "position", "scores", "trigger"}


def test_replay_refuses_oracle_without_a_script(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    recorder = Recorder(tmp_path)
    recorder.game(new_game(["Ann", "Bo"], random.Random(1)), seed=1)
    recorder.close()
    assert main(["replay", str(tmp_path), "--oracle"]) == 2
    assert "needs a scripted folder" in capsys.readouterr().err


def test_an_answer_to_a_location_question_is_recorded_and_replayed(tmp_path: Path) -> None:
    """'What is on top of Luna?' answered on a phone: a 'question' line with 'told'."""
    from dataclasses import dataclass

    from device.recording import replay
    from engine.board import House
    from engine.events import SeatSpec
    from engine.setup import tracked_game
    from engine.tracking import Seen

    start = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]

    @dataclass
    class Stable:
        state: str
        top: str | None
        depth: int
        unread_for: float = 0.0

    class Stabilizer:  # Ann took Jupiter's top card; Luna has gone unread six seconds
        def __init__(self) -> None:
            self.state = {loc.value: Stable("card", s[-1], len(s)) for loc, s in
                          zip(Location, [start[0][:1], *start[1:]], strict=True)}
            self.state["luna"] = Stable("unknown", None, 0, 6.0)

        def update(self, reading: object, t: float) -> list[object]:
            return []

    class Scanner:
        def scan(self, frame: object) -> object:
            return frame

    recorder = Recorder(tmp_path)
    setup = tracked_game([SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)], start,
                         first=0)
    recorder.game(setup, seed=3)
    recorder.frame(np.zeros((48, 64, 3), np.uint8))
    recorder.command(AnswerQuestion(0, told=Seen(3, "quietus")))
    recorder.close()
    folder = GameFolder.read(tmp_path)
    assert folder.items[-1]["told"] == {"depth": 3, "top": "quietus", "face_down": False}
    outcome = replay(folder, Scanner(), Stabilizer())
    assert outcome.refused == []
    assert outcome.service.game.log[-2:] == [Lead("quietus", Location.LUNA),
                                             GainFrom(Location.JUPITER)]
