"""Scripted games: bots play a real game (the truth) the way a table would, and the
script records what the companion perceives, step by step.

The truth is a simulated game played one card at a time: with the step-by-step variants
(:data:`engine.abilities.primitives.STEP_BY_STEP`, :data:`engine.automa.STEP_BY_STEP`)
it stops at every physical step an ability or Au Toma makes, as a tracked game does, and
asks the table's questions (a card turned over, Au Toma's bottom card) with their one
true answer, so the truth holds every answer a tracked replay will need.

A :class:`Script` holds the truth's event log and a list of :class:`Moment` s: the
table's layout after every physical change (what a camera sees), the buttons pressed and
the locations hands were over while it happened. Buttons: DIE when a player takes the
deck; AUTOMA when Au Toma's turn starts; NEXT right after a scouted card is placed, a
table habit the companion relies on (nothing else tells a Scout from a Lead whose gain
is still to come), pressed as part of the same action (the table answers nothing on
the phone in between). The companion's own randomness (the Rising die, Au Toma's
virtual deck) comes from one seeded ``random.Random`` that the tracked game uses too,
so both roll the same faces; the table's own chance (a random card from a hand) comes
from another.

:class:`Oracle` plays the people at the table during a replay: it answers what the
camera cannot see (blocks, choices with no card on the table, cards to name, a random
card shown from a hand, end-of-game abilities, laying out hands) and the tracker's
questions, truthfully, from the truth's log and layouts.

Used by the whole-game tests, ``benchmarks/tracking.py``, ``companion replay``'s
synthetic game directories and the demo.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import finale
from engine.abilities.primitives import STEP_BY_STEP as ONE_CARD_AT_A_TIME
from engine.automa import (
    STEP_BY_STEP,
    AutomaBanish,
    automa_setup,
    new_solo_game,
    tracked_solo_game,
)
from engine.board import LOCATIONS, Location
from engine.bots import BOTS, Bot
from engine.decisions import Decision, Kind
from engine.events import (
    Choose,
    Decline,
    DrawFromDeck,
    Event,
    Identify,
    Lead,
    Place,
    Resolve,
    RevealHand,
    SeatSpec,
    Setup,
    from_dict,
    to_dict,
)
from engine.game import Game
from engine.rules import apply
from engine.setup import new_game, tracked_game
from engine.state import GameState, Phase
from engine.steps import Step
from engine.tracking.options import camera_answers
from engine.tracking.question import Question
from engine.tracking.view import BACK, Button, Seen, TableView

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


def view_of_layout(layout: Layout, strips: bool = False) -> TableView:
    """What a perfect camera sees: each stack's depth and its face-up top card (and,
    with ``strips``, every face-up covered card named from its strip)."""
    seen = [seen_of_stack(stack, strips) for stack in layout]
    return (seen[0], seen[1], seen[2], seen[3])


def seen_of_stack(stack: tuple[tuple[str | None, bool], ...], strips: bool = False) -> Seen:
    top = stack[-1] if stack else None
    under = tuple(BACK if down else card for card, down in stack[:-1]) if strips else None
    return Seen(len(stack), top[0] if top and not top[1] else None, bool(top and top[1]),
                under=under)


# --- writing a script ---------------------------------------------------------------


def write_script(
    players: int = 3, *, seed: int = 0, bot: str = "random", automa_level: int | None = None,
    automa_variant: bool = False,
) -> Script:
    """Play a whole game with bots and record it as the companion would perceive it.

    ``automa_level`` makes it a solo game: one bot against Au Toma (``automa_variant``:
    with the rulebook's optional variant, which keeps four of the five cards a solo game
    leaves out).
    """
    companion = random.Random(seed)
    table = random.Random(seed + 1_000_003)
    truth_setup, tracked_setup = _setups(players, automa_level, automa_variant, companion,
                                         table)
    truth = Game(truth_setup)
    moments: list[Moment] = []
    if _automa_starts(GameState(), truth.state):  # she plays first
        moments.append(Moment(len(truth.log), button=Button.AUTOMA))
    bots: list[Bot] = [BOTS[bot]() for _ in truth_setup.seats]
    while truth.state.phase is Phase.PLAYING:
        if len(truth.log) > MAX_EVENTS:
            raise RuntimeError(f"the scripted game stalled: {truth.state.fen()}")
        _advance(truth, bots, companion, table, moments)
    _finish(truth, bots, table)
    return Script(truth_setup, tracked_setup, seed, tuple(truth.log), tuple(moments),
                  automa_level is not None)


def _setups(players: int, level: int | None, variant: bool, companion: random.Random,
            table: random.Random) -> tuple[Setup, Setup]:
    if level is None:
        truth = new_game([f"P{i + 1}" for i in range(players)], table,
                         variants=(ONE_CARD_AT_A_TIME,))
        seats = list(truth.seats)
        return truth, tracked_game(seats, _stacks(truth), first=truth.first_player)
    her = automa_setup(companion, level=level, variant=variant)
    # Her steps one at a time, as the table performs them (the camera sees each).
    truth = replace(new_solo_game("You", table, level=level, variant=variant), automa=her,
                    variants=(STEP_BY_STEP, ONE_CARD_AT_A_TIME))
    tracked = tracked_solo_game("You", truth.seats[0].house, _stacks(truth),
                                first=truth.first_player, automa=her)
    return truth, tracked


def _stacks(setup: Setup) -> list[list[str]]:
    """The setup's location cards (a simulation names them all)."""
    return [[card for card in stack if card is not None] for stack in setup.locations]


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


