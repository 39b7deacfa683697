"""Mutation testing of one engine module against ``tests/engine``: the score, and what survived.

    nice -n 15 .venv/bin/python benchmarks/mutation.py engine/rules.py
    nice -n 15 .venv/bin/python benchmarks/mutation.py engine/scoring.py --only constants

The tools are not in the ``dev`` extra (the test suite does not need them):
``.venv/bin/pip install mutmut==3.8.1 cosmic-ray==8.7.0``.

Two tools, because each reaches code the other cannot afford or cannot see:

* **mutmut** mutates function bodies and runs, per mutant, only the tests that call the
  mutated function, fastest first, in a forked worker: a few seconds a mutant. It skips
  decorated functions, so the working copy lifts registration decorators (``@step``,
  ``@answer``) into plain assignments after the function and drops ``lru_cache`` (a
  forked worker would otherwise inherit results cached by the clean run).
* **cosmic-ray** mutates module-level statements too (the rule constants and Au Toma's
  table, which mutmut never touches), one whole ``pytest -x`` run a mutant; only those
  module-level mutants are run with it.

A run can be cut short (``--budget MINUTES``, or stopped) and picked up again: ``--resume``
keeps the working copy, and mutmut keeps every verdict it has reached (it re-runs only
the clean tests); the score printed after a cut counts the mutants not yet run as
``not checked``. ``--functions
a,b`` mutates only the named functions (``--rules-only``: the ones listed in ``RULES``),
for a module too big to run whole in one sitting; the wall time of each run is printed
with its score.

After new tests, ``--recheck DIR --base COMMIT`` re-tries only an earlier run's survivors
(``DIR/survivors.txt``), running only the test files changed since ``COMMIT``: the old
tests let those mutants live, so only a new or changed test can kill one now. While the
module is as it was, mutmut's own copy in ``DIR`` runs each mutant (switched on by name,
``MUTANT_UNDER_TEST``) with the current tests, and what still lives is written to
``DIR/survivors-rechecked.txt``; once the module has changed, each diff is applied to the
current code instead, and one that no longer applies is counted as surviving.

Everything happens in a copy of the last commit (engine, tests/engine, examples, and a
link to ``../shared`` so the reference tests run too) under ``build/mutation/<module>/``
(``abilities.deck`` for ``engine/abilities/deck.py``): a run measures committed code, and
the project's files are never touched. The survivors are written to ``survivors.txt``
there, with the diff of each (``mutmut show NAME`` in ``mutmut/`` shows one again).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
KILLED = frozenset({"killed", "timeout", "segfault", "caught by type check"})
DROPPED = frozenset({"lru_cache", "cache"})  # pure memos: dropped, see the docstring

# The functions that hold the rules' numbers and comparisons (scoring steps 3-7, the 4/2/1
# ranking, Au Toma's rates and cut; her priority letters, Luna pairing, parity, location
# picking, caps and substitutions): ``--rules-only`` mutates just these, for modules too big
# to run whole on a shared two-core machine in one sitting.
RULES = {
    "engine/scoring.py": ("_automa_rows", "influence_points", "_influence_points",
                          "_token_points", "_token_rows", "_rank_line", "_end_row", "_core",
                          "winners"),
    "engine/automa.py": ("luna_icon", "parity_of", "place_of", "gain_source", "capped",
                         "bonus_plan", "_uncapped", "removed_cards", "solo_card_ids",
                         "bottom_card", "top_of_hand", "eo_reveals_red", "psychologist_hand_size"),
}

MUTMUT_CONFIG = """
[tool.mutmut]
source_paths = ["engine"]
also_copy = ["examples"]
only_mutate = ["{module}"]
pytest_add_cli_args_test_selection = ["tests/engine"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "--ignore=tests/engine/test_step_names.py"]
"""
# test_step_names reads the engine's source, which under mutmut holds every mutant's copy
# of each function: it would fail the clean run and so stop mutmut before any mutant.

SHOW = """
import sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
for name in sys.argv[1:]:
    print("\\0" + get_diff_for_mutant(name, path=find_mutant(name).path), end="")
"""

COSMIC_CONFIG = """
[cosmic-ray]
module-path = "{module}"
timeout = 300.0
excluded-modules = []
test-command = "{python} -m pytest {first} tests/engine -x -q -p no:cacheprovider"

