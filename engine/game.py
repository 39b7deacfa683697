"""A game as an event log: play, undo, replay.

:class:`Game` is the convenient, mutable front of the pure engine, as ``chess.Board``
is for python-chess: it keeps the log and one frozen state per event, so undo is a
pop and replay is a fold. Chance decisions (die rolls, random cards) are answered
from the injected ``random.Random`` and logged like any other event.

>>> import random
>>> from engine.setup import new_game
>>> game = Game(new_game(["Ann", "Bo"], random.Random(3)), rng=random.Random(3))
>>> before = game.state
>>> _ = game.play(game.legal_actions()[0])
>>> _ = game.undo()
>>> game.state == before
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.decisions import Decision
from engine.errors import IllegalActionError
from engine.events import Event
from engine.rules import apply
from engine.state import GameState, Phase


class Game:
    """An event log with its states; chance is answered from ``rng`` when one is given."""

    def __init__(self, setup: Event | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng
        self.log: list[Event] = []
        self.states: list[GameState] = [GameState()]
        if setup is not None:
            self.play(setup)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def pending(self) -> Decision | None:
        return self.state.pending

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.OVER

    def legal_actions(self) -> tuple[Event, ...]:
        """The options of the pending decision (empty when nothing is asked)."""
        pending = self.state.pending
        return pending.options if pending is not None else ()

    def push(self, event: Event) -> GameState:
        """Apply one event and log it (validated; no chance resolution).

        :raises IllegalActionError: if the event breaks a rule; nothing changes.
        """
        state = apply(self.states[-1], event)  # not self.state: this runs once per event
        self.log.append(event)
        self.states.append(state)
        return state

    def play(self, event: Event) -> GameState:
        """Apply ``event``, then answer any chance decisions that follow from ``rng``."""
        pending = self.push(event).pending
        if pending is not None and pending.player is None:  # (most events ask a player)
            self.resolve_chance()
        return self.states[-1]

    def resolve_chance(self) -> None:
        """Answer pending chance decisions (die rolls, random picks) from ``rng``."""
        if self.rng is None:
            return
        pending = self.states[-1].pending
        while pending is not None and pending.player is None:  # a chance node
            pending = self.push(self.rng.choice(pending.options)).pending

    def undo(self) -> Event:
        """Take back the last event; returns it.

        :raises IllegalActionError: when there is nothing to undo.
        """
        if not self.log:
            raise IllegalActionError("nothing to undo", rule="undo")
        self.states.pop()
        return self.log.pop()

    @classmethod
    def replay(cls, events: Iterable[Event], *, rng: random.Random | None = None) -> Game:
        """Rebuild a game from its log (chance outcomes are in the log already)."""
        game = cls(rng=rng)
        for event in events:
            game.push(event)
        return game
