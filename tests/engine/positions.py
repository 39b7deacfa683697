"""Helpers for engine tests: build exact positions and drive them."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.board import House, Location
from engine.events import Event, SetTokens
from engine.game import Game
from engine.setup import arranged

# The board initials, left to right, keep position literals short.
J, M, L, I = Location.JUPITER, Location.MARS, Location.LUNA, Location.INSTITUTE  # noqa: E741


class FixedDie(random.Random):
    """A Random whose ``choice`` returns the option named next (for die rolls etc.)."""

    def __init__(self, *answers: str) -> None:
        super().__init__(0)
        self.answers = list(answers)

    def choice(self, seq: Sequence[object]) -> object:  # type: ignore[override]
        wanted = self.answers.pop(0)
        for option in seq:
            if wanted in (getattr(option, "face", None), getattr(option, "value", None)):
                return option
        raise AssertionError(f"{wanted!r} not among {seq!r}")


def position(
    hands: Sequence[Sequence[str]],
    locations: Sequence[Sequence[str]] = ((), (), (), ()),
    *,
    deck: Sequence[str] = (),
    houses: Sequence[House | None] | None = None,
    tokens: dict[int, tuple[int, int, int]] | None = None,
    first: int = 0,
    rng: random.Random | None = None,
) -> Game:
    """A game set up exactly as given; ``tokens`` maps seat → (helium, influence, fleet)."""
    game = Game(arranged(hands, locations, deck=deck, houses=houses, first=first), rng=rng)
    for seat, (helium, influence, fleet) in (tokens or {}).items():
        game.push(SetTokens(seat, helium, influence, fleet))
    return game


def play_all(game: Game, *events: Event) -> Game:
    for event in events:
        game.play(event)
    return game


