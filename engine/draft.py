"""A mutable working copy of a state, with the primitives every rule is built from.

Applying one event makes one :class:`Draft` from the previous state, runs rule steps
against it, and freezes it into the next state. Rules and card abilities change the
game only through the primitives here (gain, draw, deploy, place, move, banish,
tokens, the Sovereign, asking a decision), so each one is written and checked once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import cast

from engine import cards
from engine.automa_state import AutomaState
from engine.board import FLEET_MAX, Bonus, Location
from engine.decisions import Decision, Kind
from engine.errors import IllegalActionError
from engine.events import Event
from engine.finale import Finale
from engine.state import (
    Change,
    ChangeKind,
    GameState,
    Hand,
    Phase,
    Player,
    Slot,
    Track,
    Trigger,
    TurnContext,
    TurnKind,
)
from engine.steps import Step

TRIGGER_AT = 7  # Helium, Influence placed, Fleet position: the end-game thresholds


class Draft:
    """The state being built while one event is applied."""

    # The instance dict holds exactly the state's fields (freeze() copies it whole);
    # the Draft's own bookkeeping lives in slots, outside it.
    __slots__ = ("__dict__", "_banished", "_deck", "_hidden", "_locations", "_revealed", "base")

    def __init__(self, state: GameState) -> None:
        # Every field at once (a dict copy is several times cheaper than an update into
        # a fresh instance dict), then private copies of the lists rules change.
        self.__dict__ = state.__dict__.copy()
        self.players: list[Player] = list(state.players)
        self.stack: list[Step] = list(state.stack)
        self.changes: list[Change] = []
        self.base = state
        # Copied on first write (most events touch neither the stacks nor the piles).
        # A stack is the base state's tuple until a rule writes to it, then a list: an
        # event changes one or two stacks, and the others stay shared.
        self._locations: list[Sequence[Slot]] | None = None
        self._deck: list[str] | None = None
        self._banished: list[str] | None = None
        self._revealed: list[str | None] | None = None
        self._hidden = state.deck is None

    @property
    def locations(self) -> list[list[Slot]]:
        """The four stacks, all writable (copied from the base state on first use)."""
        for pos in range(len(self.base.locations)):
            self._writable(pos)
        return cast(list[list[Slot]], self._locations)  # every stack is a list now

    @locations.setter
    def locations(self, value: list[list[Slot]]) -> None:
        self._locations = list(value)

    def _writable(self, pos: int) -> list[Slot]:
        """The stack at board position ``pos``, copied to a list on its first write."""
        stacks = self._locations
        if stacks is None:
            stacks = self._locations = list(self.base.locations)
        stack = stacks[pos]
        if not isinstance(stack, list):
            stack = stacks[pos] = list(stack)
        return stack

    @property
    def deck(self) -> list[str] | None:
        """The deck, top first, when its order is known; None while tracking."""
        if self._deck is None and not self._hidden:
            self._deck = list(self.base.deck or ())
        return self._deck

    @deck.setter
    def deck(self, value: list[str] | None) -> None:
        self._deck = value
        self._hidden = value is None

    @property
    def banished(self) -> list[str]:
        if self._banished is None:
            self._banished = list(self.base.banished)
        return self._banished

    @property
    def revealed(self) -> list[str | None]:
        if self._revealed is None:
            self._revealed = list(self.base.revealed)
        return self._revealed

    deck_count: int
    sovereign: int | None
    first_player: int
    current: int
    phase: Phase
    neutral_influence: int
    total_cards: int
    turn: TurnContext | None
    trigger: Trigger | None
    final_turns: int | None
    pending: Decision | None
    last_roll: str | None
    variants: frozenset[str]
    finale: Finale | None
    automa: AutomaState | None

    def freeze(self) -> GameState:
        """The finished next state."""
        # Every field as the rules left it; the stacks and piles (still the base state's
        # values in the dict) only where a rule wrote to them.
        fields = self.__dict__.copy()
        fields["players"] = tuple(self.players)
        if self._locations is not None:  # (tuple() returns an unchanged stack as it is)
            fields["locations"] = tuple(map(tuple, self._locations))
        if self._hidden:
            fields["deck"] = None
        elif self._deck is not None:
            fields["deck"] = tuple(self._deck)
        if self._banished is not None:
            fields["banished"] = tuple(self._banished)
        if self._revealed is not None:
            fields["revealed"] = tuple(self._revealed)
        fields["stack"] = tuple(self.stack)
        fields["changes"] = tuple(self.changes)
        state = object.__new__(GameState)  # as evolve() does: the fields are already valid
        object.__setattr__(state, "__dict__", fields)  # frozen: bypass its __setattr__
        return state

    # --- queries --------------------------------------------------------------------

    @property
    def hidden(self) -> bool:
        return self._hidden

    def stack_at(self, location: Location) -> Sequence[Slot]:
        """A stack, oldest first, for reading (change stacks through the primitives)."""
        stacks = self._locations if self._locations is not None else self.base.locations
        return stacks[location.pos]

    def top(self, location: Location) -> Slot | None:
        stack = self.stack_at(location)
        return stack[-1] if stack else None

    def hand(self, player: int) -> Hand:
        return self.players[player].hand

    def opponents(self, player: int) -> list[int]:
        """Everyone else, clockwise from the player's left."""
        n = len(self.players)
        return [(player + k) % n for k in range(1, n)]

    def is_known_elsewhere(self, card: str) -> bool:
        """True if ``card`` is visibly somewhere: a location, a known hand, banished, deck."""
        if card in self.banished or card in self.revealed:
            return True
        if any(card in p.hand.known for p in self.players):
            return True
        if self.deck is not None and card in self.deck:
            return True
        stacks = self._locations if self._locations is not None else self.base.locations
        return any(slot.card == card for stack in stacks for slot in stack)

    def known_cards(self) -> set[str]:
        """Every card :meth:`is_known_elsewhere` would find, gathered once (naming an
        unseen card tests all 112: one pass over the table, not one per card)."""
        known: set[str] = {c for c in (*self.banished, *self.revealed) if c is not None}
        for p in self.players:
            known.update(p.hand.known)
        if self.deck is not None:
            known.update(c for c in self.deck if c is not None)
        stacks = self._locations if self._locations is not None else self.base.locations
        known.update(slot.card for stack in stacks for slot in stack if slot.card is not None)
        return known

    def may_hold(self, player: int, card: str) -> bool:
        """Could ``card`` be in this player's hand, as far as the table knows?"""
        hand = self.players[player].hand
        if card in hand.known:
            return True
        return hand.unknown > 0 and not self.is_known_elsewhere(card)

    # --- flow -----------------------------------------------------------------------

    def push(self, *steps: Step) -> None:
        """Schedule steps to run next, in the order given."""
        self.stack.extend(reversed(steps))

    def ask(
        self,
        player: int | None,
        kind: Kind,
        prompt: str,
        options: Sequence[Event],
        then: Step,
        refresh: Step | None = None,
    ) -> None:
        """Stop and wait for ``player`` to pick one of ``options``; ``then`` gets it."""
        if not options:
            raise AssertionError(f"decision {prompt!r} has no options")
        # Built as a plain tuple, like the changes in note(): one decision per event.
        self.pending = _new_tuple(Decision, (kind, player, prompt, tuple(options), then, refresh))

    def note(self, kind: ChangeKind, *, player: int | None = None, card: str | None = None,
             source: str | None = None, target: str | None = None, amount: int = 0) -> None:
        # tuple.__new__ skips the NamedTuple's generated __new__ (a Python function): a
        # change is noted about twice per event.
        self.changes.append(_new_tuple(Change, (kind, player, card, source, target, amount)))

    def end_turn_early(self) -> None:
        """"End your turn": the gain step is skipped."""
        if self.turn is not None:
            self.turn = replace(self.turn, end_requested=True)

    # --- tokens ---------------------------------------------------------------------

    def _set_player(self, player: int, name: str, value: object) -> None:
        """Replace one field of a player (as evolve() does, without packing keywords:
        the token and hand primitives run this several times per event)."""
        fields = self.players[player].__dict__.copy()
        fields[name] = value
        new = object.__new__(Player)
        object.__setattr__(new, "__dict__", fields)  # frozen: bypass its __setattr__
        self.players[player] = new

    def set_turns(self, player: int, turns: int) -> None:
        self._set_player(player, "turns", turns)

    def add_helium(self, player: int, amount: int = 1) -> int:
        """Gain Helium (unlimited); returns the amount gained."""
        if amount > 0:
            helium = self.players[player].helium + amount
            self._set_player(player, "helium", helium)
            self.note(ChangeKind.HELIUM, player=player, amount=amount)
            if helium >= TRIGGER_AT:  # below the threshold nothing can have triggered
                self.check_trigger()
        return max(amount, 0)

    def lose_helium(self, player: int, amount: int = 1) -> int:
        """Lose up to ``amount`` Helium; returns how much was actually lost."""
        lost = min(amount, self.players[player].helium)
        if lost > 0:
            self._set_player(player, "helium", self.players[player].helium - lost)
            self.note(ChangeKind.HELIUM, player=player, amount=-lost)
        return lost

    def advance(self, player: int, steps: int = 1) -> int:
        """Move forward on the Fleet Track, stopping at 10; returns the steps taken."""
        fleet = self.players[player].fleet
        moved = max(0, min(steps, FLEET_MAX - fleet))
        if moved:
            self._set_player(player, "fleet", fleet + moved)
            self.note(ChangeKind.FLEET, player=player, amount=moved)
            if fleet + moved >= TRIGGER_AT:
                self.check_trigger()
        return moved

    def regress(self, player: int, steps: int = 1) -> int:
        """Move back on the Fleet Track, stopping at 0; returns the steps taken."""
        moved = min(steps, self.players[player].fleet)
        if moved:
            self._set_player(player, "fleet", self.players[player].fleet - moved)
            self.note(ChangeKind.FLEET, player=player, amount=-moved)
        return moved

    def place_influence(self, player: int, amount: int = 1) -> int:
        """Put Influence from supply on the Institute; a placement with none left is lost."""
        placed = max(0, min(amount, self.players[player].supply))
        if placed:
            influence = self.players[player].influence + placed
            self._set_player(player, "influence", influence)
            self.note(ChangeKind.INFLUENCE, player=player, amount=placed)
            if influence >= TRIGGER_AT:
                self.check_trigger()
        return placed

    def remove_influence(self, player: int, amount: int = 1) -> int:
        """Take Influence back off the Institute; returns how many were removed."""
        removed = min(amount, self.players[player].influence)
        if removed:
            self._set_player(player, "influence", self.players[player].influence - removed)
            self.note(ChangeKind.INFLUENCE, player=player, amount=-removed)
        return removed

    def gain_bonus(self, player: int, bonus: Bonus) -> None:
        """Collect a location bonus (or the die face of the same name), if possible."""
        if bonus is Bonus.FLEET:
            self.advance(player)
        elif bonus is Bonus.HELIUM:
            self.add_helium(player)
        elif bonus is Bonus.INFLUENCE:
            self.place_influence(player)
        else:
            self.gain_sovereign(player)

    def gain_sovereign(self, player: int) -> None:
        """The Sovereign comes to ``player`` (blocks, then the house ability, follow)."""
        self.push(Step("sovereign", player))

    def set_sovereign(self, player: int | None) -> None:
        if player != self.sovereign:
            self.note(ChangeKind.SOVEREIGN, player=player, source=_seat(self.sovereign))
        self.sovereign = player

    def check_trigger(self) -> None:
        """Record the end-game trigger the moment its conditions are met."""
        if self.trigger is not None or self.phase is not Phase.PLAYING:
            return
        met = [_conditions(p) for p in self.players]
        solo = next((m for m in met if len(m) >= 2), None)
        everyone = set().union(*met) if met else set()
        if solo is None and len(everyone) < 3:
            return
        conditions = tuple(sorted(solo if solo is not None else everyone))
        out_of_order = self.turn is not None and self.turn.kind is TurnKind.OUT_OF_ORDER
        turns = self.players[self.current].turns + (0 if out_of_order else 1)
        self.trigger = Trigger(self.current, turns, conditions)
        self.note(ChangeKind.TRIGGER, player=self.current)

    # --- cards ----------------------------------------------------------------------

    def take_from_hand(self, player: int, card: str) -> None:
        """Remove a named card from a hand (a known card, or one of the unknown ones).

        :raises IllegalActionError: if the player is known not to hold it.
        """
        cards.check_id(card)
        hand = self.players[player].hand
        if card in hand.known:
            known = list(hand.known)
            known.remove(card)
            self._set_player(player, "hand", Hand(tuple(known), hand.unknown))
        elif self.may_hold(player, card):
            self._set_player(player, "hand", Hand(hand.known, hand.unknown - 1))
        else:
            name = self.players[player].name
            raise IllegalActionError(f"{name} is known not to hold {card}", rule="hand")

    def add_to_hand(self, player: int, card: str | None) -> None:
        """Put a card in a hand; None adds an unidentified card."""
        hand = self.players[player].hand
        if card is None:
            self._set_player(player, "hand", Hand(hand.known, hand.unknown + 1))
        else:
            self._set_player(player, "hand", Hand((*hand.known, card), hand.unknown))

    def deck_size(self) -> int:
        return self.deck_count

    def draw(self, player: int) -> str | None:
        """Take the deck's top card into a hand; returns it (None if unseen).

        :raises IllegalActionError: if the deck is empty.
        """
        card = self._pop_deck()
        self.add_to_hand(player, card)
        self.note(ChangeKind.DRAW, player=player, card=card if not self.hidden else None,
                  source="deck")
        return card

    def reveal_from_deck(self) -> str | None:
        """Turn the deck's top card over; it waits in ``revealed`` until placed."""
        card = self._pop_deck()
        self.revealed.append(card)
        self.note(ChangeKind.REVEAL, card=card, source="deck")
        return card

    def _pop_deck(self) -> str | None:
        if self.deck_count <= 0:
            raise IllegalActionError("the deck is empty", rule="empty-deck")
        self.deck_count -= 1
        return self.deck.pop(0) if self.deck is not None else None

    def place_revealed(self, location: Location, card: str | None = None) -> Slot:
        """Place the oldest turned-over card on top of ``location`` (not a deploy).

        While tracking, ``card`` names the card the camera saw.
        """
        known = self.revealed.pop(0)
        if known is not None and card is not None and card != known:
            raise IllegalActionError(f"the turned-over card is {known}, not {card}", rule="place")
        if known is None and card is not None:
            self._claim_unknown(card)
        slot = _face_up(known if known is not None else card)
        self.put_top(location, slot)
        self.note(ChangeKind.PLACE, card=slot.card, target=location.value)
        return slot

    def _claim_unknown(self, card: str) -> None:
        cards.check_id(card)
        if self.is_known_elsewhere(card):
            raise IllegalActionError(f"{card} is already somewhere else", rule="one-copy")

    def deploy(self, player: int, card: str, location: Location) -> None:
        """Put a hand card face up on top of a location."""
        self.take_from_hand(player, card)
        self.put_top(location, _face_up(card))
        self.note(ChangeKind.DEPLOY, player=player, card=card, target=location.value)

    def identify(self, location: Location, index: int, card: str | None) -> Slot:
        """Name an unidentified stack card (a no-op for a card already known).

        :raises IllegalActionError: for a wrong or missing name.
        """
        slot = self.stack_at(location)[index]
        if slot.card is not None:
            if card is not None and card != slot.card:
                raise IllegalActionError(f"that card is {slot.card}, not {card}", rule="identify")
            return slot
        if card is None:
            raise IllegalActionError("name the card first: nobody has identified it",
                                     rule="identify")
        self._claim_unknown(card)
        slot = Slot(card, slot.face_down)
        self._writable(location.pos)[index] = slot
        return slot

    def put_top(self, location: Location, slot: Slot) -> None:
        self._writable(location.pos).append(slot)

    def put_at(self, location: Location, index: int, slot: Slot) -> None:
        """Insert a card into a stack at ``index`` (0 = bottom)."""
        self._writable(location.pos).insert(index, slot)

    def take_at(self, location: Location, index: int) -> Slot:
        """Remove and return the card at ``index`` of a stack (-1 = top)."""
        if not self.stack_at(location):
            raise IllegalActionError(f"{location.label} has no cards", rule="empty-location")
        return self._writable(location.pos).pop(index)

    def index_of(self, location: Location, card: str) -> int:
        """Where ``card`` sits in a stack (0 = bottom)."""
        for i, slot in enumerate(self.stack_at(location)):
            if slot.card == card:
                return i
        raise IllegalActionError(f"{card} is not on {location.label}", rule="location")

    def gain_from(self, player: int, location: Location, index: int = -1) -> Slot:
        """Take a card from a stack into a hand (no bonus)."""
        slot = self.take_at(location, index)
        self.add_to_hand(player, slot.card)
        self.note(ChangeKind.GAIN, player=player, card=slot.card, source=location.value)
        return slot

    def move(self, source: Location, index: int, target: Location, to_index: int | None = None
             ) -> Slot:
        """Move a card between stacks (never a deploy); ``to_index`` None = on top."""
        slot = self.take_at(source, index)
        stack = self._writable(target.pos)
        stack.insert(len(stack) if to_index is None else to_index, slot)
        self.note(ChangeKind.MOVE, card=slot.card, source=source.value, target=target.value)
        return slot

    def banish_at(self, location: Location, index: int = -1) -> Slot:
        """Banish a card from a stack."""
        slot = self.take_at(location, index)
        self._to_banished(slot.card, source=location.value)
        return slot

    def banish_from_hand(self, player: int, card: str) -> None:
        """Banish a named card from a hand."""
        self.take_from_hand(player, card)
        self._to_banished(card, source="hand", player=player)

    def _to_banished(self, card: str | None, *, source: str, player: int | None = None) -> None:
        if card is None:
            raise IllegalActionError("name the card before banishing it", rule="banish")
        self.banished.append(card)
        self.note(ChangeKind.BANISH, player=player, card=card, source=source)

    def take_banished(self, player: int, card: str) -> None:
        """A banished card comes back into a hand."""
        if card not in self.banished:
            raise IllegalActionError(f"{card} is not banished", rule="banished")
        self.banished.remove(card)
        self.add_to_hand(player, card)
        self.note(ChangeKind.GAIN, player=player, card=card, source="banished")

    def players_with_cards(self, candidates: Iterable[int]) -> list[int]:
        return [p for p in candidates if self.players[p].hand.size > 0]


_new_tuple = tuple.__new__  # builds a NamedTuple from a tuple of all its fields


def _conditions(player: Player) -> set[Track]:
    met = set()
    if player.helium >= TRIGGER_AT:
        met.add(Track.HELIUM)
    if player.influence >= TRIGGER_AT:
        met.add(Track.INFLUENCE)
    if player.fleet >= TRIGGER_AT:
        met.add(Track.FLEET)
    return met


def _face_up(card: str | None) -> Slot:
    """The shared face-up slot of a card: slots are immutable values (like the events
    decisions offer), so stacks can hold the same one instead of a new one per deploy."""
    slot = _FACE_UP.get(card)
    if slot is None:
        slot = _FACE_UP[card] = Slot(card)
    return slot


_FACE_UP: dict[str | None, Slot] = {}  # at most one per card of the catalogue


def _seat(player: int | None) -> str | None:
    return None if player is None else str(player)
