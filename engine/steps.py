"""Steps: the engine's agenda of work still to do, as plain data.

The rules are written as small step functions (:mod:`engine.handlers`). A step either
changes the draft, pushes further steps, or asks a decision whose answer is handed to a
named continuation. Because steps are frozen data (a name plus arguments), the whole
agenda is part of the frozen state: undo, replay and crash recovery need nothing else.
This module sits at the bottom of the engine: the decisions, the state and the draft
hold steps, and the functions that run them live above all three.

>>> Step("sovereign", 0).then("gain-sovereign")
Step(name='gain-sovereign', player=0, card=None, location=None, data=())
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.board import Location


class Step(NamedTuple):
    """One unit of pending work: the function's name, who it is for, and its arguments.

    A NamedTuple rather than a frozen dataclass: steps are created on every event and
    tuples are several times cheaper to build, while just as immutable.
    """

    name: str
    player: int
    card: str | None = None
    location: Location | None = None
    data: tuple[Any, ...] = ()

    def then(self, name: str, *data: Any) -> Step:
        """The same context continued by another function (extra data replaces data)."""
        # tuple.__new__ skips the NamedTuple's generated __new__ (a Python function):
        # steps are continued several times per event.
        return _new_tuple(Step, (name, self.player, self.card, self.location,
                                 data if data else self.data))


_new_tuple = tuple.__new__  # builds a NamedTuple from a tuple of all its fields
