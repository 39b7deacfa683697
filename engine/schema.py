"""Checks of JSON-like input from outside: the one way every entry point validates.

A spec says what a value must be (a whole number in bounds, a string, one of a few
words, a list of items, an object with named fields); :meth:`Spec.check` returns the
value or raises :class:`SchemaError`, one line naming the field's path. The web API,
the command line, the settings file and Au Toma's state file all check through it, so
the same mistake reads the same everywhere:

>>> STATE = Record({"helium": Field(Integer(0, 10)), "ok": Field(Boolean(), required=False)})
>>> STATE.check({"helium": 3}, "automa")
{'helium': 3}
>>> STATE.check({"helium": 11}, "automa")
Traceback (most recent call last):
engine.schema.SchemaError: automa.helium must be a whole number, 0 to 10, not 11
>>> STATE.check({"ok": True}, "automa")
Traceback (most recent call last):
engine.schema.SchemaError: automa.helium must be a whole number, 0 to 10, not missing

:func:`check_document` bounds a whole parsed document (nesting depth, finite numbers,
valid Unicode) without recursion, before any spec reads it.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_short = reprlib.Repr()  # values quoted in a message: one short line, whatever their shape
_short.maxlevel, _short.maxstring, _short.maxother, _short.maxlong = 2, 40, 40, 40
_short.maxlist = _short.maxdict = _short.maxtuple = 4


class SchemaError(ValueError):
    """Input that does not fit its spec: ``path`` names the field, ``problem`` says why."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path} {problem}" if path else problem)
        self.path, self.problem = path, problem


def shown(value: object) -> str:
    """``value`` quoted for a message: at most 60 characters.

    >>> shown(["darrow"] * 1000)
    "['darrow', 'darrow', 'darrow', 'darrow', ...]"
    """
    text: str = _short.repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def child(path: str, key: str | int) -> str:
    """The path of a field (``automa.helium``) or of a list's item (``players[2]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Spec:
    """What one value must be."""

    def expected(self) -> str:
        """The requirement in words, after "must be" ("a whole number, 0 to 10")."""
        raise NotImplementedError

    def check(self, value: Any, path: str = "") -> Any:
        """``value`` if it fits, else :class:`SchemaError` naming ``path``."""
        raise NotImplementedError

    def refuse(self, value: object, path: str) -> SchemaError:
        return SchemaError(path, f"must be {self.expected()}, not {shown(value)}")


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f", {low:g} to {high:g}"
    if low is not None:
        return f", {low:g} or more"
    return "" if high is None else f", at most {high:g}"


@dataclass(frozen=True)
class Integer(Spec):
    """A whole number (never a bool or a float) within optional bounds."""

    low: int | None = None
    high: int | None = None

    def expected(self) -> str:
        return "a whole number" + _bounds(self.low, self.high)

    def check(self, value: Any, path: str = "") -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not _within(
                value, self.low, self.high):
            raise self.refuse(value, path)
        return value


@dataclass(frozen=True)
class Number(Spec):
    """A finite number, whole or not (never a bool), within optional bounds."""

    low: float | None = None
    high: float | None = None

    def expected(self) -> str:
        return "a number" + _bounds(self.low, self.high)

    def check(self, value: Any, path: str = "") -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
                value) or not _within(value, self.low, self.high):
            raise self.refuse(value, path)
        return value


def _within(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


@dataclass(frozen=True)
class Boolean(Spec):
    def expected(self) -> str:
        return "true or false"

    def check(self, value: Any, path: str = "") -> bool:
        if not isinstance(value, bool):
            raise self.refuse(value, path)
        return value


@dataclass(frozen=True)
class Text(Spec):
    """A string of ``min_length`` to ``max_length`` characters (``strip``: not counting
    the spaces around it)."""

    max_length: int | None = None
    min_length: int = 0
    strip: bool = False

    def expected(self) -> str:
        if self.min_length and self.max_length is not None:
            return f"{self.min_length} to {self.max_length} characters"
        return "a string"

    def check(self, value: Any, path: str = "") -> str:
        if not isinstance(value, str):
            raise SchemaError(path, f"must be a string, not {shown(value)}")
        size = len(value.strip() if self.strip else value)
        if self.max_length is not None and size > self.max_length:
            raise SchemaError(path, f"is longer than {self.max_length} characters")
        if size < self.min_length:
            raise SchemaError(path, f"must be {self.expected()}")
        return value


@dataclass(frozen=True)
class OneOf(Spec):
    """One of a few values (words, usually)."""

    values: tuple[object, ...]

    def expected(self) -> str:
        return "one of " + ", ".join(map(str, self.values))

    def check(self, value: Any, path: str = "") -> Any:
        # A list or an object is never one of the words, and may not be hashable.
        if isinstance(value, list | dict) or value not in self.values:
            raise self.refuse(value, path)
        return value


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``min_items`` to ``max_items`` items, each fitting ``item``."""

    item: Spec | None = None  # None: items are checked by the caller
    max_items: int | None = None
    min_items: int = 0

    def expected(self) -> str:
        return "a list"

    def check(self, value: Any, path: str = "") -> list[Any]:
        if not isinstance(value, list):
            raise self.refuse(value, path)
        if self.max_items is not None and len(value) > self.max_items:
            raise SchemaError(path, f"holds more than {self.max_items} items")
        if len(value) < self.min_items:
            raise SchemaError(path, f"must hold at least {self.min_items} items")
        if self.item is not None:
            for index, item in enumerate(value):
                self.item.check(item, child(path, index))
        return value


