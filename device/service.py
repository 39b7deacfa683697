"""The companion service: one engine thread fed by one command queue.

Camera changes, buttons, the web page and voice all become :class:`Command` objects
submitted to one queue; a single thread applies them to the :class:`engine.game.Game`,
in order, so the pure engine never needs a lock. After every command the service writes
the new events to the journal (when it has one) and only then publishes an
:class:`Update` (a sequence number and the new frozen state) to its listeners (voice,
LED) and subscribers (Server-Sent Events): nobody hears of an event a power cut could
still take back.

When the disk will not take a write (full, read-only, failing), the game goes on in
memory: :class:`device.storage.Storage` tells the table once, the engine thread retries
every ``retry`` seconds and with every change, and the first write that succeeds
writes the whole backlog.
"""

from __future__ import annotations

import itertools
import logging
import queue
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from device import controls
from device.journal import Journal
from device.storage import FAILED, SAVED, Storage, StorageError, is_write_failure, problem
from engine.endgame import final_table, hand_wanted
from engine.errors import IllegalActionError
from engine.events import Event, Setup
from engine.game import Game
from engine.scoring import score
from engine.state import GameState
from engine.tracking import Question
from web.service import AnswerQuestion as AnswerQuestion  # the page's vocabulary, ours too
from web.service import Command as Command
from web.service import NewGame as NewGame
from web.service import Play as Play
from web.service import Press as Press
from web.service import Subscription as Subscription
from web.service import Undo as Undo
from web.service import Update as Update

log = logging.getLogger("companion.service")

STOP = object()


@dataclass(frozen=True)
class CameraChanges(Command):
    """Stable changes the camera saw (``vision.stabilize`` changes), its latest reading,
    and the covered cards it read from each stack's strips, by location name. ``blind``:
    the camera delivered no frame for this many seconds before (a gap: what happened
    meanwhile was not seen)."""

    changes: tuple[Any, ...]
    reading: Any = None
    strips: Mapping[str, tuple[str | None, ...]] = field(default_factory=dict)
    source: str = "camera"
    blind: float = 0.0


@dataclass(frozen=True)
class HandSeen(Command):
    """Scoring by camera: the cards the camera reads in a hand laid face up.

    ``unnamed`` counts cards it sees but cannot name (covered in a cascade, unclear):
    the page asks the player to lay them apart or pick them from the card list.
    """

    player: int
    cards: tuple[str, ...]
    unnamed: int = 0
    source: str = "camera"


@dataclass(frozen=True)
class Notice(Command):
    """A device notice (camera lost, voice failed) published in order with game updates."""

    kind: str
    message: str
    source: str = "device"


Listener = Callable[[Update], None]
# Another press handler (the bare-table step): runs before the follower; None passes on.
PressHandler = Callable[["Service", Press], "Update | None"]


class Follower(Protocol):
    """What follows the table for the service (device.tracking.TableTracking).

    Its handlers run on the engine thread: they may change the game through
    :meth:`Service.apply` and return its update, or return None for the default handling
    (camera: a "camera" notice; press: :mod:`device.controls`). It keeps its open
    question, if any, in :attr:`Service.question`.
    """

    def on_camera(self, service: Service, command: CameraChanges) -> Update | None: ...

    def on_press(self, service: Service, command: Press) -> Update | None: ...

    def on_question(self, service: Service, command: AnswerQuestion) -> Update: ...

    def on_played(self, service: Service, played: Update) -> Update | None:
        """After an answer from a phone or a button, or an UNDO."""
# Scores of a finished game for the archive (None when they cannot be computed).
Scorer = Callable[[GameState], Any]


