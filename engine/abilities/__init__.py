"""Card abilities: each deploy ability is a short function registered by card id.

An ability function has the step signature ``fn(draft, step)``: ``step.player`` is
the deploying player, ``step.card`` the card and ``step.location`` where it was
deployed. It changes the game through :class:`engine.draft.Draft` primitives and asks
decisions with continuations registered via :func:`engine.steps.answer`.

>>> from engine.abilities import DEPLOY
>>> isinstance(DEPLOY, dict)
True
"""

from __future__ import annotations

from collections.abc import Callable

from engine.steps import StepFn

DEPLOY: dict[str, StepFn] = {}


def deploy(card: str) -> Callable[[StepFn], StepFn]:
    """Register ``fn`` as the deploy ability of ``card``."""

    def register(fn: StepFn) -> StepFn:
        if card in DEPLOY:
            raise ValueError(f"deploy ability of {card!r} registered twice")
        DEPLOY[card] = fn
        return fn

    return register