@dataclass(frozen=True)
class TakeBack:
    """The table's answer "that is not what happened": the tracked game has a player
    deploy a card they never put down this turn and waits on its ability (the camera
    cannot tell one card from another under a hand, or two turns from one across a gap
    in the frames). People press UNDO until the game holds ``length`` events again."""

    length: int


class Oracle:
    """Answers what only the table knows, truthfully, from the script's truth.

    Like honest people at the table, it answers on the phone only what the camera cannot
    see: blocks, choices with no card on the table, names of cards the camera cannot read
    (covered, face down, or gone into a hand or the banished pile), a random card shown
    from a hand, end-of-game abilities and laying out hands; and the tracker's questions,
    with the reading that leads where the truth went. Whatever the camera sees (a card
    put down, taken or moved) it leaves to the camera.
    """

    def __init__(self, script: Script) -> None:
        self.script = script
        self.states = script.truth_states()
        self.cursor = 1  # truth log position up to which the table has decided
        self.used: set[int] = set()  # truth answers already given
        self.turns_at = [_turns(state) for state in self.states]  # turns completed
        self.taken_back: set[tuple[int, Event]] = set()  # each wrong deploy refused once
        # (turns completed, card) of each deploy in a reading the table picked: theirs
        # now, never taken back (see _never_deployed).
        self.agreed: set[tuple[int, str]] = set()

    def advance(self, truth_len: int) -> None:
        self.cursor = max(self.cursor, truth_len)

    def decide(self, game: Game, *, asked: bool = False) -> Event | TakeBack | None:
        """The table's answer to the tracked game's pending decision, if it is theirs;
        :class:`TakeBack` when the decision belongs to a card the player never deployed.

        ``asked``: the companion put the decision to the table (its camera cannot
        settle it), so they answer it whatever it is.
        """
        decision = game.state.pending
        if decision is None or decision.is_chance:
            return None
        if game.state.phase is Phase.FINALE and game.state.finale is None:
            unnamed = self._turned_up(game.state)  # before scoring reads the table
            if unnamed is not None:
                return unnamed
        if isinstance(decision.options[0], RevealHand):
            return self._reveal(decision)
        if game.state.phase is not Phase.PLAYING:
            return self._from_truth(game, decision)
        if decision.then.name == "ability-name-slot":
            return self._name_slot(game, decision)
        found = self._truth_answer(game, decision)
        if found is None:
            # (A block is asked of the others, not of whoever deployed: never theirs.)
            wrong = None if decision.kind is Kind.BLOCK else self._never_deployed(game)
            if wrong is not None:
                return wrong
            # A question the truth never asked, because it knew the answer: the player
            # holds no such card (a block, The Howlers), so they decline.
            return Decline() if Decline() in decision.options else None
        index, event = found
        if camera_answers(event) and self._seen(index, event) and not asked:
            return None  # the camera will see it happen
        self.used.add(index)
        return event

    def _never_deployed(self, game: Game) -> TakeBack | None:
        """The tracked turn's latest deploy, if the truth's same turn never made it
        (once each: what the tracker reads next is its own)."""
        turns = _turns(game.state)
        first, last = (bisect_left(self.turns_at, n) for n in (turns, turns + 1))
        deployed = {e.card for e in self.script.truth[first:last] if isinstance(e, Lead)}
        for i in range(len(game.log) - 1, 0, -1):
            if _turns(game.states[i]) != turns:
                return None  # the turn deployed nothing yet
            event = game.log[i]
            if isinstance(event, Lead) and event.card is not None:
                if event.card in deployed or (i, event) in self.taken_back or (
                        (turns, event.card) in self.agreed):
                    return None
                self.taken_back.add((i, event))
                return TakeBack(i)
        return None

    def _seen(self, index: int, event: Event) -> bool:
        """Could a camera see the truth's answer happen? A card moved within its own
        stack (under the card just deployed, say) leaves the view as it was."""
        if not isinstance(event, Choose):
            return True
        before, after = (view_of_layout(layout_of(self.states[i])) for i in (index, index + 1))
        return before != after

    def _turned_up(self, state: GameState) -> Event | None:
        """For scoring, people turn up the face-down cards and name those nobody read."""
        real = layout_of(self.states[self.turns_at.index(self.turns_at[-1])])  # play's end
        for loc, stack in zip(LOCATIONS, state.locations, strict=True):
            for index, slot in enumerate(stack):
                if slot.card is None:
                    if index >= len(real[loc.pos]):
                        return None  # the tracked table went astray: the replay reports it
                    card = real[loc.pos][index][0]
                    return Identify(loc, index, card) if card is not None else None
        return None

    def _reveal(self, decision: Decision) -> Event:
        """Lay the hand out: its cards as they were when play ended."""
        seat = decision.player
        assert seat is not None
        return RevealHand(seat, self.states[-1].players[seat].hand.known)

    def _name_slot(self, game: Game, decision: Decision) -> Event | None:
        """Name a covered card: somebody lifts it and reads it out."""
        option = decision.options[0]
        assert isinstance(option, Choose) and option.location is not None
        assert option.index is not None
        mine = layout_of(game.state)
        for i in range(self.cursor, max(0, self.cursor - WINDOW), -1):
            real = layout_of(self.states[i])
            if same_layout(mine, real):
                card = real[option.location.pos][option.index][0]
                event = Choose(card, option.location, option.index)
                return event if decision.accepts(event) else None
        return None

    def _from_truth(self, game: Game, decision: Decision) -> Event | None:
        found = self._truth_answer(game, decision)
        if found is None:
            return Decline() if decision.kind is Kind.BLOCK else None
        self.used.add(found[0])
        return found[1]

    def _truth_answer(self, game: Game, decision: Decision) -> tuple[int, Event] | None:
        """The truth's answer to the same question in the same turn, up to where the
        table has decided."""
        turns = _turns(game.state)
        first = bisect_left(self.turns_at, turns)
        last = min(bisect_left(self.turns_at, turns + 1), self.cursor, len(self.script.truth))
        for i in range(first, last):
            asked = self.states[i].pending
            if i in self.used or asked is None:
                continue
            if not _same_question(asked, decision):
                continue
            event = self._with_cards_seen(i, game)
            if decision.accepts(event):
                return i, event
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
        return replace(event, index=index, revealed=chosen.revealed)

    def tell(self, location: Location, table: Layout | None = None) -> Seen:
        """What lies on top of ``location``, as people looking at ``table`` say (by
        default the table as it lies before the next change a camera could see)."""
        layout = table if table is not None else layout_of(self.states[max(0, self.cursor - 1)])
        return seen_of_stack(layout[location.pos])

    def answer(self, game: Game, question: Question, anchor: GameState) -> int:
        """The reading that leads where the truth went (else "the camera is wrong"); the
        table stands by the deploys in it (see :meth:`pick`)."""
        index = self.pick(question, anchor)
        reading, state = question.readings[index], anchor
        for event in reading.events if reading.from_anchor else ():
            if isinstance(event, Lead) and event.card is not None:
                self.agreed.add((_turns(state), event.card))
            try:
                state = apply(state, event)
            except ValueError:
                break
        return index

    def pick(self, question: Question, anchor: GameState) -> int:
        """The reading that leads where the truth went (else "the camera is wrong").

        Where the table looks the same either way (which covered card was taken), what
        people know decides: the hands, the banished pile, the tokens, and which card
        each of them put down (deployed from a hand, or turned up from the deck and
        placed): two readings that swap those lead to the same table.
        """
        since = max(0, self.cursor - RECENT)
        near = [self.states[i] for i in range(min(self.cursor, len(self.states) - 1), since, -1)]
        put_down = {event for event in self.script.truth[since:self.cursor]
                    if isinstance(event, (Lead, Place))}
        fallback, roughly, known = None, None, None
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
            mine = layout_of(state)
            alike = [real for real in near if same_layout(mine, layout_of(real))]
            if any(same_knowledge(state, real) for real in alike):
                # A reading that puts nothing down proves nothing by it (it may only
                # lead back to an earlier table).
                puts = [event for event in reading.events if isinstance(event, (Lead, Place))]
                if puts and all(event in put_down for event in puts):
                    return index
                known = known if known is not None else index
            if alike and roughly is None:
                roughly = index
        if known is not None:
            return known
        if roughly is not None:
            return roughly
        return fallback if fallback is not None else 0


