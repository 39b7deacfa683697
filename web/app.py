"""The app factory: Flask, the blueprints, the security headers (see :mod:`web`)."""

from __future__ import annotations

import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response

from web import api, auth, bugreport, errors, events, games, join, pages
from web.auth import Brake
from web.document import Documents
from web.server import Server, serve
from web.service import Recording, Service

__all__ = ["DEFAULTS", "Server", "create_app", "serve"]

DEFAULTS: dict[str, Any] = {
    "TABLE_PIN": None,  # None: a random 6-digit PIN (read it from app.config to print it)
    "JOIN_TOKEN": None,  # None: a random join code, the one /join's QR code carries
    "LOGIN_FREE": 3,  # wrong guesses a client makes before it must wait…
    "LOGIN_DELAY": 2.0,  # …first this many seconds, doubling with each further one…
    "LOGIN_DELAY_MAX": 900.0,  # …up to this…
    "LOGIN_FORGET": 3600.0,  # …until it has guessed nothing wrong for this long
    "LOGIN_TABLE_FREE": 20,  # wrong guesses standing at the table before every guesser waits
    "CLOCK": None,  # the guessing brake's clock (tests pass a fake one)
    "SSE_KEEPALIVE": 15.0,  # seconds between keep-alive comments on an idle stream
    # open event streams, each holding a server thread (the device passes its [web]
    # max_clients; tests/web/test_auth.py checks the two defaults agree)
    "SSE_MAX_CLIENTS": 40,
    "CONNECTION_LIMIT": 1000,  # open connections waitress accepts (web.server)
    "REQUEST_TIMEOUT": 5.0,  # seconds a connection has to send a whole request
    "IDLE_TIMEOUT": 30.0,  # seconds an idle keep-alive connection is kept
    "ENGINE_TIMEOUT": 5.0,  # seconds to wait for the engine thread to apply a command
    "PUBLIC_URL": None,  # the address /join encodes; None: worked out from the request
    "LISTEN_HOST": None,  # the address the server listens on (loopback only: /join says so)
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "PERMANENT_SESSION_LIFETIME": 12 * 3600,
}

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


@dataclass
class Web:
    """The app's own parts, kept in ``app.extensions["companion_web"]``."""

    documents: Documents
    streams: events.Streams
    brake: Brake
    cards_json: bytes
    boot: str
    command_lock: threading.Lock = field(default_factory=threading.Lock)


def create_app(config: dict[str, Any] | None = None, *, service: Service,
               recording: Recording | None = None) -> Flask:
    """Build the app: defaults, then ``config``, around the running ``service`` (and the
    device's ``recording`` of its games, when it records them)."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS, SECRET_KEY=secrets.token_hex(32))
    if config:
        app.config.from_mapping(config)
    _check_pin(app)
    _check_token(app)
    app.extensions["companion"] = service
    if recording is not None:
        app.extensions["companion_recording"] = recording
    app.extensions["companion_web"] = _parts(app, service)
    for blueprint in (pages.bp, join.bp, api.bp, auth.bp, events.bp, games.bp, bugreport.bp):
        app.register_blueprint(blueprint)
    errors.register(app)
    app.after_request(_secure)
    return app


def _check_pin(app: Flask) -> None:
    pin = app.config["TABLE_PIN"]
    if pin is None:
        app.config["TABLE_PIN"] = auth.new_pin()
    elif not (isinstance(pin, str) and pin.isdigit() and 4 <= len(pin) <= 12):
        raise ValueError("TABLE_PIN must be a string of 4 to 12 digits")


def _check_token(app: Flask) -> None:
    token = app.config["JOIN_TOKEN"]
    if token is None:
        app.config["JOIN_TOKEN"] = auth.new_token()
    elif not (isinstance(token, str) and re.fullmatch(r"[A-Za-z0-9_-]{22,64}", token)):
        raise ValueError("JOIN_TOKEN must be 22 to 64 letters, digits, '-' or '_'")


def _parts(app: Flask, service: Service) -> Web:
    cfg = app.config
    clock = cfg["CLOCK"]
    brake = Brake(int(cfg["LOGIN_FREE"]), float(cfg["LOGIN_DELAY"]),
                  float(cfg["LOGIN_DELAY_MAX"]), float(cfg["LOGIN_FORGET"]),
                  int(cfg["LOGIN_TABLE_FREE"]), *(() if clock is None else (clock,)))
    boot = secrets.token_hex(4)
    return Web(
        documents=Documents(service, boot=boot),
        streams=events.Streams(service, int(cfg["SSE_MAX_CLIENTS"])),
        brake=brake,
        cards_json=json.dumps(api.cards_payload(), separators=(",", ":")).encode(),
        boot=boot,
    )


def _secure(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if response.mimetype == "application/json":
        response.headers.setdefault("Cache-Control", "no-store")
    return response
