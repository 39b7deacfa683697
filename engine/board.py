"""The board: the four locations, their bonuses and caps, the houses.

>>> [loc.value for loc in Location]
['jupiter', 'mars', 'luna', 'institute']
>>> Location.MARS.bonus
<Bonus.HELIUM: 'helium'>
"""

from __future__ import annotations

from enum import StrEnum

FLEET_MAX = 10
INFLUENCE_TOKENS = 10
SOLO_REMOVED = ("auctioneer", "eo", "loan-shark", "psychologist", "roque")


class Bonus(StrEnum):
    """What a location (or a die face of the same name) gives."""

    FLEET = "fleet"
    HELIUM = "helium"
    SOVEREIGN = "sovereign"
    INFLUENCE = "influence"


class Location(StrEnum):
    """The four locations in board order, left to right."""

    JUPITER = "jupiter"
    MARS = "mars"
    LUNA = "luna"
    INSTITUTE = "institute"

    # Board position, 0 (Jupiter) to 3 (The Institute). A plain attribute of each
    # member (set below), not a property: every stack access reads it.
    pos: int

    @property
    def bonus(self) -> Bonus:
        return _BONUS[self]

    @property
    def label(self) -> str:
        """The name as printed on the board."""
        return "The Institute" if self is Location.INSTITUTE else self.value.capitalize()

    def step(self, direction: int) -> Location:
        """The neighbouring location, wrapping round (``-1`` left, ``+1`` right)."""
        return _ORDER[(self.pos + direction) % len(_ORDER)]

    def others(self) -> tuple[Location, ...]:
        return tuple(loc for loc in _ORDER if loc is not self)


_ORDER: tuple[Location, ...] = tuple(Location)
LOCATIONS = _ORDER  # iterating a tuple is much faster than iterating the Enum
for _pos, _loc in enumerate(_ORDER):
    _loc.pos = _pos
_BONUS = {
    Location.JUPITER: Bonus.FLEET,
    Location.MARS: Bonus.HELIUM,
    Location.LUNA: Bonus.SOVEREIGN,
    Location.INSTITUTE: Bonus.INFLUENCE,
}


def location_of(bonus: Bonus) -> Location:
    """The location whose bonus this is."""
    return next(loc for loc in _ORDER if _BONUS[loc] is bonus)


class House(StrEnum):
    """The six house tiles; each fires its ability whenever its player gains the Sovereign."""

    APOLLO = "apollo"
    CERES = "ceres"
    DIANA = "diana"
    JUPITER = "jupiter"
    MARS = "mars"
    MINERVA = "minerva"


FACE_UP_PER_LOCATION = 2  # cards dealt face up to each location
NEUTRAL_INFLUENCE = 3  # an unused house's tokens on the Institute in two-seat games


def starting_hand_size(house: House | None) -> int:
    """Five cards; House Ceres draws six."""
    return 6 if house is House.CERES else 5
