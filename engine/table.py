"""A snapshot of the table as scoring sees it: hands, tokens, locations, banished pile.

This is the input of :mod:`engine.scoring` and of the end-of-game abilities
(:mod:`engine.finale`). The live engine builds one from its state when the game ends;
``companion score`` builds one from a GAME.json file. :meth:`Table.validate` checks
the facts a file can get wrong; the constructors trust their input.

>>> t = Table(seats=(Seat("Ann", ("judge",), fleet=3), Seat("Bob", ("eo",))))
>>> t.validate()
>>> t.where_is("eo")
'the hand of Bob'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from engine.automa_state import PARITIES, Parity
from engine.board import FLEET_MAX, INFLUENCE_TOKENS, House, Location
from engine.cards import CARDS, Color, check_id
from engine.frozen import evolve_slots


class TableError(ValueError):
    """A table snapshot that cannot happen (bad tokens, a card in two places...)."""


@dataclass(frozen=True, slots=True)
class AutomaInfo:
    """Au Toma's scoring parameters: difficulty level 1–6 and the odd/even card."""

    level: int = 2
    parity: Parity = Parity.EVEN  # the word showing on her odd/even card


@dataclass(frozen=True, slots=True)
class Choice:
    """A declared scoring choice: an Orange's borrowed name or a Gray's extra caste."""

    card: str
    name: str | None = None  # Orange: the id of the character whose name it takes
    color: Color | None = None  # Gray: the extra caste it also counts as


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's (or Au Toma's) position at the end of the game."""

    name: str
    hand: tuple[str, ...]
    helium: int = 0
    influence: int = 0  # own tokens placed on the Institute, 0–10
    fleet: int = 0  # Fleet Track position, 0–10
    sovereign: bool = False
    house: House | None = None
    automa: AutomaInfo | None = None
    # Declared Orange names / Gray castes; undeclared ones are optimised by scoring.
    choices: tuple[Choice, ...] = ()
    # Points won by end-of-game abilities that score directly (Hacker's revealed card).
    extra_points: int = 0

    def choice_for(self, card: str) -> Choice | None:
        """The declared choice for a card in this hand, if any."""
        return next((c for c in self.choices if c.card == card), None)


@dataclass(frozen=True, slots=True)
class StackCard:
    """A card on a location stack; face-down cards (Firewall Expert) have no caste."""

    card: str | None  # None: a face-down card nobody at the table has identified
    face_down: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """The whole table at scoring time. Location stacks run oldest → newest (top last)."""

    seats: tuple[Seat, ...]
    locations: tuple[tuple[StackCard, ...], ...] = ((), (), (), ())
    banished: tuple[str, ...] = ()
    neutral_influence: int = 0
    first_player: int = 0
    # The deck, top card first, when known (simulation, or for resolving Hacker,
    # Online Gambler and Hypnotist); None when the physical deck is unknown.
    deck: tuple[str, ...] | None = field(default=None)
    # The banished pile as it was when the end-of-game abilities began (set by
    # engine.finale); read only under Rulings(banished_counted_after_finale=False).
    banished_before_finale: tuple[str, ...] | None = None

    def stack(self, location: Location) -> tuple[StackCard, ...]:
        return self.locations[location.pos]

    def with_seat(self, index: int, seat: Seat) -> Table:
        """A copy with one seat replaced."""
        seats = (*self.seats[:index], seat, *self.seats[index + 1 :])
        return evolve_slots(self, seats=seats)  # (the end-of-game ranking's hot path)

    def with_stack(self, location: Location, stack: tuple[StackCard, ...]) -> Table:
        """A copy with one location's stack replaced."""
        i = location.pos
        return replace(self, locations=(*self.locations[:i], stack, *self.locations[i + 1 :]))

    def clockwise(self) -> tuple[int, ...]:
        """Seat indexes from the first player on, clockwise (the scorepad's order)."""
        n = len(self.seats)
        return tuple((self.first_player + k) % n for k in range(n))

    def places(self) -> Iterator[tuple[str, str]]:
        """Every known card with a description of where it is."""
        for seat in self.seats:
            for cid in seat.hand:
                yield cid, f"the hand of {seat.name}"
        for loc in Location:
            for sc in self.stack(loc):
                if sc.card is not None:
                    yield sc.card, loc.label
        for cid in self.banished:
            yield cid, "the banished pile"
        for cid in self.deck or ():
            yield cid, "the deck"

    def where_is(self, card: str) -> str | None:
        """Where a card is, or None when it is not on the table."""
        return next((place for cid, place in self.places() if cid == card), None)

    def validate(self) -> None:
        """Check ids, places, tokens, houses and choices.

        :raises TableError: naming the first problem found (an unknown id raises
            :class:`engine.errors.UnknownCardError`).
        """
        _check_seats(self)
        _check_places(self)
        if not 0 <= self.neutral_influence <= INFLUENCE_TOKENS:
            raise TableError(f"neutral_influence must be 0–10, not {self.neutral_influence}")
        if len(self.locations) != len(Location):
            raise TableError("the table needs exactly four location stacks")


