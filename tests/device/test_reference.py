"""The calibration step: before the first game the companion asks for the bare table,
takes it on NEXT, keeps it beside the journal, and gives it back at the next start."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from device.config import load
from device.doctor import OK, WARN, check_table
from device.reference import ASK, CALIBRATE, TableReference, can_learn_table, reference_path
from device.service import Notice, Press, Service, Update
from engine.board import House
from engine.events import SeatSpec
from engine.game import Game
from engine.setup import tracked_game

FRAME = np.full((48, 64, 3), 90, np.uint8)
RUNNING: list[Service] = []


@pytest.fixture(autouse=True)
def _stop_services() -> Iterator[None]:
    yield
    while RUNNING:
        RUNNING.pop().stop()


class Scanner:
    def __init__(self, refuse: str = "", cluttered: tuple[str, ...] = ()) -> None:
        self.learnt: list[np.ndarray] = []
        self.refuse = refuse
        self.cluttered = list(cluttered)

    def learn_table(self, frame: np.ndarray) -> list[str]:
        if self.refuse:
            raise ValueError(self.refuse)
        self.learnt.append(frame)
        return self.cluttered


class PressesOnly:
    """A follower that takes every press and nothing else."""

    def __init__(self, on_press: Callable[[Service, Press], Update | None]) -> None:
        self.on_press = on_press

    def on_camera(self, service: Service, command: object) -> None:
        return None

    def on_question(self, service: Service, command: object) -> Update:
        raise AssertionError("no question is asked in these tests")

    def on_played(self, service: Service, played: Update) -> None:
        return None


class Step:
    """A TableReference whose camera work is queued, to run as the capture thread would."""

    def __init__(self, path: Path, game: Game | None = None) -> None:
        self.tasks: list[Any] = []
        self.service = Service(game or Game(rng=random.Random(1)))
        self.presses: list[str] = []
        self.service.follower = PressesOnly(self._tracker)  # as the tracker would
        self.reference = TableReference(path, self.tasks.append)
        self.reference.install(self.service)
        self.service.start()
        RUNNING.append(self.service)

    def _tracker(self, service: Service, command: Press) -> Update | None:
        self.presses.append(command.button)
        return service.notify("camera", "the tracker had it")

    def run(self, scanner: Scanner) -> None:
        while self.tasks:
            self.tasks.pop(0)(scanner, FRAME)

    def notices(self) -> list[str]:
        """The step's notices so far (those the camera's work queued included)."""
        self.service.call(Notice("barrier", ""))  # the queue is in order: all before it ran
        return [u.message for u in self.service.history() if u.kind == CALIBRATE]


def test_before_the_first_game_the_bare_table_is_asked_for_and_taken_on_next(
        tmp_path: Path) -> None:
    step, scanner = Step(tmp_path / "table.png"), Scanner()
    step.reference.ask(step.service)
    step.service.call(Press("next"))
    step.run(scanner)
    assert len(scanner.learnt) == 1 and (tmp_path / "table.png").exists()
    assert step.notices()[0] == ASK and "is learnt" in step.notices()[-1]
    assert step.presses == []  # NEXT meant the picture, nothing else


def test_a_kept_picture_is_given_to_the_scanner_at_the_next_start(tmp_path: Path) -> None:
    first = Step(tmp_path / "table.png")
    first.service.call(Press("next"))
    first.run(Scanner())
    again, scanner = Step(tmp_path / "table.png"), Scanner()
    again.reference.ask(again.service)
    again.run(scanner)
    assert len(scanner.learnt) == 1 and np.array_equal(scanner.learnt[0], FRAME)
    assert again.notices() == []  # nothing to ask


def test_a_frame_the_scanner_refuses_is_not_kept_and_the_step_asks_again(
        tmp_path: Path) -> None:
    step = Step(tmp_path / "table.png")
    step.service.call(Press("next"))
    step.run(Scanner(refuse="a card lies in the play area"))
    assert not (tmp_path / "table.png").exists()
    assert "a card lies in the play area" in step.notices()[-1] and ASK in step.notices()[-1]


def test_something_left_in_the_play_area_is_named_and_the_step_asks_again(
        tmp_path: Path) -> None:
    step = Step(tmp_path / "table.png")
    step.service.call(Press("next"))
    step.run(Scanner(cluttered=("mars",)))
    assert not (tmp_path / "table.png").exists()
    assert step.notices()[-1] == f"Something still lies on Mars. {ASK}"


def test_in_a_game_next_keeps_its_meaning(tmp_path: Path) -> None:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, [["lorn"], ["eo"], ["aja"], ["trigg"]], first=0))
    step = Step(tmp_path / "table.png", game)
    step.reference.ask(step.service)
    step.service.call(Press("next"))
    assert step.presses == ["next"] and step.tasks == [] and step.notices() == []


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    return load(system=None, user=None)


def test_doctor_needs_no_bare_table_with_the_segmenter(config: Any) -> None:
    assert not can_learn_table()  # the committed segmenter model is in models/
    check = check_table(config)
    assert check.status == OK and "segmenter" in check.detail


def test_doctor_says_whether_the_bare_table_is_kept(config: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from device import doctor
    from device.config import journal_path

    monkeypatch.setattr(doctor, "can_learn_table", lambda: True)  # the colour-model fallback

    missing = check_table(config)
    assert missing.status == WARN and "press NEXT" in missing.fix
    path = reference_path(journal_path(config))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"png")
    kept = check_table(config)
    assert kept.status == OK and str(path) in kept.detail
