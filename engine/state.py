"""The game state: frozen snapshots, one per event.

A state is never changed; :func:`engine.rules.apply` returns a new one. Hidden
information is explicit: a hand is the cards known to be in it plus a count of unknown
cards, and the deck's order is only known in a simulated game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from engine.automa_state import AutomaState
from engine.board import FLEET_MAX, INFLUENCE_TOKENS, House, Location
from engine.decisions import Decision
from engine.finale import Finale
from engine.frozen import evolve as evolve  # re-exported: callers import it from here
from engine.steps import Step


class Phase(StrEnum):
    """Where the game is: before setup, playing turns, the end-of-game flow, over."""

    SETUP = "setup"
    PLAYING = "playing"
    FINALE = "finale"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Slot:
    """A card on a location stack. ``card`` is None for a card nobody has identified."""

    card: str | None
    face_down: bool = False

    def __str__(self) -> str:
        name = self.card or "?"
        return f"{name}*" if self.face_down else name


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards known to be in a hand plus how many others it holds."""

    known: tuple[str, ...] = ()
    unknown: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown

    def __str__(self) -> str:
        parts = list(self.known) + ([f"+{self.unknown}"] if self.unknown else [])
        return ",".join(parts) or "-"


@dataclass(frozen=True)
class Player:
    """One seat at the table, in clockwise seat order."""

    name: str
    house: House | None = None
    helium: int = 0
    influence: int = 0  # own tokens on the Institute; the rest are in supply
    fleet: int = 0
    hand: Hand = Hand()
    turns: int = 0
    automa: bool = False

    @property
    def supply(self) -> int:
        """Influence tokens not yet placed."""
        return INFLUENCE_TOKENS - self.influence

    def __str__(self) -> str:
        house = self.house.value if self.house else ("automa" if self.automa else "-")
        return (
            f"{self.name}:{house}:h{self.helium}:i{self.influence}:f{self.fleet}"
            f":t{self.turns}:[{self.hand}]"
        )


class ChangeKind(StrEnum):
    """What a :class:`Change` records (a string enum: its value is what pages and logs show)."""

    AUTOMA_CARD = "automa-card"
    AUTOMA_SHUFFLE = "automa-shuffle"
    AUTOMA_SKIP = "automa-skip"
    BANISH = "banish"
    BLOCK = "block"
    DEPLOY = "deploy"
    DRAW = "draw"
    END_OF_GAME = "end-of-game"
    FINALE = "finale"
    FLEET = "fleet"
    GAIN = "gain"
    GIVE = "give"
    HELIUM = "helium"
    INFLUENCE = "influence"
    LOOK = "look"
    MOVE = "move"
    OVER = "over"
    PLACE = "place"
    PLACE_DOWN = "place-down"
    PLACE_UNDER = "place-under"
    REVEAL = "reveal"
    ROLL = "roll"
    RULING = "ruling"
    SOVEREIGN = "sovereign"
    STEAL = "steal"
    TO_DECK = "to-deck"
    TOKENS = "tokens"
    TRIGGER = "trigger"
    TURN = "turn"


class Track(StrEnum):
    """The three tokens whose 7+ triggers the end of the game (sorted as their values)."""

    FLEET = "fleet"
    HELIUM = "helium"
    INFLUENCE = "influence"


class TurnKind(StrEnum):
    """How a turn came about: the rules look back on it (Loan Shark, Apollo's last turn)."""

    NORMAL = "normal"
    APOLLO_LAST = "apollo-last"  # House Apollo's extra last turn: it counts
    OUT_OF_ORDER = "out-of-order"  # Loan Shark's borrowed turn: it does not