def _check_seats(table: Table) -> None:
    if not table.seats:
        raise TableError("a table needs at least one player")
    if not 0 <= table.first_player < len(table.seats):
        raise TableError(f"first_player {table.first_player} is not a seat")
    _unique([s.name for s in table.seats], "two players are named {!r}")
    _unique([s.house for s in table.seats if s.house], "two players have house {!r}")
    if sum(s.sovereign for s in table.seats) > 1:
        raise TableError("more than one player holds the Sovereign token")
    if sum(s.automa is not None for s in table.seats) > 1:
        raise TableError("more than one Au Toma seat")
    for seat in table.seats:
        _check_tokens(seat)
        _check_choices(seat)


def _unique(values: list[object], message: str) -> None:
    seen: set[object] = set()
    for value in values:
        if value in seen:
            raise TableError(message.format(str(value)))
        seen.add(value)


def _check_tokens(seat: Seat) -> None:
    for what, value in (("helium", seat.helium), ("influence", seat.influence),
                        ("fleet", seat.fleet), ("extra_points", seat.extra_points)):
        if value < 0:
            raise TableError(f"{seat.name} has negative {what} ({value})")
    if seat.fleet > FLEET_MAX:
        raise TableError(f"{seat.name}'s fleet is {seat.fleet}; the track ends at 10")
    if seat.influence > INFLUENCE_TOKENS:
        raise TableError(f"{seat.name} has {seat.influence} influence; a house has only 10")
    if seat.automa is not None:
        if not 1 <= seat.automa.level <= 6:
            raise TableError(f"Au Toma's level must be 1–6, not {seat.automa.level}")
        if seat.automa.parity not in PARITIES:
            raise TableError(f"Au Toma's parity must be 'odd' or 'even', not "
                             f"{seat.automa.parity!r}")


def _check_choices(seat: Seat) -> None:
    _unique([c.card for c in seat.choices], f"{seat.name} has two choices for {{}}")
    for choice in seat.choices:
        _check_choice(seat, choice)


def _check_choice(seat: Seat, choice: Choice) -> None:
    if choice.card not in seat.hand:
        raise TableError(f"choice for {choice.card}, but {seat.name} does not hold it")
    _check_choice_fits(choice)


def _check_choice_fits(choice: Choice) -> None:
    """An Orange takes a known name, a Gray one other caste; nothing else chooses."""
    card = CARDS[check_id(choice.card)]
    if choice.name is not None:
        check_id(choice.name)
        if card.color is not Color.ORANGE:
            raise TableError(f"only Oranges take a name; {card.name} is {card.color.value}")
    if choice.color is not None and card.color is not Color.GRAY:
        raise TableError(f"only Grays take an extra color; {card.name} is {card.color.value}")
    if choice.color is Color.GRAY:
        raise TableError(f"{card.name}'s extra color must differ from gray")
    if (choice.name is None) == (choice.color is None):
        raise TableError(f"the choice for {choice.card} needs exactly one of name or color")


def _check_places(table: Table) -> None:
    seen: dict[str, str] = {}
    for cid, place in table.places():
        check_id(cid)
        if cid in seen:
            where = "twice in " + place if seen[cid] == place else f"in {seen[cid]} and {place}"
            raise TableError(f"card {cid} is {where}")
        seen[cid] = place