class Service:
    """Owns the game; applies commands on its own thread; journals, then publishes."""

    HISTORY = 256  # updates kept for clients reconnecting with Last-Event-ID

    def __init__(self, game: Game | None = None, *, rng: random.Random | None = None,
                 journal: Journal | None = None, scorer: Scorer | None = None,
                 storage: Storage | None = None, retry: float = 5.0) -> None:
        self.rng = rng or random.Random()
        self.journal = journal
        self.scorer = scorer or final_scores
        self.storage = storage or Storage()
        self.retry = retry  # seconds between writes of a backlog the disk refused
        # While writes fail: how much of the journal's log is still the game's (None:
        # the journal holds the whole game).
        self._behind: int | None = None
        self._told: tuple[str, str] | None = None  # a storage notice to publish
        self.restored = ""  # what start-up recovered from the journal, for the log
        self.game = self._initial_game(game)
        self.game.rng = self.game.rng or self.rng
        self._commands: queue.Queue[object] = queue.Queue()
        self._seq = itertools.count(1)
        self._lock = threading.Lock()  # guards subscribers, history and the snapshot
        self._subscribers: list[Subscription] = []
        self._history: deque[Update] = deque(maxlen=self.HISTORY)
        self._snapshot = Update(0, "start", self.game.state, message=self.restored)
        self._thread: threading.Thread | None = None
        self.listeners: list[Listener] = []
        # Shown every command before it runs, in the order they run (the recorder).
        self.taps: list[Callable[[Command], None]] = []
        self.follower: Follower | None = None  # follows the table (device.tracking)
        self._press_handlers: list[PressHandler] = []  # tried before the follower
        self.question: Question | None = None  # the follower's open question for the table
        self.camera_reading: Any = None  # the latest stable camera reading (for the page)
        self.hand_seen: HandSeen | None = None  # the camera's reading of a hand laid out
        # The camera's latest BGR frame, or None (set by the appliance; for the page).
        self.camera_frame: Callable[[], Any] = lambda: None

    # --- the journal ----------------------------------------------------------------

    def _initial_game(self, game: Game | None) -> Game:
        if self.journal is None:
            return game or Game(rng=self.rng)
        if game is not None:
            self.journal.begin(game.log, _names(game.state))
            self.journal.sync(game.log, *self._final(game))
            return game
        return self._restore(self.journal)

    def _restore(self, journal: Journal) -> Game:
        """Rebuild the current game from the journal (a log the rules reject is archived)."""
        try:
            events = journal.events()
            game = Game.replay(events, rng=self.rng)
        except Exception as exc:  # never a crash loop at boot: keep the log, start afresh
            log.error("journal: cannot rebuild game %s: %s", journal.game_id, exc)
            self.restored = f"could not rebuild the saved game: {exc}"
            journal.begin([])
            return Game(rng=self.rng)
        if events:
            game.resolve_chance()  # nothing is pending on chance in a log we wrote
            journal.sync(game.log, *self._final(game))
            self.restored = f"resumed game {journal.game_id} at event {len(game.log)}"
            log.info("journal: %s", self.restored)
        return game

    def _final(self, game: Game) -> tuple[str | None, Any]:
        if not game.is_over:
            return None, None
        try:
            return game.state.fen(), self.scorer(game.state)
        except Exception as exc:  # scoring is a bonus in the archive; never lose the log
            log.warning("journal: cannot score the finished game: %s", exc)
            return game.state.fen(), None

    def _commit(self, rollback: Callable[[], None], kept: int | None = None) -> None:
        """Write the log to the journal; a disk that refuses it leaves the game in memory
        (told once), any other error undoes the change in memory too.

        ``kept``: how much of the log before the change survived it (see Journal.sync;
        None: all of the log now).
        """
        if self.journal is None:
            return
        kept = len(self.game.log) if kept is None else kept
        if self._behind is not None:
            kept = min(kept, self._behind)  # what the journal still holds of the game
        try:
            self._save(kept)
        except Exception:
            rollback()
            raise

    def _save(self, kept: int) -> None:
        """Make the journal hold the game's log; a write the disk refuses is kept for
        later (``kept``: how much of the journal's log is still the game's)."""
        assert self.journal is not None
        try:
            if self.journal.game_id is None:
                self.journal.begin([], _names(self.game.state))
            self.journal.sync(self.game.log, *self._final(self.game), kept=kept)
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            self._behind = kept
            self._tell(FAILED, self.storage.failed(exc))
            return
        self._behind = None
        self._tell(SAVED, self.storage.saved())

    def _catch_up(self) -> None:
        """Try again to write what the disk refused."""
        if self._behind is not None:
            self._save(self._behind)

    def _tell(self, kind: str, message: str | None) -> None:
        if message is not None:
            self._told = (kind, message)

    def _publish_told(self) -> None:
        """Publish the storage notice a write left, after the update of its command."""
        told, self._told = self._told, None
        if told is not None:
            self._publish(told[0], (), message=told[1], source="journal")

    @property
    def unsaved(self) -> str | None:
        """What the table must know about moves not written yet (None: all written)."""
        return self.storage.warning

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
        if self._thread is None or threading.current_thread() is self._thread:
            return self._execute(command)
        return self.submit(command).result(timeout)

    def _run(self) -> None:
        while True:
            try:
                item = self._commands.get(timeout=None if self._behind is None else self.retry)
            except queue.Empty:
                self._safely(self._catch_up)
                continue
            if item is STOP:
                self._safely(self._catch_up)
                if self.storage.is_failing:
                    log.error("journal: stopped with %s", self.storage.warning)
                return
            command, future = cast("tuple[Command, Future[Update]]", item)
            try:
                future.set_result(self._execute(command))
            except Exception as exc:  # delivered to the submitter, never kills the thread
                future.set_exception(exc)

    def _safely(self, work: Callable[[], None]) -> None:
        """Work between commands (a retried write): its error is logged, never raised."""
        try:
            work()
            self._publish_told()
        except Exception:
            log.exception("journal: writing the backlog failed")

    def _execute(self, command: Command) -> Update:
        for tap in list(self.taps):
            try:
                tap(command)
            except Exception:  # a broken recorder must not stop the game
                log.exception("tap %r failed on %r", tap, command)
        try:
            return self._dispatch(command)
        finally:
            self._publish_told()

    def _dispatch(self, command: Command) -> Update:
        if isinstance(command, Play):
            update = self._play((command.event,), command.source)
            follower = self.follower
            after = follower.on_played(self, update) if follower is not None else None
            return after or update
        if isinstance(command, Press):
            return self._press(command)
        if isinstance(command, Undo):
            update = self._undo_command(command.source)
            # What the camera sees is explained again without the move taken back (the
            # tracker never reads it again from there: "that is not what happened").
            after = self.follower.on_played(self, update) if self.follower is not None else None
            return after or update
        if isinstance(command, NewGame):
            return self._new_game(command)
        if isinstance(command, CameraChanges):
            return self._camera(command)
        if isinstance(command, Notice):
            return self._publish(command.kind, (), message=command.message,
                                 source=command.source)
        if isinstance(command, HandSeen):
            return self._hand_seen(command)
        if isinstance(command, AnswerQuestion):
            if self.follower is None or self.question is None:
                raise IllegalActionError("there is no open question", rule="tracker")
            return self.follower.on_question(self, command)
        raise TypeError(f"unknown command {command!r}")

    def _play(self, played: Sequence[Event], source: str) -> Update:
        return self.apply(played, source=source)

    def apply(self, events: Sequence[Event], *, undo: int = 0, source: str = "camera") -> Update:
        """Take back ``undo`` events, then play ``events``: one journaled update.

        For handlers running on the engine thread (the tracker revising its own reading
        of the table). If anything is illegal nothing changes and the error is raised.
        """
        if not 0 <= undo <= len(self.game.log):
            raise IllegalActionError(f"cannot take back {undo} events", rule="undo")
        base = len(self.game.log) - undo
        taken = list(self.game.log[base:])

        def restore() -> None:
            self._truncate(base)
            for event in taken:
                self.game.push(event)

        try:
            self._truncate(base)
            for event in events:
                self.game.play(event)
        except Exception:
            restore()
            raise
        self._commit(restore, kept=base)
        return self._publish("event", tuple(self.game.log[base:]), source=source)

    def absorb(self, before: Sequence[Event], source: str) -> Update | None:
        """Journal and publish what a hook changed in ``self.game`` itself (the tracker).

        ``before`` is the log as it was; None when nothing changed. If the journal
        fails, the game goes back to ``before`` and the error is raised.
        """
        log = self.game.log
        kept = 0
        while kept < min(len(before), len(log)) and before[kept] is log[kept]:
            kept += 1
        if kept == len(before) == len(log):
            return None

        def restore() -> None:
            self._truncate(kept)
            for event in before[kept:]:
                self.game.push(event)

        self._commit(restore, kept=kept)
        return self._publish("event", tuple(log[kept:]), source=source)

    def _truncate(self, length: int) -> None:
        while len(self.game.log) > length:
            self.game.undo()

    def _undo_command(self, source: str) -> Update:
        undone = self._undo()

        def redo() -> None:
            for event in reversed(undone):
                self.game.push(event)

        self._commit(redo)
        return self._publish("undo", (undone[-1],), source=source)

    def _undo(self) -> list[Event]:
        """Undo one event and the chance outcomes logged with it; latest first."""
        undone = [self.game.undo()]
        while _is_chance_answer(self.game, undone[-1]) and self.game.log:
            undone.append(self.game.undo())
        return undone

    def _new_game(self, command: NewGame) -> Update:
        if not isinstance(command.setup, Setup):
            raise IllegalActionError("a new game starts from a Setup event", rule="setup")
        game = Game(rng=self.game.rng)
        game.play(command.setup)
        if self.journal is not None:
            self._begin(game)
        self.game = game
        return self._publish("new-game", tuple(game.log), source=command.source)

    def _begin(self, game: Game) -> None:
        """Start ``game`` in the journal, or refuse it (nothing of the current game is
        lost: it is written first, and stays current when the disk refuses).

        :raises StorageError: when the disk has no room or refuses the write.
        """
        assert self.journal is not None
        self._catch_up()
        self.storage.check_room()
        try:
            self.journal.begin(game.log, _names(game.state))
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            log.warning("journal: a new game could not be written: %s", exc)
            raise StorageError(f"no new game: {problem(exc)} (the game in play is saved)"
                               ) from exc

    def add_press_handler(self, handler: PressHandler) -> None:
        """Try ``handler`` on every button press before the follower (the bare-table
        step takes NEXT this way); it returns an update for a press it took, None to
        pass the press on."""
        self._press_handlers.append(handler)

    def _press(self, command: Press) -> Update:
        """A button: resolved against the current state; a useless press says why."""
        try:
            handlers = list(self._press_handlers)
            if self.follower is not None:
                handlers.append(self.follower.on_press)
            for handler in handlers:
                handled = handler(self, command)
                if handled is not None:
                    return handled
            event = controls.resolve(command.button, self.game.state)
            if event is controls.UNDO:
                return self._undo_command(command.source)
            return self._play((event,), command.source)
        except ValueError as exc:
            self._publish("error", (), message=str(exc), source=command.source)
            raise

    def _camera(self, command: CameraChanges) -> Update:
        """Stable camera changes: the tracker's events if it infers any, else a notice."""
        if command.reading is not None:
            self.camera_reading = command.reading
        follower = self.follower
        handled = follower.on_camera(self, command) if follower is not None else None
        if handled is not None:
            return handled
        text = "; ".join(_describe(change) for change in command.changes)
        return self._publish("camera", (), message=text or "camera view", source=command.source)

    def _hand_seen(self, command: HandSeen) -> Update:
        """Keep the camera's reading of a hand while the game asks for that hand."""
        if hand_wanted(self.game.state) != command.player:
            raise IllegalActionError("the game is not waiting for that hand", rule="reveal-hand")
        self.hand_seen = command
        seen = len(command.cards) + command.unnamed
        names = _names(self.game.state)
        message = f"camera: {seen} cards in {names[command.player]}'s hand"
        if command.unnamed:
            message += f" ({command.unnamed} not named yet)"
        return self._publish("hand", (), message=message, source=command.source)

    # --- updates ------------------------------------------------------------------

    def notify(self, kind: str, message: str, source: str = "device") -> Update:
        """Publish a device notice (camera lost, end-game alert) without a game change.

        From another thread the notice goes through the queue, so it is ordered with
        the game's updates.
        """
        return self.call(Notice(kind, message, source))

    def _publish(self, kind: str, events: tuple[Event, ...], *, message: str = "",
                 source: str = "") -> Update:
        update = Update(next(self._seq), kind, self.game.state, events, message, source)
        for listener in list(self.listeners):
            try:
                listener(update)
            except Exception:  # a broken speaker or LED must not stop the game
                log.exception("listener %r failed on update %d", listener, update.seq)
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


def _names(state: GameState) -> list[str]:
    return [player.name for player in state.players]


def _describe(change: Any) -> str:
    """One camera change in words ("mars: darrow added")."""
    describe = getattr(change, "describe", None)
    if callable(describe):
        return str(describe())
    if not (hasattr(change, "kind") and hasattr(change, "location")):
        return str(change)
    old, new = getattr(change, "old_top", None), getattr(change, "new_top", None)
    words = {
        "added": f"{new} added",
        "removed": f"{old or 'top card'} taken" + (f", {new} on top" if new else ""),
        "replaced": f"{old} replaced by {new}",
        "occluded": "covered",
        "cleared": "now empty",
    }
    return f"{change.location}: {words.get(change.kind, change.kind)}"


def final_scores(state: GameState) -> dict[str, Any]:
    """The scorepad's totals and winners of a finished game, as JSON-able data."""
    sheet = score(final_table(state))
    return {"players": [{"name": p.name, "total": p.total} for p in sheet.players],
            "winners": list(sheet.winners)}
