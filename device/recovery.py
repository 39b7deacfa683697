"""Recovery: a damaged journal is kept aside and a fresh one starts from what it holds.

:func:`open_journal` is how the appliance opens its journal: a sound file opens as
usual; a damaged one (SQLite's integrity check fails, or it is not a database at all)
never stops the start. It goes through three steps, each safe against a power cut, since
the next start finishes an interrupted one:

1. every readable game and event (:mod:`device.salvage`) is written to
   ``<journal>.recovering`` with a note of the recovery, synced, then renamed
   ``<journal>.recovered`` (complete);
2. the damaged file and its ``-wal``/``-shm`` are renamed
   ``<journal>.damaged-<UTC time>`` (plus the same suffixes): kept, never deleted;
3. ``<journal>.recovered`` becomes ``<journal>``.

The game in play is resumed when its log was recovered without a gap; otherwise it is
kept in the archive as abandoned and a new one starts.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from device.journal import RECOVERY_COLUMNS, SCHEMA, Journal, JournalDamaged, read_only
from device.salvage import GAME_COLUMNS, GameRow, Salvaged, salvage
from engine.events import Setup, from_dict
from engine.game import Game

log = logging.getLogger("companion.journal")

JOURNAL_NOTICE = "journal"  # the notice kind (page and voice) for a recovered journal
SPOKEN = "The saved games were damaged. The companion kept what it could read."
SUFFIXES = ("-wal", "-shm")


@dataclass(frozen=True)
class Recovery:
    """A damaged journal replaced by a fresh one: where it went and what was recovered."""

    kept: Path
    problem: str
    games: int
    events: int
    note: str = ""

    @property
    def message(self) -> str:
        """One line for the page, the log and the console."""
        note = f"; {self.note}" if self.note else ""
        return (f"the journal was damaged ({_short(self.problem)}) and is kept as "
                f"{self.kept.name}; {self.games} games and {self.events} events were "
                f"recovered into a fresh journal{note}")


def open_journal(path: str | Path) -> tuple[Journal, Recovery | None]:
    """The journal at ``path``, recovered first if it is damaged (see the module).

    :raises sqlite3.Error, OSError: when the file cannot be used for another reason
        (unreadable, locked by another program, a full disk).
    """
    path = Path(path)
    recovery = finish(path)
    try:
        return Journal(path), recovery
    except JournalDamaged as exc:
        log.error("%s", exc)
        recovery = recover(path, exc.problem)
    return Journal(path), recovery


def recover(path: Path, problem: str) -> Recovery:
    """Keep the damaged journal at ``path`` aside and put a fresh one in its place."""
    found = salvage(path)
    games, note = plan(found)
    recovered = len(set(found.games) | {g for g, _ in found.events})
    made = Recovery(_aside(path), problem, recovered, len(found.events), note)
    building = _sibling(path, ".recovering")
    _write(building, games, found, made)
    os.replace(building, _sibling(path, ".recovered"))
    _sync(path.parent)
    _swap(path, made.kept)
    log.warning("journal: %s", made.message)
    return made


def finish(path: Path) -> Recovery | None:
    """Complete an interrupted recovery (steps 2 and 3); None when there is none."""
    _sibling(path, ".recovering").unlink(missing_ok=True)  # never finished: redone
    done = _sibling(path, ".recovered")
    if not done.exists():
        return None
    last = _last_recovery(done)
    if last is None:  # unreadable: the damaged file is still in place, so start over
        done.unlink()
        return None
    _swap(path, last.kept)
    return last


def _swap(path: Path, kept: Path) -> None:
    """Steps 2 and 3: the damaged files aside, the recovered journal in their place."""
    for suffix in (*SUFFIXES, ""):  # the log first: it must never sit beside the new file
        source = _sibling(path, suffix)
        if source.exists():
            os.replace(source, _sibling(kept, suffix))
    _sync(path.parent)
    os.replace(_sibling(path, ".recovered"), path)
    _sync(path.parent)


def plan(found: Salvaged) -> tuple[list[GameRow], str]:
    """The games to store (events whose game row was lost get one), and a note.

    The latest game not abandoned is resumed when its log has no gap and replays to
    where its row says it was (in play, or over). Otherwise a game in play is set aside
    as abandoned, an archived finished game keeps its final scores, and a fresh empty
    game becomes the current one (the page offers a new game).
    """
    games = dict(found.games)
    for game in sorted({g for g, _ in found.events} - set(games)):
        games[game] = _orphan(game, found)
    current = max((g for g, row in games.items() if row[3] != "abandoned"), default=None)
    if current is None or _resumable(current, games[current][3], found):
        return [games[g] for g in sorted(games)], ""
    readable = sum(1 for g, _ in found.events if g == current)
    if games[current][3] == "playing":
        row = list(games[current])
        row[2:4] = [_now(), "abandoned"]
        games[current] = tuple(row)
        note = (f"game {current} could not be resumed (only {readable} of its events could "
                "be read) and is kept in the archive")
    else:
        note = f"finished game {current} keeps its scores; {readable} of its events were read"
    fresh = max(games) + 1
    games[fresh] = (fresh, _now(), None, "playing", "[]", None, None)
    return [games[g] for g in sorted(games)], note


def _resumable(game: int, status: str, found: Salvaged) -> bool:
    seqs = sorted(s for g, s in found.events if g == game)
    if seqs != list(range(len(seqs))):
        return False
    try:
        replayed = Game.replay(from_dict(json.loads(found.events[(game, s)])) for s in seqs)
    except Exception:  # any rule the log breaks: not the game it was
        return False
    return replayed.is_over == (status == "over")


def _orphan(game: int, found: Salvaged) -> GameRow:
    """A games row for events whose own row was lost (players from its Setup, if read)."""
    names: list[str] = []
    try:
        event = from_dict(json.loads(found.events[(game, 0)]))
        if isinstance(event, Setup):
            names = [seat.name for seat in event.seats]
    except (KeyError, ValueError):  # its Setup was lost or damaged too: names unknown
        pass
    return (game, "", None, "abandoned", json.dumps(names), None, None)


def _write(target: Path, games: list[GameRow], found: Salvaged, made: Recovery) -> None:
    """The fresh journal, in rollback mode (one file, nothing beside it), synced."""
    target.unlink(missing_ok=True)
    db = sqlite3.connect(target, isolation_level=None)
    try:
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        db.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?)", games)
        db.executemany("INSERT INTO events (game, seq, event) VALUES (?, ?, ?)",
                       [(g, s, text) for (g, s), text in sorted(found.events.items())])
        ours = (_now(), made.kept.name, made.problem, made.games, made.events, made.note)
        db.executemany(f"INSERT INTO recoveries ({', '.join(RECOVERY_COLUMNS)}) VALUES "
                       "(?, ?, ?, ?, ?, ?)", [*_valid_recoveries(found), ours])
        db.execute("COMMIT")
    finally:
        db.close()
    with open(target, "rb+") as file:
        os.fsync(file.fileno())


def _valid_recoveries(found: Salvaged) -> list[tuple[Any, ...]]:
    """Earlier recoveries noted in the damaged journal (its history goes on)."""
    return [row for row in found.recoveries if len(row) == len(RECOVERY_COLUMNS)
            and isinstance(row[3], int) and isinstance(row[4], int)]


def _last_recovery(path: Path) -> Recovery | None:
    try:
        db = read_only(path)
        try:
            row = db.execute(f"SELECT {', '.join(RECOVERY_COLUMNS)} FROM recoveries "
                             "ORDER BY id DESC LIMIT 1").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    _, kept, problem, games, events, note = row
    return Recovery(path.with_name(kept), problem, games, events, note)


def _aside(path: Path) -> Path:
    """A name for the damaged file that nothing uses yet."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = _sibling(path, f".damaged-{stamp}")
    candidate, n = base, 1
    while any(_sibling(candidate, s).exists() for s in ("", *SUFFIXES)):
        n += 1
        candidate = _sibling(path, f".damaged-{stamp}-{n}")
    return candidate


def kept_aside(path: Path) -> list[Path]:
    """The damaged journals kept beside ``path`` (their ``-wal``/``-shm`` left out)."""
    found = path.parent.glob(f"{path.name}.damaged-*")
    return sorted(p for p in found if not p.name.endswith(SUFFIXES))


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _sync(folder: Path) -> None:
    """Make renames in ``folder`` durable (a power cut after this keeps them)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
