"""Settings: built-in defaults, then the system file, the user file and ``--config``.

Files are TOML with the same tables and keys as ``defaults.toml`` beside this module;
each later file overrides key by key. Everything is validated once, at load time, so a
typo fails at start with a message naming the file and the key, never mid-game.

>>> cfg = load(system=None, user=None)
>>> cfg.camera.fps, cfg.buttons.undo, cfg.web.port
(10.0, 23, 8080)
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from device.inputs import InputError, brief, check_tree, clip, read_text, show
from engine.schema import Boolean, Integer, ListOf, Number, OneOf, SchemaError, Spec, Text

SYSTEM_PATH = Path("/etc/companion/config.toml")
SOURCES = ("picamera", "opencv", "replay", "synthetic")
BUTTON_PINS = ("die", "automa", "next", "undo")


class ConfigError(ValueError):
    """A settings file that cannot be used: names the file, the key and the problem."""


def user_path() -> Path:
    """The user's settings file (XDG_CONFIG_HOME is honoured)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "companion" / "config.toml"


class Section(Mapping[str, Any]):
    """One table of settings, read as attributes (``cfg.camera.fps``) or keys."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@dataclass(frozen=True)
class Config:
    """The merged, validated settings and the files they came from."""

    tables: Mapping[str, Section]
    files: tuple[Path, ...] = ()

    def __getattr__(self, name: str) -> Section:
        try:
            return self.tables[name]
        except KeyError:
            raise AttributeError(name) from None

    def replace(self, table: str, **values: Any) -> Config:
        """A copy with some values of one table changed (validated)."""
        merged = {name: dict(section) for name, section in self.tables.items()}
        _merge(merged, {table: values}, "override")
        return Config(_freeze(_validated(merged, "override")), self.files)

    def to_toml(self) -> str:
        """The settings as a TOML document (what ``companion config show`` prints)."""
        lines = [f"# merged from: built-in defaults{''.join(', ' + str(f) for f in self.files)}"]
        for name, section in self.tables.items():
            lines += ["", f"[{name}]"]
            lines += [f"{key} = {_toml_value(value)}" for key, value in section.items()]
        return "\n".join(lines) + "\n"


def defaults() -> dict[str, dict[str, Any]]:
    """The built-in settings (``defaults.toml``)."""
    text = resources.files("device").joinpath("defaults.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def load(path: str | Path | None = None, *, system: Path | bool | None = True,
         user: Path | bool | None = True) -> Config:
    """Defaults, then the system file, the user file and ``path``, each overriding.

    ``system``/``user``: True for the standard places (:data:`SYSTEM_PATH`,
    :func:`user_path`), a path for another, None or False to skip it.

    :raises ConfigError: for a missing ``path``, bad TOML, an unknown key or a bad value.
    """
    values = defaults()
    files: list[Path] = []
    system_file = SYSTEM_PATH if system is True else (system or None)
    user_file = user_path() if user is True else (user or None)
    for candidate, required in ((system_file, False), (user_file, False), (path, True)):
        if candidate is None:
            continue
        file = Path(candidate)
        if not file.exists():
            if required:
                raise ConfigError(f"{file}: no such settings file")
            continue
        _merge(values, _read(file), str(file))
        _validated(values, str(file))  # so a bad value is blamed on the file that set it
        files.append(file)
    return Config(_freeze(_validated(values, "defaults")), tuple(files))


def _read(file: Path) -> dict[str, Any]:
    try:
        text = read_text(file, "settings file")
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{show(file)}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{show(file)}: not valid TOML: nested too deeply") from None
    except ValueError as exc:  # a number too long to convert
        raise ConfigError(f"{show(file)}: not valid TOML: {clip(str(exc), 120)}") from None
    try:
        check_tree(data, show(file), max_depth=6)  # [table] key = [[x, y], ...] needs 5
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    return data


def _merge(into: dict[str, dict[str, Any]], new: Mapping[str, Any], origin: str) -> None:
    """Copy ``new`` over ``into`` key by key, checking names and types against it."""
    for table, values in new.items():
        if table not in into:
            raise ConfigError(f"{origin}: unknown table [{clip(str(table), 60)}] "
                              f"(known: {', '.join(sorted(into))})")
        if not isinstance(values, Mapping):
            raise ConfigError(f"{origin}: {table} must be a table")
        for key, value in values.items():
            if key not in into[table]:
                raise ConfigError(f"{origin}: unknown setting {table}.{clip(str(key), 60)} "
                                  f"(known: {', '.join(into[table])})")
            into[table][key] = _typed(value, into[table][key], f"{origin}: {table}.{key}")


def _typed(value: Any, default: Any, where: str) -> Any:
    """``value`` converted to the default's type, or a clear error."""
    if isinstance(default, str) and isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # pin = 1234 means the digits
    try:
        checked = _kind(default).check(value, where)
    except SchemaError as exc:
        raise ConfigError(str(exc)) from None
    return float(checked) if isinstance(default, float) else checked


def _kind(default: Any) -> Spec:
    """The spec of a setting's type: the type of its default."""
    if isinstance(default, bool):
        return Boolean()
    if isinstance(default, float):
        return Number()
    if isinstance(default, int):
        return Integer()
    if isinstance(default, list):
        return ListOf()  # element types are checked with the values (CHECKS)
    return Text()


