"""Card abilities: each deploy ability is a short function registered by card id.

An ability function has the step signature ``fn(draft, step)``: ``step.player`` is
the deploying player, ``step.card`` the card and ``step.location`` where it was
deployed ("this location"). It changes the game through :class:`engine.draft.Draft`
primitives and the shared helpers of :mod:`engine.abilities.primitives`, and asks
decisions with continuations registered via :func:`engine.handlers.answer` (named after
the card, so names never clash). An ability that cannot be resolved does nothing;
the card stays deployed.

The modules group the abilities by what they do: ``tokens`` (Helium, Influence, Fleet,
the Sovereign), ``trades`` (once-per-turn exchanges, Loan Shark's borrowed turn),
``gains`` (cards taken into hand), ``moves`` (cards moved between stacks),
``banishes``, ``deck`` (cards turned over, placed or put back), ``hands`` (opponents'
hands: steals, forced banishes, reveals), ``deploys`` (abilities that deploy a second
card) and ``blocks`` (the five block cards and the block window).

>>> from engine.abilities import DEPLOY
>>> len(DEPLOY)
107
"""

from __future__ import annotations

# Registration happens on import: each module registers its abilities in the registry.
from engine.abilities import (
    banishes,
    blocks,
    deck,
    deploys,
    gains,
    hands,
    moves,
    tokens,
    trades,
)
from engine.abilities.registry import DEPLOY, LOAN_SHARK, deploy

__all__ = [
    "DEPLOY",
    "LOAN_SHARK",
    "banishes",
    "blocks",
    "deck",
    "deploy",
    "deploys",
    "gains",
    "hands",
    "moves",
    "tokens",
    "trades",
]
