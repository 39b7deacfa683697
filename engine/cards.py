"""The 112 character cards: ids, names, castes, core values and ability summaries.

The facts live in ``cards.json`` beside this module; the texts there are the
project's own one-line summaries of the printed abilities.

>>> CARDS["dr-virany"].name
'Dr. Virany'
>>> card_id("Pax au Telemanus")
'pax-au-telemanus'
>>> len(ALL_IDS)
112
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from engine.errors import CatalogueError, UnknownCardError


class Color(StrEnum):
    """The 14 castes. Only Gold has 21 cards; every other caste has 7."""

    GOLD = "gold"
    SILVER = "silver"
    WHITE = "white"
    COPPER = "copper"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"
    VIOLET = "violet"
    ORANGE = "orange"
    RED = "red"
    BROWN = "brown"
    GRAY = "gray"
    OBSIDIAN = "obsidian"
    PINK = "pink"


@dataclass(frozen=True, slots=True)
class Card:
    """One printed character card."""

    id: str
    name: str
    color: Color
    role: str
    core: int
    deploy: str | None
    block: str | None
    end_of_game: str | None
    bonuses: tuple[str, ...]

    @property
    def is_gold(self) -> bool:
        return self.color is Color.GOLD

    @property
    def has_end_of_game(self) -> bool:
        return self.end_of_game is not None

    @property
    def is_block(self) -> bool:
        return self.block is not None


_SLUG = re.compile(r"[^a-z0-9]+")


def card_id(name: str) -> str:
    """The card id contract: lower-case, runs of other characters → one ``-``, trimmed."""
    return _SLUG.sub("-", name.lower()).strip("-")


def _parse(raw: dict[str, Any]) -> Card:
    try:
        card = Card(
            id=str(raw["id"]),
            name=str(raw["name"]),
            color=Color(raw["color"]),
            role=str(raw["role"]),
            core=int(raw["core"]),
            deploy=raw["deploy"],
            block=raw["block"],
            end_of_game=raw["end_of_game"],
            bonuses=tuple(raw["bonuses"]),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise CatalogueError(f"bad card entry {raw!r}: {exc}") from exc
    if card.id != card_id(card.name):
        raise CatalogueError(f"card id {card.id!r} does not follow from its name {card.name!r}")
    return card


def load_catalogue() -> dict[str, Card]:
    """Read ``cards.json`` from the package; ids in alphabetical order."""
    text = resources.files("engine").joinpath("cards.json").read_text(encoding="utf-8")
    cards = [_parse(raw) for raw in json.loads(text)["cards"]]
    by_id = {card.id: card for card in sorted(cards, key=lambda c: c.id)}
    if len(by_id) != len(cards):
        raise CatalogueError("duplicate card ids in cards.json")
    return by_id


CARDS: dict[str, Card] = load_catalogue()
ALL_IDS: tuple[str, ...] = tuple(CARDS)
_BY_NAME: dict[str, str] = {card.name.lower(): card.id for card in CARDS.values()}


def get(cid: str) -> Card:
    """The card with this id.

    :raises UnknownCardError: for an id that is not in the catalogue.
    """
    try:
        return CARDS[cid]
    except (KeyError, TypeError):
        raise UnknownCardError(cid) from None


def check_id(cid: object) -> str:
    """Return ``cid`` if it names a card, else raise :class:`UnknownCardError`."""
    if not isinstance(cid, str) or cid not in CARDS:
        raise UnknownCardError(cid)
    return cid


def by_name(name: str) -> Card:
    """Look a card up by its printed name (case-insensitive) or its id."""
    cid = _BY_NAME.get(name.lower(), card_id(name))
    return get(cid)
