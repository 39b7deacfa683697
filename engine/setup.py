"""Starting a game: seats and houses, the deal, the first player, the neutral house.

:func:`new_game` deals a simulated game from a seeded ``random.Random``;
:func:`tracked_game` starts tracking a physical game whose deck and hands are hidden.
Both return a :class:`~engine.events.Setup` event; :func:`start` applies one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import automa, cards
from engine.board import FACE_UP_PER_LOCATION, NEUTRAL_INFLUENCE, House, starting_hand_size
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.events import SeatSpec, Setup
from engine.seats import first_player, seat_specs
from engine.state import Hand, Phase, Player, Slot
from engine.steps import Step

MIN_SEATS, MAX_SEATS = 2, 6


def new_game(
    names: Sequence[str],
    rng: random.Random,
    *,
    houses: Sequence[House | None] | None = None,
    variants: Sequence[str] = (),
) -> Setup:
    """Deal a simulated game with a known, shuffled deck.

    >>> event = new_game(["Ann", "Bo"], random.Random(7), houses=[House.CERES, None])
    >>> event.neutral_influence, [len(h) for h in event.hands], event.deck_count
    (3, [6, 5], 93)
    """
    seats = seat_specs(names, rng, houses)
    deck = list(cards.ALL_IDS)
    rng.shuffle(deck)
    locations = tuple(tuple(deck.pop() for _ in range(FACE_UP_PER_LOCATION)) for _ in range(4))
    hands = tuple(
        tuple(deck.pop() for _ in range(starting_hand_size(seat.house))) for seat in seats
    )
    return Setup(
        seats=seats,
        locations=locations,
        hands=hands,
        unknown=tuple(0 for _ in seats),
        deck=tuple(reversed(deck)),
        deck_count=len(deck),
        first_player=first_player(seats, rng),
        neutral_influence=NEUTRAL_INFLUENCE if len(seats) == 2 else 0,
        total_cards=len(cards.ALL_IDS),
        variants=tuple(variants),
    )


def tracked_game(
    seats: Sequence[SeatSpec],
    locations: Sequence[Sequence[str | None]],
    *,
    first: int,
    variants: Sequence[str] = (),
) -> Setup:
    """Start tracking a physical game: locations as seen, hands dealt unseen."""
    unknown = tuple(starting_hand_size(seat.house) for seat in seats)
    on_table = sum(len(stack) for stack in locations)
    total = len(cards.ALL_IDS)
    return Setup(
        seats=tuple(seats),
        locations=tuple(tuple(stack) for stack in locations),
        hands=tuple(() for _ in seats),
        unknown=unknown,
        deck=None,
        deck_count=total - on_table - sum(unknown),
        first_player=first,
        neutral_influence=NEUTRAL_INFLUENCE if len(seats) == 2 else 0,
        total_cards=total,
        variants=tuple(variants),
    )


def start(draft: Draft, event: Setup) -> None:
    """Apply a Setup event to an empty state."""
    _validate(draft, event)
    draft.players = [
        Player(seat.name, seat.house, hand=Hand(known, unknown), automa=seat.automa)
        for seat, known, unknown in zip(event.seats, event.hands, event.unknown, strict=True)
    ]
    draft.locations = [[Slot(card) for card in stack] for stack in event.locations]
    draft.deck = None if event.deck is None else list(event.deck)
    draft.deck_count = event.deck_count
    draft.first_player = event.first_player
    draft.current = event.first_player
    draft.neutral_influence = event.neutral_influence
    draft.total_cards = event.total_cards
    draft.variants = frozenset(event.variants)
    automa.setup_solo(draft, event)
    draft.phase = Phase.PLAYING
    draft.push(Step("turn", event.first_player))


def _validate(draft: Draft, event: Setup) -> None:
    def bad(message: str) -> IllegalActionError:
        return IllegalActionError(message, rule="setup")

    if draft.phase is not Phase.SETUP:
        raise bad("the game has already been set up")
    n = len(event.seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise bad(f"a game has 2 to 6 seats (a solo game is you and Au Toma), not {n}")
    if not (len(event.hands) == len(event.unknown) == n) or len(event.locations) != 4:
        raise bad("one hand per seat and four locations are needed")
    if not 0 <= event.first_player < n:
        raise bad(f"first player {event.first_player} is not a seat")
    seen = [c for stack in event.locations for c in stack if c is not None]
    seen += [c for hand in event.hands for c in hand] + list(event.deck or ())
    for card in seen:
        cards.check_id(card)
    if len(seen) != len(set(seen)):
        raise bad("a card appears twice")
    counted = event.deck_count + sum(len(s) for s in event.locations)
    counted += sum(len(h) for h in event.hands) + sum(event.unknown)
    if counted != event.total_cards or min(event.unknown, default=0) < 0:
        raise bad(f"the cards add up to {counted}, not {event.total_cards}")
    if event.deck is not None and len(event.deck) != event.deck_count:
        raise bad("the deck's order and its count disagree")


def arranged(
    hands: Sequence[Sequence[str]],
    locations: Sequence[Sequence[str]] = ((), (), (), ()),
    *,
    deck: Sequence[str] = (),
    houses: Sequence[House | None] | None = None,
    names: Sequence[str] | None = None,
    first: int = 0,
    variants: Sequence[str] = (),
) -> Setup:
    """A simulated game set up exactly as given (for tests, tutorials, "what if?").

    ``deck`` lists the top cards of the deck; every card not placed anywhere follows
    in catalogue order. Houses default to none (no house ability fires).

    >>> event = arranged([["darrow"], ["sevro"]], [["eo"], [], [], []], deck=["nero"])
    >>> event.deck[:2], event.deck_count
    (('nero', '4d-painter'), 109)
    """
    seat_names = list(names) if names is not None else [f"P{i + 1}" for i in range(len(hands))]
    seat_houses = list(houses) if houses is not None else [None] * len(hands)
    placed = [c for h in hands for c in h] + [c for s in locations for c in s] + list(deck)
    rest = [c for c in cards.ALL_IDS if c not in set(placed)]
    full_deck = (*deck, *rest)
    return Setup(
        seats=tuple(SeatSpec(n, h) for n, h in zip(seat_names, seat_houses, strict=True)),
        locations=tuple(tuple(s) for s in locations),
        hands=tuple(tuple(h) for h in hands),
        unknown=tuple(0 for _ in hands),
        deck=full_deck,
        deck_count=len(full_deck),
        first_player=first,
        neutral_influence=NEUTRAL_INFLUENCE if len(hands) == 2 else 0,
        total_cards=len(cards.ALL_IDS),
        variants=tuple(variants),
    )
