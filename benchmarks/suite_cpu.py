"""Where the test suite's CPU goes: a pytest plugin that charges each test its CPU seconds.

Wall-clock ``--durations`` mislead on a shared machine (a test waiting for a busy core
looks slow); CPU seconds do not. Each test is charged the worker's own CPU (user + sys)
plus that of the child processes it waited for, over its set-up, call and tear-down, so
a module fixture's cost lands on the module's first test. Every worker writes its rows
to ``DIR/cpu-<worker>.tsv``; run this file to sum them per test and per module.

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu -p no:cacheprovider -q
    .venv/bin/python benchmarks/suite_cpu.py [DIR]      (DIR defaults to /tmp/suite-cpu)

Chromium's processes are started by Playwright's driver, not waited for by the worker,
so browser tests are under-counted here; ``/usr/bin/time -v`` on the whole run counts
everything.
"""

from __future__ import annotations

import os
import resource
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

OUT = Path(os.environ.get("SUITE_CPU_DIR", "/tmp/suite-cpu"))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    start = _cpu()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / f"cpu-{worker}.tsv").open("a") as rows:
        rows.write(f"{_cpu() - start:.3f}\t{item.nodeid}\n")


def _report(folder: Path, top: int = 40) -> None:
    tests: dict[str, float] = {}
    for path in folder.glob("cpu-*.tsv"):
        for line in path.read_text().splitlines():
            seconds, nodeid = line.split("\t", 1)
            tests[nodeid] = tests.get(nodeid, 0.0) + float(seconds)
    modules: dict[str, float] = defaultdict(float)
    for nodeid, seconds in tests.items():
        modules[nodeid.split("::")[0]] += seconds
    print(f"{len(tests)} tests, {sum(tests.values()):.1f} CPU s in the workers")
    print("-- modules --")
    for name, seconds in sorted(modules.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{seconds:8.2f}  {name}")
    print("-- tests --")
    for name, seconds in sorted(tests.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{seconds:8.2f}  {name}")


if __name__ == "__main__":
    _report(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
