"""The demo's scripted game: a seeded bot plays your seat against Au Toma, slowly.

Every ``interval`` seconds the :class:`DemoPlayer` looks at the game and does what a
person at the table would: presses AUTOMA for Au Toma's steps, DIE when it takes the
deck's top card, NEXT to confirm, and otherwise answers the pending decision as a
bot would on the page. It goes through the same service commands as the real buttons,
so the keyboard and the page can join in at any time. When the game ends it waits a
little and deals a new one. :func:`layout_of` gives the synthetic camera its table.
"""

from __future__ import annotations

import logging
import os
import random
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from device.controls import DRAW
from device.service import Command, NewGame, Play, Press, Service
from engine.automa import DECK_ENV, new_solo_game
from engine.automa import STEP_BY_STEP as AUTOMA_STEP_BY_STEP
from engine.automa_state import parse_deck
from engine.board import LOCATIONS
from engine.bots import GreedyBot
from engine.decisions import Decision, Kind
from engine.events import Lead, Setup
from engine.state import GameState, Phase

log = logging.getLogger("companion.demo")

def demo_setup(player: str, rng: random.Random, level: int = 2) -> Setup:
    """A solo game against Au Toma at ``level``, dealt from ``rng``.

    Her steps wait to be confirmed one at a time (the script presses AUTOMA), as they
    do at a real table: the page and the voice show her turn step by step.
    """
    setup: Setup = new_solo_game(player, rng, level=level, deck=automa_deck())
    return replace(setup, variants=(*setup.variants, AUTOMA_STEP_BY_STEP))


def automa_deck() -> Any:
    """Au Toma's corrected deck from ``$COMPANION_AUTOMA_DECK``, or None for the default."""
    path = os.environ.get(DECK_ENV)
    if not path:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{DECK_ENV}={path}: cannot read: {exc.strerror}") from exc
    return parse_deck(text, path)


def layout_of(state: GameState) -> dict[str, list[str | None]]:
    """The four stacks as the camera sees them (None: face down or unidentified)."""
    return {
        loc.value: [None if slot.face_down else slot.card for slot in state.stack_at(loc)]
        for loc in LOCATIONS
    }


class DemoPlayer:
    """Plays every non-Au Toma seat of the service's game at a readable pace."""

    def __init__(self, service: Service, *, seed: int = 1, interval: float = 1.5,
                 pause_after_game: float = 12.0, player: str = "You", level: int = 2) -> None:
        self.service = service
        self.rng = random.Random(seed)
        self.bot = GreedyBot()
        self.interval = interval
        self.pause_after_game = pause_after_game
        self.player, self.level = player, level
        self.moves = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def new_game(self) -> NewGame:
        """A fresh deal, from the player's seeded generator (same seed, same demo)."""
        return NewGame(demo_setup(self.player, self.rng, self.level), source="demo")

    def next_command(self, state: GameState) -> Command | None:
        """What a person would do now; None while nothing is asked of the table."""
        if state.phase is Phase.OVER or not state.players:
            return self.new_game()
        pending = state.pending
        if pending is None or pending.player is None:
            return None
        if state.players[pending.player].automa:
            return Press("automa", source="demo")
        if pending.kind is Kind.CONFIRM:
            return Press("next", source="demo")
        if pending.kind is Kind.GAIN and DRAW in pending.options and self.rng.random() < 0.5:
            return Press("die", source="demo")  # show the die more often than a bot would
        return Play(self.bot.choose(state, self._showy(pending), self.rng), source="demo")

    def _showy(self, pending: Decision) -> Decision:
        """Mostly Lead rather than Scout: a Lead shows a deploy, a gain and often the die."""
        leads = tuple(o for o in pending.options if isinstance(o, Lead) and o.location)
        if pending.kind is Kind.TURN and leads and self.rng.random() < 0.75:
            return pending._replace(options=leads)
        return pending

    # --- the thread -----------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self._pause()):
            try:
                self.step()
            except Exception:  # the show goes on; keys and the page still work
                log.exception("demo move failed")

    def _pause(self) -> float:
        over = self.service.snapshot().state.phase is Phase.OVER
        return self.pause_after_game if over else self.interval

    def step(self) -> Any:
        """Take one turn of the script; a move overtaken by a keypress is simply dropped."""
        command = self.next_command(self.service.snapshot().state)
        if command is None:
            return None
        try:
            update = self.service.submit(command).result(10)
        except ValueError as exc:
            log.debug("demo move skipped: %s", exc)
            return None
        self.moves += 1
        return update
