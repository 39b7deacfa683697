"""Simple players for simulated games: they answer whatever decision is pending.

* :class:`RandomBot` picks uniformly among the legal options.
* :class:`GreedyBot` picks the option that leaves it with the most points right now
  (tokens at their scoring value plus the core values of its hand), looking one event
  ahead with the real rules.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.cards import CARDS
from engine.decisions import Decision
from engine.errors import IllegalActionError
from engine.events import Event
from engine.rules import apply
from engine.scoring import FLEET_POINTS
from engine.state import GameState


class Bot(Protocol):
    """Anything that can answer a decision."""

    name: str

    def choose(self, state: GameState, decision: Decision, rng: random.Random) -> Event: ...


class RandomBot:
    """Uniformly random legal moves."""

    name = "random"

    def choose(self, state: GameState, decision: Decision, rng: random.Random) -> Event:
        return rng.choice(decision.options)


class GreedyBot:
    """The option with the best immediate points; ties broken at random."""

    name = "greedy"

    def choose(self, state: GameState, decision: Decision, rng: random.Random) -> Event:
        player = decision.player if decision.player is not None else state.current
        best: list[Event] = []
        best_value = float("-inf")
        for option in decision.options:
            value = self._value(state, option, player)
            if value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return rng.choice(best)

    @staticmethod
    def _value(state: GameState, option: Event, player: int) -> float:
        try:
            after = apply(state, option)
        except IllegalActionError:
            return float("-inf")
        return immediate_points(after, player)


def immediate_points(state: GameState, player: int) -> int:
    """A quick estimate of a player's score if the game ended now."""
    p = state.players[player]
    hand = sum(CARDS[c].core for c in p.hand.known)
    excess = max(0, p.hand.size - 7) * 10
    sovereign = 10 if state.sovereign == player else 0
    return FLEET_POINTS[p.fleet] + 3 * p.helium + 2 * p.influence + sovereign + hand - excess


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
