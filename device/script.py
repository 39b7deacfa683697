"""Scripted games: bots play a real game (the truth) the way a table would, and the
script records what the companion perceives, step by step.

A :class:`Script` holds the truth's event log and a list of :class:`Moment` s: the
table's layout after every physical change (what a camera sees), the buttons pressed
(DIE when a player takes the deck; NEXT once a scouted card is placed; AUTOMA when Au Toma's turn
starts) and the locations hands were over while it happened. The companion's own
randomness (the Rising die, Au Toma's virtual deck) comes from one seeded
``random.Random`` that the tracked game uses too, so both roll the same faces; the
table's own chance (a random card from a hand) comes from another.

:class:`Oracle` plays the people at the table during a replay: it answers the
decisions the camera cannot see (a block, a colour, an end-of-game ability) and the
tracker's questions, truthfully, from the truth's log and layouts.

Used by the whole-game tests, ``benchmarks/tracking.py``, ``companion replay``'s
synthetic game directories and the demo.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from device.tracker import Button, Question, Seen, View
from engine import finale
from engine.automa import (
    STEP_BY_STEP,
    AutomaBanish,
    AutomaGain,
    automa_setup,
    new_solo_game,
    tracked_solo_game,
)
from engine.board import LOCATIONS, Location
from engine.bots import BOTS, Bot
from engine.decisions import Decision, Kind
from engine.events import (
    Decline,
    DrawFromDeck,
    Event,
    Place,
    Resolve,
    RevealHand,
    SeatSpec,
    Setup,
)
from engine.game import Game
from engine.rules import apply
from engine.setup import new_game, tracked_game
from engine.state import GameState, Phase

Layout = tuple[tuple[tuple[str | None, bool], ...], ...]  # per location: (card, face down)
MAX_EVENTS = 20_000


@dataclass(frozen=True)
class Moment:
    """One thing the companion perceives: a new layout, or a button press."""

    truth_len: int  # the truth's log length once this has happened
    layout: Layout | None = None
    button: Button | None = None
    hands_over: tuple[Location, ...] = ()  # where hands were while the table changed


@dataclass(frozen=True)
class Script:
    """A whole game as the table played it and as the companion perceives it."""

    truth_setup: Setup
    tracked_setup: Setup
    seed: int  # the companion's random source (die, Au Toma's deck)
    truth: tuple[Event, ...]
    moments: tuple[Moment, ...]
    solo: bool

    def companion_rng(self) -> random.Random:
        """The companion's random source, positioned as the tracked game starts."""
        rng = random.Random(self.seed)
        if self.solo:
            assert self.truth_setup.automa is not None
            automa_setup(rng, level=self.truth_setup.automa.level)  # what setup consumed
        return rng

    def truth_states(self) -> list[GameState]:
        """The truth's state after each of its events."""
        return Game.replay((self.truth_setup, *self.truth[1:])).states


def layout_of(state: GameState) -> Layout:
    return tuple(
        tuple((slot.card, slot.face_down) for slot in state.stack_at(loc)) for loc in LOCATIONS
    )


def view_of_layout(layout: Layout) -> View:
    """What a perfect camera sees: each stack's depth and its face-up top card."""
    seen = []
    for stack in layout:
        top = stack[-1] if stack else None
        seen.append(Seen(len(stack), top[0] if top and not top[1] else None,
                         bool(top and top[1])))
    return (seen[0], seen[1], seen[2], seen[3])


# --- writing a script ---------------------------------------------------------------


def write_script(
    players: int = 3, *, seed: int = 0, bot: str = "random", automa_level: int | None = None
) -> Script:
    """Play a whole game with bots and record it as the companion would perceive it.

    ``automa_level`` makes it a solo game: one bot against Au Toma.
    """
    companion = random.Random(seed)
    table = random.Random(seed + 1_000_003)
    truth_setup, tracked_setup = _setups(players, automa_level, companion, table)
    truth = Game(truth_setup)
    moments: list[Moment] = []
    bots: list[Bot] = [BOTS[bot]() for _ in truth_setup.seats]
    while truth.state.phase is Phase.PLAYING:
        if len(truth.log) > MAX_EVENTS:
            raise RuntimeError(f"the scripted game stalled: {truth.state.fen()}")
        _advance(truth, bots, companion, table, moments)
    _finish(truth, bots, table)
    return Script(truth_setup, tracked_setup, seed, tuple(truth.log), tuple(moments),
                  automa_level is not None)


