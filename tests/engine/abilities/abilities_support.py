"""Helpers for the ability tests: exact positions, and short ways to drive them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine import cards
from engine.automa import AUTOMA_NAME, HAND_SIZE, automa_setup, solo_card_ids
from engine.board import House, Location
from engine.decisions import Kind
from engine.events import Choose, Event, Lead, SeatSpec, SetSovereign, SetTokens, Setup
from engine.game import Game
from engine.setup import tracked_game
from engine.state import GameState, Hand

J, M, L, I = Location.JUPITER, Location.MARS, Location.LUNA, Location.INSTITUTE  # noqa: E741
EMPTY: tuple[tuple[str, ...], ...] = ((), (), (), ())


class Picks(random.Random):
    """A Random whose ``choice`` takes the option named next (a die face or a value)."""

    def __init__(self, *answers: str) -> None:
        super().__init__(0)
        self.answers = list(answers)

    def choice(self, seq: Sequence[object]) -> object:  # type: ignore[override]
        wanted = self.answers.pop(0)
        for option in seq:
            if wanted in (getattr(option, "face", None), getattr(option, "value", None)):
                return option
        raise AssertionError(f"{wanted!r} not among {seq!r}")


def table(
    hands: Sequence[Sequence[str]],
    locations: Sequence[Sequence[str]] = EMPTY,
    *,
    deck: Sequence[str] = (),
    houses: Sequence[House | None] | None = None,
    tokens: dict[int, tuple[int, int, int]] | None = None,
    sovereign: int | None = None,
    variants: Sequence[str] = (),
    automa: Sequence[int] = (),
    rng: random.Random | None = None,
) -> Game:
    """A simulated game set up exactly as given; seat 0 plays first.

    ``deck`` lists the deck's top cards (the rest follow in catalogue order);
    ``tokens`` maps a seat to (Helium, Influence, Fleet); seats in ``automa`` are Au Toma.
    """
    placed = {c for h in hands for c in h} | {c for s in locations for c in s} | set(deck)
    full_deck = (*deck, *(c for c in cards.ALL_IDS if c not in placed))
    seat_houses = list(houses) if houses is not None else [None] * len(hands)
    seats = tuple(SeatSpec(f"P{i + 1}", None if i in automa else seat_houses[i], i in automa)
                  for i in range(len(hands)))
    setup = Setup(seats=seats, locations=tuple(tuple(s) for s in locations),
                  hands=tuple(tuple(h) for h in hands), unknown=tuple(0 for _ in hands),
                  deck=full_deck, deck_count=len(full_deck), first_player=0,
                  variants=tuple(variants))
    game = Game(setup, rng=rng or random.Random(0))
    for seat, (helium, influence, fleet) in (tokens or {}).items():
        game.push(SetTokens(seat, helium, influence, fleet))
    if sovereign is not None:
        game.push(SetSovereign(sovereign))
    return game


def solo(
    hand: Sequence[str],
    her_hand: Sequence[str],
    locations: Sequence[Sequence[str]] = EMPTY,
    *,
    deck: Sequence[str] = (),
    tokens: dict[int, tuple[int, int, int]] | None = None,
    variant: bool = False,
    rng: random.Random | None = None,
) -> Game:
    """You (seat 0) against Au Toma (seat 1); ``her_hand`` runs bottom → top.

    She is dealt the first two; the others then come off the deck onto her hand, as
    cards she gained would.
    """
    ids = solo_card_ids(variant)
    placed = set(hand) | set(her_hand[:HAND_SIZE]) | {c for s in locations for c in s}
    placed |= set(deck)
    full_deck = (*deck, *(c for c in ids if c not in placed))
    setup = Setup(seats=(SeatSpec("P1", House.MARS), SeatSpec(AUTOMA_NAME, None, automa=True)),
                  locations=tuple(tuple(s) for s in locations),
                  hands=(tuple(hand), tuple(her_hand[:HAND_SIZE])), unknown=(0, 0),
                  deck=full_deck, deck_count=len(full_deck), first_player=0,
                  neutral_influence=3, total_cards=len(ids),
                  automa=automa_setup(random.Random(0), variant=variant))
    game = Game(setup, rng=rng or random.Random(0))
    extra = tuple(her_hand[HAND_SIZE:])
    if extra:
        state = game.state
        her = replace(state.players[1], hand=Hand((*state.players[1].hand.known, *extra)))
        rest = tuple(c for c in full_deck if c not in extra)
        game.states[-1] = replace(state, players=(state.players[0], her), deck=rest,
                                  deck_count=len(rest))
    for seat, (helium, influence, fleet) in (tokens or {}).items():
        game.push(SetTokens(seat, helium, influence, fleet))
    return game


def tracked(locations: Sequence[Sequence[str]], *, seats: int = 2) -> Game:
    """Tracking a physical game: hands and deck unseen, seat 0 first."""
    specs = [SeatSpec(f"P{i + 1}", House.MARS if i == 0 else House.DIANA)
             for i in range(seats)]
    return Game(tracked_game(specs, locations, first=0))


def lead(game: Game, card: str, location: Location) -> GameState:
    return game.play(Lead(card, location))


def play(game: Game, *events: Event) -> GameState:
    for event in events:
        game.play(event)
    return game.state


def stack(game: Game, location: Location) -> list[str | None]:
    return [slot.card for slot in game.state.stack_at(location)]


def hand(game: Game, seat: int = 0) -> tuple[str, ...]:
    return game.state.players[seat].hand.known


def tokens(game: Game, seat: int = 0) -> tuple[int, int, int]:
    p = game.state.players[seat]
    return p.helium, p.influence, p.fleet


def asks(game: Game) -> Kind | None:
    return game.pending.kind if game.pending else None


def gain_is_next(game: Game, seat: int = 0) -> bool:
    """The deploying player reached the gain step (their turn did not end early)."""
    pending = game.pending
    return pending is not None and pending.kind is Kind.GAIN and pending.player == seat


def turn_of(game: Game) -> int | None:
    """Whose Lead-or-Scout decision is pending, if that is what is asked."""
    pending = game.pending
    return pending.player if pending is not None and pending.kind is Kind.TURN else None


def values(game: Game) -> set[object]:
    """The options by value (a Block by its card; a Decline as "decline")."""
    return {getattr(o, "value", getattr(o, "card", type(o).__name__.lower()))
            for o in game.legal_actions()}


def pick(card: str | None, location: Location, index: int) -> Choose:
    return Choose(card, location, index)


def at(location: Location) -> Choose:
    return Choose(location.value, location)


def seat(index: int) -> Choose:
    return Choose(str(index))


def banish_from_deck(state: GameState, *names: str) -> GameState:
    """The same simulated position with ``names`` moved from the deck to the banished pile."""
    assert state.deck is not None
    deck = tuple(c for c in state.deck if c not in names)
    return replace(state, deck=deck, deck_count=len(deck), banished=(*state.banished, *names))


def with_bottom(state: GameState, card: str) -> GameState:
    """The same simulated position with ``card`` moved to the bottom of the deck."""
    assert state.deck is not None and card in state.deck
    return replace(state, deck=(*(c for c in state.deck if c != card), card))
