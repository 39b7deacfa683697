"""The phone page: a Flask app factory, a JSON API, live updates by Server-Sent Events.

The app talks to the running companion through :class:`web.service.Service` (the
device passes its own in) and takes its settings as plain values in ``config``.

The factory lives in :mod:`web.app` and loads on first use: the device imports
:mod:`web.service` (the commands and updates it shares with the page) in every command,
and loading Flask and the blueprints there would cost each of them +0.15 s of CPU
(``import device.service``: 0.18 s without, 0.33 s with; benchmarks/import_costs.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from web.app import DEFAULTS, Server, create_app, serve

__all__ = ["DEFAULTS", "Server", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from web import app  # the measured cost above: only where the page is served

        return getattr(app, name)
    raise AttributeError(f"module 'web' has no attribute {name!r}")
