"""Who sits at the table: seats with their houses, and who goes first.

Below both deals (:mod:`engine.setup` and Au Toma's solo deal in :mod:`engine.automa`),
so neither needs the other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.board import House
from engine.errors import IllegalActionError
from engine.events import SeatSpec


def seat_specs(
    names: Sequence[str], rng: random.Random, houses: Sequence[House | None] | None = None
) -> tuple[SeatSpec, ...]:
    """Seats with houses: the given ones, and random unused houses for the rest."""
    chosen = list(houses) if houses is not None else [None] * len(names)
    if len(chosen) != len(names):
        raise IllegalActionError("give one house (or None) per player", rule="setup")
    taken = {h for h in chosen if h is not None}
    if len(taken) != sum(h is not None for h in chosen):
        raise IllegalActionError("two players cannot share a house", rule="setup")
    free = [h for h in House if h not in taken]
    rng.shuffle(free)
    return tuple(SeatSpec(name, h if h is not None else free.pop()) for name, h in zip(
        names, chosen, strict=True))


def first_player(seats: Sequence[SeatSpec], rng: random.Random) -> int:
    """House Apollo goes first; otherwise a random player."""
    for i, seat in enumerate(seats):
        if seat.house is House.APOLLO:
            return i
    return rng.randrange(len(seats))
