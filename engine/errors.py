"""Exceptions raised by the engine.

Every error caused by bad input is a :class:`ValueError`, as python-chess does with
``IllegalMoveError``: callers that only care about "was the input bad?" catch
``ValueError``.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action or event breaks a rule; the state is unchanged.

    ``rule`` names the rule that was broken, so a phone or a log can show it.
    """

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.rule = rule


class UnknownCardError(IllegalActionError):
    """A card id that is not in the catalogue."""

    def __init__(self, card_id: object) -> None:
        super().__init__(f"unknown card id {card_id!r}", rule="card-ids")
        self.card_id = card_id


class CatalogueError(ValueError):
    """A data file (card catalogue, Au Toma deck) is malformed."""
