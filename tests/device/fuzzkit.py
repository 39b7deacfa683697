"""Malformed input of every shape for the ``companion`` commands, and a judge of replies.

Shared by the property tests (``test_cli_bad_input.py``) and ``benchmarks/cli_fuzz.py``.
Documents are random JSON, valid documents with a few parts replaced, deleted or added,
deep nesting, huge numbers, NaN and Infinity, lone surrogates, binary and non-UTF-8
bytes. A command's reply is right when it is either a success (status 0, nothing on
stderr) or a refusal (status 2, one line on stderr, nothing on stdout); an exception
escaping ``main`` is a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from device.cli import main

GAME: dict[str, Any] = {  # the score contract's example
    "players": [
        {"name": "Ann", "house": "mars", "helium": 6, "influence": 9, "fleet": 0,
         "sovereign": True, "hand": ["judge", "holiday", "boneriders"],
         "choices": {"holiday": {"color": "blue"}, "razor-designer": {"name": "darrow"}}},
        {"name": "Au Toma", "automa": {"level": 2, "parity": "even"},
         "helium": 4, "influence": 4, "fleet": 10, "sovereign": False, "hand": ["eo", "sevro"]},
    ],
    "neutral_influence": 3,
    "locations": {"jupiter": ["diplomat", {"card": "modjob", "face_down": True}],
                  "mars": [], "luna": [], "institute": []},
    "banished": ["virga"],
    "deck": ["aja"],
    "first_player": "Ann",
}
STATE: dict[str, Any] = {  # the Au Toma state contract's example
    "priorities": {"A": "mars", "B": "luna", "C": "jupiter", "D": "institute"},
    "locations": {"jupiter": 2, "mars": 0, "luna": 3, "institute": 1},
    "automa": {"helium": 3, "influence": 10, "fleet": 4, "sovereign": False},
}
DECK: dict[str, Any] = json.loads(
    resources.files("engine").joinpath("automa_deck.json").read_text(encoding="utf-8"))
SETTINGS = ('[camera]\nsource = "opencv"\nfps = 10.0\n[web]\nport = 8080\n'
            '[vision]\ncorners = [[1, 2], [30, 2], [30, 40], [1, 40]]\n'
            '[voice]\ncommand = ["espeak-ng", "-v", "en"]\n')
ODD_TEXTS = ("NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 5000, "1" * 400,
             '"\\ud800"', '{"a": "\\udfff"}', "", " ", "\ufeff", "null", "[]", "{}",
             '{"players": NaN}', '{"players": [1e400]}', "\x00", "{" * 3 + "}")


# ---- JSON documents ------------------------------------------------------------------

def json_values(max_leaves: int = 20) -> st.SearchStrategy[Any]:
    leaves = (st.none() | st.booleans() | st.integers()
              | st.integers(min_value=-(10**40), max_value=10**40)
              | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20)
              | st.sampled_from(["mars", "aja", "even", "A", "", "x" * 300, "\n", "😀"]))
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=6)
        | st.dictionaries(st.text(max_size=10) | st.sampled_from(_KEYS), inner, max_size=6),
        max_leaves=max_leaves)


_KEYS = sorted({"players", "name", "house", "helium", "influence", "fleet", "sovereign",
                "hand", "choices", "automa", "hacker", "level", "parity", "locations",
                "neutral_influence", "banished", "deck", "first_player", "card",
                "face_down", "color", "priorities", "jupiter", "mars", "luna",
                "institute", "format", "columns", "cards"})


@st.composite
def mutated(draw: st.DrawFn, seed: Any) -> Any:
    """``seed`` with one to four parts replaced, deleted, or added."""
    doc = copy.deepcopy(seed)
    for _ in range(draw(st.integers(1, 4))):
        spots = list(_spots(doc))
        if not spots:
            break
        holder, key = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(("replace", "replace", "delete", "add")))
        value = draw(json_values(8))
        if action == "replace":
            holder[key] = value
        elif action == "delete":
            del holder[key]
        elif isinstance(holder, dict):
            holder[draw(st.sampled_from(_KEYS) | st.text(max_size=6))] = value
        else:
            holder.insert(key, value)
    return doc


def _spots(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in a document."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, value in items:
            out.append((node, key))
            stack.append(value)
    return out


def deep(depth: int, opener: str = "[") -> str:
    closer = {"[": "]", "{\"a\": ": "}"}[opener]
    return opener * depth + "1" + closer * depth


def documents(seed: Any) -> st.SearchStrategy[str | bytes]:
    """JSON text (or raw bytes) of every shape, about half of it near ``seed``."""
    dumps: Callable[[Any], str] = lambda v: json.dumps(v, allow_nan=True)  # noqa: E731
    return st.one_of(
        mutated(seed).map(dumps),
        mutated(seed).map(dumps),
        json_values().map(dumps),
        st.sampled_from(ODD_TEXTS),
        st.builds(deep, st.integers(1, 100_000), st.sampled_from(["[", "{\"a\": "])),
        st.binary(max_size=300),
        st.builds(lambda head, tail: head + tail, mutated(seed).map(dumps).map(str.encode),
                  st.binary(min_size=1, max_size=8)).map(lambda b: b + b"\xff\xfe"),
    )


def settings_files() -> st.SearchStrategy[str | bytes]:
    """TOML settings of every shape (near-valid ones first)."""
    lines = SETTINGS.splitlines()
    near = st.builds(lambda k, v: "\n".join([*lines[:k], v, *lines[k + 1:]]),
                     st.integers(0, len(lines) - 1),
                     st.sampled_from(["fps = nan", "fps = inf", "port = 1e999",
                                      "port = " + "9" * 5000, "corners = [[nan, 1]]",
                                      "source = [[[[[[[1]]]]]]]", "[[camera]]",
                                      "command = []", "x = 1", "port = \"80\""]))
    return st.one_of(near, st.text(max_size=200),
                     st.builds(lambda n: "a = " + "[" * n + "]" * n, st.integers(1, 100_000)),
                     st.binary(max_size=300))


# ---- images -------------------------------------------------------------------------

def png(width: int, height: int, body: bytes = b"") -> bytes:
    """A PNG header claiming ``width`` x ``height`` pixels, then ``body`` as its data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)
            + chunk(b"IEND", b""))


