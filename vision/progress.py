"""How far a long piece of work has got, on stderr, for whoever waits on it.

In a terminal each stage is a bar with its count and an estimate of the time left
(tqdm); under systemd or into a pipe, where a bar would fill the journal with carriage
returns, a plain line every few seconds says the same; ``quiet`` says nothing. Work
that takes less than those few seconds prints no plain line at all, so a quick command's
stderr stays empty for scripts that read it.

It lives in :mod:`vision`, the lowest package that may touch a clock and a stream, so
that training (``python -m vision.train``) and the device's commands share it; the pure
engine reports progress through a callback instead.

>>> import io
>>> out = io.StringIO()
>>> with Progress("enrol", stream=out, every=0.0) as progress:
...     for _ in progress.track(range(3), "photos"):
...         pass
>>> out.getvalue().splitlines()[-1].startswith("enrol: done in ")
True
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TextIO, TypeVar

T = TypeVar("T")
EVERY = 5.0  # seconds between plain lines: a journal stays readable, a person is not left guessing


class Progress:
    """The stages of one long job, each with a count; a bar, plain lines or nothing."""

    def __init__(self, name: str, *, quiet: bool = False, stream: TextIO | None = None,
                 every: float = EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.clock = clock
        self.started = clock()
        self.what = ""
        self.total: int | None = None
        self.done = 0
        self.note_text = ""
        self._stage_started = self.started
        self._last_line = self.started
        self._lines = 0
        self._bar: Any = None
        self._terminal = not quiet and _is_terminal(self.stream)

    # --- stages -----------------------------------------------------------------------

    def stage(self, what: str, total: int | None = None) -> None:
        """Start the next stage: ``total`` steps of ``what`` (None: a count without an end)."""
        self._close_bar()
        self.what, self.total, self.done, self.note_text = what, total, 0, ""
        self._stage_started = self.clock()
        if self._terminal:
            from tqdm import tqdm  # only where a bar is drawn: +0.05 s of imports

            # A stage with no count (an export, a load) shows what it is and for how long.
            shape: dict[str, Any] = {} if total is not None else {
                "bar_format": "{desc} [{elapsed}]"}
            if _width(self.stream) == 0:  # a terminal that never said its size (a bare
                # pseudo-terminal): tqdm would draw nothing in its 0 × 0
                shape.update(ncols=80, nrows=24, dynamic_ncols=False)
            self._bar = tqdm(**{"total": total, "desc": f"{self.name}: {what}",
                                "file": self.stream, "leave": False, "dynamic_ncols": True,
                                "mininterval": 0.2, **shape})

    def advance(self, steps: int = 1) -> None:
        """``steps`` more of the current stage are done."""
        self.done += steps
        if self._bar is not None:
            self._bar.update(steps)
        elif not self.quiet:
            self._maybe_line()

    def note(self, text: str) -> None:
        """A short figure shown beside the count (a training loss, a running score)."""
        self.note_text = text
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    def track(self, items: Iterable[T], what: str, total: int | None = None) -> Iterator[T]:
        """``items`` as a stage of their own, one step each (``total``: their count, when
        ``items`` has no len)."""
        count = total if total is not None else _length(items)
        self.stage(what, count)
        for item in items:
            yield item
            self.advance()

    def tick(self, _ignored: object = None) -> None:
        """One step: a callback for code that reports each item it finishes."""
        self.advance()

    # --- the end ----------------------------------------------------------------------

    def close(self) -> None:
        """Clear the bar; after plain lines, one more says how long the whole job took."""
        self._close_bar()
        if self._lines and not self.quiet:
            self._write(f"{self.name}: done in {_duration(self.clock() - self.started)}")
            self._lines = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:  # the error's own message follows: no "done" line before it
            self._close_bar()

    # --- plain lines ------------------------------------------------------------------

    def line(self) -> str:
        """The current stage as one line: what, the count, the time left."""
        text = f"{self.name}: {self.what} {self.done}"
        if self.total:
            text += f"/{self.total} ({100 * self.done // self.total} %)"
            left = self._left()
            if left is not None:
                text += f", about {_duration(left)} left"
        return text + (f"; {self.note_text}" if self.note_text else "")

    def _left(self) -> float | None:
        if not self.total or self.done <= 0:
            return None
        spent = self.clock() - self._stage_started
        return spent / self.done * max(0, self.total - self.done)

    def _maybe_line(self) -> None:
        now = self.clock()
        if now - self._last_line >= self.every:
            self._last_line = now
            self._write(self.line())

    def _write(self, text: str) -> None:
        self._lines += 1
        self.stream.write(text + "\n")
        self.stream.flush()

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream: no bar
        return False


def _width(stream: TextIO) -> int | None:
    """The terminal's columns (0: it never said), or None when there is no terminal."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def _length(items: Iterable[Any]) -> int | None:
    try:
        return len(items)  # type: ignore[arg-type]
    except TypeError:
        return None


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
