"""Malformed bodies of any shape: every POST route answers a one-line 4xx, logs no
traceback and leaves the game as it was (issue 20: 5,000 levels of nesting gave a 500).

The strategies here are shared with ``benchmarks/web_fuzz.py``, which sends ≥ 10,000
bodies per route; the tests keep a few seconds' worth.
"""

from __future__ import annotations

import doctest
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pagekit import PIN, Rolls, make_app, running, tracked_setup

import web.validate
from device.service import Service
from engine.game import Game
from web.validate import MAX_DEPTH

FIELDS = ["index", "seq", "card", "cards", "button", "location", "face_down", "removed_to",
          "player", "helium", "influence", "fleet", "count", "pin", "players", "first",
          "locations", "automa_level", "priorities", "parity", "variants", "name", "house"]
WORDS = ["mars", "luna", "jupiter", "institute", "darrow", "harmony", "deck", "banished",
         "DIE", "NEXT", "odd", "A", "", "x" * 300, "\u0000", "\ud800", "𝔘", "2468"]
NUMBERS = [0, 1, -1, 5, 2**53, 2**63, -(2**64), 10**100]
JSON_TYPES = ["application/json", "application/json; charset=utf-8",
              "application/vnd.api+json"]
OTHER_TYPES = [None, "text/plain", "application/x-www-form-urlencoded",
               "multipart/form-data; boundary=x", "application/json; charset=latin-1"]

scalars = st.one_of(
    st.none(), st.booleans(), st.sampled_from(NUMBERS), st.integers(),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(WORDS), st.text(max_size=8))
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=6),
    max_leaves=24)
objects = st.dictionaries(st.sampled_from(FIELDS), documents, max_size=7)


