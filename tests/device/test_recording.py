"""Recorded game folders: written by the device or from a script, read back, replayed."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.cli import main
from device.perception import ScriptedCamera
from device.recording import GameFolder, Recorder, RecordingError, write_scripted
from device.service import AnswerQuestion, Play, Press, Undo
from engine.board import Location
from engine.events import Event, GainFrom, Lead
from engine.game import Game
from engine.setup import new_game
from engine.tracking.script import Script, write_script

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


@pytest.mark.skipif(not any(MODEL.glob("*.onnx")), reason="no classifier in models/")
def test_a_damaged_frame_file_is_named_and_the_replay_stops(
        scripted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "game"
    shutil.copytree(scripted, copy)
    frame = next(item["frame"] for item in GameFolder.read(copy).items if "frame" in item)
    (copy / frame).write_bytes(b"not a picture")
    assert main(["replay", str(copy)]) == 2
    assert f"{frame}: not an image" in capsys.readouterr().err


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


# --- the companion's random source -------------------------------------------------------


def test_the_random_source_goes_through_json_and_back() -> None:
    from device.recording import rng_from_json, rng_to_json

    rng = random.Random(11)
    rng.random()
    again = rng_from_json(json.loads(json.dumps(rng_to_json(rng))), "game.json")
    assert [again.random() for _ in range(3)] == [rng.random() for _ in range(3)]


@pytest.mark.parametrize("state", [[3, [1, 2], None], "abc", [3, [2**40] * 625, None]])
def test_a_broken_random_source_names_the_file(tmp_path: Path, state: object) -> None:
    recorder = Recorder(tmp_path)
    recorder.game(new_game(["Ann", "Bo"], random.Random(1)), seed=1)
    recorder.close()
    data = json.loads((tmp_path / "game.json").read_text())
    (tmp_path / "game.json").write_text(json.dumps({**data, "rng": state}))
    with pytest.raises(RecordingError, match=r"game\.json: 'rng' is not a random generator"):
        GameFolder.read(tmp_path)


def as_format_1(folder: Path) -> None:
    """Rewrite ``folder``'s game.json as the companion wrote it before format 2."""
    data = json.loads((folder / "game.json").read_text())
    old = {"format": 1, "setup": data["setup"], "seed": data["seed"], "corners": None}
    (folder / "game.json").write_text(json.dumps(old))


@pytest.fixture(scope="module")
def solo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Script, Path]:
    """The opening of a solo game whose player takes the deck at once (the die rolls)."""
    script = write_script(seed=8, automa_level=2)
    end = script.moments[5].truth_len
    short = replace(script, moments=script.moments[:6], truth=script.truth[:end])
    camera = ScriptedCamera(seed=8, fps=8.0, hand_frames=0, still_frames=5, size=(640, 480))
    return short, write_scripted(short, tmp_path_factory.mktemp("solo"), camera)


def test_a_scripted_folder_carries_the_die_after_au_tomas_setup(solo: tuple[Script, Path],
                                                                  tmp_path: Path) -> None:
    """The script drew Au Toma's setup from the companion's source before the game began:
    a source seeded afresh would roll other faces."""
    script, path = solo
    folder = GameFolder.read(path)
    assert folder.companion_rng().getstate() == script.companion_rng().getstate()
    assert folder.companion_rng().getstate() != random.Random(script.seed).getstate()
    old = tmp_path / "old"
    shutil.copytree(path, old)
    as_format_1(old)  # a folder filmed before format 2: its script rebuilds the source
    legacy = GameFolder.read(old)
    assert legacy.format == 1 and legacy.notes() == []
    assert legacy.companion_rng().getstate() == script.companion_rng().getstate()


@pytest.mark.skipif(not any(MODEL.glob("*.onnx")), reason="no classifier in models/")
def test_the_solo_opening_replays_with_the_games_die(solo: tuple[Script, Path]) -> None:
    from device.commands.replay import _vision
    from device.recording import replay
    from engine.events import Roll

    script, path = solo
    folder = GameFolder.read(path)
    done = replay(folder, *_vision(None, None), oracle=True)
    rolled = [e for e in done.service.game.log if isinstance(e, Roll)]
    assert done.refused == [] and rolled
    assert rolled == [e for e in script.truth if isinstance(e, Roll)][:len(rolled)]


