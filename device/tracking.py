"""The tracker plugged into the service: what the camera sees becomes game events.

:class:`TableTracking` is the service's :class:`~device.service.Follower` (its handlers
run on the engine thread). It drives a
:class:`~engine.tracking.Follow` on the service's own game — the very object ``companion
replay`` drives — and has the service journal and publish whatever it changed
(:meth:`~device.service.Service.absorb`). An open question is published for the page
and the LED. A button press is evidence too (DIE: the deck was taken; NEXT: my part is
done); when the tracker finds nothing in it, the button keeps its plain meaning
(:mod:`device.controls`), e.g. AUTOMA confirming Au Toma's unseen step.

A location the camera cannot read for a while becomes one question, "What is on top
of Luna?" (:data:`LOCATION_QUESTION`, spoken and shown with the LED blinking), answered
with a card, a card face down or nothing. Where the table says a card lies face down,
or the game knows one does and the camera cannot read it, the card back is learnt from
that location (:mod:`device.backs`).
"""

from __future__ import annotations

from collections.abc import Callable

from device.perception import ASK_AFTER_S, UNREAD_AFTER_S, view_from_stable, with_strips
from device.service import AnswerQuestion, CameraChanges, Press, Service, Update
from engine.board import LOCATIONS, Location
from engine.errors import IllegalActionError
from engine.tracking import LOCATION, UNREAD, Button, Follow, Seen, Tracker, Unread, Verdict
from engine.tracking.options import camera_answers

BUTTONS = {button.value: button for button in Button}
BLIND = (UNREAD, UNREAD, UNREAD, UNREAD)  # the view of a gap in the frames
LOCATION_QUESTION = "location-question"  # the notice kind: said aloud, LED attention
# Where a card back lies the camera cannot read: location → called to learn it there.
LearnBack = Callable[[Location], None]


class TableTracking:
    """Camera views and buttons → the tracker → journaled events and questions."""

    def __init__(self, *, unread_after: float = UNREAD_AFTER_S, ask_after: float = ASK_AFTER_S,
                 learn_back: LearnBack | None = None) -> None:
        self.follow: Follow | None = None
        self.unread_after, self.ask_after = unread_after, ask_after
        self.learn_back = learn_back
        self._backs_learnt: set[tuple[Location, int]] = set()  # (location, depth) done

    @property
    def tracker(self) -> Tracker | None:
        return self.follow.tracker if self.follow is not None else None

    def install(self, service: Service) -> None:
        """Follow the table for ``service`` (its :class:`~device.service.Follower`)."""
        service.follower = self

    def on_camera(self, service: Service, command: CameraChanges) -> Update | None:
        """A stable change: explain the whole view (None while a location settles). A gap
        in the frames is a view with nothing read: whatever came and went meanwhile may
        be explained by moves nobody saw (Au Toma's card put down and gained again)."""
        if command.blind:
            self._run(service, lambda follow: follow.on_view(BLIND), "camera")
            return None
        view = view_from_stable(command.reading or {}, self.unread_after, self.ask_after)
        if view is None:
            return None
        view = with_strips(view, command.strips)
        update = self._run(service, lambda follow: follow.on_view(view), "camera")
        self._learn_unread_backs(service, view)
        return update

    def on_press(self, service: Service, command: Press) -> Update | None:
        button = BUTTONS.get(command.button)
        if button is None:
            return None  # UNDO keeps its plain meaning
        before = len(service.game.log)
        update = self._run(service, lambda follow: follow.on_button(button), command.source)
        if update is None and len(service.game.log) == before and service.question is None:
            return self._waiting(service, button)  # else the button's plain meaning
        return update

    def _waiting(self, service: Service, button: Button) -> Update | None:
        """A press the tracker keeps as evidence, while what it follows is still to be
        seen: played by its plain meaning now, it would run ahead of the table."""
        tracker = self.tracker
        if tracker is not None and tracker.blind and button is not Button.AUTOMA:
            # The move it follows was made where the camera cannot read (the table is
            # asked there once it has been unread a while): DIE now would draw for the
            # player before them.
            where = ", ".join(loc.label for loc in LOCATIONS if loc in tracker.blind)
            return service.notify("camera", f"{button.value.upper()} noted; waiting to see "
                                  f"{where}", source="tracker")
        pending = service.game.state.pending
        if button is Button.AUTOMA and pending is not None and any(
                camera_answers(option) for option in pending.options):
            # Au Toma's card is put down (or taken) by hand: the camera names it.
            return service.notify("camera", "AUTOMA noted; waiting to see her card",
                                  source="tracker")
        return None

    def on_question(self, service: Service, command: AnswerQuestion) -> Update:
        if command.told is not None:
            return self._tell(service, command.told, command.source)
        update = self._run(service, lambda follow: follow.on_answer(command.index),
                           command.source)
        return update or service.notify("camera", "answered", source="tracker")

    def _tell(self, service: Service, told: Seen, source: str) -> Update:
        """The answer to "what is on top of Luna?"."""
        question = service.question
        if question is None or question.kind is not LOCATION or question.location is None:
            raise IllegalActionError("the open question is not about a location",
                                     rule="tracker")
        where = question.location
        update = self._run(service, lambda follow: follow.on_tell(where, told), source)
        if told.face_down:
            self._learn_back(where, told.depth)
        return update or service.notify("camera", f"{where.label}: noted", source="tracker")

    def idle(self, service: Service) -> bool:
        """The table has been still a long while: ask again about what the camera still
        cannot read (the last move may lie there). True when a question is open."""
        if self.follow is None or self.follow.last_view is None:
            return False
        if not any(isinstance(seen, Unread) for seen in self.follow.last_view):
            return False
        def ask_again(follow: Follow) -> Verdict:
            follow.on_idle()
            return Verdict()

        self._run(service, ask_again, "camera")
        return service.question is not None

    def on_played(self, service: Service, played: Update) -> Update | None:
        """A phone or button answered a decision: the latest view may now be explained."""
        return self._run(service, lambda follow: follow.recheck(), "camera")

    def _follow(self, service: Service) -> Follow:
        if self.follow is None or self.follow.game is not service.game:
            self.follow = Follow(service.game)  # a new game (or the first)
            self._backs_learnt.clear()
        return self.follow

    def _run(self, service: Service, act: Callable[[Follow], Verdict],
             source: str) -> Update | None:
        follow = self._follow(service)
        before = list(service.game.log)
        was_open = service.question
        verdict = act(follow)
        service.question = follow.tracker.question
        update = service.absorb(before, source)
        question = service.question
        if question is not None and question != was_open:
            kind = LOCATION_QUESTION if question.kind is LOCATION else "question"
            return service.notify(kind, question.prompt, source="tracker")
        if update is None and verdict.text:
            return service.notify("camera", verdict.text, source="tracker")
        return update

    def _learn_unread_backs(self, service: Service, view: tuple[Seen | Unread, ...]) -> None:
        """The game knows a card lies face down where the camera cannot read: its back
        differs from the one the classifier knows, so learn it there."""
        for loc, seen in zip(LOCATIONS, view, strict=True):
            stack = service.game.state.stack_at(loc)
            if isinstance(seen, Unread) and stack and stack[-1].face_down:
                self._learn_back(loc, len(stack))

    def _learn_back(self, location: Location, depth: int) -> None:
        if self.learn_back is not None and (location, depth) not in self._backs_learnt:
            self._backs_learnt.add((location, depth))
            self.learn_back(location)