class Change(NamedTuple):
    """One visible consequence of an event, for the log, the voice and the tracker.

    A ``ruling`` change notes that a play-time setting decided something (``source``
    names it, ``target`` says what it decided).
    """

    kind: ChangeKind
    player: int | None = None
    card: str | None = None
    source: str | None = None  # a location name, "deck", "hand", "banished"
    target: str | None = None
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Trigger:
    """Who triggered the end of the game, during which of their turns, and how."""

    player: int
    turn: int  # the triggering player's turn number (1-based)
    conditions: tuple[Track, ...]  # e.g. (Track.FLEET, Track.HELIUM)


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Facts about the turn in progress that rules look back on."""

    player: int
    deployed_to: Location | None = None
    # Further locations deployed to by an ability (Orion, Modjob, Calliope): like
    # deployed_to, no gain from them this turn (the rulebook's gain step takes from "a
    # location you did not deploy to this turn", read literally).
    also_deployed_to: frozenset[Location] = frozenset()
    end_requested: bool = False  # "end your turn": skip the gain step
    trades_used: frozenset[str] = frozenset()  # once-per-turn trading abilities used
    kind: TurnKind = TurnKind.NORMAL


@dataclass(frozen=True)
class GameState:
    """Everything the engine knows about the table at one moment."""

    players: tuple[Player, ...] = ()
    locations: tuple[tuple[Slot, ...], ...] = ((), (), (), ())
    deck: tuple[str, ...] | None = None  # top first; None when the order is unknown
    deck_count: int = 0
    banished: tuple[str, ...] = ()
    revealed: tuple[str | None, ...] = ()  # cards turned over and not yet placed
    sovereign: int | None = None
    first_player: int = 0
    current: int = 0
    phase: Phase = Phase.SETUP
    neutral_influence: int = 0
    total_cards: int = 112
    turn: TurnContext | None = None
    trigger: Trigger | None = None
    final_turns: int | None = None  # the turn count everyone reaches before the end
    pending: Decision | None = None
    stack: tuple[Step, ...] = ()
    last_roll: str | None = None
    variants: frozenset[str] = frozenset()  # rule variants in use (see engine.setup)
    automa: AutomaState | None = None  # Au Toma's cards and priorities in a solo game
    finale: Finale | None = None  # scoring step 1 in progress: end-of-game abilities
    changes: tuple[Change, ...] = ()  # what the last event visibly changed

    @property
    def hidden(self) -> bool:
        """True when tracking a physical game (the deck's order is unknown)."""
        return self.deck is None

    def stack_at(self, location: Location) -> tuple[Slot, ...]:
        return self.locations[location.pos]

    def top(self, location: Location) -> Slot | None:
        stack = self.locations[location.pos]
        return stack[-1] if stack else None

    def player(self, index: int) -> Player:
        return self.players[index]

    def fen(self) -> str:
        """A compact one-line text form for tests and bug reports.

        >>> GameState().fen()
        'setup p0 | - | J[] M[] L[] I[] | deck 0 | ban - | sov -'
        """
        players = " ".join(
            ("*" if i == self.current else "") + str(p) for i, p in enumerate(self.players)
        )
        stacks = " ".join(
            f"{loc.value[0].upper()}[{','.join(map(str, self.stack_at(loc)))}]"
            for loc in Location
        )
        sov = "-" if self.sovereign is None else str(self.sovereign)
        text = (
            f"{self.phase.value} p{self.current} | {players or '-'} | {stacks}"
            f" | deck {self.deck_count} | ban {','.join(self.banished) or '-'} | sov {sov}"
        )
        if self.trigger:
            text += f" | end p{self.trigger.player}t{self.trigger.turn}"
        if self.automa is not None:
            text += f" | {self.automa}"
        if self.pending:
            text += f" | ? {self.pending.kind.value}@{self.pending.player}"
        return text

    def cards_in_play(self) -> int:
        """Every card accounted for: deck, locations, hands, banished, revealed."""
        return (
            self.deck_count
            + sum(len(s) for s in self.locations)
            + sum(p.hand.size for p in self.players)
            + len(self.banished)
            + len(self.revealed)
        )


def fleet_ok(value: int) -> bool:
    return 0 <= value <= FLEET_MAX
