"""What the four table buttons mean, in one table shared by GPIO, keyboard and page.

A press is resolved against the game as it stands on the engine thread, so a button
never acts on a stale picture of the game. It becomes the event to play, or
:data:`UNDO`; when the button means nothing at that moment it raises
:class:`ButtonError` with a sentence saying what the table is waiting for.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Decision, Kind
from engine.events import Decline, DrawFromDeck, Event
from engine.state import GameState
from web.service import BUTTONS as BUTTONS  # the buttons a Press may name


class ButtonError(ValueError):
    """A button pressed when it has no meaning; the game is unchanged."""


UNDO = None  # resolve() result: take back the last event

KEYS = {"d": "die", "a": "automa", "n": "next", "u": "undo"}
LABELS = {"die": "DIE", "automa": "AUTOMA", "next": "NEXT", "undo": "UNDO"}
DRAW = DrawFromDeck()


def resolve(button: str, state: GameState) -> Event | None:
    """The event ``button`` stands for in ``state``, or :data:`UNDO`.

    :raises ButtonError: for an unknown button or one with no meaning right now.
    """
    try:
        action = ACTIONS[button]
    except KeyError:
        raise ButtonError(f"unknown button {button!r} (buttons: {', '.join(BUTTONS)})") from None
    return action(state)


def _die(state: GameState) -> Event:
    """DIE: the gain step's "take the deck's top card and roll" (the engine rolls)."""
    pending = _pending(state, "DIE")
    if pending.kind is Kind.GAIN and DRAW in pending.options:
        return DRAW
    raise ButtonError(f"DIE: {_waiting_for(state, pending)}")


def _automa(state: GameState) -> Event:
    """AUTOMA: confirm Au Toma's current step, which also moves her turn on."""
    pending = _pending(state, "AUTOMA")
    if not _is_automa(state, pending):
        raise ButtonError(f"AUTOMA: not Au Toma's move; {_waiting_for(state, pending)}")
    if pending.kind is Kind.CONFIRM or len(pending.options) == 1:
        return pending.options[0]
    raise ButtonError(f"AUTOMA: answer on the page: {pending.prompt}")


def _next(state: GameState) -> Event:
    """NEXT: confirm a step, or pass a "may" (which ends the turn where that is left)."""
    pending = _pending(state, "NEXT")
    if pending.kind is Kind.CONFIRM or len(pending.options) == 1:
        return pending.options[0]
    if any(isinstance(option, Decline) for option in pending.options):
        return Decline()
    raise ButtonError(f"NEXT: choose on the page: {pending.prompt}")


def _undo(state: GameState) -> None:
    if not state.players:
        raise ButtonError("UNDO: no game to undo")
    return UNDO


def _pending(state: GameState, label: str) -> Decision:
    if state.pending is None or state.pending.is_chance:
        over = state.phase.value == "over"
        raise ButtonError(f"{label}: {'the game is over' if over else 'nothing is being asked'}")
    return state.pending


def _is_automa(state: GameState, pending: Decision) -> bool:
    return pending.player is not None and state.players[pending.player].automa


def _waiting_for(state: GameState, pending: Decision) -> str:
    if _is_automa(state, pending):
        return "Au Toma is playing; press AUTOMA"
    return f"waiting for {pending.prompt}"


ACTIONS: dict[str, Callable[[GameState], Event | None]] = {
    "die": _die,
    "automa": _automa,
    "next": _next,
    "undo": _undo,
}
