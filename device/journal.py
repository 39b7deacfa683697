"""The journal: every game's event log in SQLite, so a power cut loses nothing settled.

The state is the fold of the event log, so the log is all that must survive. Each
command's events are written in one transaction before anyone hears of them; WAL mode
with ``synchronous=FULL`` makes a committed transaction durable the moment ``COMMIT``
returns, so pulling the cord loses at most the transaction being written. Finished
games stay in the file with their final position and scores (the archive); abandoned
ones (replaced by a new game before the end) stay too.

A damaged file is never used: opening it raises :class:`JournalDamaged` before anything
is written to it, and :mod:`device.recovery` keeps it aside and starts a fresh journal
from what is still readable. One companion at a time holds a :class:`JournalLock`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
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
CREATE TABLE IF NOT EXISTS recoveries (         -- damaged journals this one was rebuilt from
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    kept TEXT NOT NULL,                       -- the damaged file's name, kept aside
    problem TEXT NOT NULL,                    -- what SQLite said about it
    games INTEGER NOT NULL,                   -- games and events recovered from it
    events INTEGER NOT NULL,
    note TEXT NOT NULL DEFAULT ''             -- what became of the game in play
);
"""
RECOVERY_COLUMNS = ("at", "kept", "problem", "games", "events", "note")
# SQLite's result codes that mean the file itself is damaged (not busy, not unreadable).
_DAMAGE_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB


class JournalError(ValueError):
    """The journal file holds something the engine cannot read back."""


class JournalDamaged(JournalError):
    """The journal file is damaged (SQLite's integrity check fails, or it is no database)."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"the journal {path} is damaged: {problem}")
        self.problem = problem


class JournalBusy(RuntimeError):
    """Another companion holds the journal's lock."""


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
            check(self.path)  # before any connection that may write: damage is kept as found
        # The engine thread writes; the main thread reads at start: one lock, one connection.
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        # Zeroes what an undo deletes, so a salvage can never bring back an undone event.
        self._db.execute("PRAGMA secure_delete=ON")
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

    def finished_games(self, game_id: int | None = None
                       ) -> list[tuple[ArchivedGame, Event | None]]:
        """Every game archived as over (only ``game_id``, when given), newest first, each
        with its opening event (the Setup: seats, houses, Au Toma's level), in one query.

        :raises JournalError: when a stored opening event cannot be read back.
        """
        only = "" if game_id is None else " AND g.id = ?"
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.started, g.finished, g.status, g.players, g.final, g.scores, "
                "e.event FROM games g LEFT JOIN events e ON e.game = g.id AND e.seq = 0 "
                f"WHERE g.status = 'over'{only} ORDER BY g.id DESC",
                () if game_id is None else (game_id,)).fetchall()
        return [(ArchivedGame(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5],
                              json.loads(r[6]) if r[6] else None),
                 None if r[7] is None else _decode(0, r[7])) for r in rows]

    def recoveries(self) -> list[dict[str, Any]]:
        """The damaged journals this one was rebuilt from, oldest first."""
        with self._lock:
            rows = self._db.execute(f"SELECT {', '.join(RECOVERY_COLUMNS)} FROM recoveries "
                                    "ORDER BY id").fetchall()
        keys = RECOVERY_COLUMNS
        return [dict(zip(keys, row, strict=True)) for row in rows]

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
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error (nothing half-written).

    A failed write (a full disk, an I/O error) must leave the connection ready for the
    next one: a COMMIT that fails is rolled back, and a transaction left open by a
    ROLLBACK that failed too is rolled back before the next BEGIN.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self._rollback()
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is not None:
            with contextlib.suppress(sqlite3.Error):  # the error being raised says more
                self._rollback()
            return
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                self._rollback()
            raise

    def _rollback(self) -> None:
        # SQLite rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR): a
        # second ROLLBACK would fail and hide the first error.
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")


class JournalLock:
    """One companion per journal: an exclusive ``flock`` on ``<journal>.lock``.

    The kernel drops the lock when its holder exits or is killed, so a power cut or a
    SIGKILL never leaves a stale lock behind (a PID file would). The file says who holds
    it (PID, and the page's port once known), for the refusal message and the doctor.
    """

    def __init__(self, path: str | Path) -> None:
        self.journal = Path(path)
        self.path = lock_path(self.journal)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            raise JournalBusy(f"the journal {self.journal} is in use by another companion "
                              f"({describe_holder(read_holder(self.path))}); stop it first "
                              "(sudo systemctl stop companion)") from None
        self.note()

    def note(self, port: int | None = None) -> None:
        """Record this process (and the page's port) in the lock file."""
        text = f"pid={os.getpid()}" + ("" if port is None else f" port={port}") + "\n"
        with contextlib.suppress(OSError):  # a full disk: the lock holds, unnamed
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, text.encode(), 0)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = -1


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


def read_holder(path: Path) -> dict[str, int]:
    """``{"pid": …, "port": …}`` from a lock file (what of it can be read)."""
    try:
        text = path.read_text(encoding="ascii", errors="replace")[:200]
    except OSError:
        return {}
    pairs = (item.partition("=") for item in text.split())
    return {k: int(v) for k, _, v in pairs if k in ("pid", "port") and v.isdigit()}


def holder(journal: Path) -> dict[str, int] | None:
    """Who holds the journal's lock right now (None: nobody)."""
    path = lock_path(journal)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return read_holder(path)
    finally:
        os.close(fd)
    return None


def describe_holder(found: dict[str, int]) -> str:
    pid = f"PID {found['pid']}" if "pid" in found else "PID unknown"
    return pid + (f", page on port {found['port']}" if "port" in found else "")


def is_damage(exc: sqlite3.Error) -> bool:
    """True for errors that mean the file is damaged (not locked, missing or unreadable)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _DAMAGE_CODES


def check(path: Path) -> None:
    """Raise :class:`JournalDamaged` unless the file at ``path`` is sound (or absent).

    The check reads through a read-only connection: a read-write one, closing, would
    fold the write-ahead log into the damaged file and delete the log.

    :raises sqlite3.Error: when the file cannot be read for another reason.
    """
    if not path.exists():
        return
    try:
        with contextlib.closing(read_only(path)) as db:
            rows = quick_check(db)
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        raise JournalDamaged(path, str(exc)) from None
    except UnicodeDecodeError:  # SQLite's own message quotes the damaged bytes
        raise JournalDamaged(path, "database disk image is malformed") from None
    if rows != [("ok",)]:
        raise JournalDamaged(path, integrity_report(rows))


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write to (or checkpoint into) the file at ``path``."""
    return sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)


def quick_check(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """SQLite's ``quick_check`` rows (its report quotes damaged bytes: never a decode error)."""
    db.text_factory = lambda raw: raw.decode("utf-8", "replace")
    try:
        return db.execute("PRAGMA quick_check").fetchall()
    finally:
        db.text_factory = str


def integrity_report(rows: list[tuple[Any, ...]], keep: int = 2) -> str:
    """SQLite's integrity report (one finding per line) as one short line."""
    lines = [line for row in rows for line in str(row[0]).splitlines()
             if line.strip() and not line.startswith("***")]  # "*** in database main ***"
    more = f" (and {len(lines) - keep} more)" if len(lines) > keep else ""
    return "; ".join(lines[:keep]) + more


def _decode(seq: int, text: str) -> Event:
    try:
        return from_dict(json.loads(text))
    except (ValueError, TypeError) as exc:
        raise JournalError(f"journal event {seq} cannot be read: {exc}") from exc


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