def _setups(players: int, level: int | None, companion: random.Random,
            table: random.Random) -> tuple[Setup, Setup]:
    if level is None:
        truth = new_game([f"P{i + 1}" for i in range(players)], table)
        seats = list(truth.seats)
        return truth, tracked_game(seats, _stacks(truth), first=truth.first_player)
    her = automa_setup(companion, level=level)
    # Her steps one at a time, as the table performs them (the camera sees each).
    truth = replace(new_solo_game("You", table, level=level), automa=her,
                    variants=(STEP_BY_STEP,))
    tracked = tracked_solo_game("You", truth.seats[0].house, _stacks(truth),
                                first=truth.first_player, automa=her)
    return truth, tracked


def _stacks(setup: Setup) -> list[list[str | None]]:
    return [list(stack) for stack in setup.locations]


def _advance(truth: Game, bots: Sequence[Bot], companion: random.Random,
             table: random.Random, moments: list[Moment]) -> None:
    """One truth event, and what the companion perceives of it."""
    state = truth.state
    decision = state.pending
    assert decision is not None
    before = layout_of(state)
    if decision.is_chance:
        rng = companion if _companion_owned(decision) else table
        event = rng.choice(decision.options)
    else:
        seat = decision.player if decision.player is not None else state.current
        event = bots[seat].choose(state, decision, table)
    truth.push(event)
    after = truth.state
    if isinstance(event, DrawFromDeck):
        moments.append(Moment(len(truth.log), button=Button.DIE))
    if layout_of(after) != before:
        moments.append(Moment(len(truth.log), layout=layout_of(after),
                              hands_over=_changed(before, layout_of(after))))
    if _automa_starts(state, after):
        moments.append(Moment(len(truth.log), button=Button.AUTOMA))
    if decision.then.name == "scout-place":
        # Players press NEXT once a scouted card lies on its location: nothing tells a
        # camera a Scout from a Lead that has not gained yet.
        moments.append(Moment(len(truth.log), button=Button.NEXT))


def _companion_owned(decision: Decision) -> bool:
    """The die and Au Toma's virtual deck are the companion's; other chance the table's."""
    return decision.kind is Kind.ROLL or decision.then.name.startswith("automa")


def _automa_starts(before: GameState, after: GameState) -> bool:
    def hers(state: GameState) -> bool:
        return bool(state.turn and state.players[state.turn.player].automa)
    return hers(after) and not hers(before)


def _changed(before: Layout, after: Layout) -> tuple[Location, ...]:
    return tuple(loc for loc, a, b in zip(LOCATIONS, before, after, strict=True) if a != b)


def _finish(truth: Game, bots: Sequence[Bot], table: random.Random) -> None:
    """The end-of-game abilities: chosen by the bots, chance from the table."""
    while truth.state.phase is Phase.FINALE:
        decision = truth.state.pending
        assert decision is not None
        if decision.is_chance:
            truth.push(table.choice(decision.options))
        else:
            seat = decision.player if decision.player is not None else 0
            truth.push(bots[seat].choose(truth.state, decision, table))


# --- the people at the table during a replay ------------------------------------------


