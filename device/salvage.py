"""Salvage: every game and event still readable from a damaged journal file.

The file's pages are read directly in the SQLite file format (b-tree pages, cells,
records, overflow chains; the write-ahead log's committed pages laid over them), page
by page and cell by cell, skipping whatever does not parse. This reaches the rows below
a damaged interior page and the cells beside a damaged one, which SQLite cannot, and
never takes a damaged row for a good one: every record must parse to exactly its stated
length. SQLite itself is not asked for the rows: on a damaged page it can return a row
without an error and with a column read wrongly (the tests caught a game's scores read
as NULL). It only reads the short history of earlier recoveries, from a copy.

Freelist pages are skipped: they hold deleted rows (the journal also zeroes them,
``secure_delete``). A row is kept only if it has the journal's shape (an event: a JSON
object naming an event type); a key found with two different values is dropped.
Format reference: https://www.sqlite.org/fileformat2.html
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import struct
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.journal import RECOVERY_COLUMNS
from engine.events import EVENT_TYPES

STATUSES = ("playing", "over", "abandoned")
GAME_COLUMNS = ("id", "started", "finished", "status", "players", "final", "scores")
GameRow = tuple[Any, ...]  # the games table's columns, in GAME_COLUMNS order
_MAGIC = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_LEAF_TABLE, _INTERIOR_TABLE, _LEAF_INDEX, _INTERIOR_INDEX = 13, 5, 10, 2


@dataclass
class Salvaged:
    """What could be read: game rows by id, event texts by (game, seq)."""

    games: dict[int, GameRow] = field(default_factory=dict)
    events: dict[tuple[int, int], str] = field(default_factory=dict)
    recoveries: list[tuple[Any, ...]] = field(default_factory=list)


def salvage(path: Path) -> Salvaged:
    """Every readable game and event of the journal at ``path`` (and its ``-wal``)."""
    wal = path.with_name(path.name + "-wal")
    found = read_pages(_bytes(path), _bytes(wal))
    found.recoveries = read_recoveries(path, wal)
    return found


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def read_recoveries(path: Path, wal: Path) -> list[tuple[Any, ...]]:
    """The earlier recoveries SQLite reads from a copy of the file (the history goes on)."""
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as tmp:
        copy = Path(tmp) / "journal.sqlite3"
        try:
            shutil.copyfile(path, copy)
            if wal.exists():
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            db = sqlite3.connect(copy, isolation_level=None)
        except (OSError, sqlite3.Error):
            return []
        db.text_factory = _text
        with contextlib.closing(db):
            return list(_rows(db, f"SELECT {', '.join(RECOVERY_COLUMNS)} FROM recoveries "
                                  "ORDER BY id"))


def _rows(db: sqlite3.Connection, query: str) -> Iterator[tuple[Any, ...]]:
    """The query's rows until SQLite reports an error (a damaged page ends the scan)."""
    try:
        yield from db.execute(query)
    except (sqlite3.Error, UnicodeDecodeError):  # the message may quote damaged bytes
        return


def _text(raw: bytes) -> str | None:
    """Text as stored; None for damaged bytes (that row is skipped, the scan goes on)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


# ---- the pages -----------------------------------------------------------------------

def read_pages(main: bytes, wal: bytes) -> Salvaged:
    """The journal rows in every b-tree page of the file that can be parsed."""
    size = _page_size(main, wal)
    pages = _split(main, size)
    pages.update(wal_pages(wal, size))
    usable = size - _reserved(pages.get(1, b""))
    skip = freelist(pages, usable)
    found, seen = Salvaged(), _Seen()
    for number in sorted(set(pages) - skip):
        for kind, key, record in _cells(pages, number, usable):
            _keep(found, seen, kind, key, record)
    for key in seen.ambiguous:
        if isinstance(key, int):
            found.games.pop(key, None)
        else:
            found.events.pop(key, None)
    return found


class _Seen:
    """Keys found so far, and those found with two different values (left out)."""

    def __init__(self) -> None:
        self.ambiguous: set[Any] = set()


def _keep(found: Salvaged, seen: _Seen, kind: int, key: int | None,
          record: list[Any]) -> None:
    if kind == _LEAF_TABLE and len(record) == len(GAME_COLUMNS) and record[0] is None:
        row = (key, *record[1:])
        if is_game(row):
            _put(found.games, seen, row[0], row)
    elif kind in (_LEAF_INDEX, _INTERIOR_INDEX) and len(record) == 3:
        game, seq, text = record
        if isinstance(game, int) and isinstance(seq, int) and is_event(text):
            _put(found.events, seen, (game, seq), text)


def _put(table: dict[Any, Any], seen: _Seen, key: Any, value: Any) -> None:
    if key in table and table[key] != value:
        seen.ambiguous.add(key)
    table[key] = value


def _page_size(main: bytes, wal: bytes) -> int:
    """The header's page size; the WAL's when the header is damaged; else SQLite's 4096."""
    candidates = []
    if main.startswith(_MAGIC) and len(main) >= 100:
        raw = struct.unpack_from(">H", main, 16)[0]
        candidates.append(65536 if raw == 1 else raw)
    if len(wal) >= 32 and struct.unpack_from(">I", wal, 0)[0] in _WAL_MAGIC:
        candidates.append(struct.unpack_from(">I", wal, 8)[0])
    return next((c for c in candidates if _is_page_size(c)), 4096)


