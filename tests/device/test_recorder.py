"""The live recorder: game folders written from the service's commands and the camera's
frames, in the order the service ran them, within a disk budget, packed for a bug report."""

from __future__ import annotations

import contextlib
import io
import json
import random
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from devkit import two_player_setup

from device.recorder import GameRecorder
from device.recording import GameFolder, rng_to_json
from device.service import CameraChanges, NewGame, Play, Press, Service
from engine.board import Location
from engine.events import Lead
from engine.game import Game


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table(level: int = 90, seed: int = 0) -> np.ndarray:
    """A small grey "table" picture with sensor noise; ``level`` sets its brightness."""
    noise = np.random.default_rng(seed).integers(-3, 4, (96, 128, 3))
    return np.clip(level + noise, 0, 255).astype(np.uint8)


@pytest.fixture
def said() -> list[str]:
    return []


@pytest.fixture
def svc() -> Service:
    """A service run on the caller's thread (its commands execute in ``call``)."""
    return Service(Game(rng=random.Random(5)))


def recorder_for(svc: Service, root: Path, said: list[str], **options: float) -> GameRecorder:
    rec = GameRecorder(root, clock=Clock(), report=said.append, **options)  # type: ignore[arg-type]
    rec.install(svc)
    return rec


def frame_lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "timeline.jsonl").read_text().splitlines()]


def only_folder(root: Path) -> Path:
    (folder,) = [f for f in root.iterdir() if f.is_dir()]
    return folder


def attempt(svc: Service, command: object) -> None:
    """Run ``command``; one the game refuses is recorded all the same."""
    with contextlib.suppress(ValueError):
        svc.call(command)  # type: ignore[arg-type]


def feed(rec: GameRecorder, frame: np.ndarray, t: float, *, change: bool = False) -> None:
    rec.taken(frame, t)
    if change:
        rec.changed()
    rec.scanned()


def test_a_new_game_writes_its_setup_and_the_die_as_it_stood(svc: Service, tmp_path: Path,
                                                               said: list[str]) -> None:
    rec = recorder_for(svc, tmp_path, said)
    before = rng_to_json(svc.game.rng)  # type: ignore[arg-type]
    svc.call(NewGame(two_player_setup()))
    rec.close()
    folder = GameFolder.read(only_folder(tmp_path))
    assert folder.setup == two_player_setup() and folder.events == ()
    assert folder.format == 2 and folder.rng_state == before and folder.notes() == []


def test_a_game_under_way_is_recorded_with_what_came_before(tmp_path: Path,
                                                             said: list[str]) -> None:
    game = Game(two_player_setup(), rng=random.Random(3))
    game.play(game.legal_actions()[0])
    svc = Service(game)
    rec = recorder_for(svc, tmp_path, said)
    rec.close()
    folder = GameFolder.read(only_folder(tmp_path))
    assert (folder.setup, *folder.events) == tuple(game.log)
    assert folder.companion_rng().getstate() == game.rng.getstate()  # type: ignore[union-attr]


def test_buttons_and_answers_are_lines_in_the_order_they_ran(svc: Service, tmp_path: Path,
                                                              said: list[str]) -> None:
    rec = recorder_for(svc, tmp_path, said)
    svc.call(NewGame(two_player_setup()))
    attempt(svc, Press("next"))  # refused (nothing to confirm): recorded all the same
    attempt(svc, Play(Lead("eo", Location.MARS)))
    rec.close()
    items = [{k: v for k, v in item.items() if k != "t"}
             for item in frame_lines(only_folder(tmp_path))]
    assert items == [{"button": "next"}, {"answer": {"type": "Lead", "card": "eo",
                                                     "location": "mars"}}]


def test_a_frame_comes_just_before_the_change_it_gave(svc: Service, tmp_path: Path,
                                                      said: list[str]) -> None:
    """A button run while a frame's change waits in the queue comes first: as it ran."""
    rec = recorder_for(svc, tmp_path, said)
    svc.call(NewGame(two_player_setup()))
    feed(rec, table(), 100.5)  # no change: written as soon as it is scanned
    rec.taken(table(160), 100.6)
    rec.changed()  # its change is queued …
    attempt(svc, Press("die"))  # … behind a button press
    rec.scanned()
    feed(rec, table(160), 100.7)  # after it, so it waits for the change too
    svc.call(CameraChanges((), None))
    rec.close()
    lines = frame_lines(only_folder(tmp_path))
    kinds = ["frame" if "frame" in item else "button" for item in lines]
    assert kinds == ["frame", "button", "frame", "frame"]
    assert [item["t"] for item in lines if "frame" in item] == [0.5, 0.6, 0.7]