[cosmic-ray.distributor]
name = "local"
"""


def copy_project(work: Path, module: str, *, config: str) -> None:
    """A fresh working copy of the last commit, with the tool's config appended to
    pyproject.toml: a run measures committed code, whatever is being edited meanwhile."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD", "engine", "tests/engine", "examples",
                              "pyproject.toml"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(work)], input=archive.stdout, check=True)
    # One pytest process per mutant: the suite's own xdist workers would only get in the way.
    text = re.sub(r" -n \d+| --dist \w+", "", (work / "pyproject.toml").read_text())
    (work / "pyproject.toml").write_text(text + config.format(
        module=module, python=sys.executable, first=" ".join(own_tests(module))))
    shared = ROOT.parent / "shared"
    if shared.exists():
        # mutmut runs the tests from mutants/, two levels down: ../shared from there.
        (work / "shared").symlink_to(shared)
        (work.parent / "shared").unlink(missing_ok=True)
        (work.parent / "shared").symlink_to(shared)


def own_tests(module: str) -> list[str]:
    """The module's own test files (``test_deck.py``, ``test_ability_deck.py`` in its
    package's folder): most mutants die there, so cosmic-ray's ``-x`` run starts with them."""
    stem = Path(module).stem
    folder = ROOT / "tests" / Path(module).parent
    return sorted(str(t.relative_to(ROOT)) for t in folder.glob("test_*.py")
                  if t.stem in (f"test_{stem}", f"test_ability_{stem}"))


