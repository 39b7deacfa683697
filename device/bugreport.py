"""A recorded game folder as it stands, zipped on the fly for a bug report.

The page's "Save this game for a bug report" downloads the current game's folder
(:meth:`device.recorder.GameRecorder.bug_report`). Nothing is copied on the device: the
zip is written piece by piece into the HTTP response. The timeline is cut at its last
whole line, and only the frames it names go in, so a folder still being written packs
into a folder ``companion replay`` reads.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.recording import BACK_FILE


@dataclass(frozen=True)
class BugReport:
    """A game folder as it stands, packed as a zip on the fly."""

    folder: Path
    timeline: bytes  # up to its last whole line
    files: tuple[Path, ...]  # the rest: game.json, the card back, the frames it names

    @classmethod
    def of(cls, folder: Path) -> BugReport:
        """What ``folder`` holds now (the frames its timeline names so far)."""
        try:
            text = (folder / "timeline.jsonl").read_bytes()
        except FileNotFoundError:
            text = b""
        text = text[:text.rfind(b"\n") + 1]
        pictures: dict[str, None] = {}
        for line in text.splitlines():
            name = json.loads(line).get("frame")
            if isinstance(name, str):
                pictures[name] = None
        files = [folder / "game.json", folder / BACK_FILE, *(folder / p for p in pictures)]
        return cls(folder, text, tuple(f for f in files if f.is_file()))

    @property
    def name(self) -> str:
        """The zip's file name."""
        return f"{self.folder.name}.zip"

    @property
    def frames(self) -> int:
        """The pictures it holds."""
        return sum(f.parent.name == "frames" for f in self.files)

    @property
    def size(self) -> int:
        """About how many bytes the zip holds (the files, uncompressed)."""
        return len(self.timeline) + sum(f.stat().st_size for f in self.files)

    def chunks(self) -> Iterator[bytes]:
        """The zip, piece by piece (pictures stored as they are, text compressed)."""
        sink = _Sink()
        with zipfile.ZipFile(sink, "w") as pack:
            base = self.folder.name
            pack.writestr(f"{base}/timeline.jsonl", self.timeline, zipfile.ZIP_DEFLATED)
            yield sink.take()
            for file in self.files:
                kind = zipfile.ZIP_DEFLATED if file.suffix == ".json" else zipfile.ZIP_STORED
                pack.write(file, f"{base}/{file.relative_to(self.folder)}", kind)
                yield sink.take()
        yield sink.take()


class _Sink(io.RawIOBase):
    """A write-only stream whose bytes are taken away as they come (zip to HTTP)."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data
