"""The registry of deploy abilities: card id -> step function.

Its own module so that the ability modules register into it without importing the
package that imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.handlers import StepFn

DEPLOY: dict[str, StepFn] = {}
LOAN_SHARK = "loan-shark"  # its borrower may not gain it (see engine.rules' gain step)


def deploy(card: str) -> Callable[[StepFn], StepFn]:
    """Register ``fn`` as the deploy ability of ``card``."""

    def register(fn: StepFn) -> StepFn:
        if card in DEPLOY:
            raise ValueError(f"deploy ability of {card!r} registered twice")
        DEPLOY[card] = fn
        return fn

    return register