WINDOW = 80  # truth events the oracle looks back over
RECENT = 30  # truth events back that an answer to a question may be about


def _turns(state: GameState) -> int:
    return sum(p.turns for p in state.players)


def same_knowledge(mine: GameState, truth: GameState) -> bool:
    """Does what the tracked game knows agree with the truth (tokens, hands, banished)?"""
    if sorted(mine.banished) != sorted(truth.banished) or mine.sovereign != truth.sovereign:
        return False
    for me, real in zip(mine.players, truth.players, strict=True):
        if (me.helium, me.influence, me.fleet) != (real.helium, real.influence, real.fleet):
            return False
        if me.hand.size != real.hand.size or not set(me.hand.known) <= set(real.hand.known):
            return False
    return True


def _same_question(truth: Decision, mine: Decision) -> bool:
    """The same rule asking (its continuation), though the wording and the options
    may differ: a simulated game knows cards a tracked one must ask about."""
    a, b = truth.then, mine.then
    if (a.name, a.player, a.card, a.location) != (b.name, b.player, b.card, b.location):
        return False
    if a.name == "finale-answer":  # the same end-of-game ability (hands list them apart)
        return bool(a.data[0].ability == b.data[0].ability)
    # Asked of the same seat (Eo asks each opponent in turn; a known hand is not asked).
    return _seat_of(a) == _seat_of(b)


def _seat_of(then: Step) -> int | None:
    first = then.data[0] if then.data else None
    return first if isinstance(first, int) and not isinstance(first, bool) else None


def _same_effect(mine: finale.Option, truth: finale.Option) -> bool:
    keys = ("ability", "label", "gain", "banish", "source", "bonus", "color", "helium",
            "random_pick")
    return all(bool(getattr(mine, k) == getattr(truth, k)) for k in keys)


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


def script_to_json(script: Script) -> dict[str, Any]:
    """The script as ``script.json`` holds it (the truth; the moments are the timeline)."""
    return {"truth_setup": to_dict(script.truth_setup),
            "tracked_setup": to_dict(script.tracked_setup), "seed": script.seed,
            "truth": [to_dict(e) for e in script.truth], "solo": script.solo}


def script_from_json(data: dict[str, Any]) -> Script:
    """A script read back from ``script.json`` (without its moments)."""
    truth_setup = from_dict(data["truth_setup"])
    tracked_setup = from_dict(data["tracked_setup"])
    assert isinstance(truth_setup, Setup) and isinstance(tracked_setup, Setup)
    return Script(truth_setup, tracked_setup, int(data["seed"]),
                  tuple(from_dict(e) for e in data["truth"]), (), bool(data["solo"]))
