"""The service's device commands: buttons, camera changes, notices, hooks."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest
from devkit import play_until, policy, two_player_setup

from device.controls import ButtonError
from device.service import (
    AnswerQuestion,
    CameraChanges,
    NewGame,
    Notice,
    Play,
    Press,
    Service,
    Update,
)
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import DrawFromDeck, Face, Roll
from engine.game import Game


def at_gain(seed: int = 1) -> Service:
    game = Game(two_player_setup(), rng=random.Random(seed))
    play_until(game, Kind.GAIN)
    service = Service(game, rng=random.Random(seed))
    service.start()
    return service


def test_die_press_draws_and_rolls_in_one_update() -> None:
    service = at_gain()
    try:
        update = service.call(Press("die"))
        assert update.kind == "event" and update.source == "button"
        assert isinstance(update.events[0], DrawFromDeck)
        assert isinstance(update.events[1], Roll)
        # UNDO takes the roll back together with the draw that caused it
        undo = service.call(Press("undo"))
        assert undo.kind == "undo" and undo.events == (DrawFromDeck(),)
        assert service.game.pending is not None and service.game.pending.kind is Kind.GAIN
    finally:
        service.stop()


def test_a_useless_press_publishes_why_and_changes_nothing(service: Service) -> None:
    before = service.game.state
    sub = service.subscribe()
    with pytest.raises(ButtonError, match="DIE"):
        service.call(Press("die", source="keyboard"))
    update = sub.get(timeout=1)
    assert update is not None and update.kind == "error" and update.source == "keyboard"
    assert "Lead or Scout" in update.message
    assert service.game.state is before


def test_camera_changes_become_a_notice_until_a_tracker_is_plugged_in(
        service: Service) -> None:
    class Change:
        def describe(self) -> str:
            return "mars: darrow added"

    update = service.call(CameraChanges((Change(),), reading={"mars": "darrow"}))
    assert (update.kind, update.message, update.source) == ("camera", "mars: darrow added",
                                                            "camera")
    assert service.camera_reading == {"mars": "darrow"}


class CameraOnly:
    """A follower of the table that handles camera changes only."""

    def __init__(self, on_camera: Callable[[Service, CameraChanges], Update | None]) -> None:
        self.on_camera = on_camera

    def on_press(self, service: Service, command: Press) -> Update | None:
        return None

    def on_question(self, service: Service, command: AnswerQuestion) -> Update:
        raise IllegalActionError("no questions here", rule="tracker")

    def on_played(self, service: Service, played: Update) -> Update | None:
        return None


def test_the_camera_hook_may_revise_and_play_through_apply(service: Service) -> None:
    played = [policy(service.game)]

    def tracker(svc: Service, command: CameraChanges) -> Update | None:
        if command.changes == ("first",):
            return svc.apply(played, source="camera")  # type: ignore[arg-type]
        return svc.apply([], undo=1, source="camera")  # the tracker changed its mind

    service.follower = CameraOnly(tracker)
    length = len(service.game.log)
    assert service.call(CameraChanges(("first",))).events == tuple(played)
    assert len(service.game.log) == length + 1
    service.call(CameraChanges(("second",)))
    assert len(service.game.log) == length


def test_an_illegal_batch_from_a_hook_changes_nothing(service: Service) -> None:
    before = list(service.game.log)
    good = policy(service.game)

    def tracker(svc: Service, command: CameraChanges) -> Update | None:
        return svc.apply([good, Roll(Face.HELIUM)])  # type: ignore[list-item]

    service.follower = CameraOnly(tracker)
    with pytest.raises(IllegalActionError):
        service.call(CameraChanges(()))
    assert service.game.log == before


def test_notices_from_other_threads_are_ordered_with_game_updates(service: Service) -> None:
    sub = service.subscribe()
    done = threading.Event()

    def other() -> None:
        service.notify("camera-lost", "camera lost: unplugged")
        done.set()

    threading.Thread(target=other).start()
    assert done.wait(2)
    service.call(Play(policy(service.game)))  # type: ignore[arg-type]
    kinds = [sub.get(timeout=1).kind for _ in range(2)]  # type: ignore[union-attr]
    assert kinds == ["camera-lost", "event"]
    assert [u.seq for u in service.history()] == sorted(u.seq for u in service.history())


def test_a_failing_listener_does_not_stop_the_game(service: Service) -> None:
    def broken(update: Update) -> None:
        raise OSError("speaker unplugged")

    service.listeners.append(broken)
    update = service.call(Notice("voice", "test"))
    assert update.kind == "voice" and service.is_alive
    assert service.snapshot() is update


def test_a_new_game_must_start_from_a_setup(service: Service) -> None:
    with pytest.raises(IllegalActionError, match="Setup"):
        service.call(NewGame(DrawFromDeck()))
