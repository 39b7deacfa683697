"""Events: every change to a game is one of these, and the state is their fold.

Three families share one log:

* **setup**: :class:`Setup` starts a game;
* **answers** to the pending decision: :class:`Lead`, :class:`Scout`, :class:`GainFrom`,
  :class:`DrawFromDeck`, :class:`Place`, :class:`Roll`, :class:`Choose`, :class:`Decline`,
  :class:`Block` (these are exactly the options a decision lists);
* **observations and corrections** made while tracking a physical game, valid at any
  time: :class:`Identify`, :class:`DrawUnknown`, :class:`SetHandCount`,
  :class:`SetLocation`, :class:`SetTokens`, :class:`SetSovereign`, :class:`RevealCard`.

Events serialise to plain JSON-able dicts for the journal:

>>> to_dict(Lead("darrow", Location.MARS))
{'type': 'Lead', 'card': 'darrow', 'location': 'mars'}
>>> from_dict({'type': 'Lead', 'card': 'darrow', 'location': 'mars'})
Lead(card='darrow', location=<Location.MARS: 'mars'>)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cache
from typing import Any

from engine.automa_state import AutomaSetup
from engine.board import House, Location
from engine.errors import IllegalActionError


class Pile(StrEnum):
    """Where cards taken off a location by a correction go."""

    BANISHED = "banished"
    DECK = "deck"


class Face(StrEnum):
    """The six faces of the Rising die."""

    HELIUM = "helium"
    FLEET = "fleet"
    INFLUENCE = "influence"
    SOVEREIGN = "sovereign"
    REVEAL = "reveal"  # reveal the deck's top card and place it on any location
    BANISH = "banish"  # banish the top card of a location of your choice


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of everything that goes into the log (in words: :mod:`engine.wording`)."""


# --- setup -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits where: a name, a house (None for Au Toma) and whether it is Au Toma."""

    name: str
    house: House | None = None
    automa: bool = False


@dataclass(frozen=True, slots=True)
class Setup(Event):
    """Start a game. Hands and deck are ``None``/counts when they are hidden."""

    seats: tuple[SeatSpec, ...]
    locations: tuple[tuple[str | None, ...], ...]
    hands: tuple[tuple[str, ...], ...]  # known hand cards per seat
    unknown: tuple[int, ...]  # unknown hand cards per seat
    deck: tuple[str, ...] | None  # top first; None when tracking a physical deck
    deck_count: int
    first_player: int
    neutral_influence: int = 0
    total_cards: int = 112
    variants: tuple[str, ...] = ()
    automa: AutomaSetup | None = None  # a solo game: Au Toma's setup (engine.automa)


# --- answers to decisions ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lead(Event):
    """Deploy ``card`` from hand to ``location`` (both None: an empty hand skips deploy)."""

    card: str | None
    location: Location | None


@dataclass(frozen=True, slots=True)
class Scout(Event):
    """Turn over the deck's top card to place it."""


@dataclass(frozen=True, slots=True)
class GainFrom(Event):
    """Lead's gain step: take the top card of ``location`` and its bonus."""

    location: Location


@dataclass(frozen=True, slots=True)
class DrawFromDeck(Event):
    """Lead's gain step: take the deck's top card and roll the Rising die."""


@dataclass(frozen=True, slots=True)
class Place(Event):
    """Place the turned-over card on ``location``; ``card`` names it once it is seen."""

    location: Location
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Roll(Event):
    """The Rising die came up ``face`` (a chance outcome)."""

    face: Face


@dataclass(frozen=True, slots=True)
class Choose(Event):
    """A choice: a card id, colour, player number, face… in ``value``.

    Choices of a card on a location also give its ``location`` and stack ``index``
    (0 = bottom); ``value`` is None in an option for a card nobody has identified yet,
    and the answer names it.
    """

    value: str | None
    location: Location | None = None
    index: int | None = None


@dataclass(frozen=True, slots=True)
class Decline(Event):
    """Decline a "may", or pass a block window."""


@dataclass(frozen=True, slots=True)
class Block(Event):
    """Reveal a block card (Judge, Justice, Martyr, Pax au Telemanus, The Howlers)."""

    card: str


