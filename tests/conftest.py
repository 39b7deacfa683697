"""Hypothesis profiles for the whole suite.

``suite`` (the default) keeps the README's test command within its time; the fuzz
tests that leave their example count to the profile then try 40 documents each.
``thorough`` tries 400 (``pytest --hypothesis-profile=thorough``); the benchmarks'
long runs (``benchmarks/cli_fuzz.py``, ``benchmarks/web_fuzz.py``) try thousands.
Tests whose every example is a whole game keep their own, smaller counts.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("suite", max_examples=40)
settings.register_profile("thorough", max_examples=400)
# Loaded before pytest's own configuration: --hypothesis-profile, read afterwards, wins.
settings.load_profile("suite")
