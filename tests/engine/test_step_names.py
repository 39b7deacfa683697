"""Every step a rule continues with is registered: checked in the source, not by playing.

Steps chain by name (``s.then("mickey-bottom")``), so a typo would fail only when that
branch runs. This walks every engine module's syntax tree: a name given to ``Step``,
``Step.then`` or ``with_data``, or to a helper that passes its parameter on to one of
them, must be a literal that ``@step``/``@answer`` registered. A name that comes from
anywhere else (a variable, an expression) is reported too, since it cannot be checked.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import engine.rules  # noqa: F401  (registers every rule module's steps)
from engine.handlers import ANSWERS, STEPS

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SEEDS = {"Step": 0, "then": 0, "with_data": 1}  # callable -> index of its name argument


@dataclass(frozen=True)
class Use:
    where: str
    name: str | None  # None: not a literal
    param: tuple[str, int] | None  # the enclosing function's parameter it came from


def _argument(call: ast.Call, index: int, fn: ast.FunctionDef | None) -> ast.expr | None:
    if index < len(call.args):
        return call.args[index]
    if fn is not None:
        names = [a.arg for a in fn.args.args]
        keyword = names[index] if index < len(names) else None
        return next((k.value for k in call.keywords if k.arg == keyword), None)
    return None


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return call.func.id if isinstance(call.func, ast.Name) else None


def functions() -> list[tuple[str, ast.FunctionDef | None, ast.AST]]:
    """(module path, enclosing function or None, body) for every function and module."""
    found: list[tuple[str, ast.FunctionDef | None, ast.AST]] = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ENGINE.parent))
        found.extend((where, node, node) for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef))
    return found


@cache
def uses() -> list[Use]:
    """Every step-name argument, following helpers' parameters to a fixed point (found
    once: both tests read them all)."""
    takes = dict(SEEDS)
    defs = {fn.name: fn for _, fn, _ in functions() if fn is not None}
    while True:
        found: list[Use] = []
        for where, fn, body in functions():
            params = [a.arg for a in fn.args.args] if fn else []
            for call in (n for n in ast.walk(body) if isinstance(n, ast.Call)):
                name = _callee(call)
                if name not in takes:
                    continue
                arg = _argument(call, takes[name], defs.get(name))
                if arg is None:
                    continue  # an optional name left out
                line = f"{where}:{call.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append(Use(line, arg.value, None))
                elif isinstance(arg, ast.Name) and arg.id in params and fn is not None:
                    found.append(Use(line, None, (fn.name, params.index(arg.id))))
                else:
                    found.append(Use(line, None, None))
        helpers = {u.param for u in found if u.param is not None}
        if all(takes.get(name) == index for name, index in helpers):
            return found
        takes.update(dict(helpers))


def test_every_step_name_in_the_engine_is_registered() -> None:
    found = uses()
    registered = STEPS.keys() | ANSWERS.keys()
    literals = [u for u in found if u.name is not None]
    unknown = [f"{u.where}: {u.name!r}" for u in literals if u.name not in registered]
    unchecked = [u.where for u in found if u.name is None and u.param is None]
    assert not unknown, "steps never registered: " + ", ".join(unknown)
    assert not unchecked, "step names that are not literals: " + ", ".join(unchecked)
    assert len(literals) > 150  # the walk reaches the abilities' chains, not just the turn


def test_every_registered_step_is_used() -> None:
    # A registered step no rule names is dead code (or a chain that lost its link).
    named = {u.name for u in uses()}
    unused = sorted((STEPS.keys() | ANSWERS.keys()) - named - {"example-noop"})
    assert not unused, f"registered but never named: {unused}"
