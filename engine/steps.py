"""Steps: the engine's agenda of work still to do, as plain data.

The rules are written as small step functions. A step either changes the draft,
pushes further steps, or asks a decision whose answer is handed to a named
continuation. Because steps are frozen data (a name plus arguments), the whole
agenda is part of the frozen state: undo, replay and crash recovery need nothing else.

Rule modules register their functions here by name:

>>> @step("example-noop")
... def _noop(draft, s):
...     pass
>>> "example-noop" in STEPS
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from engine.board import Location

if TYPE_CHECKING:
    from engine.draft import Draft
    from engine.events import Event


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

StepFn = Callable[["Draft", Step], None]
AnswerFn = Callable[["Draft", Step, "Event"], None]
F = TypeVar("F", bound=Callable[..., None])

STEPS: dict[str, StepFn] = {}
ANSWERS: dict[str, AnswerFn] = {}


def step(name: str) -> Callable[[F], F]:
    """Register a step function ``fn(draft, step)`` under ``name``."""

    def register(fn: F) -> F:
        if name in STEPS:
            raise ValueError(f"step {name!r} registered twice")
        STEPS[name] = fn
        return fn

    return register


def answer(name: str) -> Callable[[F], F]:
    """Register a continuation ``fn(draft, step, answer)`` for a decision's answer."""

    def register(fn: F) -> F:
        if name in ANSWERS:
            raise ValueError(f"answer {name!r} registered twice")
        ANSWERS[name] = fn
        return fn

    return register
