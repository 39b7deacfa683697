"""The engine's modules import one another one way: no cycle, not even inside a function.

Imports under ``if TYPE_CHECKING:`` count too: a cycle that only the types close still
means the engine cannot be read bottom-up (steps, decisions, state, the draft, then the
step functions that change a draft, :mod:`engine.handlers`).
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Engine modules ``path`` imports anywhere (module level or inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)  # `from package import submodule` names the submodule:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in modules} - {module_name(path)}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in ENGINE.rglob("*.py")}
    return {name: imports_of(path, set(paths)) for name, path in paths.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``[a, b, ..., a]``, or None (depth-first search)."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        for target in sorted(edges[node]):
            if (cycle := visit(target, [*path, node])) is not None:
                return cycle
        done.add(node)
        return None

    for start in sorted(edges):
        if (cycle := visit(start, [])) is not None:
            return cycle
    return None


def test_the_engine_has_no_import_cycle() -> None:
    edges = graph()
    assert "engine.abilities.registry" in edges["engine.abilities.gains"]  # the walk sees imports
    cycle = find_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_check_finds_a_cycle() -> None:
    # The search itself: a two-module loop and a longer one are both reported.
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
