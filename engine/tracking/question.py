"""What the tracker asks the table, and what it tells the game to do.

A :class:`Question` is data (its :class:`~engine.narration.Phrasing`: kind, readings;
and the state they are played from), worded once by :mod:`engine.narration` for the page, the
voice and the log. A :class:`Verdict` says which of the tracker's own events to undo
and which to play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine import narration
from engine.board import Location
from engine.events import (
    Event,
)
from engine.narration import Answer, Ask, Reading
from engine.state import GameState


@dataclass(frozen=True)
class Question:
    """Something only the table can settle, as data: the narration words it.

    ``ask`` carries the kind, the location asked about and the readings as they part
    (each played from ``start``); ``shared`` are the events every played reading begins
    with, from the tracker's last settled point (so ``start`` follows them).
    """

    ask: narration.Phrasing
    start: GameState | None = None
    shared: tuple[Event, ...] = ()

    @property
    def kind(self) -> Ask:
        return self.ask.kind

    @property
    def location(self) -> Location | None:
        return self.ask.location

    @property
    def prompt(self) -> str:
        return narration.question_text(self.ask)

    @property
    def readings(self) -> tuple[Reading, ...]:
        """Each answer whole: a played reading's events run from the settled point."""
        return tuple(Reading(self.shared + r.events, r.answer) if r.answer is Answer.PLAY
                     else r for r in self.ask.readings)

    def texts(self, names: narration.Names = narration.printed) -> list[str]:
        """One label per reading, as the page shows it and the voice would say it."""
        start = self.start
        if start is None:
            return []
        return [narration.reading_text(r, start, self.ask.player, names)
                for r in self.ask.readings]


# Question kinds (the narration's): nothing explains what the camera saw; a card left a
# stack from under others, and only depth changed; several sequences of moves fit the
# views; the camera cannot read a location (the answer is what lies there, Follow.on_tell).
UNEXPECTED, COVERED_CARD, ORDER, LOCATION = (Ask.UNEXPECTED, Ask.COVERED_CARD, Ask.ORDER,
                                             Ask.LOCATION)


def location_question(location: Location, again: bool = False) -> Question:
    """"What is on top of Luna?": answered with a card, a card face down, or nothing."""
    return Question(narration.Phrasing(Ask.LOCATION, location=location, again=again))


class Then(StrEnum):
    """What follows once a verdict is applied."""

    GO_ON = "go on"  # the next view or press
    # The camera cannot settle the engine's next decision (a card to name, a choice
    # nobody sees): the table answers it on the phone.
    WAIT = "wait"
    AGAIN = "again"  # the die is rolled: explain the latest view again


@dataclass(frozen=True)
class Verdict:
    """What to do: undo this many of the tracker's own events, then play these."""

    undo: int = 0
    play: tuple[Event, ...] = ()
    question: Question | None = None
    text: str = ""
    then: Then = Then.GO_ON
