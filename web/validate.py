"""Request bodies → engine events, checked field by field before anything runs.

A :class:`Body` reads one JSON object: each accessor checks one field's type and
range and raises :class:`~web.errors.BadInput` naming the field; :meth:`Body.done`
rejects fields nobody asked for, so a typo never passes silently.
"""

from __future__ import annotations

from typing import Any

from engine.board import FLEET_MAX, INFLUENCE_TOKENS, Location
from engine.cards import CARDS
from engine.events import (
    Choose,
    Event,
    Identify,
    Lead,
    Place,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.setup import MAX_SEATS
from web.errors import BadInput

MAX_STACK = 112  # no stack can hold more cards than the game has
MAX_HELIUM = 999
MAX_HAND = 112


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
        value = self._get(name, optional=False)
        if not isinstance(value, str):
            raise BadInput(f"{name!r} must be a string")
        if len(value) > max_length:
            raise BadInput(f"{name!r} is longer than {max_length} characters")
        return value

    def choice(self, name: str, allowed: tuple[str, ...], *, default: str) -> str:
        """One of a few words."""
        value = self._get(name, optional=True)
        if value is None:
            return default
        if value not in allowed:
            raise BadInput(f"{name!r} must be one of {', '.join(allowed)}, not {value!r}")
        return str(value)

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
        if not isinstance(value, list):
            raise BadInput(f"{name!r} must be a list")
        if len(value) > MAX_STACK:
            raise BadInput(f"{name!r} holds more than {MAX_STACK} items")
        return value

    def done(self) -> None:
        """Reject any field that was not read."""
        extra = sorted(set(self.data) - self.read)
        if extra:
            raise BadInput(f"unknown field {extra[0]!r}")


def check_int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{name!r} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise BadInput(f"{name!r} must be between {low} and {high}, not {value}")
    return value


def parse_location(value: object, name: str = "location") -> Location:
    if not isinstance(value, str) or value not in _LOCATIONS:
        raise BadInput(f"{name!r} must be one of {', '.join(_LOCATIONS)}, not {value!r}")
    return _LOCATIONS[value]


def parse_card(value: object, name: str = "card") -> str:
    if not isinstance(value, str) or value not in CARDS:
        raise BadInput(f"{name!r}: unknown card id {value!r}")
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
    removed_to = body.choice("removed_to", ("banished", "deck"), default="banished")
    return SetLocation(location, cards, tuple(flags or ()), removed_to)


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


def fill(option: Event, card: str | None) -> Event:
    """The option as the answer, with ``card`` naming the card it leaves open."""
    if card is None:
        return option
    if isinstance(option, Lead) and option.card is None and option.location is not None:
        return Lead(card, option.location)
    if isinstance(option, Place) and option.card is None:
        return Place(option.location, card)
    if isinstance(option, Choose) and option.value is None and option.location is not None:
        return Choose(card, option.location, option.index)
    raise BadInput("'card' is only for an option that leaves its card unnamed")
