"""Dependencies flow one way: engine ← vision ← device and engine ← web ← device.

Every import in the four packages is read with ``ast`` (at module level and inside
functions alike) and checked against the layer its module belongs to. ``KNOWN`` lists
the imports that still go the wrong way, each with the branch that removes it: it may
only shrink, and an entry that no longer matches anything fails too, so that it is
struck off when its branch lands.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("layers")  # one worker parses the four packages once
ROOT = Path(__file__).resolve().parents[1]

# What each package may import from the project (the standard library and third-party
# packages are always allowed; engine/'s purity is checked by its own tests).
ALLOWED = {
    "engine": {"engine"},
    "vision": {"engine", "vision"},
    "web": {"engine", "web"},
    "device": {"engine", "vision", "web", "device"},
}

# (importing file, imported module) -> the branch that removes the import.
KNOWN: dict[tuple[str, str], str] = {}


def imports(source: str | ast.AST, package: str) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source`` (text or a parsed
    tree), at any depth."""
    tree = ast.parse(source) if isinstance(source, str) else source
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, _absolute(node, package)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


@cache
def sources() -> tuple[tuple[str, str, ast.Module], ...]:
    """(file, package, parsed tree) of every module in the four packages (parsed once:
    every test here reads them all)."""
    return tuple(
        (path.relative_to(ROOT).as_posix(), ".".join(path.relative_to(ROOT).parts[:-1]),
         ast.parse(path.read_text(encoding="utf-8")))
        for layer in ALLOWED for path in sorted((ROOT / layer).rglob("*.py")))


@cache
def wrong_way() -> list[tuple[str, int, str]]:
    """(file, line, module) of every import that leaves its layer."""
    found = []
    for name, package, tree in sources():
        allowed = ALLOWED[name.split("/")[0]]
        for line, module in imports(tree, package):
            top = module.split(".")[0]
            if top in ALLOWED and top not in allowed:
                found.append((name, line, module))
    return found


def test_imports_flow_one_way() -> None:
    bad = [f"{name}:{line} imports {module} ({name.split('/')[0]} may import only "
           f"{', '.join(sorted(ALLOWED[name.split('/')[0]]))})"
           for name, line, module in wrong_way() if (name, module) not in KNOWN]
    assert not bad, "\n".join(bad)


def test_every_known_offender_still_exists() -> None:
    seen = {(name, module) for name, _, module in wrong_way()}
    gone = [f"{name} -> {module} (fixed: strike it off KNOWN; was {branch})"
            for (name, module), branch in KNOWN.items() if (name, module) not in seen]
    assert not gone, "\n".join(gone)


def test_the_walk_sees_function_level_and_relative_imports() -> None:
    source = "import os\nfrom .b import c\nfrom .. import d\n\ndef f():\n    from device import x\n"
    found = [module for _, module in imports(source, "web.sub")]
    assert found == ["os", "web.sub.b", "web", "device"]


# Imports inside functions: optional hardware and the `train` extra anywhere; elsewhere
# only where a measured start-up cost justifies one (the figure is beside each).
LAZY_ANYWHERE = {"picamera2", "lgpio", "gpiozero", "gpiozero.exc", "torch", "tqdm",
                 "vision.embedder"}
LAZY_FILES = {
    # every command's start: `companion --help` costs 0.10 s, these +0.05-0.50 s
    "device/commands/automa.py", "device/commands/cards.py", "device/commands/demo.py",
    "device/commands/games.py",  # the journal and the history's engine modules: +0.05 s
    "device/commands/replay.py", "device/commands/simulate.py", "device/commands/table.py",
    "device/inputs.py",
    "web/__init__.py",  # Flask on first use: +0.15 s for every device command
}
LAZY_PAIRS = {
    # onnxruntime loads with the first model, after the demo's page: +0.08 s before it
    ("vision/classifier.py", "onnxruntime"),
    ("vision/segmenter.py", "onnxruntime"),  # the same load, for the segmenter's model
    # the rules, for `companion score` only: +0.04 s on every command's start
    ("device/commands/score.py", "engine.scoring"),
    ("device/commands/score.py", "engine.finale"),
}


@cache
def lazy_imports() -> list[tuple[str, str]]:
    """(file, module) of every import inside a function in the four packages."""
    found = []
    for name, package, tree in sources():
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [(name, module) for _, module in imports(fn, package)]
    return sorted(set(found))


def test_imports_sit_at_the_top() -> None:
    bad = [f"{name}: {module} imported inside a function" for name, module in lazy_imports()
           if module not in LAZY_ANYWHERE and name not in LAZY_FILES
           and (name, module) not in LAZY_PAIRS]
    assert not bad, "\n".join(bad)


def test_every_justified_lazy_import_still_exists() -> None:
    lazy = set(lazy_imports())
    gone = [f"{name} (no import inside a function left: strike it off LAZY_FILES)"
            for name in sorted(LAZY_FILES) if name not in {n for n, _ in lazy}]
    gone += [f"{name} -> {module} (at the top now: strike it off LAZY_PAIRS)"
             for name, module in sorted(LAZY_PAIRS) if (name, module) not in lazy]
    assert not gone, "\n".join(gone)
