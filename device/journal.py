"""The journal: every game's event log in SQLite, so a power cut loses nothing settled.

The state is the fold of the event log, so the log is all that must survive. Each
command's events are written in one transaction before anyone hears of them; WAL mode
with ``synchronous=FULL`` makes a committed transaction durable the moment ``COMMIT``
returns, so pulling the cord loses at most the transaction being written. Finished
games stay in the file with their final position and scores (the archive); abandoned
ones (replaced by a new game before the end) stay too.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.events import Event, from_dict, to_dict

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'playing',   -- playing, over or abandoned
    players TEXT NOT NULL DEFAULT '[]',       -- JSON list of names
    final TEXT,                               -- the final state's fen()
    scores TEXT                               -- JSON, when scoring was possible
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,                     -- 0-based position in the game's log
    event TEXT NOT NULL,                      -- engine.events.to_dict as JSON
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""


class JournalError(ValueError):
    """The journal file holds something the engine cannot read back."""


@dataclass(frozen=True)
class ArchivedGame:
    """A finished (or abandoned) game as the archive keeps it."""

    id: int
    started: str
    finished: str | None
    status: str
    players: tuple[str, ...]
    final: str | None
    scores: Any


class Journal:
    """An append-mostly event store; one game is current at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # The engine thread writes; the main thread reads at start: one lock, one connection.
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self.game_id, self._over = self._current()
        self._length = self._count(self.game_id)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def pragma(self, name: str) -> Any:
        """A pragma's value (``journal_mode``, ``synchronous``), for checks and doctor."""
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    # --- the current game -----------------------------------------------------------

    def events(self) -> list[Event]:
        """The current game's log (empty when there is none).

        :raises JournalError: when a stored event cannot be read back.
        """
        if self.game_id is None:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, event FROM events WHERE game = ? ORDER BY seq", (self.game_id,)
            ).fetchall()
        return [_decode(seq, text) for seq, text in rows]

    def begin(self, log: Sequence[Event], players: Iterable[str] = ()) -> int:
        """Start a new current game with ``log``; an unfinished one becomes abandoned."""
        now = _now()
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET status = 'abandoned', finished = ? "
                             "WHERE status = 'playing'", (now,))
            cursor = self._db.execute("INSERT INTO games (started, players) VALUES (?, ?)",
                                      (now, json.dumps(list(players))))
            game_id = int(cursor.lastrowid or 0)
            self._insert(game_id, 0, log)
        self.game_id, self._length, self._over = game_id, len(log), False
        return game_id

    def sync(self, log: Sequence[Event], final: str | None = None, scores: Any = None, *,
             kept: int | None = None) -> None:
        """Make the stored log equal ``log`` (append new events, drop undone ones).

        ``kept`` is how much of the stored log is still ``log``'s start when events were
        both taken back and played since the last sync (the tracker revising a reading);
        by default the shorter of the two. ``final`` (the end position's fen) archives
        the game as over with ``scores``; without it the game is in play (an undo after
        the end reopens it).
        """
        if self.game_id is None:
            raise JournalError("no current game: begin() one first")
        keep = min(self._length, len(log), self._length if kept is None else kept)
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM events WHERE game = ? AND seq >= ?",
                             (self.game_id, keep))
            self._insert(self.game_id, keep, log[keep:])
            if (final is not None) != self._over:
                self._set_over(final, scores)
        self._length = len(log)
        self._over = final is not None

    def _set_over(self, final: str | None, scores: Any) -> None:
        if final is None:
            self._db.execute("UPDATE games SET status = 'playing', finished = NULL, "
                             "final = NULL, scores = NULL WHERE id = ?", (self.game_id,))
        else:
            self._db.execute("UPDATE games SET status = 'over', finished = ?, final = ?, "
                             "scores = ? WHERE id = ?",
                             (_now(), final, json.dumps(scores), self.game_id))

    # --- the archive ----------------------------------------------------------------

    def archive(self) -> list[ArchivedGame]:
        """Every stored game (over, abandoned or in play), newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, started, finished, status, players, final, scores FROM games "
                "ORDER BY id DESC").fetchall()
        return [ArchivedGame(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5],
                             json.loads(r[6]) if r[6] else None) for r in rows]

    def archived_events(self, game_id: int) -> list[Event]:
        """The log of any stored game, for replays of archived games."""
        with self._lock:
            rows = self._db.execute("SELECT seq, event FROM events WHERE game = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [_decode(seq, text) for seq, text in rows]

    # --- internals ------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def _insert(self, game_id: int, start: int, events: Sequence[Event]) -> None:
        self._db.executemany(
            "INSERT INTO events (game, seq, event) VALUES (?, ?, ?)",
            [(game_id, start + i, json.dumps(to_dict(e))) for i, e in enumerate(events)])

    def _current(self) -> tuple[int | None, bool]:
        """The latest game not abandoned (a finished one stays current until the next)."""
        row = self._db.execute("SELECT id, status FROM games WHERE status != 'abandoned' "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        return (None, False) if row is None else (int(row[0]), row[1] == "over")

    def _count(self, game_id: int | None) -> int:
        if game_id is None:
            return 0
        row = self._db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game_id,))
        return int(row.fetchone()[0])


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error (nothing half-written)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _decode(seq: int, text: str) -> Event:
    try:
        return from_dict(json.loads(text))
    except (ValueError, TypeError) as exc:
        raise JournalError(f"journal event {seq} cannot be read: {exc}") from exc


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
