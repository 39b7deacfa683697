"""Hypothesis profiles for the whole suite.

``suite`` (the default) keeps the README's test command within its time; the fuzz
tests that leave their example count to the profile then try 40 documents each.
``thorough`` tries 400 (``pytest --hypothesis-profile=thorough``); the benchmarks'
long runs (``benchmarks/cli_fuzz.py``, ``benchmarks/web_fuzz.py``) try thousands.
Tests whose every example is a whole game keep their own, smaller counts.
"""

from __future__ import annotations

import pytest
from _pytest.nodeid import NodeId
from hypothesis import settings

settings.register_profile("suite", max_examples=40)
settings.register_profile("thorough", max_examples=400)
# Loaded before pytest's own configuration: --hypothesis-profile, read afterwards, wins.
settings.load_profile("suite")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Suffix each xdist_group's name to its tests' ids, as `--dist loadgroup` expects.

    pytest-xdist 3.8 writes the suffix to ``item._nodeid``, which pytest 9.2 no longer
    reads (the id lives in ``item._id``): every group was split over both workers and
    each worker built the group's module fixtures (an enrolment, a browser) again."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
