"""Voice: espeak-ng says die results, Au Toma's steps, end-game alerts and unsaved moves.

Sentences go to a small queue and one worker thread speaks them, so the engine never
waits for a speaker. When espeak-ng is not installed the voice is simply off.
:func:`sentences` (what to say about an update) is pure.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence

from device.hardware.capture import GLARE_HIDES, STACK_PAST_VIEW
from device.recovery import JOURNAL_NOTICE, SPOKEN
from device.reference import CALIBRATE
from device.service import Update
from device.storage import FAILED, SAVED
from device.tracking import LOCATION_QUESTION
from engine import narration
from engine.board import Location
from engine.endgame import turns_left
from engine.events import Face, Roll
from engine.state import ChangeKind, GameState, Phase

log = logging.getLogger("companion.voice")

FACE_WORDS = {face.value: narration.face_word(face) for face in Face}  # as the page says
SPOKEN_NOTICES = {"camera-lost": "Camera lost. The game is safe.", "camera-back": "Camera back.",
                  JOURNAL_NOTICE: SPOKEN}
# notices whose own message is said
SPOKEN_MESSAGES = (STACK_PAST_VIEW, GLARE_HIDES, LOCATION_QUESTION, CALIBRATE, FAILED, SAVED)


class Voice:
    """Speaks sentences one at a time on its own thread; off without the program."""

    MAX_WAITING = 6  # older sentences are dropped rather than spoken late

    def __init__(self, command: Sequence[str] = ("espeak-ng",), *,
                 on_error: Callable[[str], None] | None = None,
                 on_spoken: Callable[[str], None] | None = None) -> None:
        self.command = list(command)
        self.enabled = bool(self.command) and shutil.which(self.command[0]) is not None
        self.on_error = on_error or (lambda message: None)
        self.on_spoken = on_spoken or (lambda text: None)
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._failing = False  # report a broken speaker once, not every sentence

    def say(self, text: str) -> bool:
        """Queue ``text``; False when the voice is off. Never blocks."""
        if not self.enabled or not text:
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
            self._thread.start()
        while self._queue.qsize() >= self.MAX_WAITING:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._queue.put(text)
        return True

    def close(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while (text := self._queue.get()) is not None:
            self._speak(text)

    def _speak(self, text: str) -> None:
        try:
            result = subprocess.run([*self.command, text], capture_output=True, timeout=30,
                                    check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            self._failed(str(exc))
            return
        if result.returncode != 0:
            detail = result.stderr.decode(errors="replace").strip().splitlines()
            self._failed(detail[-1] if detail else f"exit status {result.returncode}")
            return
        self._failing = False
        self.on_spoken(text)

    def _failed(self, why: str) -> None:
        log.warning("voice failed: %s", why)
        if not self._failing:
            self.on_error(f"voice failed: {why}")
        self._failing = True


class Announcer:
    """A service listener that turns updates into sentences for a :class:`Voice`."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self.previous: GameState | None = None

    def __call__(self, update: Update) -> None:
        for text in sentences(update, self.previous):
            self.voice.say(text)
        self.previous = update.state


def sentences(update: Update, previous: GameState | None) -> list[str]:
    """What to say about ``update`` (``previous``: the state before it).

    The words are :mod:`engine.narration`'s, the same as the page's.
    """
    if update.kind in SPOKEN_NOTICES:
        return [SPOKEN_NOTICES[update.kind]]
    if update.kind in SPOKEN_MESSAGES:
        return [update.message]
    if update.kind == "error":
        return [update.message.split(":", 1)[-1].strip()] if update.source == "button" else []
    state = update.state
    out = _rolls(update)
    out += _automa_moves(update)
    out += _end_game(state, previous)
    out += _automa_step(update, previous)
    return out


def _rolls(update: Update) -> list[str]:
    if update.kind != "event":
        return []
    players = update.state.players
    named = {c.card: c.player for c in update.state.changes if c.kind == ChangeKind.ROLL}
    out = []
    for event in update.events:
        if isinstance(event, Roll):
            who = named.get(event.face.value)
            name = players[who].name if who is not None else "The die"
            out.append(f"{narration.roll_text(event.face, name)}.")
    return out


def _automa_step(update: Update, previous: GameState | None) -> list[str]:
    """Her step waiting for the table, said when it comes up (her card's number first),
    in the words her card shows on the page."""
    if update.kind not in ("event", "new-game", "undo"):
        return []
    state = update.state
    turn = narration.automa_turn([state])
    now = turn.now if turn is not None else None
    if turn is None or now is None:
        return []
    if previous is not None and previous.pending == state.pending:
        return []  # the same step as before (said already)
    name = state.players[turn.seat].name
    out = []
    if previous is None or narration.automa_turn([previous]) is None or (
            getattr(previous.automa, "current", None) != turn.card):
        out.append(f"{name} plays her card {turn.card}.")
    out.append(f"{name}: {now.text()}.")
    return out


def _automa_moves(update: Update) -> list[str]:
    """Au Toma's turn as it ran by itself (simulated games): her deploy and her gain."""
    if update.kind != "event":
        return []
    state = update.state
    seats = {i for i, p in enumerate(state.players) if p.automa}
    out: list[str] = []
    her_turn = False
    for change in state.changes:
        if change.kind == ChangeKind.TURN:
            her_turn = change.player in seats
        elif her_turn and change.kind == ChangeKind.PLACE and change.card and change.target:
            out.append(f"Au Toma deploys {narration.printed(change.card)} to"
                       f" {_place(change.target)}.")
        elif change.player in seats and change.kind == ChangeKind.GAIN and change.card:
            where = f" from {_place(change.source)}" if change.source else ""
            out.append(f"Au Toma gains {narration.printed(change.card)}{where}.")
    return out


def _place(value: str | None) -> str:
    try:
        return Location(str(value)).label
    except ValueError:
        return str(value)


def _end_game(state: GameState, previous: GameState | None) -> list[str]:
    if previous is None:
        return []
    out = []
    if state.trigger is not None and previous.trigger is None:
        left = sum(turns_left(state).values())
        out.append(f"The end of the game is triggered. {left} more turns.")
    if state.phase is Phase.OVER and previous.phase is not Phase.OVER:
        out.append("The game is over. Lay out your hands for scoring.")
    return out