def _reserved(first: bytes) -> int:
    """Bytes reserved at each page's end (0 for the journal), trusted only from a header
    whose fixed bytes (payload fractions 64, 32, 32) show it is not damaged there."""
    if first.startswith(_MAGIC) and first[21:24] == b"\x40\x20\x20":
        return first[20]
    return 0


def _is_page_size(value: int) -> bool:
    return 512 <= value <= 65536 and value & (value - 1) == 0


def _split(data: bytes, size: int) -> dict[int, bytes]:
    """Page number → bytes; a page cut short by truncation is padded with zeros."""
    return {1 + i // size: data[i:i + size].ljust(size, b"\x00")
            for i in range(0, len(data), size)}


def wal_pages(wal: bytes, size: int) -> dict[int, bytes]:
    """The newest committed version of each page in a write-ahead log (checksums kept)."""
    if len(wal) < 32:
        return {}
    magic, _, wal_size = struct.unpack_from(">III", wal, 0)
    if magic not in _WAL_MAGIC or wal_size != size:
        return {}
    order = ">" if magic & 1 else "<"
    salts = wal[16:24]
    s0, s1 = _checksum(wal[:24], 0, 0, order)
    if struct.unpack_from(">II", wal, 24) != (s0, s1):
        return {}
    committed: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    for start in range(32, len(wal) - 24 - size + 1, 24 + size):
        number, commit = struct.unpack_from(">II", wal, start)
        s0, s1 = _checksum(wal[start:start + 8] + wal[start + 24:start + 24 + size], s0, s1,
                           order)
        if wal[start + 8:start + 16] != salts or \
                struct.unpack_from(">II", wal, start + 16) != (s0, s1):
            break  # the log ends at the first frame that is not this log's, or is torn
        pending[number] = wal[start + 24:start + 24 + size]
        if commit:
            committed.update(pending)
            pending.clear()
    return committed


