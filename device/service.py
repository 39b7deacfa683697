"""The companion service: one engine thread fed by one command queue.

Camera changes, buttons, the web page and voice acknowledgements all become
:class:`Command` objects submitted to one queue; a single thread applies them to the
:class:`engine.game.Game`, in order, so the pure engine never needs a lock. After every
command the service publishes an :class:`Update` (a sequence number and the new frozen
state) to its listeners (journal, voice, LED) and subscribers (Server-Sent Events).
"""

from __future__ import annotations

import itertools
import queue
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field

from engine.events import Event
from engine.game import Game
from engine.state import GameState

STOP = object()


@dataclass(frozen=True)
class Command:
    """Something to do on the engine thread."""


@dataclass(frozen=True)
class Play(Command):
    """Apply an event: an answer, an observation or a correction (validated)."""

    event: Event
    source: str = "web"  # "web", "button", "camera", "voice", "automa", "replay"


@dataclass(frozen=True)
class Undo(Command):
    """Take back the last event (and chance outcomes that followed it automatically)."""

    source: str = "web"


@dataclass(frozen=True)
class NewGame(Command):
    """Start a new game from a Setup event (the current one is replaced)."""

    setup: Event
    source: str = "web"


@dataclass(frozen=True)
class Update:
    """What changed: published after every command that changed the game."""

    seq: int
    kind: str  # "event", "undo", "new-game", "error", or a device notice such as "camera"
    state: GameState
    events: tuple[Event, ...] = ()
    message: str = ""
    source: str = ""


@dataclass
class Subscription:
    """A subscriber's queue of updates (for one SSE client)."""

    updates: queue.Queue[Update] = field(default_factory=queue.Queue)

    def get(self, timeout: float | None = None) -> Update | None:
        try:
            return self.updates.get(timeout=timeout)
        except queue.Empty:
            return None


Listener = Callable[[Update], None]


class Service:
    """Owns the game; applies commands on its own thread; publishes updates."""

    HISTORY = 256  # updates kept for clients reconnecting with Last-Event-ID

    def __init__(self, game: Game | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.game = game or Game(rng=self.rng)
        self.game.rng = self.game.rng or self.rng
        self._commands: queue.Queue[object] = queue.Queue()
        self._seq = itertools.count(1)
        self._lock = threading.Lock()  # guards subscribers, history and the snapshot
        self._subscribers: list[Subscription] = []
        self._history: deque[Update] = deque(maxlen=self.HISTORY)
        self._snapshot = Update(0, "start", self.game.state)
        self._thread: threading.Thread | None = None
        self.listeners: list[Listener] = []

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> None:
        """Start the engine thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="engine", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish queued commands, then stop the engine thread."""
        if self._thread is not None:
            self._commands.put(STOP)
            self._thread.join(timeout)
            self._thread = None

    @property
    def is_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- commands -----------------------------------------------------------------

    def submit(self, command: Command) -> Future[Update]:
        """Queue a command; the future resolves to its update or raises its error."""
        future: Future[Update] = Future()
        self._commands.put((command, future))
        return future

    def call(self, command: Command, timeout: float = 5.0) -> Update:
        """Submit and wait. Bad input raises the engine's ``ValueError`` here."""
        if self._thread is None:
            return self._execute(command)
        return self.submit(command).result(timeout)

    def _run(self) -> None:
        while True:
            item = self._commands.get()
            if item is STOP:
                return
            command, future = item  # type: ignore[misc]
            try:
                future.set_result(self._execute(command))
            except Exception as exc:  # delivered to the submitter, never kills the thread
                future.set_exception(exc)

    def _execute(self, command: Command) -> Update:
        if isinstance(command, Play):
            before = len(self.game.log)
            self.game.play(command.event)
            events = tuple(self.game.log[before:])
            return self._publish("event", events, source=command.source)
        if isinstance(command, Undo):
            return self._publish("undo", (self._undo(),), source=command.source)
        if isinstance(command, NewGame):
            game = Game(rng=self.game.rng)
            game.play(command.setup)
            self.game = game
            return self._publish("new-game", tuple(game.log), source=command.source)
        raise TypeError(f"unknown command {command!r}")

    def _undo(self) -> Event:
        """Undo one event, and the chance outcomes that were logged with it."""
        event = self.game.undo()
        while event is not None and _is_chance_answer(self.game, event) and self.game.log:
            event = self.game.undo()
        return event

    # --- updates ------------------------------------------------------------------

    def notify(self, kind: str, message: str, source: str = "device") -> Update:
        """Publish a device notice (camera lost, end-game alert) without a game change."""
        return self._publish(kind, (), message=message, source=source)

    def _publish(self, kind: str, events: tuple[Event, ...], *, message: str = "",
                 source: str = "") -> Update:
        update = Update(next(self._seq), kind, self.game.state, events, message, source)
        for listener in list(self.listeners):
            listener(update)
        with self._lock:
            self._snapshot = update
            self._history.append(update)
            for sub in self._subscribers:
                sub.updates.put(update)
        return update

    def snapshot(self) -> Update:
        """The latest update (sequence number and state); safe from any thread."""
        with self._lock:
            return self._snapshot

    def subscribe(self, last_seq: int | None = None) -> Subscription:
        """A new subscription; updates after ``last_seq`` still in history are replayed."""
        sub = Subscription()
        with self._lock:
            if last_seq is not None:
                for update in self._history:
                    if update.seq > last_seq:
                        sub.updates.put(update)
            self._subscribers.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    def history(self) -> Iterator[Update]:
        with self._lock:
            return iter(list(self._history))


def _is_chance_answer(game: Game, undone: Event) -> bool:
    """True if the event just undone answered a chance decision (it goes with its cause)."""
    pending = game.state.pending
    return pending is not None and pending.is_chance and pending.accepts(undone)