def nested(depth: int, kind: str) -> bytes:
    """A document ``depth`` levels deep: lists, objects, or both in turn."""
    opens = {"[": b"[" * depth, "{": b'{"index":' * depth,
             "mix": b'[{"cards":' * (depth // 2)}[kind]
    closes = {"[": b"]" * depth, "{": b"}" * depth, "mix": b"}]" * (depth // 2)}[kind]
    return opens + b"1" + closes


def huge(digits: int, field: str) -> bytes:
    return b'{"%s": %s}' % (field.encode(), b"9" * digits)


raw_bodies = st.one_of(
    st.builds(nested, st.integers(1, 20) | st.integers(900, 20_000),
              st.sampled_from(["[", "{", "mix"])),
    st.builds(huge, st.integers(1, 20) | st.integers(4000, 20_000), st.sampled_from(FIELDS)),
    st.sampled_from([b'{"index": NaN, "seq": 1}', b'{"seq": Infinity}', b'{"seq": -Infinity}',
                     b'{"helium": 1e999}', b'{"index": 1.5}', b'{"pin": "\\ud800"}',
                     b'\xef\xbb\xbf{"seq": 1}', b'{"seq": 1', b"", b"null", b"[]", b'"x"',
                     b'{"seq": 1} {"seq": 2}', b'{"a":1,"a":2}', b"\x00" * 64]),
    st.binary(max_size=300),
    st.builds(lambda doc: json.dumps(doc).encode("utf-16"), objects),
    st.builds(lambda doc: json.dumps(doc, ensure_ascii=False).encode("latin-1", "replace")
              .replace(b"?", b"\xe9"), objects),
)


def encode(doc: Any) -> bytes:
    return json.dumps(doc, allow_nan=True).encode()


bodies = st.one_of(objects.map(encode), documents.map(encode), raw_bodies)


class Probe:
    """An app with the PIN entered, posting raw bytes and checking every refusal."""

    def __init__(self, app: Flask, service: Service) -> None:
        self.app = app
        self.service = service
        self.client: FlaskClient = app.test_client()
        self.login()

    def login(self) -> None:
        reply = self.client.post("/api/login", json={"pin": PIN})
        assert reply.status_code == 200, reply.json
        self.csrf = reply.json["csrf"]

    def post(self, path: str, body: bytes, content_type: str | None = "application/json"
             ) -> Any:
        headers = {"X-CSRF-Token": self.csrf}
        if content_type is not None:
            headers["Content-Type"] = content_type
        return self.client.post(path, data=body, headers=headers)

    def document(self) -> bytes:
        return self.client.get("/api/state").data

    def check(self, path: str, body: bytes, content_type: str | None,
              caplog: pytest.LogCaptureFixture) -> int:
        """Post ``body``; a refusal must be one JSON line and change nothing. The status."""
        before, logged = self.document(), len(caplog.records)
        game = self.service.snapshot().state
        reply = self.post(path, body, content_type)
        assert reply.status_code < 500, (path, body[:200], reply.data[:300])
        tracebacks = [r for r in caplog.records[logged:] if r.exc_info or r.levelno >= 40]
        assert not tracebacks, (path, body[:200], tracebacks[0].getMessage())
        if reply.status_code >= 400:
            error = reply.json["error"]
            assert isinstance(error, str) and error and "\n" not in error, error
            assert len(error) <= 300, error
            # Malformed: nothing reaches the service. Refused by the rules: the game is
            # as it was (a refused button press still tells every page why, as a notice).
            if reply.status_code in (400, 413):
                assert self.document() == before, (path, body[:200])
            assert self.service.snapshot().state is game, (path, body[:200])
        elif path == "/api/logout":
            self.login()  # an empty object is a real logout: keep the controls
        return int(reply.status_code)


def post_routes(app: Flask) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ()))


@pytest.fixture(scope="module")
def probe() -> Iterator[Probe]:
    """One game for the module: examples that refuse must leave it exactly as it was."""
    with running(Game(tracked_setup(), rng=Rolls())) as service:
        # Not TESTING: an unexpected error is a logged 500, as it would be at the table.
        app = make_app(service, TESTING=False, LOGIN_FREE=10**9, LOGIN_TABLE_FREE=10**9)
        yield Probe(app, service)


ROUTES = ["/api/answer", "/api/corrections/hand", "/api/corrections/identify",
          "/api/corrections/location", "/api/corrections/sovereign", "/api/corrections/tokens",
          "/api/game", "/api/join", "/api/login", "/api/logout", "/api/press", "/api/question",
          "/api/undo"]


def test_every_post_route_is_probed(probe: Probe) -> None:
    assert post_routes(probe.app) == ROUTES


@pytest.mark.parametrize("path", ROUTES)
def test_random_bodies_are_refused_cleanly(path: str, probe: Probe,
                                           caplog: pytest.LogCaptureFixture) -> None:
    @settings(deadline=None, database=None,  # examples: the profile (tests/conftest.py)
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
    @given(body=bodies, content_type=st.sampled_from(JSON_TYPES) | st.sampled_from(OTHER_TYPES))
    def check(body: bytes, content_type: str | None) -> None:
        probe.check(path, body, content_type, caplog)

    check()


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("body", [
    nested(5_000, "["), nested(5_000, "{"), nested(30_000, "["), nested(MAX_DEPTH + 1, "["),
    huge(5_000, "seq"), b'{"seq": NaN}', b'{"seq": Infinity}', b"\xff\xfe\x00\x01",
    b'{"pin": "\\ud800"}', b'{"seq": 1e999}',
], ids=["deep-5000", "deep-objects", "deep-30000", "one-too-deep", "huge-int", "nan",
        "infinity", "binary", "surrogate", "overflowing-float"])
def test_the_reported_bodies_get_a_400(path: str, body: bytes, probe: Probe,
                                       caplog: pytest.LogCaptureFixture) -> None:
    assert probe.check(path, body, "application/json", caplog) == 400


@pytest.mark.parametrize("path", ROUTES)
def test_wrong_content_types_and_oversized_bodies_are_refused(
        path: str, probe: Probe, caplog: pytest.LogCaptureFixture) -> None:
    if path != "/api/logout":  # logout takes no body at all, so any type of nothing
        assert probe.check(path, b'{"seq": 1}', "text/plain", caplog) == 400
    assert probe.check(path, b"[" * 70_000, "application/json", caplog) == 413


def test_the_depth_limit_admits_every_real_body() -> None:
    real = {"players": [{"name": "Ann", "house": "mars"}], "locations": [["darrow", None]]}
    assert web.validate.parse_json(json.dumps(real).encode()) == real
    assert web.validate.parse_json(nested(MAX_DEPTH, "[")) is not None


def test_messages_quote_values_briefly() -> None:
    assert len(web.validate.shown(["x" * 10_000] * 10_000)) < 80
    assert len(web.validate.shown(10**4000)) < 80
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert web.validate.shown(deep) == "[[[...]]]"  # no recursion: two levels, then ...


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(web.validate).failed == 0


def test_a_huge_last_event_id_is_ignored(client: FlaskClient) -> None:
    boot = client.get("/api/state").json["boot"]
    for last in (f"{boot}." + "9" * 5000, f"{boot}.²", f"{boot}.-1", "\u0000"):
        reply = client.get("/events", headers={"Last-Event-ID": last}, buffered=False)
        assert reply.status_code == 200
        reply.close()


@pytest.fixture(autouse=True)
def _errors_only(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