# --- value checks: (table, key) → a shared spec, or a function for what no spec says ------

def _table_pin(value: Any) -> str | None:
    ok = value == "" or re.fullmatch(r"[0-9]{4,6}", value) is not None
    return None if ok else "must be empty (random) or 4 to 6 digits"


def _join_token(value: Any) -> str | None:
    ok = value == "" or re.fullmatch(r"[A-Za-z0-9_-]{22,64}", value) is not None
    return None if ok else "must be empty (random) or 22 to 64 letters, digits, - or _"


def _command(value: Any) -> str | None:
    if not value or not all(isinstance(v, str) for v in value):
        return "must be a program and its arguments, as strings"
    return None


def _corners(value: Any) -> str | None:
    pairs = value == [] or (len(value) == 4 and all(
        isinstance(p, list) and len(p) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c)
                for c in p)
        for p in value))
    return None if pairs else "must be empty or four [x, y] pixel pairs (TL, TR, BR, BL)"


# BCM 0 and 1 are the HAT EEPROM's I2C lines; 2-27 are the header's GPIOs.
_BCM_PIN = Integer(2, 27)

RANGES: dict[tuple[str, str], Spec] = {
    ("camera", "source"): OneOf(SOURCES),
    ("camera", "width"): Integer(64, 4608),
    ("camera", "height"): Integer(48, 3456),
    ("camera", "fps"): Number(0.1, 60),
    ("camera", "retry_min"): Number(0.01, 60),
    ("camera", "retry_max"): Number(0.01, 600),
    **{("buttons", name): _BCM_PIN for name in BUTTON_PINS},
    ("buttons", "bounce_time"): Number(0, 1),
    ("buttons", "undo_hold"): Number(0.1, 10),
    ("led", "pin"): _BCM_PIN,
    ("vision", "unread_after"): Number(0.5, 60),
    ("vision", "ask_after"): Number(0.5, 600),
    ("web", "port"): Integer(0, 65535),  # 0: any free port (tests, benchmarks)
    ("web", "max_clients"): Integer(1, 100),
    ("game", "automa_level"): Integer(1, 6),
    ("journal", "warn_free_mb"): Integer(0, 1_000_000),
    ("journal", "min_free_mb"): Integer(0, 1_000_000),
    ("record", "budget_mb"): Number(10, 1_000_000),
    ("record", "still_fps"): Number(0.1, 30),
}
# Checks no spec expresses: (table, key) -> a function returning a problem or None.
CHECKS: dict[tuple[str, str], Callable[[Any], str | None]] = {
    ("voice", "command"): _command,
    ("vision", "corners"): _corners,
    ("web", "pin"): _table_pin,
    ("web", "join_token"): _join_token,
    ("game", "player"): lambda v: None if v.strip() else "must not be empty",
}


def _validated(values: dict[str, dict[str, Any]], origin: str) -> dict[str, dict[str, Any]]:
    for (table, key), spec in RANGES.items():
        try:
            spec.check(values[table][key], f"{table}.{key}")
        except SchemaError as exc:
            raise ConfigError(f"{origin}: {exc}") from None
    for (table, key), check in CHECKS.items():
        problem = check(values[table][key])
        if problem:
            raise ConfigError(f"{origin}: {table}.{key} = {brief(values[table][key])} {problem}")
    camera = values["camera"]
    if camera["retry_min"] > camera["retry_max"]:
        raise ConfigError(f"{origin}: camera.retry_min must not exceed camera.retry_max")
    if values["vision"]["unread_after"] > values["vision"]["ask_after"]:
        raise ConfigError(f"{origin}: vision.unread_after must not exceed vision.ask_after")
    if values["journal"]["min_free_mb"] > values["journal"]["warn_free_mb"]:
        raise ConfigError(f"{origin}: journal.min_free_mb must not exceed journal.warn_free_mb")
    _check_pins_distinct(values, origin)
    return values


def _check_pins_distinct(values: dict[str, dict[str, Any]], origin: str) -> None:
    used: dict[int, str] = {}
    wired = [(f"buttons.{n}", values["buttons"][n]) for n in BUTTON_PINS]
    wired.append(("led.pin", values["led"]["pin"]))
    for name, pin in wired:
        if pin in used:
            raise ConfigError(f"{origin}: {name} and {used[pin]} both use GPIO{pin}")
        used[pin] = name


def _freeze(values: dict[str, dict[str, Any]]) -> dict[str, Section]:
    return {name: Section(table) for name, table in values.items()}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def state_dir() -> Path:
    """Where the journal lives: systemd's StateDirectory, else the XDG state folder."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "companion"


def journal_path(config: Config) -> Path:
    """The journal file the settings ask for."""
    return Path(config.journal.path) if config.journal.path else state_dir() / "journal.sqlite3"


def record_path(config: Config) -> Path:
    """Where the game folders go when recording: ``[record] folder``, else beside the
    journal."""
    folder = config.record.folder
    return Path(folder) if folder else journal_path(config).parent / "recordings"
