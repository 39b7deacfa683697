"""Storage: the journal's disk, and what the table hears when writing to it fails.

A journal write can fail: the SD card is full, read-only or failing. The game then goes
on in memory and :class:`Storage` says so once, with the time the unsaved moves began
("the SD card is full: moves since 21:04 are not saved"), on the page, by voice, by the
LED and in the log. When a write succeeds again the whole backlog is written in that
write, and that is said once too. A new game needs room on the disk:
:meth:`Storage.check_room` refuses one under ``[journal] min_free_mb``, or while moves
of the game in play wait to be saved.

>>> from datetime import datetime
>>> storage = Storage(clock=lambda: datetime(2026, 3, 1, 21, 4))
>>> full = sqlite3.OperationalError("database or disk is full")
>>> full.sqlite_errorcode = 13
>>> storage.failed(full)
'the SD card is full: moves since 21:04 are not saved'
>>> storage.failed(full) is None  # told once
True
>>> storage.saved()
'the journal is saved again: every move since 21:04 is written'
"""

from __future__ import annotations

import errno
import logging
import shutil
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from device.journal import is_damage

log = logging.getLogger("companion.journal")

# Update kinds (the page, the voice and the LED follow them).
FAILED, SAVED = "storage-failed", "storage-saved"
# SQLite's primary result codes, and the errno values, that say why a write failed.
PROBLEMS = ((13, errno.ENOSPC, "the SD card is full"),
            (8, errno.EROFS, "the SD card is read-only"),
            (10, errno.EIO, "the SD card cannot be written (I/O error)"))


class StorageError(ValueError):
    """A new game refused: no room for it on the journal's disk, or moves wait unsaved."""


def is_write_failure(exc: BaseException) -> bool:
    """True for errors that say the disk would not take a write (not a bug in the caller)."""
    if isinstance(exc, OSError | sqlite3.OperationalError):
        return True
    return isinstance(exc, sqlite3.DatabaseError) and is_damage(exc)


def problem(exc: BaseException, free: int | None = None) -> str:
    """What a failed write says about the disk, in the table's words (``free``: the
    megabytes free there, when known: SQLite says "I/O error" for some writes a full
    disk refuses, such as growing its shared-memory file)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    number = getattr(exc, "errno", None)
    if free == 0:
        return PROBLEMS[0][2]
    for sqlite_code, os_code, words in PROBLEMS:
        if primary == sqlite_code or number == os_code:
            return words
    if isinstance(exc, sqlite3.DatabaseError) and is_damage(exc):
        return "the journal on the SD card is damaged"
    return f"the journal cannot be written ({exc})"


def free_mb(folder: Path) -> int:
    """Megabytes free to this user where ``folder`` is (or would be made)."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return shutil.disk_usage(folder).free // 2**20


def local_now() -> datetime:
    return datetime.now().astimezone()


class Storage:
    """Whether the journal's writes succeed, since when they fail, and room for a game.

    ``folder``: where the journal is (None: no room check); ``clock`` gives the time
    of the first unsaved move; ``free`` the megabytes free in a folder. The engine thread
    notes writes; the page's threads read :attr:`warning`.
    """

    def __init__(self, folder: Path | None = None, *, min_free_mb: int = 0,
                 clock: Callable[[], datetime] = local_now,
                 free: Callable[[Path], int] = free_mb) -> None:
        self.folder = folder
        self.min_free_mb = min_free_mb
        self.clock = clock
        self.free = free
        # (what is wrong, "HH:MM" of the first failed write), replaced whole so another
        # thread never reads half of it; None while writes succeed.
        self._failure: tuple[str, str] | None = None

    @property
    def is_failing(self) -> bool:
        return self._failure is not None

    @property
    def warning(self) -> str | None:
        """The standing warning while moves are unsaved (None when all is written)."""
        failure = self._failure
        return None if failure is None else f"{failure[0]}: moves since {failure[1]} are not saved"

    def failed(self, exc: BaseException) -> str | None:
        """Note a failed write: the notice to give, or None when it was given already."""
        if self._failure is not None:
            log.debug("still not saved: %s", exc)
            return None
        self._failure = (problem(exc, self._free()), self.clock().strftime("%H:%M"))
        log.error("%s (%s); the game goes on in memory and is saved as soon as a write "
                  "succeeds", self.warning, exc)
        return self.warning

    def saved(self) -> str | None:
        """Note a write that succeeded: the notice when it ends a failure, else None."""
        failure, self._failure = self._failure, None
        if failure is None:
            return None
        message = f"the journal is saved again: every move since {failure[1]} is written"
        log.warning("%s", message)
        return message

    def _free(self) -> int | None:
        if self.folder is None:
            return None
        try:
            return self.free(self.folder)
        except OSError:
            return None

    def check_room(self) -> None:
        """Refuse a new game while moves are unsaved or the disk is short of room.

        :raises StorageError: saying why and what to do.
        """
        failure = self._failure
        if failure is not None:
            raise StorageError(f"no new game while {failure[0]}: the moves since "
                               f"{failure[1]} are not saved yet (free some space first)")
        if self.folder is None or self.min_free_mb <= 0:
            return
        free = self.free(self.folder)
        if free < self.min_free_mb:
            raise StorageError(f"no new game: only {free} MB free for the journal in "
                               f"{self.folder}, and a game needs {self.min_free_mb} MB "
                               "([journal] min_free_mb); free some space on the SD card")
