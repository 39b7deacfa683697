"""What the page needs from the running companion, declared here so web never imports device.

The device's service (``device.service.Service``) satisfies :class:`Service`; the
commands the page sends and the updates it receives are the values below, which the
device's service uses as its own. Whatever else the device has (camera, tracker,
journal) reaches the page only through these few members.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.events import Event
from engine.game import Game
from engine.state import GameState
from engine.tracking import Question, Seen

# The table's buttons, in the order the page shows them: what a Press may name.
BUTTONS = ("die", "automa", "next", "undo")


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
class Press(Command):
    """A table button (one of :data:`BUTTONS`), from GPIO, the keyboard or the page.

    What it means is decided on the engine thread (``device.controls.resolve``);
    a press that means nothing right now publishes an "error" update saying why.
    """

    button: str
    source: str = "button"


@dataclass(frozen=True)
class AnswerQuestion(Command):
    """The table's answer to the tracker's open question (a reading's number).

    ``told``: the answer to "what is on top of Luna?" instead (a
    :class:`engine.tracking.Seen`: a card, a card face down, or nothing, and the count).
    """

    index: int
    source: str = "web"
    told: Seen | None = None


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


class HandSeen(Protocol):
    """The camera's reading of a hand laid face up."""

    @property
    def player(self) -> int: ...
    @property
    def cards(self) -> tuple[str, ...]: ...
    @property
    def unnamed(self) -> int: ...


class ArchivedGame(Protocol):
    """A stored game, as the end-of-game list and the games' history show it."""

    @property
    def id(self) -> int: ...
    @property
    def started(self) -> str: ...
    @property
    def finished(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def scores(self) -> object: ...


class Archive(Protocol):
    """The journal, as far as the page reads it."""

    def archive(self) -> Sequence[ArchivedGame]: ...

    # The games' history (web.history): the finished games with their opening events,
    # one game's whole log, and the game being followed (None before the first).
    def finished_games(self, game_id: int | None = None
                       ) -> Sequence[tuple[ArchivedGame, Event | None]]: ...
    def archived_events(self, game_id: int) -> Sequence[Event]: ...
    @property
    def game_id(self) -> int | None: ...


class BugReport(Protocol):
    """A recorded game folder as it stands, to download (device.bugreport.BugReport)."""

    @property
    def folder(self) -> Path: ...
    @property
    def name(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def frames(self) -> int: ...

    def chunks(self) -> Iterator[bytes]:
        """The folder packed as a zip, piece by piece."""
        ...


class Recording(Protocol):
    """The device's recorder, as far as the page uses it."""

    def bug_report(self) -> BugReport:
        """The current game's folder; :raises LookupError: when none was recorded."""
        ...


class Service(Protocol):
    """The running companion: its game, its updates, and a queue for commands."""

    @property
    def game(self) -> Game: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def journal(self) -> Archive | None: ...
    @property
    def question(self) -> Question | None: ...
    @property
    def hand_seen(self) -> HandSeen | None: ...
    @property
    def camera_reading(self) -> Mapping[str, Any] | None: ...
    @property
    def unsaved(self) -> str | None:
        """Why moves are not saved and since when, while the disk refuses them."""
        ...

    def call(self, command: Command, timeout: float = 5.0) -> Update:
        """Apply ``command`` on the engine thread and wait; bad input raises ValueError."""
        ...

    def snapshot(self) -> Update:
        """The latest update; safe from any thread."""
        ...

    def history(self) -> Iterator[Update]:
        """The recent updates, oldest first (for clients that reconnect)."""
        ...

    def subscribe(self, last_seq: int | None = None) -> Subscription:
        """A queue of updates from now on (after ``last_seq`` if still in history)."""
        ...

    def unsubscribe(self, sub: Subscription) -> None: ...
