"""The tracker inside the service: camera changes and buttons become journaled events."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from device.journal import Journal
from device.service import AnswerQuestion, CameraChanges, Play, Press, Service, Undo
from device.tracking import TableTracking
from engine.board import House, Location
from engine.events import DrawFromDeck, GainFrom, Lead, Place, Scout, SeatSpec
from engine.game import Game
from engine.setup import tracked_game

START = [["lorn", "sevro"], ["eo", "nero"], ["aja", "darrow"], ["trigg", "mustang"]]


@dataclass
class Stable:
    """What vision.stabilize reports for a location."""

    state: str
    top: str | None
    depth: int
    unread_for: float = 0.0


def reading(*stacks: list[str]) -> dict[str, Stable]:
    return {loc.value: Stable("card" if s else "empty", s[-1] if s else None, len(s))
            for loc, s in zip(Location, stacks, strict=True)}


@pytest.fixture
def service() -> Iterator[Service]:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, START, first=0), rng=random.Random(3))
    svc = Service(game, rng=game.rng)
    TableTracking().install(svc)
    svc.start()
    yield svc
    svc.stop()


def see(service: Service, *stacks: list[str]) -> None:
    service.call(CameraChanges(("change",), reading(*stacks)))


def test_camera_changes_become_lead_and_gain(service: Service) -> None:
    see(service, START[0], [*START[1], "morning-star"], START[2], START[3])
    assert service.game.log[-1] == Lead("morning-star", Location.MARS)
    see(service, START[0][:1], [*START[1], "morning-star"], START[2], START[3])
    assert service.game.log[-1] == GainFrom(Location.JUPITER)
    assert service.snapshot().state.players[0].fleet == 1


def test_undo_of_a_camera_reading_explains_the_table_again_without_it(service: Service) -> None:
    # Ann put Morning Star on Mars; the companion read a deploy and the table took it
    # back with UNDO on the page ("that is not what happened"). The same view must not
    # put it straight back: the next reading is played at once (a Scout that placed it).
    see(service, START[0], [*START[1], "morning-star"], START[2], START[3])
    before = len(service.game.log) - 1
    assert service.game.log[-1] == Lead("morning-star", Location.MARS)
    service.call(Undo())
    assert list(service.game.log[before:]) == [Scout(), Place(Location.MARS, "morning-star")]


def test_a_covered_location_changes_nothing(service: Service) -> None:
    before = len(service.game.log)
    covered = reading(*START)
    covered["mars"] = Stable("occluded", None, 0)
    update = service.call(CameraChanges(("occluded",), covered))
    assert len(service.game.log) == before and update.kind == "camera"


def test_die_button_is_evidence_of_the_deck_gain(service: Service) -> None:
    see(service, START[0], [*START[1], "morning-star"], START[2], START[3])
    service.call(Press("die"))
    assert DrawFromDeck() in service.game.log
    assert service.snapshot().state.last_roll is not None


def test_an_unexpected_change_is_a_question_and_its_answer_is_applied(service: Service) -> None:
    update = service.call(CameraChanges(("change",), reading(START[0], START[1][:1], START[2],
                                                            START[3])))
    assert update.kind == "question" and service.question is not None
    correct = next(i for i, t in enumerate(service.question.texts()) if "correct" in t)
    service.call(AnswerQuestion(correct))
    assert service.question is None
    assert [s.card for s in service.snapshot().state.stack_at(Location.MARS)] == ["eo"]


def test_answering_without_a_question_is_refused(service: Service) -> None:
    with pytest.raises(ValueError, match="no open question"):
        service.call(AnswerQuestion(0))


def test_a_revised_reading_is_one_journaled_update(tmp_path: Path) -> None:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, START, first=0), rng=random.Random(3))
    journal = Journal(tmp_path / "j.sqlite3")
    svc = Service(game, rng=game.rng, journal=journal)
    TableTracking().install(svc)
    see(svc, START[0], START[1], START[2], [*START[3], "quietus"])  # read as a Lead…
    assert svc.game.log[-1] == Lead("quietus", Location.INSTITUTE)
    svc.call(Press("next"))  # …NEXT says it was a Scout
    assert [type(e).__name__ for e in svc.game.log[-2:]] == ["Scout", "Place"]
    journal.close()
    assert Journal(tmp_path / "j.sqlite3").events() == svc.game.log


def test_a_phone_answer_lets_the_tracker_explain_the_view_it_was_waiting_on(
        service: Service) -> None:
    # Ann deploys Arlus: Bo shows a random card from his hand (only the phone can say
    # which). Meanwhile the camera sees Ann take Jupiter's top card.
    see(service, START[0], [*START[1], "arlus"], START[2], START[3])
    see(service, START[0][:1], [*START[1], "arlus"], START[2], START[3])
    pending = service.game.state.pending
    assert pending is not None and "Arlus" in pending.prompt  # the gain waits for this
    shown = next(o for o in pending.options if getattr(o, "value", None) == "judge")
    service.call(Play(shown))
    assert service.game.log[-1] == GainFrom(Location.JUPITER)


def test_a_question_asks_for_attention_on_the_led(service: Service) -> None:
    from device.hardware.led import ATTENTION, mode_for

    update = service.call(CameraChanges(("change",), reading(START[0], START[1][:1], START[2],
                                                            START[3])))
    assert mode_for(update) == ATTENTION


def test_the_vision_pipeline_hands_on_depth_changes_too() -> None:
    from device.hardware.capture import VisionPipeline

    class Scanner:
        def scan(self, frame: object) -> object:
            return frame

    class Stabilizer:
        def __init__(self) -> None:
            self.state = reading(*START)

        def update(self, reading_: object, t: float) -> list[object]:
            self.state = reading_  # type: ignore[assignment]
            return []  # a depth change alone is settled silently

    sent: list[object] = []
    pipeline = VisionPipeline(lambda: Scanner(), Stabilizer(), lambda c, r, s: sent.append(r))
    pipeline(reading(*START), 0.0)  # type: ignore[arg-type]
    pipeline(reading(*START), 0.1)  # type: ignore[arg-type]
    deeper = [*START[0][:1], "fitchner", START[0][1]]
    pipeline(reading(deeper, START[1], START[2], START[3]), 0.2)  # type: ignore[arg-type]
    assert len(sent) == 2 and sent[-1]["jupiter"].depth == 3  # type: ignore[index]


# --- a location the camera cannot read ------------------------------------------------------


def luna_unread(service: Service, seconds: float, *stacks: list[str]) -> None:
    """The camera reads ``stacks`` (START by default) but Luna, unread ``seconds``."""
    shown = reading(*(stacks or START))
    shown["luna"] = Stable("unknown", None, 0, seconds)
    service.call(CameraChanges(("change",), shown))


def test_an_overdue_location_is_one_spoken_question_with_the_led_blinking(
        service: Service) -> None:
    from device.hardware.led import ATTENTION, StatusLight
    from device.hardware.voice import sentences
    from device.tracking import LOCATION_QUESTION

    modes: list[str] = []
    light = StatusLight(modes.append, asking=lambda: service.question is not None)
    service.listeners.append(light)
    luna_unread(service, 3.0)
    assert service.question is None  # a few seconds yet
    luna_unread(service, 6.0)
    update = service.snapshot()
    assert update.kind == LOCATION_QUESTION and update.message == "What is on top of Luna?"
    assert sentences(update, None) == ["What is on top of Luna?"]
    assert modes[-1] == ATTENTION
    # The game goes on at the other three; the light keeps asking until it is answered.
    luna_unread(service, 7.0, START[0], [*START[1], "morning-star"], START[2], START[3])
    assert service.game.log[-1] == Lead("morning-star", Location.MARS)
    assert modes[-1] == ATTENTION and service.question is not None
    see(service, START[0], [*START[1], "morning-star"], START[2], START[3])  # Luna read again
    assert service.question is None and modes[-1] != ATTENTION


def test_the_tables_answer_is_played_and_the_question_closes(service: Service) -> None:
    from engine.tracking import Seen

    luna_unread(service, 6.0, START[0][:1], START[1], START[2], START[3])  # Jupiter gained
    service.call(AnswerQuestion(0, told=Seen(3, "quietus")))
    assert service.question is None
    assert service.game.log[-2:] == [Lead("quietus", Location.LUNA), GainFrom(Location.JUPITER)]


def test_a_face_down_answer_teaches_the_card_back_there() -> None:
    from engine.tracking import Seen

    learnt: list[Location] = []
    svc = _service(TableTracking(learn_back=learnt.append))
    luna_unread(svc, 6.0)
    svc.call(AnswerQuestion(0, told=Seen(3, None, True)))
    assert learnt == [Location.LUNA]


def test_a_face_down_card_the_game_knows_of_and_the_camera_cannot_read_teaches_the_back(
        ) -> None:
    from engine.events import SetLocation

    learnt: list[Location] = []
    svc = _service(TableTracking(learn_back=learnt.append))
    svc.call(Play(SetLocation(Location.LUNA, ("aja", "darrow"), (False, True))))
    luna_unread(svc, 3.0)
    luna_unread(svc, 4.0)
    assert learnt == [Location.LUNA]  # once, not at every view


def test_a_told_answer_without_a_location_question_is_refused(service: Service) -> None:
    from engine.tracking import Seen

    see(service, START[0], START[1][:1], START[2], START[3])  # an unexpected change
    with pytest.raises(ValueError, match="not about a location"):
        service.call(AnswerQuestion(0, told=Seen(1, "eo")))


def _service(tracking: TableTracking) -> Service:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    game = Game(tracked_game(seats, START, first=0), rng=random.Random(3))
    svc = Service(game, rng=game.rng)
    tracking.install(svc)
    return svc


def test_the_vision_pipeline_runs_queued_work_between_two_scans() -> None:
    from device.hardware.capture import VisionPipeline

    seen_by_task: list[tuple[object, object]] = []

    class Scanner:
        def scan(self, frame: object) -> object:
            return frame

    class Stabilizer:
        state = reading(*START)

        def update(self, reading_: object, t: float) -> list[object]:
            return []

    scanner = Scanner()
    pipeline = VisionPipeline(lambda: scanner, Stabilizer(), lambda c, r, s: None)
    pipeline.later(lambda s, frame: seen_by_task.append((s, frame)))
    pipeline("frame-1", 0.0)  # type: ignore[arg-type]
    pipeline("frame-2", 0.1)  # type: ignore[arg-type]
    assert seen_by_task == [(scanner, "frame-1")]  # once, with the frame at hand


def test_the_strips_the_camera_read_settle_which_covered_card_was_taken(
        service: Service) -> None:
    # Stained banishes a card from under it at Mars: Eo or Nero. The camera's strips of
    # Mars show Nero under Stained, so Eo is gone and nobody is asked.
    see(service, START[0], [*START[1], "stained"], START[2], START[3])
    left = reading(START[0], ["nero", "stained"], START[2], START[3])
    update = service.call(CameraChanges(("change",), left, {"mars": ("nero",)}))
    assert service.question is None and update.kind != "question"
    assert service.snapshot().state.banished == ("eo",)


def test_strips_that_do_not_fit_the_count_are_not_used(service: Service) -> None:
    see(service, START[0], [*START[1], "stained"], START[2], START[3])
    left = reading(START[0], ["nero", "stained"], START[2], START[3])
    service.call(CameraChanges(("change",), left, {"mars": ("eo", "nero")}))  # 3 cards' strips
    assert service.question is not None


def test_die_pressed_while_the_move_it_follows_waits_unread_is_kept_not_played(
        service: Service) -> None:
    """Ann deploys and gains at Luna, which the camera cannot read; Bo deploys to Mars and
    presses DIE. The tracker waits to see Luna: played by its plain meaning, DIE would
    draw the deck for Ann, whose gain step the game still stands at."""
    see(service, START[0], START[1], [*START[2], "morning-star"], START[3])
    assert service.game.log[-1] == Lead("morning-star", Location.LUNA)
    luna_unread(service, 3.0, START[0], [*START[1], "holiday"], START[2], START[3])
    before = len(service.game.log)
    update = service.call(Press("die"))
    assert len(service.game.log) == before and DrawFromDeck() not in service.game.log[-3:]
    assert "waiting to see Luna" in update.message


def test_a_gap_in_the_frames_is_handed_on_as_a_view_with_nothing_read() -> None:
    from device.hardware.capture import VisionPipeline
    from vision.scanner import LocationReading, Sight, TableReading
    from vision.stabilize import Stabilizer

    class Scanner:
        def scan(self, frame: object) -> TableReading:
            return TableReading({loc.value: LocationReading(Sight.CARD, "aja", 0.9, 1)
                                 for loc in Location})

    sent: list[float] = []
    pipeline = VisionPipeline(lambda: Scanner(), Stabilizer(),
                              lambda c, r, s, blind=0.0: sent.append(blind))
    for k in range(10):
        pipeline(None, k / 10)  # type: ignore[arg-type]
    pipeline(None, 2.5)  # type: ignore[arg-type]  # 1.6 s without a frame
    assert sent[-2] == pytest.approx(1.6) and sent[-1] == 0.0  # then the table as it is