class Oracle:
    """Answers what only the table knows, truthfully, from the script's truth."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.states = script.truth_states()
        self.cursor = 1  # truth log position the replay has reached (at least)
        self.used: set[int] = set()  # truth answers already given

    def advance(self, truth_len: int) -> None:
        self.cursor = max(self.cursor, truth_len)

    def decide(self, game: Game) -> Event | None:
        """The table's answer to the tracked game's pending decision, if it is theirs."""
        decision = game.state.pending
        if decision is None or decision.is_chance:
            return None
        if decision.kind is Kind.CONFIRM:
            option = decision.options[0]
            if isinstance(option, RevealHand):
                return self._reveal(decision)
            if isinstance(option, Place | AutomaGain):
                return None  # the camera confirms what it can see
        if decision.kind in CAMERA_KINDS and game.state.phase is Phase.PLAYING:
            return self._unseen(game, decision)
        return self._from_truth(game, decision)

    def _reveal(self, decision: Decision) -> Event:
        """Lay the hand out: its cards as they were when play ended."""
        seat = decision.player
        assert seat is not None
        return RevealHand(seat, self.states[-1].players[seat].hand.known)

    def _unseen(self, game: Game, decision: Decision) -> Event | None:
        """A camera-answerable decision the camera did not settle: only blocks remain."""
        if decision.kind is Kind.BLOCK:
            return self._from_truth(game, decision) or Decline()
        return None

    def _from_truth(self, game: Game, decision: Decision) -> Event | None:
        """The truth's answer to the same question, near where the replay has reached."""
        truth = self.script.truth
        for i in range(self._window_start(), len(truth)):
            asked = self.states[i].pending
            if i in self.used or asked is None:
                continue
            if not _same_question(asked, decision):
                continue
            event = self._with_cards_seen(i, game)
            if decision.accepts(event):
                self.used.add(i)
                return event
        if decision.kind is Kind.BLOCK:
            return Decline()
        return None

    def _with_cards_seen(self, i: int, game: Game) -> Event:
        """The truth's answer, translated for the tracked game.

        An end-of-game option is found by what it does (the two games rank options
        from different knowledge of the deck), and names the deck cards it turned over.
        """
        event = self.script.truth[i]
        if isinstance(event, AutomaBanish) and event.card is None:
            return AutomaBanish(self.states[i + 1].banished[-1])  # the card she banished
        asked, mine = self.states[i].finale, game.state.finale
        if not isinstance(event, Resolve) or asked is None or mine is None:
            return event
        truth_options = finale.decision(asked)
        my_options = finale.decision(mine)
        if truth_options is None or my_options is None:
            return event
        chosen = truth_options.options[event.index]
        index = next((k for k, o in enumerate(my_options.options) if _same_effect(o, chosen)),
                     event.index)
        return replace(event, index=index, revealed=chosen.revealed or None)

    def _window_start(self) -> int:
        # The tracked game lags the camera by at most a turn or so.
        return max(1, self.cursor - 60)

    def answer(self, game: Game, question: Question, anchor: GameState,
               truth_len: int) -> int:
        """The reading that leads where the truth went (else "the camera is wrong")."""
        target = layout_of(self.states[min(truth_len, len(self.states) - 1)])
        fallback = None
        for index, reading in enumerate(question.readings):
            if not reading.from_anchor:
                fallback = fallback if fallback is not None else index
                continue
            state = anchor
            try:
                for event in reading.events:
                    state = apply(state, event)
            except ValueError:
                continue
            if _seen_in_truth(layout_of(state), target, self.states, truth_len):
                return index
        return fallback if fallback is not None else 0


def _same_question(truth: Decision, mine: Decision) -> bool:
    """The same rule asking (its continuation), though the wording and the options
    may differ: a simulated game knows cards a tracked one must ask about."""
    a, b = truth.then, mine.then
    return (a.name, a.player, a.card, a.location) == (b.name, b.player, b.card, b.location)


def _same_effect(mine: finale.Option, truth: finale.Option) -> bool:
    keys = ("ability", "label", "gain", "banish", "source", "bonus", "color", "helium",
            "random_pick")
    return all(getattr(mine, k) == getattr(truth, k) for k in keys)


# Decisions the tracker answers from what the camera sees (the oracle leaves them).
CAMERA_KINDS = frozenset({Kind.TURN, Kind.GAIN, Kind.PLACE, Kind.TARGET, Kind.BLOCK})


def _seen_in_truth(layout: Layout, target: Layout, states: Sequence[GameState],
                   truth_len: int) -> bool:
    """Does ``layout`` match the truth now, or at some recent point before it?"""
    if same_layout(layout, target):
        return True
    return any(same_layout(layout, layout_of(states[i]))
               for i in range(max(1, truth_len - 12), min(truth_len, len(states))))


def same_layout(tracked: Layout, truth: Layout) -> bool:
    """Equal stacks, where a card the tracked game has not identified matches any."""
    for mine, real in zip(tracked, truth, strict=True):
        if len(mine) != len(real):
            return False
        for (card, down), (real_card, real_down) in zip(mine, real, strict=True):
            if down != real_down or (card is not None and card != real_card):
                return False
    return True


def tracked_seats(script: Script) -> list[SeatSpec]:
    return list(script.tracked_setup.seats)