def test_a_format_1_folder_replays_from_its_seed_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recorder = Recorder(tmp_path)
    recorder.game(new_game(["Ann", "Bo"], random.Random(1)), seed=7)
    recorder.close()
    as_format_1(tmp_path)
    folder = GameFolder.read(tmp_path)
    assert folder.companion_rng().getstate() == random.Random(7).getstate()
    (note,) = folder.notes()
    assert "holds no 'rng'" in note and "seeded from 'seed' (7)" in note
    if any(MODEL.glob("*.onnx")):
        assert main(["replay", str(tmp_path), "--json"]) == 0
        out = capsys.readouterr()
        assert "holds no 'rng'" in out.err and json.loads(out.out)["notes"] == [note]


def test_a_recording_begun_mid_game_replays_from_where_it_began(tmp_path: Path) -> None:
    """A game resumed from the journal: its events so far, then the die as it stood."""
    from device.recording import replay
    from engine.events import DrawFromDeck, Roll

    def next_event(game: Game) -> Event:  # take the deck whenever it is offered
        options = game.legal_actions()
        return next((o for o in options if isinstance(o, DrawFromDeck)), options[0])

    game = Game(new_game(["Ann", "Bo"], random.Random(1)), rng=random.Random(4))
    while len(game.log) < 6:
        game.play(next_event(game))
    recorder = Recorder(tmp_path)
    recorder.game(game.log[0], rng=game.rng, events=tuple(game.log[1:]))  # type: ignore[arg-type]
    begun = len(game.log)
    while sum(isinstance(e, Roll) for e in game.log[begun:]) < 2:
        event = next_event(game)
        recorder.command(Play(event))
        game.play(event)
    recorder.close()

    class Blind:  # the vision of a folder with no frames: never used
        def scan(self, frame: object) -> object:
            raise AssertionError("no frames")

    done = replay(GameFolder.read(tmp_path), Blind(), Blind())
    assert done.refused == [] and done.service.game.log == game.log


# --- a whole filmed solo game ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not any(MODEL.glob("*.onnx")), reason="no classifier in models/")
def test_a_filmed_solo_game_replays_to_its_truth(tmp_path: Path) -> None:
    """Filmed whole and fed through `companion replay --oracle`'s path: the same scores.
    (Before format 2 the replay rolled from a fresh Random(seed): another die.)"""
    from device.commands.replay import _vision
    from device.recording import replay
    from engine.endgame import final_table
    from engine.scoring import score
    from engine.state import Phase

    script = write_script(seed=5, automa_level=2)
    camera = ScriptedCamera(seed=5, fps=8.0, hand_frames=0, still_frames=5, size=(640, 480))
    folder = GameFolder.read(write_scripted(script, tmp_path, camera))
    done = replay(folder, *_vision(None, None), oracle=True)
    state, truth = done.service.game.state, script.truth_states()[-1]
    assert state.phase is Phase.OVER, state.fen()

    def totals(final: object) -> dict[str, int]:
        return {p.name: p.total for p in score(final_table(final), notes=False).players}  # type: ignore[arg-type]

    assert totals(state) == totals(truth)


def test_the_tables_answer_refused_is_not_given_again_and_again() -> None:
    # A replayed game gone astray: the people's answer (the truth's) no longer fits it.
    # It was played again up to 200 times for every frame, every time refused.
    from device.recording import Outcome, answer_for_table
    from device.service import Service

    game = Game(rng=random.Random(1))
    game.play(new_game(["Ann", "Bo"], random.Random(1)))
    svc = Service(game, rng=random.Random(1))
    held = game.state.players[0].hand.known
    not_held = next(card for card in ("lorn", "sevro", "eo") if card not in held)

    class Astray:  # people answering from a truth the tracked game no longer matches
        def decide(self, game: Game, asked: bool = False) -> Event:
            return Lead(not_held, Location.MARS)

    class Untracked:
        tracker = None

    outcome = Outcome(svc)
    answer_for_table(Astray(), svc, Untracked(), outcome)  # type: ignore[arg-type]
    assert outcome.table_answers == 1 and len(outcome.refused) == 1
    assert len(game.log) == 1