def lift_decorators(source: str) -> str:
    """Top-level ``@deco def f`` becomes ``def f`` and ``f = deco(f)`` (same behaviour)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    after: dict[int, list[str]] = {}
    removed: set[int] = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.decorator_list:
            continue
        for deco in node.decorator_list:
            removed.update(range(deco.lineno - 1, deco.end_lineno or deco.lineno))
        wraps = [ast.get_source_segment(source, d) or "" for d in node.decorator_list]
        after[(node.end_lineno or node.lineno) - 1] = [
            f"{node.name} = {w}({node.name})" for w in reversed(wraps)
            if re.match(r"\w+", w) and re.match(r"\w+", w).group() not in DROPPED]  # type: ignore[union-attr]
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in removed:
            continue
        out.append(line)
        out.extend(after.get(i, ()))
    return "\n".join(out) + "\n"


def run_mutmut(module: str, work: Path, children: int, names: list[str], *,
               resume: bool = False, budget: float | None = None) -> Counter[str]:
    """``names``: only these mutants (say, an earlier run's survivors after new tests);
    ``budget``: seconds after which the run stops (the verdicts so far are kept)."""
    fresh = not (resume and (work / "mutants").is_dir())
    if fresh:
        copy_project(work, module, config=MUTMUT_CONFIG)
        target = work / module
        target.write_text(lift_decorators(target.read_text()))
    # mutmut re-runs every mutant it is named, so a resumed run names only those not yet run.
    todo = names if fresh else [name for name, status in verdicts(work, names).items()
                                if status in ("not checked", "check was interrupted by user")]
    if todo or not names:
        with (work / "run.log").open("a" if resume else "w") as log:
            # Its own process group, so that a spent budget stops mutmut and its worker.
            run = subprocess.Popen([BIN / "mutmut", "run", "--max-children", str(children),
                                    *todo], cwd=work, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
            try:
                code = run.wait(timeout=budget)
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
                code = 0
                print(f"budget of {budget:.0f} s spent: --resume carries on", flush=True)
        if code:
            sys.exit(f"mutmut failed (exit {code}): see {work / 'run.log'}")
    found = verdicts(work, names)
    survivors = [name for name, status in found.items() if status not in KILLED]
    # One process for every diff: ``mutmut show`` once a mutant takes seconds each.
    shown = subprocess.run([sys.executable, "-c", SHOW, *survivors], cwd=work,
                           capture_output=True, text=True, check=True).stdout
    diffs = dict(zip(survivors, shown.split("\0")[1:], strict=True))
    with (work / "survivors.txt").open("w") as out:
        for name in survivors:
            out.write(f"## {name}: {found[name]}\n# {name}: {found[name]}\n{diffs[name]}\n")
    print(f"survivors: {work / 'survivors.txt'}", flush=True)
    return Counter(found.values())


def verdicts(work: Path, names: list[str]) -> dict[str, str]:
    """Each mutant's status so far (those matching ``names``, when given)."""
    if not (work / "mutants").is_dir():
        return {}
    listing = subprocess.run([BIN / "mutmut", "results", "--all", "true"], cwd=work,
                             capture_output=True, text=True, check=True).stdout
    found = dict(re.findall(r"^\s*(\S+): (.+)$", listing, re.M))
    return {name: status for name, status in found.items()
            if not names or any(fnmatch.fnmatchcase(name, pattern) for pattern in names)}


def module_level_lines(source: str) -> set[int]:
    """Lines of statements outside every function and class (1-based)."""
    lines: set[int] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def run_cosmic_ray(module: str, work: Path) -> Counter[str]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    copy_project(work, module, config=COSMIC_CONFIG)
    db = work / "session.sqlite"
    subprocess.run([BIN / "cosmic-ray", "init", "pyproject.toml", db.name], cwd=work,
                   check=True, capture_output=True)
    keep = module_level_lines((work / module).read_text())
    with use_db(str(db), WorkDB.Mode.open) as wdb:
        for item in list(wdb.pending_work_items):
            if not any(m.start_pos[0] in keep for m in item.mutations):
                wdb.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    with (work / "run.log").open("w") as log:
        subprocess.run([BIN / "cosmic-ray", "exec", "pyproject.toml", db.name], cwd=work,
                       stdout=log, stderr=subprocess.STDOUT, check=True)
    counts: Counter[str] = Counter()
    with use_db(str(db), WorkDB.Mode.open) as wdb, (work / "survivors.txt").open("w") as out:
        for item, result in wdb.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            status = "killed" if result.test_outcome.value == "killed" else "survived"
            if result.worker_outcome in (WorkerOutcome.EXCEPTION, WorkerOutcome.ABNORMAL):
                status = "killed"  # the mutant does not even import
            counts[status] += 1
            if status == "survived":
                m = item.mutations[0]
                out.write(f"## {m.operator_name} line {m.start_pos[0]}\n{result.diff}\n")
    return counts


def parse_survivors(text: str) -> list[tuple[str, str, str]]:
    """(name, status, diff) of each mutant a run left alive."""
    parts = re.split(r"^## (\S+): (.+)$", text, flags=re.M)
    return [(parts[i], parts[i + 1], parts[i + 2]) for i in range(1, len(parts) - 2, 3)]


def diff_blocks(diff: str) -> tuple[str, str]:
    """The lines a one-hunk diff replaces, and what it puts there (with their context)."""
    old, new = [], []
    for line in diff.splitlines():
        if line.startswith(("---", "+++", "@@", "#")) or not line:
            continue
        if line[0] in " -":
            old.append(line[1:])
        if line[0] in " +":
            new.append(line[1:])
    return "\n".join(old) + "\n", "\n".join(new) + "\n"


def recheck(module: str, before: Path, base: str, work: Path) -> Counter[str]:
    """The statuses of ``before``'s survivors against the current code and new tests."""
    changed = [subprocess.run(["git", *command, "--", "tests/engine"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.split()
               for command in (("diff", "--name-only", base),
                               ("ls-files", "--others", "--exclude-standard"))]
    tests = sorted({t for t in changed[0] + changed[1]
                    if t.endswith(".py") and (ROOT / t).exists()})
    survivors = parse_survivors((before / "survivors.txt").read_text())
    ran = before / module
    if ran.is_file() and ran.read_text() == lift_decorators((ROOT / module).read_text()):
        counts = _retry_in_place(before, survivors, tests)
        shown = before / "survivors-rechecked.txt"
    else:
        counts = _retry_by_diff(module, work, survivors, tests)
        shown = work / "survivors.txt"
    print(f"survivors: {shown} (tests run: {' '.join(tests)})", flush=True)
    return counts


def _retry_in_place(before: Path, survivors: list[tuple[str, str, str]],
                    tests: list[str]) -> Counter[str]:
    """The module is as it was: mutmut's own copy switches each mutant on by name."""
    mutants = before / "mutants"
    shutil.rmtree(mutants / "tests" / "engine")
    shutil.copytree(ROOT / "tests" / "engine", mutants / "tests" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    counts: Counter[str] = Counter()
    with (before / "survivors-rechecked.txt").open("w") as out:
        for name, status, diff in survivors:
            run = subprocess.run([sys.executable, "-m", "pytest", *tests, "-x", "-q",
                                  "-p", "no:cacheprovider", "-n", "0"], cwd=mutants,
                                 capture_output=True, check=False,
                                 env={**os.environ, "MUTANT_UNDER_TEST": name})
            verdict = "killed" if run.returncode in (1, 2, 3) else status  # 2: not even imported
            counts[verdict] += 1
            if verdict != "killed":
                out.write(f"## {name}: {verdict}\n{diff}\n")
    return counts


def _retry_by_diff(module: str, work: Path, survivors: list[tuple[str, str, str]],
                   tests: list[str]) -> Counter[str]:
    """The module changed since: each survivor's diff is applied to it where it still fits."""
    copy_project(work, module, config="")
    target = work / module
    source = target.read_text()
    counts: Counter[str] = Counter()
    with (work / "survivors.txt").open("w") as out:
        for name, status, diff in survivors:
            old, new = diff_blocks(diff)
            if source.count(old) != 1:
                counts["not applied"] += 1
                out.write(f"## {name}: {status} (the code changed)\n{diff}\n")
                continue
            target.write_text(source.replace(old, new))
            run = subprocess.run([sys.executable, "-m", "pytest", *tests, "-x", "-q",
                                  "-p", "no:cacheprovider"], cwd=work, capture_output=True,
                                 text=True, check=False)
            verdict = "killed" if run.returncode else status
            counts[verdict] += 1
            if verdict != "killed":
                out.write(f"## {name}: {verdict}\n{diff}\n")
    target.write_text(source)
    return counts


def report(tool: str, module: str, counts: Counter[str], seconds: float | None = None) -> int:
    killed = sum(n for status, n in counts.items() if status in KILLED)
    total = sum(counts.values())
    detail = ", ".join(f"{status} {n}" for status, n in sorted(counts.items()))
    took = f" in {seconds / 60:.1f} min" if seconds is not None else ""
    print(f"{module} [{tool}]: killed {killed} / {total} ({detail}){took}", flush=True)
    return killed


def work_name(module: str) -> str:
    """``engine/abilities/deck.py`` -> ``abilities.deck``: unique, unlike the stem."""
    return ".".join(Path(module).with_suffix("").parts[1:])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("module", help="e.g. engine/rules.py")
    p.add_argument("--only", choices=("functions", "constants"), help="one of the two runs")
    p.add_argument("--max-children", type=int, default=1, help="mutmut's parallel workers")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "mutation")
    p.add_argument("--again", type=Path, metavar="SURVIVORS",
                   help="run only the mutmut mutants listed in an earlier survivors.txt")
    p.add_argument("--recheck", type=Path, metavar="DIR",
                   help="re-try the survivors of an earlier mutmut run (its working copy)")
    p.add_argument("--base", default="main", help="with --recheck: tests changed since this")
    p.add_argument("--rules-only", action="store_true",
                   help="mutate only the functions in RULES (scoring.py, automa.py)")
    p.add_argument("--functions", metavar="A,B",
                   help="mutate only these functions (methods: Class.method)")
    p.add_argument("--resume", action="store_true",
                   help="keep an earlier run's working copy and its verdicts; run the rest")
    p.add_argument("--budget", type=float, metavar="MINUTES",
                   help="stop mutmut after this long (then --resume carries on)")
    args = p.parse_args()
    if not (ROOT / args.module).is_file() or not args.module.startswith("engine/"):
        p.error(f"{args.module}: not a module under engine/")
    work = args.work / work_name(args.module)
    totals = Counter[str]()
    if args.recheck:
        again = recheck(args.module, args.recheck, args.base, work / "recheck")
        report("survivors re-tried", args.module, again)
        return
    names = re.findall(r"^## (\S+):", args.again.read_text(), re.M) if args.again else []
    functions: list[str] = args.functions.split(",") if args.functions else []
    if args.rules_only:
        if args.module not in RULES:
            p.error(f"--rules-only: no selection for {args.module} (run it whole)")
        functions.extend(RULES[args.module])
    names += [mutant_pattern(args.module, fn) for fn in functions]
    if args.only != "constants":
        start = time.monotonic()
        totals += run_mutmut(args.module, work / "mutmut", args.max_children, names,
                             resume=args.resume,
                             budget=args.budget * 60 if args.budget else None)
        report("mutmut", args.module, totals, time.monotonic() - start)
    if args.only != "functions" and not functions:
        start = time.monotonic()
        constants = run_cosmic_ray(args.module, work / "cosmic-ray")
        report("cosmic-ray, module level", args.module, constants, time.monotonic() - start)
        totals += constants
    report("both", args.module, totals)


def mutant_pattern(module: str, function: str) -> str:
    """mutmut's names for one function's mutants: ``x_f`` or ``xǁClassǁmethod``."""
    dotted = module.removesuffix(".py").replace("/", ".")
    owner, _, method = function.rpartition(".")
    mangled = f"xǁ{owner}ǁ{method}" if owner else f"x_{function}"
    return f"{dotted}.{mangled}__mutmut_*"


if __name__ == "__main__":
    main()
