"""Au Toma's data: her 22 cards, her setup, and what the game remembers about her.

Kept apart from :mod:`engine.automa` (her rules) so that :mod:`engine.state` and
:mod:`engine.events` can hold these values without importing the rules.

A deck file is a JSON object with one row per card (see ``automa_deck.json``);
:func:`parse_deck` checks it strictly and names the card and field at fault:

>>> parse_deck('[]')
Traceback (most recent call last):
...
engine.automa_state.AutomaDeckError: automa_deck.json: the file must hold one JSON object
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.board import Location
from engine.errors import CatalogueError

DECK_FILE = "automa_deck.json"
DECK_FORMAT = "au-toma-deck 1"
DECK_SIZE = 22
ASIDE = 4  # set aside unseen after every shuffle: one cycle is 18 cards, 9 turns
LEVELS = range(1, 7)
LETTERS = ("A", "B", "C", "D")
PLACES = ("jupiter", "mars", "luna", "institute")
SECTIONS = (*PLACES, *LETTERS)


class Arrow(StrEnum):
    """The way an Au Toma card's tiebreaker arrow points."""

    LEFT = "left"  # towards Jupiter
    RIGHT = "right"  # towards The Institute


class Extra(StrEnum):
    """An Au Toma card's Extras section."""

    NONE = "none"  # blank
    BONUS = "bonus"
    BANISH = "banish"


class Parity(StrEnum):
    """The word showing on Au Toma's odd/even card."""

    ODD = "odd"
    EVEN = "even"


ARROWS = tuple(a.value for a in Arrow)
EXTRAS = tuple(e.value for e in Extra)
PARITIES = tuple(p.value for p in Parity)
COLUMNS = ("id", "deploy", "gain", "tiebreaker", "extra")
_KEYS = frozenset({"format", "notes", "columns", "cards"})


class AutomaDeckError(CatalogueError):
    """An Au Toma deck file (or a deck carried by a Setup event) is malformed."""


@dataclass(frozen=True, slots=True)
class AutomaCard:
    """One Au Toma card: deploy and gain sections, tiebreaker arrow, extras."""

    id: int
    deploy: str  # a location value or a priority letter A–D
    gain: str
    tiebreaker: Arrow
    extra: Extra

    @property
    def arrow(self) -> int:
        """The tiebreaker as a step along the board: -1 left, +1 right."""
        return -1 if self.tiebreaker == Arrow.LEFT else 1


@dataclass(frozen=True, slots=True)
class AutomaSetup:
    """Her part of a solo game's Setup event (all of it drawn at setup, so replay needs
    no randomness)."""

    level: int  # difficulty 1–6
    priorities: tuple[Location, ...]  # the locations holding priority cards A, B, C, D
    deck: tuple[int, ...]  # her face-down deck, top first
    aside: tuple[int, ...]  # the 4 cards set aside unseen
    cards: tuple[AutomaCard, ...]  # the 22 card definitions used in this game
    variant: bool = False  # keep Auctioneer, Eo, Psychologist and Roque (variant rules)
    parity: Parity | None = None  # the odd/even card; None = worked out from the locations


@dataclass(frozen=True)
class AutomaState:
    """Everything about Au Toma that is not on her Player: cards, priorities, deck."""

    seat: int
    level: int
    parity: Parity  # the word showing on her odd/even card
    priorities: tuple[Location, ...]  # A, B, C, D
    luna_icon: Location  # the icon showing on the Luna bonus card
    cards: tuple[AutomaCard, ...]  # by id: cards[i] has id i + 1
    deck: tuple[int, ...]  # top first
    aside: tuple[int, ...]
    discards: tuple[int, ...] = ()  # face up; anyone may look through them
    current: int | None = None  # the card being resolved
    variant: bool = False

    def card(self, card_id: int) -> AutomaCard:
        return self.cards[card_id - 1]

    def letter_at(self, location: Location) -> str:
        """The priority letter above ``location``."""
        return LETTERS[self.priorities.index(location)]

    def __str__(self) -> str:
        letters = " ".join(f"{ch}:{loc.value}" for ch, loc in zip(LETTERS, self.priorities,
                                                                  strict=True))
        now = f" card {self.current}" if self.current is not None else ""
        return (
            f"automa L{self.level} {self.parity} {letters} luna+{self.luna_icon.value}"
            f" deck {len(self.deck)} aside {len(self.aside)} discards {len(self.discards)}{now}"
        )


