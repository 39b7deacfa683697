"""Buttons and the status LED through gpiozero's MockFactory (real gpiozero, mock pins)."""

from __future__ import annotations

import glob
import random
import threading
import warnings
from typing import Any

import pytest
from devkit import play_until, two_player_setup

from device.hardware.buttons import Buttons, GPIOError
from device.hardware.capture import GLARE_HIDES, STACK_PAST_VIEW
from device.hardware.led import ATTENTION, ERROR, READY, StatusLED, StatusLight, mode_for
from device.service import Press, Service, Update
from engine.decisions import Decision, Kind
from engine.events import Decline, DrawFromDeck
from engine.game import Game
from engine.state import evolve
from engine.steps import Step

PINS = {"die": 17, "automa": 27, "next": 22, "undo": 23}


class Clock:
    """A clock the test moves by hand (bounce windows without sleeping)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_buttons(factory: Any, presses: list[str], *, hold: float = 2.0,
                 clock: Clock | None = None) -> Buttons:
    return Buttons(PINS, presses.append, bounce_time=0.05, undo_hold=hold,
                   pin_factory=factory, clock=clock or Clock())


def test_a_press_reports_its_button(mock_factory: Any) -> None:
    presses: list[str] = []
    buttons = make_buttons(mock_factory, presses)
    for name in ("die", "automa", "next"):
        pin = mock_factory.pin(PINS[name])
        pin.drive_low()  # pressed: the button joins the pin to ground
        pin.drive_high()
    assert presses == ["die", "automa", "next"]
    buttons.close()


def test_contact_bounce_counts_once(mock_factory: Any) -> None:
    presses: list[str] = []
    clock = Clock()
    buttons = make_buttons(mock_factory, presses, clock=clock)
    pin = mock_factory.pin(PINS["die"])
    for _ in range(4):  # the contacts chatter within a few milliseconds
        pin.drive_low()
        pin.drive_high()
        clock.now += 0.004
    assert presses == ["die"]
    clock.now += 0.5  # a real second press
    pin.drive_low()
    pin.drive_high()
    assert presses == ["die", "die"]
    buttons.close()


def test_undo_needs_a_hold(mock_factory: Any) -> None:
    presses: list[str] = []
    buttons = make_buttons(mock_factory, presses, hold=30.0)
    pin = mock_factory.pin(PINS["undo"])
    pin.drive_low()
    pin.drive_high()  # a tap long before the hold time
    assert presses == []
    buttons.close()


def test_holding_undo_undoes(mock_factory: Any) -> None:
    held = threading.Event()
    presses: list[str] = []

    def on_press(name: str) -> None:
        presses.append(name)
        held.set()

    buttons = Buttons(PINS, on_press, undo_hold=0.01, pin_factory=mock_factory)
    pin = mock_factory.pin(PINS["undo"])
    pin.drive_low()
    assert held.wait(1)  # when_held fires on gpiozero's hold thread
    pin.drive_high()
    assert presses == ["undo"]
    buttons.close()


def test_buttons_drive_the_service(mock_factory: Any) -> None:
    game = Game(two_player_setup(), rng=random.Random(1))
    play_until(game, Kind.GAIN)
    service = Service(game, rng=random.Random(1))
    service.start()
    sub = service.subscribe()
    buttons = Buttons(PINS, lambda name: service.submit(Press(name)), undo_hold=0.01,
                      pin_factory=mock_factory)
    try:
        mock_factory.pin(PINS["die"]).drive_low()
        update = sub.get(timeout=2)
        assert update is not None and update.events[0] == DrawFromDeck()
        mock_factory.pin(PINS["undo"]).drive_low()  # held: undo
        update = sub.get(timeout=2)
        assert update is not None and update.kind == "undo"
    finally:
        buttons.close()
        service.stop()


def test_no_gpio_is_a_clear_error() -> None:
    if glob.glob("/dev/gpiochip*"):
        pytest.skip("this machine has GPIO")
    from gpiozero import Device

    saved = Device.pin_factory
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns as it tries each driver
            with pytest.raises(GPIOError, match="cannot use GPIO for the buttons"):
                Buttons(PINS, lambda name: None)
    finally:
        Device.pin_factory = saved


# --- the status LED ----------------------------------------------------------------------


def update_with(kind: str = "event", pending: Decision | None = None) -> Update:
    game = Game(two_player_setup(), rng=random.Random(1))
    state = game.state if pending is None else evolve(game.state, pending=pending)
    return Update(1, kind, state)


def test_led_modes_follow_the_game() -> None:
    assert mode_for(update_with()) == READY  # a turn: the table plays on
    choice = Decision(Kind.TARGET, 0, "banish which?", (Decline(),), Step("x", 0))
    assert mode_for(update_with(pending=choice)) == ATTENTION  # answer on the page
    assert mode_for(update_with("error")) == ERROR
    assert mode_for(update_with(STACK_PAST_VIEW)) == ATTENTION  # someone must tighten a stack
    assert mode_for(update_with(GLARE_HIDES)) == ATTENTION  # ... or move a lamp


def test_a_lost_camera_keeps_the_led_on_error_until_it_is_back() -> None:
    shown: list[str] = []
    light = StatusLight(shown.append)
    light(update_with())
    light(update_with("camera-lost"))
    light(update_with())  # game updates go on, the camera is still gone
    light(update_with("camera-back"))
    assert shown == [READY, ERROR, READY]


def test_the_led_pin_shows_each_mode(mock_factory: Any) -> None:
    from gpiozero.pins.mock import MockPin

    changed = threading.Event()

    class WatchedPin(MockPin):  # a mock pin that says when it changes (no polling)
        def _change_state(self, value: bool) -> bool:
            result = bool(super()._change_state(value))
            if len(self.states) >= 5:
                changed.set()
            return result

    pin = mock_factory.pin(24, pin_class=WatchedPin)
    led = StatusLED(24, pin_factory=mock_factory)
    led.show(READY)
    assert pin.state is True
    led.show("off")
    assert pin.state is False
    led.show(ERROR)  # fast blinking on gpiozero's thread
    assert changed.wait(2)
    pin.assert_states([False, True, False, True, False])
    led.close()
