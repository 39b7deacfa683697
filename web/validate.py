"""Request bodies → engine events, checked field by field before anything runs.

A :class:`Body` reads one JSON object: each accessor checks one field's type and
range and raises :class:`~web.errors.BadInput` naming the field; :meth:`Body.done`
rejects fields nobody asked for, so a typo never passes silently.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from flask import request

from engine import automa
from engine.abilities.primitives import MULTIPLAYER_VARIANT
from engine.automa_state import Parity
from engine.board import FLEET_MAX, INFLUENCE_TOKENS, LOCATIONS, House, Location
from engine.cards import CARDS
from engine.events import (
    Choose,
    Event,
    Identify,
    Lead,
    Pile,
    Place,
    RevealHand,
    SeatSpec,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
    Setup,
)
from engine.rulings import PLAY_SETTINGS, SELF_BANISH_ALONE
from engine.schema import (
    Field,
    Integer,
    ListOf,
    OneOf,
    Record,
    SchemaError,
    Spec,
    Text,
    check_document,
    shown,
)
from engine.setup import MAX_SEATS, tracked_game
from web.errors import BadInput

MAX_STACK = 112  # no stack can hold more cards than the game has
MAX_HELIUM = 999
MAX_HAND = 112
MAX_DEPTH = 8  # the deepest body the API reads has 3 levels (a new game's locations)

# --- the request body as JSON ---------------------------------------------------------------


def request_body(*, optional: bool = False) -> Body:
    """The current request's body as a :class:`Body` (``optional``: none at all is ``{}``).

    :raises BadInput: unless it is a JSON object (see :func:`parse_json`).
    """
    data = request.get_data(cache=True)  # past MAX_CONTENT_LENGTH: 413 from Flask
    if optional and not data:
        return Body({})
    if not request.is_json:
        raise BadInput("send the body as JSON (Content-Type: application/json)")
    return Body(parse_json(data))


def parse_json(data: bytes) -> object:
    """The JSON document in ``data``: UTF-8, numbers finite, nested at most MAX_DEPTH deep.

    >>> parse_json(b'{"seq": 3}')
    {'seq': 3}
    >>> parse_json(b'[' * 5000)
    Traceback (most recent call last):
    web.errors.BadInput: the body is nested deeper than 8 levels

    :raises BadInput: with one line naming the problem, whatever the bytes.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("the body is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:  # the C parser's own guard, long before our depth check
        raise BadInput(f"the body is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, too many digits, NaN / Infinity
        reason = str(exc).splitlines()[0][:120] if str(exc) else "unreadable"
        raise BadInput(f"the body is not valid JSON: {reason}") from None
    check_shape(value)
    return value


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def check_shape(value: object) -> None:
    """Refuse a document nested deeper than MAX_DEPTH, or with text that is not Unicode."""
    try:
        check_document(value, MAX_DEPTH, "the body")
    except SchemaError as exc:
        raise BadInput(str(exc)) from None


class Body:
    """One JSON object from a request, read field by field."""

    def __init__(self, data: object) -> None:
        if not isinstance(data, dict):
            raise BadInput("the request body must be a JSON object")
        self.data: dict[str, Any] = data
        self.read: set[str] = set()

    def _get(self, name: str, optional: bool) -> Any:
        self.read.add(name)
        if name not in self.data:
            if optional:
                return None
            raise BadInput(f"missing field {name!r}")
        return self.data[name]

    def integer(self, name: str, low: int, high: int, *, optional: bool = False,
            nullable: bool = False) -> int | None:
        """An integer in ``low..high`` (never a bool or a float)."""
        value = self._get(name, optional)
        if value is None and (optional or nullable):
            return None
        return check_int(value, name, low, high)

    def text(self, name: str, max_length: int) -> str:
        """A string of at most ``max_length`` characters."""
        return str(checked(Text(max_length), self._get(name, optional=False), name))

    def choice(self, name: str, allowed: tuple[str, ...], *, default: str) -> str:
        """One of a few words."""
        value = self._get(name, optional=True)
        return default if value is None else str(checked(OneOf(allowed), value, name))

    def location(self, name: str = "location") -> Location:
        """A location id: jupiter, mars, luna or institute."""
        value = self._get(name, optional=False)
        return parse_location(value, name)

    def card(self, name: str = "card", *, optional: bool = False) -> str | None:
        """A card id from the catalogue."""
        value = self._get(name, optional)
        if value is None and optional:
            return None
        return parse_card(value, name)

    def array(self, name: str, *, optional: bool = False) -> list[Any] | None:
        value = self._get(name, optional)
        if value is None and optional:
            return None
        return list(checked(ListOf(max_items=MAX_STACK), value, name))

    def done(self) -> None:
        """Reject any field that was not read."""
        extra = sorted(set(self.data) - self.read)
        if extra:
            raise BadInput(f"unknown field {shown(extra[0])}")


def check_int(value: object, name: str, low: int, high: int) -> int:
    return int(checked(Integer(low, high), value, name))


def checked(spec: Spec, value: object, name: str) -> Any:
    """``value`` if it fits ``spec``; else BadInput naming the field (``'name' must be``)."""
    try:
        return spec.check(value, repr(name))
    except SchemaError as exc:
        raise BadInput(str(exc)) from None


def parse_location(value: object, name: str = "location") -> Location:
    if not isinstance(value, str) or value not in _LOCATIONS:
        raise BadInput(f"{name!r} must be one of {', '.join(_LOCATIONS)}, "
                       f"not {shown(value)}")
    return _LOCATIONS[value]


def parse_card(value: object, name: str = "card") -> str:
    if not isinstance(value, str) or value not in CARDS:
        raise BadInput(f"{name!r}: unknown card id {shown(value)}")
    return value


_LOCATIONS = {loc.value: loc for loc in Location}


# --- corrections ---------------------------------------------------------------------


def set_location(body: Body) -> SetLocation:
    """``{"location", "cards": [id or null, oldest first], "face_down"?, "removed_to"?}``."""
    location = body.location()
    raw = body.array("cards") or []
    cards = tuple(None if c is None else parse_card(c, "cards[]") for c in raw)
    flags = body.array("face_down", optional=True)
    if flags is not None and (len(flags) != len(cards)
                              or not all(isinstance(f, bool) for f in flags)):
        raise BadInput("'face_down' must hold one true/false per card")
    removed_to = body.choice("removed_to", tuple(p.value for p in Pile), default=Pile.BANISHED)
    return SetLocation(location, cards, tuple(flags or ()), Pile(removed_to))


def set_tokens(body: Body) -> SetTokens:
    """``{"player", "helium", "influence", "fleet"}``."""
    return SetTokens(
        player=_player(body),
        helium=_req_int(body, "helium", 0, MAX_HELIUM),
        influence=_req_int(body, "influence", 0, INFLUENCE_TOKENS),
        fleet=_req_int(body, "fleet", 0, FLEET_MAX),
    )


def set_sovereign(body: Body) -> SetSovereign:
    """``{"player": seat or null}``."""
    return SetSovereign(body.integer("player", 0, MAX_SEATS - 1, nullable=True))


def set_hand_count(body: Body) -> SetHandCount:
    """``{"player", "count"}``."""
    return SetHandCount(_player(body), _req_int(body, "count", 0, MAX_HAND))


def identify(body: Body) -> Identify:
    """``{"location", "index", "card"}``: name an unidentified stack card."""
    location = body.location()
    index = _req_int(body, "index", 0, MAX_STACK - 1)
    return Identify(location, index, parse_card(body.card()))


def _player(body: Body) -> int:
    return _req_int(body, "player", 0, MAX_SEATS - 1)


def _req_int(body: Body, name: str, low: int, high: int) -> int:
    value = body.integer(name, low, high)
    assert value is not None
    return value


# --- answers --------------------------------------------------------------------------


def hand(body: Body) -> tuple[str, ...] | None:
    """``cards``: every card of a hand laid face up at the end (scoring by camera)."""
    raw = body.array("cards", optional=True)
    if raw is None:
        return None
    cards = tuple(parse_card(c, "cards[]") for c in raw)
    if len(set(cards)) != len(cards):
        raise BadInput("'cards' names a card twice: each card is in the game once")
    return cards


def fill(option: Event, card: str | None, hand: tuple[str, ...] | None = None) -> Event:
    """The option as the answer, with ``card`` (or a ``hand``) naming what it leaves open."""
    if isinstance(option, RevealHand) and option.cards is None:
        if hand is None:
            raise BadInput("name the hand's cards in 'cards'")
        return RevealHand(option.player, hand)
    if hand is not None:
        raise BadInput("'cards' is only for a hand laid face up at the end")
    if card is None:
        return option
    if isinstance(option, Lead) and option.card is None and option.location is not None:
        return Lead(card, option.location)
    if isinstance(option, Place) and option.card is None:
        return Place(option.location, card)
    if isinstance(option, Choose) and option.value is None and option.location is not None:
        return Choose(card, option.location, option.index)
    raise BadInput("'card' is only for an option that leaves its card unnamed")


# --- a new physical game ---------------------------------------------------------------

HOUSES = tuple(h.value for h in House)
MAX_NAME = 24
PLAYER = Record({"name": Field(Text(MAX_NAME, min_length=1, strip=True)),
                 "house": Field(OneOf(HOUSES))})


def new_game(body: Body, camera: Mapping[str, Any] | None, rng: random.Random) -> Setup:
    """A tracked game from ``{"players": [{"name", "house"}], "first"?, "locations"?,
    "automa_level"?, "priorities"?, "parity"?, "variants"?}``.

    One player means a solo game against Au Toma. The eight setup cards come from
    ``locations`` (oldest first, null for a card nobody named) or else from the camera's
    stable view (the top card of each location named, the covered one not).
    """
    seats = _seats(body)
    # Solo: 0 you, 1 Au Toma (her seat comes with the game, not from 'players').
    first = body.integer("first", 0, max(len(seats), 2) - 1, optional=True)
    locations = _setup_locations(body, camera)
    variants = _variants(body)
    level = body.integer("automa_level", 1, 6, optional=True)
    priorities = _priorities(body)
    parity = body.choice("parity", ("odd", "even"), default="") or None
    if len(seats) == 1:
        return _solo(seats[0], locations, first, level or 2, priorities, parity, variants, rng)
    if level is not None or priorities is not None or parity is not None:
        raise BadInput("'automa_level', 'priorities' and 'parity' are for a solo game")
    return tracked_game(seats, locations, first=_first(seats, first), variants=variants)


def _seats(body: Body) -> list[SeatSpec]:
    raw = body.array("players") or []
    if not 1 <= len(raw) <= MAX_SEATS:
        raise BadInput(f"'players' must list 1 to {MAX_SEATS} players (1: a solo game)")
    seats = []
    for i, player in enumerate(raw):
        try:
            PLAYER.check(player, f"players[{i}]")
        except SchemaError as exc:
            raise BadInput(str(exc)) from None
        seats.append(SeatSpec(player["name"].strip(), House(player["house"])))
    if len({s.house for s in seats}) != len(seats):
        raise BadInput("two players cannot share a house")
    if len({s.name for s in seats}) != len(seats):
        raise BadInput("two players cannot share a name")
    return seats


def _first(seats: list[SeatSpec], first: int | None) -> int:
    """House Apollo starts; otherwise the table says who does."""
    apollo = next((i for i, s in enumerate(seats) if s.house is House.APOLLO), None)
    if apollo is not None:
        if first not in (None, apollo):
            raise BadInput("House Apollo always goes first")
        return apollo
    if first is None:
        raise BadInput("'first': say who goes first (no one is House Apollo)")
    return first


def _setup_locations(body: Body, camera: Mapping[str, Any] | None
                     ) -> list[list[str | None]]:
    raw = body.array("locations", optional=True)
    if raw is not None:
        if len(raw) != len(LOCATIONS) or not all(isinstance(s, list) for s in raw):
            raise BadInput("'locations' must hold four lists of cards, Jupiter first")
        stacks = [[None if c is None else parse_card(c, "locations[]") for c in s] for s in raw]
    else:
        stacks = _from_camera(camera)
    named = [c for s in stacks for c in s if c is not None]
    if len(named) != len(set(named)):
        raise BadInput("a setup card appears twice")
    return stacks


def _from_camera(camera: Mapping[str, Any] | None) -> list[list[str | None]]:
    stacks: list[list[str | None]] = []
    for loc in LOCATIONS:
        seen = (camera or {}).get(loc.value)
        if seen is None or getattr(seen, "state", "") != "card" or not seen.top:
            raise BadInput(f"the camera does not see {loc.label}'s cards clearly yet: "
                           "give 'locations', or wait for the camera")
        depth = max(1, int(seen.depth))
        stacks.append([*([None] * (depth - 1)), seen.top])
    return stacks


def _priorities(body: Body) -> dict[str, Any] | list[Any] | None:
    """Au Toma's priority cards, ``{"A": location, ...}`` or four locations (the engine
    reads them); anything but an object or a list is refused here."""
    value = body._get("priorities", optional=True)
    if value is not None and not isinstance(value, dict | list):
        raise BadInput("'priorities' must be an object {\"A\": location, …} or a list")
    return value


def _variants(body: Body) -> tuple[str, ...]:
    allowed = (MULTIPLAYER_VARIANT, "automa-variant", SELF_BANISH_ALONE)
    raw = body.array("variants", optional=True) or []
    for value in raw:
        if value not in allowed:
            raise BadInput(f"'variants' may hold {', '.join(allowed)}, not {shown(value)}")
    return tuple(raw)


def _solo(seat: SeatSpec, locations: list[list[str | None]], first: int | None, level: int,
          priorities: Any, parity: str | None, variants: tuple[str, ...],
          rng: random.Random) -> Setup:
    cores = [CARDS[c].core for s in locations for c in s if c is not None]
    if parity is None and len(cores) < sum(len(s) for s in locations):
        raise BadInput("name all eight setup cards in 'locations', or give 'parity' "
                       "(the word Au Toma's odd/even card shows)")
    try:
        her = automa.automa_setup(rng, level=level, priorities=priorities,
                                  variant="automa-variant" in variants,
                                  parity=Parity(parity) if parity else automa.parity_of(cores))
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    apollo = seat.house is House.APOLLO
    if first is None and not apollo:
        raise BadInput("'first': 0 if you go first, 1 if Au Toma does")
    start = 0 if apollo else first
    assert start is not None
    rulings = tuple(v for v in variants if v in PLAY_SETTINGS.values())
    return automa.tracked_solo_game(seat.name, seat.house, locations, first=start,
                                    automa=her, variants=rulings)