# --- the deck file -------------------------------------------------------------------


def parse_deck(text: str, source: str = DECK_FILE) -> tuple[AutomaCard, ...]:
    """The 22 cards of a deck file's text, by id.

    :raises AutomaDeckError: naming the file, the card and the field at fault.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AutomaDeckError(f"{source}: not valid JSON ({exc})") from None
    rows = _rows(data, source)
    cards = tuple(_card(row, n, source) for n, row in enumerate(rows, start=1))
    return check_deck(cards, source)


def _rows(data: Any, source: str) -> list[Any]:
    if not isinstance(data, dict):
        raise AutomaDeckError(f"{source}: the file must hold one JSON object")
    extra = sorted(set(data) - _KEYS)
    if extra:
        raise AutomaDeckError(f"{source}: unknown key {extra[0]!r} (allowed: "
                              f"{', '.join(sorted(_KEYS))})")
    if data.get("format") != DECK_FORMAT:
        raise AutomaDeckError(f'{source}: "format" must be "{DECK_FORMAT}"')
    if data.get("columns") != list(COLUMNS):
        wanted = ", ".join(f'"{c}"' for c in COLUMNS)
        raise AutomaDeckError(f'{source}: "columns" must be [{wanted}], in that order')
    rows = data.get("cards")
    if not isinstance(rows, list):
        raise AutomaDeckError(f'{source}: "cards" must be a list of rows')
    return rows


def _card(row: Any, n: int, source: str) -> AutomaCard:
    if not isinstance(row, list) or len(row) != len(COLUMNS):
        raise AutomaDeckError(f"{source}: row {n} must be a list of {len(COLUMNS)} values "
                              f"({', '.join(COLUMNS)}), not {json.dumps(row)}")
    card_id = row[0]
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        raise AutomaDeckError(f"{source}: row {n}: id must be a whole number, not "
                              f"{json.dumps(card_id)}")
    for column, value in zip(COLUMNS[1:], row[1:], strict=True):
        if not isinstance(value, str):
            raise AutomaDeckError(f"{source}: card {card_id}: {column} must be a string, not "
                                  f"{json.dumps(value)}")
    _check_row(card_id, row[1:], source)  # before the enums, so the message names the field
    return AutomaCard(card_id, row[1], row[2], Arrow(row[3]), Extra(row[4]))


def check_deck(cards: Sequence[AutomaCard], source: str = DECK_FILE) -> tuple[AutomaCard, ...]:
    """Validate 22 card definitions; returns them sorted by id.

    :raises AutomaDeckError: for a missing or repeated id or a value out of range.
    """
    for card in cards:
        check_card(card, source)
    counts = Counter(card.id for card in cards)
    twice = sorted(i for i, n in counts.items() if n > 1)
    if twice:
        raise AutomaDeckError(f"{source}: card {twice[0]} appears {counts[twice[0]]} times")
    missing = [i for i in range(1, DECK_SIZE + 1) if i not in counts]
    if missing:
        listed = ", ".join(map(str, missing))
        raise AutomaDeckError(f"{source}: the deck has {len(cards)} cards; missing id {listed}")
    return tuple(sorted(cards, key=lambda c: c.id))


def check_card(card: AutomaCard, source: str = DECK_FILE) -> None:
    """Validate one card's fields.

    :raises AutomaDeckError: naming the card and the field.
    """
    _check_row(card.id, (card.deploy, card.gain, card.tiebreaker, card.extra), source)


def _check_row(card_id: int, values: Sequence[str], source: str) -> None:
    if not 1 <= card_id <= DECK_SIZE:
        raise AutomaDeckError(f"{source}: card {card_id}: id must be 1 to {DECK_SIZE}")
    allowed_by_column = (SECTIONS, SECTIONS, ARROWS, EXTRAS)
    for column, allowed, value in zip(COLUMNS[1:], allowed_by_column, values, strict=True):
        if value not in allowed:
            raise AutomaDeckError(f"{source}: card {card_id}: {column} is {str(value)!r}; it "
                                  f"must be one of {', '.join(allowed)}")


def to_rows(cards: Sequence[AutomaCard]) -> list[list[object]]:
    """The deck as the file's rows (for printing a deck to check it)."""
    return [[c.id, c.deploy, c.gain, c.tiebreaker, c.extra] for c in cards]