@dataclass(frozen=True, slots=True)
class RevealHand(Event):
    """At the end, ``player`` laid their hand face up: these are all its cards."""

    player: int
    cards: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Resolve(Event):
    """Resolve an end-of-game ability with option ``index`` of the finale's decision.

    ``revealed`` names the deck cards the ability turned over when the engine could not
    know them (a tracked game); ``picked`` is the card a random pick produced.
    """

    index: int
    revealed: tuple[str, ...] | None = None
    picked: str | None = None


# --- observations and corrections (tracking a physical game) ------------------------


@dataclass(frozen=True, slots=True)
class Identify(Event):
    """The unidentified card at ``index`` of ``location`` is ``card``."""

    location: Location
    index: int
    card: str


@dataclass(frozen=True, slots=True)
class DrawUnknown(Event):
    """``player`` took ``count`` unseen cards from the deck."""

    player: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class SetHandCount(Event):
    """``player`` holds ``count`` cards (the difference goes to or comes from the deck)."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class SetLocation(Event):
    """``location`` holds ``cards`` (oldest first; None = unidentified).

    Cards that leave go to the banished pile or the deck (``removed_to``); cards that
    arrive come from wherever they are known to be, else from the deck.
    """

    location: Location
    cards: tuple[str | None, ...]
    face_down: tuple[bool, ...] = ()
    removed_to: Pile = Pile.BANISHED


@dataclass(frozen=True, slots=True)
class SetTokens(Event):
    """Correct a player's Helium, placed Influence and Fleet position."""

    player: int
    helium: int
    influence: int
    fleet: int


@dataclass(frozen=True, slots=True)
class SetSovereign(Event):
    """Correct who holds the Sovereign token (None: nobody)."""

    player: int | None


@dataclass(frozen=True, slots=True)
class RevealCard(Event):
    """``player`` showed that ``card`` is in their hand (one unknown card becomes known)."""

    player: int
    card: str


# Events are immutable, so the options offered again and again (a card to each
# location, the cards on the stacks, in hands and in the pile) share one value each.


@cache
def lead(card: str | None, location: Location | None) -> Lead:
    """The shared :class:`Lead` value."""
    return Lead(card, location)


@cache
def leads(card: str | None) -> tuple[Lead, ...]:
    """The four shared :class:`Lead` values deploying ``card`` to each location."""
    return tuple(lead(card, loc) for loc in Location)


@cache
def choose(value: str | None, location: Location | None = None,
           index: int | None = None) -> Choose:
    """The shared :class:`Choose` value."""
    return Choose(value, location, index)


@cache
def place(location: Location, card: str | None) -> Place:
    """The shared :class:`Place` value."""
    return Place(location, card)


GAIN_FROM: dict[Location, GainFrom] = {loc: GainFrom(loc) for loc in Location}
ROLLS: tuple[Roll, ...] = tuple(Roll(face) for face in Face)
SCOUT = Scout()  # offered every turn
DRAW_FROM_DECK = DrawFromDeck()  # offered at nearly every gain step

OBSERVATIONS: tuple[type[Event], ...] = (
    Identify, DrawUnknown, SetHandCount, SetLocation, SetTokens, SetSovereign, RevealCard,
)

# --- serialisation -------------------------------------------------------------------

EVENT_TYPES: dict[str, type[Event]] = {}


def register(cls: type[Event]) -> type[Event]:
    """Make an event type (de)serialisable; rule extensions register their own."""
    EVENT_TYPES[cls.__name__] = cls
    return cls


for _cls in (Setup, Lead, Scout, GainFrom, DrawFromDeck, Place, Roll, Choose, Decline,
             Block, RevealHand, Resolve, *OBSERVATIONS):
    register(_cls)


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-able dict with the event's type name and fields."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = _encode(getattr(event, f.name))
    return out


def _encode(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`to_dict`'s output.

    :raises IllegalActionError: for an unknown type or malformed fields.
    """
    try:
        cls = EVENT_TYPES[data["type"]]
        hints = typing.get_type_hints(cls)
        kwargs = {
            f.name: _decode(hints[f.name], data[f.name])
            for f in dataclasses.fields(cls)
            if f.name in data
        }
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalActionError(f"malformed event {data!r}: {exc}", rule="event-format") from exc


def _decode(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        return _decode(next(a for a in args if a is not type(None)), value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if origin is frozenset:
        return frozenset(_decode(args[0], v) for v in value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        return hint(**{k: _decode(sub[k], v) for k, v in value.items()})
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"expected an integer, got {value!r}")
    if hint is str and not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value
