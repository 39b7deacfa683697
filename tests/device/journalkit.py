"""Journals with real games, ways of damaging them, and what is still readable after.

Shared by the journal recovery tests and ``benchmarks/device_faults.py``. "Readable"
is defined without the salvage code: a row is readable when every page holding it
(its b-tree page and any overflow pages, found in the undamaged file) is byte for byte
unchanged in the damaged one. Rows on damaged pages may be recovered too (a bonus), but
no recovered row may differ from the truth.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from devkit import policy, two_player_setup

from device.journal import Journal
from device.service import NewGame, Play, Service, Undo

PAGE = 4096  # SQLite's default, which the journal uses
GAME_QUERY = "SELECT id, started, finished, status, players, final, scores FROM games"
Rows = tuple[dict[int, tuple[object, ...]], dict[tuple[int, int], str]]


def build(path: Path, games: int = 4, seed: int = 1, last: int = 60) -> None:
    """A journal with ``games`` games (the last one in play after ``last`` moves), with
    undos; then compacted (VACUUM), so every row is stored exactly once."""
    rng = random.Random(seed)
    service = Service(rng=random.Random(seed), journal=Journal(path))
    for g in range(games):
        service.call(NewGame(two_player_setup(seed + g)))
        moves = 0
        while not service.game.is_over and (g < games - 1 or moves < last):
            service.call(Play(policy(service.game)))  # type: ignore[arg-type]
            moves += 1
            if rng.random() < 0.05:
                service.call(Undo())
    assert service.journal is not None
    service.journal.close()
    with sqlite3.connect(path) as db:
        db.execute("VACUUM")
    db.close()


def rows(path: Path) -> Rows:
    """The games and events SQLite reads from a journal (damaged text comes back as it is
    stored, undecodable bytes escaped, so it simply differs from the truth)."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    db.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
    try:
        games = {r[0]: tuple(r) for r in db.execute(GAME_QUERY)}
        events = {(g, s): e for g, s, e in db.execute("SELECT game, seq, event FROM events")}
    finally:
        db.close()
    return games, events


# ---- damage --------------------------------------------------------------------------

@dataclass(frozen=True)
class Damage:
    """One way of damaging a file, described in words (for test ids and the benchmark)."""

    name: str
    apply: Callable[[bytes], bytes]


def truncated(fraction: float) -> Damage:
    return Damage(f"truncated to {fraction:.0%}", lambda data: data[:int(len(data) * fraction)])


def random_bytes(seed: int, hits: int = 1, size: int = 512) -> Damage:
    def apply(data: bytes) -> bytes:
        rng = random.Random(seed)
        out = bytearray(data)
        for _ in range(hits):
            at = rng.randrange(0, max(1, len(out) - size))
            out[at:at + size] = rng.randbytes(size)
        return bytes(out)

    return Damage(f"{hits} x {size} random bytes (seed {seed})", apply)


EMPTY = Damage("an empty file", lambda data: b"")
NOT_SQLITE = Damage("a file that is not SQLite",
                    lambda data: random.Random(len(data)).randbytes(len(data) or 5000))


def standard_damages(count: int, seed: int = 0) -> list[Damage]:
    """``count`` damages of every kind: truncations, random bytes, empty, not SQLite."""
    rng = random.Random(seed)
    kinds: list[Damage] = [EMPTY, NOT_SQLITE]
    while len(kinds) < count:
        if len(kinds) % 2:
            kinds.append(truncated(rng.uniform(0.05, 0.95)))
        else:
            kinds.append(random_bytes(rng.randrange(10**6), hits=rng.randint(1, 4)))
    return kinds[:count]


def damage(path: Path, how: Damage) -> bytes:
    """Damage the file at ``path``; returns its bytes from before."""
    before = path.read_bytes()
    path.write_bytes(how.apply(before))
    return before


# ---- what is still readable ----------------------------------------------------------

def readable(before: bytes, after: bytes, truth: Rows) -> Rows:
    """The rows of ``truth`` whose pages are unchanged from ``before`` to ``after``."""
    games, events = truth
    keep_games = {k: row for k, row in games.items()
                  if _intact(before, after, _game_record(row), table=True)}
    keep_events = {k: text for k, text in events.items()
                   if _intact(before, after, _event_record(*k, text), table=False)}
    return keep_games, keep_events


def _intact(before: bytes, after: bytes, record: bytes, *, table: bool) -> bool:
    return all(before[p * PAGE:(p + 1) * PAGE] == after[p * PAGE:(p + 1) * PAGE]
               for p in _pages_of(before, record, table=table))


def _pages_of(data: bytes, record: bytes, *, table: bool) -> list[int]:
    """Pages (0-based) holding ``record`` in ``data``: its cell's and its overflow chain."""
    local = _local(len(record), table=table)
    at = data.find(record[:local])
    assert at >= 0, "a row of the truth is not in the undamaged file"
    pages = [at // PAGE]
    if local < len(record):
        following = struct.unpack_from(">I", data, at + local)[0]
        while following:
            pages.append(following - 1)
            following = struct.unpack_from(">I", data, (following - 1) * PAGE)[0]
    return pages


def _local(size: int, *, table: bool) -> int:
    usable = PAGE
    most = usable - 35 if table else (usable - 12) * 64 // 255 - 23
    if size <= most:
        return size
    least = (usable - 12) * 32 // 255 - 23
    k = least + (size - least) % (usable - 4)
    return k if k <= most else least


def _event_record(game: int, seq: int, text: str) -> bytes:
    return _record([game, seq, text])


def _game_record(row: tuple[object, ...]) -> bytes:
    return _record([None, *row[1:]])


def _record(values: list[object]) -> bytes:
    """SQLite's record format (file format 4) for NULL, integers and text."""
    types, body = [], b""
    for value in values:
        serial, raw = _serial(value)
        types.append(serial)
        body += raw
    head = b"".join(_varint(t) for t in types)
    size = len(head) + 1
    while len(_varint(size)) + len(head) != size:
        size += 1
    return _varint(size) + head + body


def _serial(value: object) -> tuple[int, bytes]:
    if value is None:
        return 0, b""
    if isinstance(value, int):
        if value in (0, 1):
            return 8 + value, b""
        for serial, width in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 8)):
            if -(1 << (8 * width - 1)) <= value < 1 << (8 * width - 1):
                return serial, value.to_bytes(width, "big", signed=True)
    raw = str(value).encode()
    return 13 + 2 * len(raw), raw


def _varint(value: int) -> bytes:
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def copy_journal(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