def _checksum(data: bytes, s0: int, s1: int, order: str) -> tuple[int, int]:
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def freelist(pages: dict[int, bytes], usable: int) -> set[int]:
    """Pages on the freelist (trunks and leaves), as far as the chain can be followed."""
    first = pages.get(1, b"")
    if not first.startswith(_MAGIC):
        return set()
    free: set[int] = set()
    trunk, total = struct.unpack_from(">II", first, 32)
    while trunk in pages and trunk not in free:
        free.add(trunk)
        page = pages[trunk]
        following, count = struct.unpack_from(">II", page, 0)
        count = min(count, (usable - 8) // 4)
        free.update(struct.unpack_from(f">{count}I", page, 8))
        trunk = following
    # A damaged header or trunk would name live pages: then trust no part of the list.
    return free if len(free) <= total else set()


def _cells(pages: dict[int, bytes], number: int,
           usable: int) -> Iterator[tuple[int, int | None, list[Any]]]:
    """(page kind, rowid or None, record) of every cell of a b-tree page that parses."""
    page = pages[number]
    at = 100 if number == 1 else 0
    kind = page[at]
    if kind not in (_LEAF_TABLE, _INTERIOR_TABLE, _LEAF_INDEX, _INTERIOR_INDEX):
        return
    head = at + (8 if kind in (_LEAF_TABLE, _LEAF_INDEX) else 12)
    count = struct.unpack_from(">H", page, at + 3)[0]
    for i in range(min(count, (usable - head) // 2)):
        offset = struct.unpack_from(">H", page, head + 2 * i)[0]
        with contextlib.suppress(ValueError, IndexError, struct.error, UnicodeDecodeError):
            cell = _cell(pages, page, kind, offset, usable)
            if cell is not None:
                yield (kind, *cell)


def _cell(pages: dict[int, bytes], page: bytes, kind: int, offset: int,
          usable: int) -> tuple[int | None, list[Any]] | None:
    if not 0 < offset < usable or kind == _INTERIOR_TABLE:
        return None  # an interior table cell holds only a child pointer and a rowid
    at = offset + (4 if kind == _INTERIOR_INDEX else 0)
    size, at = varint(page, at)
    rowid = None
    if kind == _LEAF_TABLE:
        rowid, at = varint(page, at)
    payload = _payload(pages, page, at, size, usable, table=kind == _LEAF_TABLE)
    return rowid, record(payload)


def _payload(pages: dict[int, bytes], page: bytes, at: int, size: int, usable: int, *,
             table: bool) -> bytes:
    """A cell's payload, following its overflow chain when it spills off the page."""
    if size > usable * len(pages):
        raise ValueError("a payload larger than the file")  # a damaged size
    local = local_size(size, usable, table=table)
    if local == size:
        data = page[at:at + size]
    else:
        parts, got = [page[at:at + local]], local
        following = struct.unpack_from(">I", page, at + local)[0]
        visited: set[int] = set()
        while got < size:
            if following not in pages or following in visited:
                raise ValueError("broken overflow chain")
            visited.add(following)
            over = pages[following]
            parts.append(over[4:usable][:size - got])
            got += len(parts[-1])
            following = struct.unpack_from(">I", over, 0)[0]
        data = b"".join(parts)
    if len(data) != size:
        raise ValueError("cell runs off the page")
    return data


def local_size(size: int, usable: int, *, table: bool) -> int:
    """How much of a payload of ``size`` bytes is stored on the b-tree page itself."""
    most = usable - 35 if table else (usable - 12) * 64 // 255 - 23
    if size <= most:
        return size
    least = (usable - 12) * 32 // 255 - 23
    k = least + (size - least) % (usable - 4)
    return k if k <= most else least


def varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's big-endian variable-length integer at ``at``: (value, next offset)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def record(payload: bytes) -> list[Any]:
    """The values of a record (NULL, integers, floats, text, blobs)."""
    header, at = varint(payload, 0)
    if not 0 < header <= len(payload):
        raise ValueError("bad record header")
    types = []
    while at < header:
        serial, at = varint(payload, at)
        types.append(serial)
    if at != header:
        raise ValueError("record header overruns its size")
    values = []
    for serial in types:
        value, at = _value(payload, at, serial)
        values.append(value)
    if at != len(payload):
        raise ValueError("record length does not match its header")
    return values


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _value(payload: bytes, at: int, serial: int) -> tuple[Any, int]:
    if serial == 0:
        return None, at
    if serial in _INT_SIZES:
        n = _INT_SIZES[serial]
        if at + n > len(payload):
            raise ValueError("integer runs off the record")
        return int.from_bytes(payload[at:at + n], "big", signed=True), at + n
    if serial == 7:
        return struct.unpack_from(">d", payload, at)[0], at + 8
    if serial in (8, 9):
        return serial - 8, at
    if serial < 12:
        raise ValueError(f"reserved serial type {serial}")
    n = (serial - 12) // 2
    if at + n > len(payload):
        raise ValueError("value runs off the record")
    raw = payload[at:at + n]
    return (raw if serial % 2 == 0 else raw.decode("utf-8")), at + n


# ---- what a journal row looks like ---------------------------------------------------

def is_game(row: GameRow) -> bool:
    """A games row as the journal writes it (a damaged one fails somewhere here)."""
    game_id, started, finished, status, players, final, scores = row
    return (isinstance(game_id, int) and game_id > 0 and isinstance(started, str)
            and isinstance(finished, str | None) and status in STATUSES
            and _json_names(players) and isinstance(final, str | None)
            and (scores is None or _is_json(scores)))


def _json_names(text: Any) -> bool:
    if not isinstance(text, str):
        return False
    try:
        names = json.loads(text)
    except ValueError:
        return False
    return isinstance(names, list) and all(isinstance(n, str) for n in names)


def _is_json(text: Any) -> bool:
    if not isinstance(text, str):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def is_event(text: Any) -> bool:
    """A JSON object naming one of the engine's events (the game that is resumed is
    replayed in full before it is: :func:`device.recovery.plan`)."""
    if not isinstance(text, str) or not text.startswith("{"):
        return False
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("type"), str) \
        and data["type"] in EVENT_TYPES
