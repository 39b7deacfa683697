"""The tracker plugged into the service: what the camera sees becomes game events.

:class:`TableTracking` installs itself as the service's camera, button and question
hooks (they run on the engine thread). A stable camera view goes to the
:class:`~device.tracker.Tracker`; its verdict is applied through
:meth:`device.service.Service.apply` (journaled, one update), and an open question is
published for the page and the LED. A button press is evidence too (DIE: the deck was
taken; NEXT: my part is done); when the tracker finds nothing in it, the button keeps
its plain meaning (:mod:`device.controls`), e.g. AUTOMA confirming Au Toma's unseen
step.
"""

from __future__ import annotations

from typing import Any

from device.perception import view_from_stable
from device.service import AnswerQuestion, CameraChanges, Press, Service, Update
from device.tracker import Button, Tracker, Verdict, View, view_of
from engine.game import Game

BUTTONS = {"die": Button.DIE, "next": Button.NEXT, "automa": Button.AUTOMA}


class TableTracking:
    """Camera views and buttons → the tracker → journaled events and questions."""

    def __init__(self, tracker: Tracker | None = None) -> None:
        self.tracker = tracker or Tracker()
        self.view: View | None = None

    def install(self, service: Service) -> None:
        service.on_camera = self.on_camera
        service.on_press = self.on_press
        service.on_question = self.on_question

    def on_camera(self, service: Service, command: CameraChanges) -> Update | None:
        """A stable change: explain the whole view (None while a location is covered)."""
        view = view_from_stable(command.reading or {})
        if view is None:
            return None
        self.view = view
        return self._apply(service, self.tracker.observe(service.game, view), "camera")

    def on_press(self, service: Service, command: Press) -> Update | None:
        button = BUTTONS.get(command.button)
        if button is None:
            return None  # UNDO keeps its plain meaning
        view = self.view or view_of(service.game.state)
        verdict = self.tracker.press(service.game, button, view)
        if not (verdict.play or verdict.undo or verdict.question):
            return None
        return self._apply(service, verdict, command.source)

    def on_question(self, service: Service, command: AnswerQuestion) -> Update:
        verdict = self.tracker.answer(service.game, command.index)
        update = self._apply(service, verdict, command.source)
        assert update is not None
        return update

    def _apply(self, service: Service, verdict: Verdict, source: str) -> Update | None:
        update = None
        if verdict.play or verdict.undo:
            undo = raw_undo(service.game, verdict.undo)
            update = service.apply(verdict.play, undo=undo, source=source)
        self.tracker.applied(service.game, verdict)
        service.question = self.tracker.question
        if verdict.question is not None:
            return service.notify("question", verdict.question.prompt, source="tracker")
        if update is None and verdict.text:
            return service.notify("camera", verdict.text, source="tracker")
        return update


def raw_undo(game: Game, own: int) -> int:
    """Log entries to drop to take back ``own`` tracker events (and die rolls after them)."""
    entries, taken = 0, 0
    log_length = len(game.log)
    while taken < own and entries < log_length:
        index = log_length - 1 - entries
        before = game.states[index].pending
        entries += 1
        if not (before is not None and before.is_chance):
            taken += 1
    return entries


def question_json(question: Any) -> dict[str, Any] | None:
    """The open question as the page shows it (the prompt and one button per reading)."""
    if question is None:
        return None
    return {"prompt": question.prompt,
            "options": [{"index": i, "label": r.text} for i, r in enumerate(question.readings)]}
