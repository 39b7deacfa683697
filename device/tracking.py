"""The tracker plugged into the service: what the camera sees becomes game events.

:class:`TableTracking` installs itself as the service's camera, button, question and
after-answer hooks (they run on the engine thread). It drives a
:class:`~device.tracker.Follow` on the service's own game — the very object ``companion
replay`` drives — and has the service journal and publish whatever it changed
(:meth:`~device.service.Service.absorb`). An open question is published for the page
and the LED. A button press is evidence too (DIE: the deck was taken; NEXT: my part is
done); when the tracker finds nothing in it, the button keeps its plain meaning
(:mod:`device.controls`), e.g. AUTOMA confirming Au Toma's unseen step.
"""

from __future__ import annotations

from collections.abc import Callable

from device.perception import view_from_stable
from device.service import AnswerQuestion, CameraChanges, Press, Service, Update
from device.tracker import Button, Follow, Tracker, Verdict

BUTTONS = {"die": Button.DIE, "next": Button.NEXT, "automa": Button.AUTOMA}


class TableTracking:
    """Camera views and buttons → the tracker → journaled events and questions."""

    def __init__(self) -> None:
        self.follow: Follow | None = None

    @property
    def tracker(self) -> Tracker | None:
        return self.follow.tracker if self.follow is not None else None

    def install(self, service: Service) -> None:
        service.on_camera = self.on_camera
        service.on_press = self.on_press
        service.on_question = self.on_question
        service.on_played = self.on_played

    def on_camera(self, service: Service, command: CameraChanges) -> Update | None:
        """A stable change: explain the whole view (None while a location is covered)."""
        view = view_from_stable(command.reading or {})
        if view is None:
            return None
        return self._run(service, lambda follow: follow.on_view(view), "camera")

    def on_press(self, service: Service, command: Press) -> Update | None:
        button = BUTTONS.get(command.button)
        if button is None:
            return None  # UNDO keeps its plain meaning
        before = len(service.game.log)
        update = self._run(service, lambda follow: follow.on_button(button), command.source)
        if update is None and len(service.game.log) == before and service.question is None:
            return None  # nothing in it for the tracker: the button's plain meaning
        return update

    def on_question(self, service: Service, command: AnswerQuestion) -> Update:
        update = self._run(service, lambda follow: follow.on_answer(command.index),
                           command.source)
        return update or service.notify("camera", "answered", source="tracker")

    def on_played(self, service: Service, played: Update) -> Update | None:
        """A phone or button answered a decision: the latest view may now be explained."""
        return self._run(service, lambda follow: follow.recheck(), "camera")

    def _follow(self, service: Service) -> Follow:
        if self.follow is None or self.follow.game is not service.game:
            self.follow = Follow(service.game)  # a new game (or the first)
        return self.follow

    def _run(self, service: Service, act: Callable[[Follow], Verdict],
             source: str) -> Update | None:
        follow = self._follow(service)
        before = list(service.game.log)
        was_open = service.question
        verdict = act(follow)
        service.question = follow.tracker.question
        update = service.absorb(before, source)
        if verdict.question is not None and service.question is not was_open:
            return service.notify("question", verdict.question.prompt, source="tracker")
        if update is None and verdict.text:
            return service.notify("camera", verdict.text, source="tracker")
        return update
