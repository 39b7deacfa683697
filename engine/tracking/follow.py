"""A game kept in step with the table: camera views, buttons and answers in, events out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.board import LOCATIONS, Location
from engine.errors import IllegalActionError
from engine.events import (
    Event,
)
from engine.game import Game
from engine.narration import Ask
from engine.state import Phase
from engine.tracking.question import LOCATION, Then, Verdict, location_question
from engine.tracking.tracker import Tracker
from engine.tracking.view import (
    Button,
    Seen,
    TableView,
    Unread,
    as_evidence,
    mismatch,
    view_of,
    with_seen,
)


class Source(StrEnum):
    """Where an event in the log came from."""

    CAMERA = "camera"  # the tracker inferred it from what the camera saw
    ASKED = "asked"  # a question to the table settled it
    TABLE = "table"  # a decision answered on the phone or by a button
    CHANCE = "chance"  # the companion's die or shuffle
    SETUP = "setup"


@dataclass
class Follow:
    """A game kept in step with the table: camera views and buttons in, events out.

    The service and ``companion replay`` both drive one of these, so what a replay
    shows is what the device did. ``game`` answers chance (the Rising die) from its rng.
    ``sources`` says, for every event in the log, where it came from (:class:`Source`).

    A location the camera cannot read (:class:`Unread`) stops nothing: the tracker
    explains what the other three show. Once it is overdue, the table is asked what lies
    there (one :data:`LOCATION` question); the answer is explained as a view of its own,
    and from then on the engine's stack there stands until the camera reads the location
    again (that reading is explained like any other, so a wrong answer shows). The
    table is asked again only when the tracker cannot explain what the camera sees
    without a fresh answer there.
    """

    game: Game
    tracker: Tracker = field(default_factory=Tracker)
    last_view: TableView | None = None
    questions: int = 0  # questions the tracker had to ask
    _dice: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # log index → rng state
    kinds: list[Ask] = field(default_factory=list)  # Question.kind of each
    sources: list[Source] = field(default_factory=list)
    told: set[Location] = field(default_factory=set)  # answered since they went unread
    overdue: frozenset[Location] = frozenset()  # unread long enough to ask about
    asking: Location | None = None  # the location the open location question is about
    _early: set[Location] = field(default_factory=set)  # asked before overdue (_needed_now)
    _unread_views: dict[Location, int] = field(default_factory=dict)  # in a row, till now

    def __post_init__(self) -> None:
        self.sources = [Source.SETUP] * len(self.game.log)

    def on_view(self, view: TableView) -> Verdict:
        self.catch_up()
        self._read_again(view)
        self.overdue = frozenset(loc for loc, seen in zip(LOCATIONS, view, strict=True)
                                 if isinstance(seen, Unread) and seen.overdue)
        self._unread_views = {loc: self._unread_views.get(loc, 0) + 1
                              for loc, seen in zip(LOCATIONS, view, strict=True)
                              if isinstance(seen, Unread)}
        view = as_evidence(view)
        self.last_view = view
        was_open = self._open()
        return self._apply(self.tracker.observe(self.game, view), Source.CAMERA, was_open)

    def on_button(self, button: Button) -> Verdict:
        self.catch_up()
        view = self.last_view or view_of(self.game.state)
        was_open = self._open()
        return self._apply(self.tracker.press(self.game, button, view), Source.CAMERA,
                           was_open)

    def on_tell(self, location: Location, seen: Seen) -> Verdict:
        """The table's answer to "what is on top of ``location``?" (:func:`location_answer`).

        :raises IllegalActionError: when that is not the open question.
        """
        self.catch_up()
        question = self.tracker.question
        if question is None or question.kind is not LOCATION or question.location is not location:
            raise IllegalActionError(f"nobody asked what is on top of {location.label}",
                                     rule="tracker")
        self.tracker.question, self.asking = None, None
        self.told.add(location)  # asked again only when it holds something up
        view = with_seen(self.last_view or view_of(self.game.state), location,
                     replace(seen, told=True))
        # Only this view holds the answer: later ones leave the location unread, and the
        # engine's stack there stands (the table may change it unseen).
        return self._apply(self.tracker.observe(self.game, view, frozenset({location})),
                           Source.ASKED)

    def on_idle(self) -> None:
        """The table has been still a long while and the game has not ended: whatever
        the camera still cannot read is asked about (the last move may lie there)."""
        if self.game.state.phase is Phase.PLAYING:
            self._maybe_ask(self.overdue)

    def _open(self) -> bool:
        """Is one of the tracker's own questions open (more views may refine it)?"""
        question = self.tracker.question
        return question is not None and question.kind is not LOCATION

    def _read_again(self, view: TableView) -> None:
        """The camera reads these locations again: their answers stand in no longer."""
        for loc, seen in zip(LOCATIONS, view, strict=True):
            if isinstance(seen, Seen):
                self.told.discard(loc)
                if seen.depth:
                    self._early.discard(loc)
                if self.asking is loc:
                    self.asking = None  # its question is withdrawn (explaining clears it)

    def _maybe_ask(self, also: frozenset[Location] = frozenset()) -> None:
        """Ask about an overdue location (one question at a time): once when it went
        unread with cards on it (something may be happening there unseen), and again
        whenever the tracker cannot do without a fresh answer there. An empty location
        the camera cannot tell from the table is not asked about until it matters."""
        if self.tracker.question is not None:
            return
        state = self.game.state
        wanted = [loc for loc in LOCATIONS if loc in self.overdue and (
            loc in self.tracker.blind or loc in also
            or (loc not in self.told and state.stack_at(loc)))]
        early = not wanted
        wanted = wanted or self._needed_now()
        if not wanted:
            self.asking = None
            return
        loc = wanted[0]
        if early:
            self._early.add(loc)
        self.tracker.question = location_question(loc, again=loc in self.told)
        if self.asking is not loc:  # re-raised after an explanation cleared it: still one
            self.questions += 1
            self.kinds.append(LOCATION)
        self.asking = loc

    def _needed_now(self) -> list[Location]:
        """Where the tracker waits for a location unread a second view running while
        the table has visibly moved on elsewhere (the die's card put down unseen, the
        next player's deploy seen): what lies there is asked at once, before a later
        move covers it. (On the first view a hand may be lifting from it.) Once only,
        until the camera reads cards there again: after that it waits to be overdue
        (an empty place the camera cannot tell from the table, say)."""
        wanted = [loc for loc in LOCATIONS if loc in self.tracker.blind
                  and loc not in self.told | self._early and self._unread_views.get(loc, 0) >= 2]
        # A count one off under the engine's own top is the camera's commonest slip,
        # not a move (see DEPTH_SLACK).
        view = self.last_view
        if not wanted or view is None or not mismatch(self.game.state, view, 1):
            return []
        return wanted

    def on_answer(self, index: int) -> Verdict:
        """The table answered the open question."""
        self.catch_up()
        return self._apply(self.tracker.answer(self.game, index), Source.ASKED)

    def on_event(self, event: Event) -> Verdict:
        """A decision answered on the phone or by a button; then the view is rechecked."""
        self._play(event, Source.TABLE)
        return self.recheck()

    def take_back(self, length: int) -> Verdict:
        """The table took the game back to ``length`` events (UNDO: "that is not what
        happened"); the latest view is explained again without what was taken back."""
        if not 1 <= length <= len(self.game.log):
            raise IllegalActionError(f"cannot take the game back to {length} events",
                                     rule="undo")
        while len(self.game.log) > length:
            self.game.undo()
        return self.recheck()

    def recheck(self) -> Verdict:
        """Explain the latest view again (the table answered something meanwhile)."""
        self.catch_up()
        return self._apply(self.tracker.recheck(self.game), Source.CAMERA)

    def catch_up(self) -> None:
        """Account for events played on the game by others (the service's page, buttons)."""
        states = self.game.states
        del self.sources[len(self.game.log):]  # …or taken back by them
        for i in range(len(self.sources), len(self.game.log)):
            before = states[i].pending
            self.sources.append(Source.CHANCE if before is not None and before.is_chance
                                else Source.TABLE)

    def count(self, source: str) -> int:
        return self.sources.count(Source(source))

    def _apply(self, verdict: Verdict, source: Source, was_open: bool = False) -> Verdict:
        for _ in range(verdict.undo):
            self._undo_own()
        for event in verdict.play:
            self._play(event, source)
        self.tracker.applied(self.game, verdict)
        if verdict.question is not None and not was_open:
            self.questions += 1  # a question still open and refined by more views is one
            self.kinds.append(verdict.question.kind)
        if verdict.then is Then.AGAIN:
            # After the roll, what the views show is the camera's to explain, whoever
            # brought the roll (an answer's reading that ends at the die, say).
            return self._apply(self.tracker.recheck(self.game), Source.CAMERA)
        self._maybe_ask()
        return verdict

    def _play(self, event: Event, source: Source) -> None:
        before = len(self.game.log)
        rng = self.game.rng.getstate() if self.game.rng is not None else None
        self.game.play(event)
        self.sources.append(source)
        self.sources.extend([Source.CHANCE] * (len(self.game.log) - before - 1))
        if rng is not None and len(self.game.log) > before + 1:
            self._dice[before] = rng

    def _undo_own(self) -> None:
        """Undo one tracker event, with the die rolls that followed it.

        The die is wound back too: the same move played again rolls the same face (the
        table heard it once; taking a reading back does not re-roll it).
        """
        while self.sources and self.sources[-1] is Source.CHANCE:
            self.game.undo()
            self.sources.pop()
        self.game.undo()
        self.sources.pop()
        rng = self._dice.pop(len(self.game.log), None)
        if rng is not None and self.game.rng is not None:
            self.game.rng.setstate(rng)