def test_a_still_table_keeps_a_few_pictures_and_every_change(svc: Service, tmp_path: Path,
                                                             said: list[str]) -> None:
    rec = recorder_for(svc, tmp_path, said, still_fps=2.0)
    svc.call(NewGame(two_player_setup()))
    for k in range(10):  # one second still at 10 frames a second
        feed(rec, table(seed=k), 100.0 + k / 10)
    feed(rec, table(170), 101.0)  # something moved
    rec.close()
    folder = only_folder(tmp_path)
    names = [str(item["frame"]) for item in frame_lines(folder)]
    assert len(names) == 11
    assert names[:5] == [names[0]] * 5 and names[5:10] == [names[5]] * 5
    assert len(set(names)) == 3 and names[10] not in names[:10]
    assert sorted(p.name for p in (folder / "frames").iterdir()) == sorted(
        Path(n).name for n in set(names))


def test_the_budget_thins_the_pictures_then_stops_them_and_says_so_once(
        svc: Service, tmp_path: Path, said: list[str]) -> None:
    rec = recorder_for(svc, tmp_path, said, budget_mb=0.2, still_fps=10.0)
    svc.call(NewGame(two_player_setup()))
    for k in range(80):  # a new table every other frame, that compresses badly (~20 KB)
        frame = np.random.default_rng(k // 2).integers(0, 256, (96, 128, 3), np.uint8)
        frame = np.repeat(np.repeat(frame, 2, 0), 2, 1)
        rec._writer.drain()  # so the budget is measured as it would be at the camera's pace
        feed(rec, frame, 100.0 + k / 10)
        attempt(svc, Press("next"))
    rec.close()
    assert len(said) == 2 and "from now on it keeps a picture only when the table settles" \
        in said[0] and "no more frames" in said[1]
    lines = frame_lines(only_folder(tmp_path))
    notes = [k for k, item in enumerate(lines) if "note" in item]
    assert len(notes) == 1 and not any("frame" in item for item in lines[notes[0]:])
    assert sum("button" in item for item in lines) == 80  # buttons go on
    size = sum(f.stat().st_size for f in only_folder(tmp_path).rglob("*") if f.is_file())
    assert 0.1e6 < size <= 0.2e6


def test_a_new_game_deletes_the_oldest_folders_until_half_the_budget_is_free(
        svc: Service, tmp_path: Path, said: list[str]) -> None:
    for name in ("game-20260101-100000", "game-20260102-100000", "game-20260103-100000"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "blob").write_bytes(bytes(300_000))
    (tmp_path / "mine").mkdir()  # not a game folder: never touched
    (tmp_path / "mine" / "blob").write_bytes(bytes(300_000))
    rec = recorder_for(svc, tmp_path, said, budget_mb=1.0)
    svc.call(NewGame(two_player_setup()))
    rec.close()
    left = sorted(f.name for f in tmp_path.iterdir())
    assert left[0] == "game-20260103-100000" and left[-1] == "mine" and len(left) == 3


def test_a_folder_that_cannot_be_written_is_said_once_and_the_game_goes_on(
        svc: Service, tmp_path: Path, said: list[str]) -> None:
    root = tmp_path / "a-file"
    root.write_text("")
    rec = recorder_for(svc, root, said)
    svc.call(NewGame(two_player_setup()))
    feed(rec, table(), 100.1)
    attempt(svc, Press("next"))
    rec.close()
    assert len(said) == 1 and said[0].startswith("recording stopped")
    assert svc.game.log[0] == two_player_setup()


@pytest.fixture
def recorded(svc: Service, tmp_path: Path, said: list[str]) -> Iterator[GameRecorder]:
    rec = recorder_for(svc, tmp_path / "rec", said)
    svc.call(NewGame(two_player_setup()))
    feed(rec, table(), 100.1)
    attempt(svc, Press("next"))
    feed(rec, table(180), 100.2)
    yield rec
    rec.close()


def test_the_bug_report_is_the_folder_as_it_stands_zipped(recorded: GameRecorder,
                                                          tmp_path: Path) -> None:
    report = recorded.bug_report()
    assert report.folder == recorded.folder and report.frames == 2
    data = b"".join(report.chunks())
    assert report.name.endswith(".zip") and report.size > 0
    with zipfile.ZipFile(io.BytesIO(data)) as pack:
        pack.extractall(tmp_path / "unpacked")
    unpacked = tmp_path / "unpacked" / report.folder.name
    folder = GameFolder.read(unpacked)
    assert folder.setup == two_player_setup()
    assert [k for item in folder.items for k in item if k != "t"] == ["frame", "button", "frame"]


def test_no_bug_report_before_any_game(tmp_path: Path, svc: Service, said: list[str]) -> None:
    rec = recorder_for(svc, tmp_path, said)
    with pytest.raises(LookupError, match="no game has been recorded"):
        rec.bug_report()
    rec.close()