@dataclass(frozen=True)
class Field:
    """One named field of a :class:`Record`."""

    spec: Spec
    required: bool = True
    nullable: bool = False  # null is accepted (and means "not given")


@dataclass(frozen=True)
class Record(Spec):
    """A JSON object with named fields; ``open``: other fields are let through."""

    fields: Mapping[str, Field] = field(default_factory=dict)
    open: bool = False

    def expected(self) -> str:
        return "a JSON object"

    def check(self, value: Any, path: str = "") -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.refuse(value, path)
        for name, spec in self.fields.items():
            where = child(path, name)
            if name not in value:
                if spec.required:
                    raise SchemaError(where, f"must be {spec.spec.expected()}, not missing")
            elif not (spec.nullable and value[name] is None):
                spec.spec.check(value[name], where)
        extra = sorted(str(k) for k in value if k not in self.fields)
        if extra and not self.open:
            where = f" in {path}" if path else ""
            raise SchemaError("", f"unknown field {shown(extra[0])}{where}")
        return value


# --- a whole document ----------------------------------------------------------------------


def check_document(value: object, max_depth: int, name: str = "the document") -> None:
    """Refuse a document nested deeper than ``max_depth``, with a number that is not
    finite, or with text that is not Unicode (a lone surrogate).

    Walks without recursion, so no shape of document can exhaust the stack.

    >>> check_document([[[1]]], 2, "the body")
    Traceback (most recent call last):
    engine.schema.SchemaError: the body is nested deeper than 2 levels
    """
    stack: list[tuple[object, int]] = [(value, 1)]  # (item, its level: the document's is 1)
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, name)
        elif isinstance(item, float) and not math.isfinite(item):
            raise SchemaError(name, "holds a number that is not finite")
        elif isinstance(item, dict | list) and depth > max_depth:
            raise SchemaError(name, f"is nested deeper than {max_depth} levels")
        elif isinstance(item, dict):
            stack.extend((key, depth) for key in item)
            stack.extend((sub, depth + 1) for sub in item.values())
        elif isinstance(item, list):
            stack.extend((sub, depth + 1) for sub in item)


def _check_text(text: str, name: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # no journal or file could store it
        raise SchemaError(name, "holds a string that is not valid Unicode") from None
