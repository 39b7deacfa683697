"""The step functions and answer continuations, registered by name.

A :class:`~engine.steps.Step` names the function that carries it out; rule modules
register those functions here, and :mod:`engine.rules` runs them on a
:class:`~engine.draft.Draft`. This sits above the draft it changes, so the data below
(steps, decisions, state, draft) never imports it:

>>> @step("example-noop")
... def _noop(draft, s):
...     pass
>>> "example-noop" in STEPS
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine.draft import Draft
from engine.events import Event
from engine.steps import Step

StepFn = Callable[[Draft, Step], None]
AnswerFn = Callable[[Draft, Step, Event], None]
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
