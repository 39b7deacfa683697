"""Fixtures for the device tests: gpiozero's mock pins, games and a running service."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from devkit import two_player_setup

from device.service import NewGame, Service


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """gpiozero's MockFactory, reset afterwards (as gpiozero's own test suite does)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def service() -> Iterator[Service]:
    """A started service (no journal) with a two-player game dealt."""
    svc = Service(rng=random.Random(1))
    svc.start()
    svc.call(NewGame(two_player_setup()))
    try:
        yield svc
    finally:
        svc.stop()
