"""Reading the files a user names on the command line, whatever they turn out to hold.

Every reader either returns usable data or raises :class:`InputError` with one line
saying what is wrong: a missing file, a folder, a device or pipe, a file too large,
bytes that are not UTF-8 text, JSON nested too deeply or holding NaN, Infinity or a
number too long to be meant, an image that does not decode in full. Nothing here
writes anything.
"""

from __future__ import annotations

import io
import json
import math
import stat
import warnings
from pathlib import Path
from typing import Any

MAX_TEXT = 1 << 20  # a game, state, deck or settings file is a few kilobytes
MAX_DEPTH = 32  # the deepest contract (a score file) nests 5 levels
MAX_DIGITS = 15  # no count, level or coordinate needs more
MAX_IMAGE_BYTES = 64 << 20
MAX_PIXELS = 50_000_000  # the largest Raspberry Pi camera gives 12 MP; phones 50 MP
# Formats both Pillow and OpenCV read (and none that Pillow hands to another program).
IMAGE_FORMATS = ("JPEG", "PNG", "BMP", "WEBP", "TIFF", "PPM")
FORMAT_NAMES = "JPEG, PNG, BMP, WebP, TIFF or PPM"


class InputError(ValueError):
    """A file the user named cannot be used; the message is one line saying why."""


def show(path: str | Path) -> str:
    """A path as it can be printed on one line (quoted when it holds odd characters)."""
    text = str(path)
    return text if text.isprintable() else ascii(text)


def brief(value: Any, limit: int = 60, *, as_json: bool = False) -> str:
    """A value from the input, quoted (as Python or as JSON) and cut short, for a
    one-line message."""
    if isinstance(value, str) and not as_json:
        text = repr(value) if value.isprintable() else ascii(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            text = ascii(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def clip(message: str, limit: int = 300) -> str:
    """A message on one line of at most ``limit`` characters (input may be quoted in it)."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def read_bytes(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    name = f"{what} {show(path)}"
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        raise InputError(f"{name} does not exist") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InputError(f"cannot read {name}: {_reason(exc)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{name} is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{name} is not a regular file")
    if info.st_size > limit:
        raise InputError(f"{name} is too large ({info.st_size:,} bytes; at most {limit:,})")
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {_reason(exc)}") from None
    if len(data) > limit:  # it grew while we looked
        raise InputError(f"{name} is too large (more than {limit:,} bytes)")
    return data


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)


def read_text(path: str | Path, what: str, limit: int = MAX_TEXT) -> str:
    """A UTF-8 text file (a byte-order mark is allowed)."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} {show(path)} is not UTF-8 text (byte {exc.start:,} is "
                         f"{data[exc.start]:#04x})") from None


def read_json(path: str | Path, what: str, limit: int = MAX_TEXT) -> Any:
    """A JSON document from a file (see :func:`parse_json`)."""
    return parse_json(read_text(path, what, limit), f"{what} {show(path)}")


def parse_json(text: str, name: str) -> Any:
    """JSON as the contracts use it: finite numbers of sensible length, shallow nesting,
    strings that are real text (no lone surrogates)."""
    if not text.strip():
        raise InputError(f"{name} is empty")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite,
                          parse_int=_whole)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    except RecursionError:
        raise InputError(f"{name} is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None
    check_tree(data, name)
    return data


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is too large")
    return value


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"number {text[:20]}{'...' if len(text) > 20 else ''} is too large "
                         f"(at most {MAX_DIGITS} digits)")
    return int(text)


def check_tree(data: Any, name: str, max_depth: int = MAX_DEPTH) -> None:
    """Depth and text of parsed data, without recursion (so no depth can crash it)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            raise InputError(f"{name} is nested too deeply (at most {max_depth} levels)")
        if isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            _check_text(value, name)


def _check_text(value: str, name: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{name} holds a string that is not text (a lone surrogate "
                         "\\u escape)") from None


def read_image(path: str | Path, what: str = "image") -> Any:
    """A BGR image (as ``cv2.imread`` gives), only after it decoded in full elsewhere.

    Pillow reads the header first (the size is checked before any pixel is decoded), then
    every pixel (a truncated or corrupt file fails here, quietly); only then does OpenCV
    read it, so its decoders never print their complaints about damaged files.
    """
    check_image(path, what)
    return decode_image(path, what)


def decode_image(path: str | Path, what: str = "image") -> Any:
    """OpenCV's reading of an image :func:`check_image` passed (its logging silenced)."""
    import cv2  # +0.14 s per start (import_costs.py)

    previous = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    finally:
        cv2.utils.logging.setLogLevel(previous)
    if image is None:
        raise InputError(f"{what} {show(path)} is in a form OpenCV cannot read "
                         f"({FORMAT_NAMES} in 8 or 16 bits)")
    return image


def check_image(path: str | Path, what: str = "image") -> None:
    """Raise :class:`InputError` unless the file is a whole image of sensible size."""
    data = read_bytes(path, what, MAX_IMAGE_BYTES)
    name = f"{what} {show(path)}"
    if not data:
        raise InputError(f"{name} is empty")
    from PIL import Image, UnidentifiedImageError  # +0.01 s per start (import_costs.py)

    try:
        with warnings.catch_warnings():
            # The size is checked below; other warnings (odd EXIF) are not the user's to see.
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data), formats=IMAGE_FORMATS) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise InputError(f"{name} is too large ({width}x{height} pixels; at "
                                     f"most {MAX_PIXELS:,})")
                image.load()
    except InputError:
        raise
    except UnidentifiedImageError:
        raise InputError(f"{name} is not an image ({FORMAT_NAMES})") from None
    except Exception as exc:  # Pillow's decoders raise many kinds on damaged data
        raise InputError(f"{name} is not a readable image ({_why(exc)})") from None


def _why(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."
