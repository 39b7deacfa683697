"""A journal whose disk refuses writes on demand: SQLITE_FULL, SQLITE_IOERR, read-only.

:class:`Faults` stands between a :class:`device.journal.Journal` and its SQLite
connection. Set ``full`` and every write fails when it commits, as on a full disk; set
``rate`` and any statement of a write (BEGIN, DELETE, INSERT, UPDATE, COMMIT, even the
ROLLBACK after a failure) fails with that probability and a random one of the errors a
failing SD card gives. An injected error is raised before the statement runs, so a
failed COMMIT leaves its transaction open, which SQLite itself may or may not do.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from device.journal import Journal

# (primary or extended result code, SQLite's message): what a full or failing disk says
ERRORS = ((13, "database or disk is full"), (10, "disk I/O error"),
          (778, "disk I/O error"),  # SQLITE_IOERR_WRITE
          (8, "attempt to write a readonly database"))
WRITES = ("BEGIN", "DELETE", "INSERT", "UPDATE", "COMMIT", "ROLLBACK")


def disk_error(code: int = 13, message: str = "database or disk is full") -> sqlite3.Error:
    """The exception Python's sqlite3 raises for ``code`` (its ``sqlite_errorcode`` set)."""
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


class Faults:
    """Wraps ``journal``'s connection; failures are off until ``full`` or ``rate`` is set."""

    def __init__(self, journal: Journal, rng: random.Random | None = None) -> None:
        self.db: sqlite3.Connection = journal._db
        journal._db = self  # type: ignore[assignment]
        self.rng = rng or random.Random(0)
        self.full = False
        self.rate = 0.0
        self.verbs = WRITES  # the statements ``rate`` applies to
        self.injected = 0

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._maybe_fail(sql)
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        self._maybe_fail(sql)
        return self.db.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    def _maybe_fail(self, sql: str) -> None:
        verb = sql.split(None, 1)[0].upper()
        if verb not in WRITES:
            return
        if self.full and verb == "COMMIT":
            self.injected += 1
            raise disk_error()
        if verb in self.verbs and self.rate and self.rng.random() < self.rate:
            self.injected += 1
            raise disk_error(*self.rng.choice(ERRORS))
