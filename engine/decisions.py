"""Pending decisions: who must answer, and the legal answers.

Where a rule needs somebody's choice the engine stops and records a
:class:`Decision`. Its ``options`` are the legal moves, so a bot, a button or the
phone can answer by picking one. A decision whose ``player`` is None is a chance
node (a die roll, a random card): whoever drives the engine answers it from an
injected ``random.Random``.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import NamedTuple

from engine.events import Event
from engine.steps import Step


class Kind(StrEnum):
    """What sort of question a decision is (for bots, buttons and the page)."""

    TURN = "turn"  # Lead (which card where) or Scout
    GAIN = "gain"  # Lead's gain step: a location or the deck
    PLACE = "place"  # where to place a turned-over card
    ROLL = "roll"  # chance: the Rising die
    FACE = "face"  # Minerva rolled the Sovereign: pick another face
    TARGET = "target"  # a card on a location
    BLOCK = "block"  # reveal a block card, or not
    CHOOSE = "choose"  # any other choice (ability options)
    RANDOM = "random"  # chance: a random card or order
    CONFIRM = "confirm"  # the table confirms a physical step happened


class Decision(NamedTuple):
    """A question the game is waiting on.

    A NamedTuple, like :class:`~engine.steps.Step`: one is made for nearly every event,
    and tuples are built several times faster than frozen dataclasses.
    """

    kind: Kind
    player: int | None
    prompt: str
    options: tuple[Event, ...]
    then: Step
    # A side-effect-free step that asks this again with fresh options, used after a
    # correction changes the table while the question is open (None: keep the options).
    refresh: Step | None = None

    @property
    def is_chance(self) -> bool:
        return self.player is None

    def accepts(self, event: Event) -> bool:
        """True if ``event`` is one of the options.

        An option may leave a field unset (None) when the engine cannot know it, such as
        a card nobody has seen; an answer that fills it in then matches (the rule that
        receives it checks the value).
        """
        options = self.options
        if self.offers(event) or event in options:
            return True
        return any(_fills(option, event) for option in options)

    def offers(self, event: Event) -> bool:
        """True if ``event`` is one of the option objects themselves (not an equal copy).

        Options are shared values and bots answer with one of them, so this finds most
        answers without comparing dataclasses field by field.
        """
        for option in self.options:  # noqa: SIM110 - a plain loop is 3x faster than any()
            if option is event:
                return True
        return False


def _fills(option: Event, event: Event) -> bool:
    if type(option) is not type(event):
        return False
    for f in dataclasses.fields(option):
        wanted = getattr(option, f.name)
        if wanted is not None and wanted != getattr(event, f.name):
            return False
    return True