def image_bytes(valid: bytes) -> st.SearchStrategy[bytes]:
    """Bytes that are not a whole image: random, cut short, or a bomb of a header."""
    return st.one_of(
        st.binary(max_size=2000),
        st.builds(lambda cut: valid[:cut], st.integers(0, max(0, len(valid) // 2))),
        st.builds(lambda prefix, rest: prefix + rest,
                  st.sampled_from([b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"BM", b"RIFF",
                                   b"II*\x00", b"P6\n"]),
                  st.binary(max_size=500)),
        st.builds(png, st.sampled_from([100_000, 65_535, 0, 1]),
                  st.sampled_from([100_000, 65_535, 0]),
                  st.binary(max_size=50)),
    )


# ---- running a command and judging its reply ----------------------------------------

@dataclass(frozen=True)
class Reply:
    status: int | None  # None: an exception escaped main (a traceback)
    out: str
    err: str
    error: str = ""

    @property
    def is_refusal(self) -> bool:
        return (self.status == 2 and self.out == "" and self.err.count("\n") == 1
                and self.err.endswith("\n") and "\r" not in self.err
                and self.err.startswith("companion "))

    @property
    def is_success(self) -> bool:
        return self.status == 0 and self.err == "" and self.out != ""

    @property
    def is_right(self) -> bool:
        return self.is_refusal or self.is_success


def run(argv: Sequence[str]) -> Reply:
    """``companion ARGV`` in this process, its output captured."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(argv))
    except BaseException as exc:
        return Reply(None, out.getvalue(), err.getvalue(), f"{type(exc).__name__}: {exc}"[:300])
    return Reply(status, out.getvalue(), err.getvalue())


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(content)
    return path
