"""The table PIN: read-only without it, a signed session with it, CSRF, a brake on guesses."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pagekit import PIN, FakeClock, Table, make_app

from device.service import Service
from web.auth import Brake, new_pin, new_token

CONTROLS = [
    ("/api/answer", {"index": 0, "seq": 0}),
    ("/api/undo", {}),
    ("/api/press", {"button": "next"}),
    ("/api/corrections/location", {"location": "mars", "cards": []}),
    ("/api/corrections/tokens", {"player": 0, "helium": 9, "influence": 0, "fleet": 0}),
    ("/api/corrections/sovereign", {"player": 0}),
    ("/api/corrections/hand", {"player": 0, "count": 1}),
    ("/api/corrections/identify", {"location": "mars", "index": 0, "card": "mustang"}),
    ("/api/logout", {}),
]


def fen(service: Service) -> str:
    return service.snapshot().state.fen()


@pytest.mark.parametrize(("path", "body"), CONTROLS)
def test_every_control_needs_the_pin(client: FlaskClient, service: Service, path: str,
                                     body: dict[str, object]) -> None:
    before = fen(service)
    reply = client.post(path, json=body)
    assert reply.status_code == 401 and "PIN" in reply.json["error"]
    assert fen(service) == before


@pytest.mark.parametrize(("path", "body"), CONTROLS)
def test_every_control_needs_the_csrf_token(client: FlaskClient, service: Service, path: str,
                                            body: dict[str, object]) -> None:
    Table(client)
    before = fen(service)
    missing = client.post(path, json=body)
    wrong = client.post(path, json=body, headers={"X-CSRF-Token": "guess"})
    assert missing.status_code == wrong.status_code == 403
    assert "X-CSRF-Token" in missing.json["error"]
    assert fen(service) == before


def test_with_the_pin_and_token_a_correction_works(table: Table, service: Service) -> None:
    reply = table.post("/api/corrections/tokens",
                       {"player": 0, "helium": 9, "influence": 0, "fleet": 0})
    assert reply.status_code == 200
    assert service.snapshot().state.players[0].helium == 9


def test_the_session_says_whether_this_device_has_the_pin(client: FlaskClient) -> None:
    assert client.get("/api/session").json["authenticated"] is False
    assert client.get("/api/session").json["csrf"] is None
    table = Table(client)
    session = client.get("/api/session").json
    assert session["authenticated"] is True and session["csrf"] == table.csrf


def test_the_session_cookie_is_http_only_and_same_site(client: FlaskClient) -> None:
    reply = client.post("/api/login", json={"pin": PIN})
    cookie = reply.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_logout_locks_the_phone_again(client: FlaskClient) -> None:
    table = Table(client)
    assert table.post("/api/logout", {}).status_code == 200
    reply = table.post("/api/corrections/sovereign", {"player": 0})
    assert reply.status_code == 401


def test_a_wrong_pin_is_refused(client: FlaskClient) -> None:
    reply = client.post("/api/login", json={"pin": "0000"})
    assert reply.status_code == 401 and reply.json["error"] == "wrong PIN"
    assert client.get("/api/session").json["authenticated"] is False


@pytest.mark.parametrize(("body", "message"), [
    ({}, "missing field 'pin'"),
    ({"pin": 2468}, "must be a string"),
    ({"pin": "1" * 40}, "longer than"),
    ({"pin": PIN, "user": "me"}, "unknown field 'user'"),
])
def test_a_malformed_login_is_refused(client: FlaskClient, body: object, message: str) -> None:
    reply = client.post("/api/login", json=body)
    assert reply.status_code == 400 and message in reply.json["error"]


def wrong(client: FlaskClient, addr: str = "127.0.0.1") -> int:
    reply = client.post("/api/login", json={"pin": "000000"}, environ_base={"REMOTE_ADDR": addr})
    return reply.status_code


def test_wrong_pins_wait_longer_and_longer_per_client(client: FlaskClient,
                                                      clock: FakeClock) -> None:
    for _ in range(3):  # LOGIN_FREE: typos cost nothing
        assert wrong(client) == 401
    blocked = client.post("/api/login", json={"pin": PIN})  # even the right one waits
    assert blocked.status_code == 429 and blocked.headers["Retry-After"] == "2"
    assert "try again in 2 s" in blocked.json["error"]
    clock.now += 2
    assert wrong(client) == 401  # each further wrong PIN doubles the wait
    assert client.post("/api/login", json={"pin": PIN}).headers["Retry-After"] == "4"
    clock.now += 4
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200


def test_one_guessers_wrong_pins_never_lock_out_another_phone(client: FlaskClient,
                                                              clock: FakeClock) -> None:
    for _ in range(30):  # as fast as the brake lets one address guess, for hours
        wrong(client, "192.168.1.66")
        clock.now += 900
    other = client.post("/api/login", json={"pin": PIN},
                        environ_base={"REMOTE_ADDR": "192.168.1.77"})
    assert other.status_code == 200


def test_wrong_pins_from_many_addresses_make_every_guesser_wait(client: FlaskClient) -> None:
    for n in range(20):  # LOGIN_TABLE_FREE wrong guesses across the table
        assert wrong(client, f"10.0.0.{n}") == 401
    assert wrong(client, "10.0.1.1") == 401  # a new address guesses once…
    assert wrong(client, "10.0.1.1") == 429  # …then waits, as every guesser now does
    fresh = client.post("/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.1.2"})
    assert fresh.status_code == 200  # a phone that never guessed wrong is never braked


def test_an_unlocked_phone_keeps_working_while_someone_guesses(client: FlaskClient) -> None:
    table = Table(client)
    for n in range(40):
        wrong(client, f"10.0.2.{n}")
        wrong(client, f"10.0.2.{n}")
    assert table.post("/api/press", {"button": "next"}).status_code != 401
    assert client.get("/api/session").json["authenticated"] is True


def test_a_session_from_before_a_pin_change_is_void(service: Service) -> None:
    first = make_app(service, TABLE_PIN="1111")
    client = first.test_client()
    client.post("/api/login", json={"pin": "1111"})
    cookie = client.get_cookie("session")
    assert cookie is not None
    second = make_app(service, TABLE_PIN="2222")
    other = second.test_client()
    other.set_cookie("session", cookie.value)
    assert other.get("/api/session").json["authenticated"] is False


def test_the_brake_forgets_a_client_that_stops_guessing_wrong() -> None:
    clock = FakeClock()
    brake = Brake(free=1, delay=10.0, longest=30.0, forget=100.0, table_free=50, clock=clock)
    brake.fail("a")
    assert brake.retry_after("a") == pytest.approx(10.0)
    for _ in range(5):
        brake.fail("a")
    assert brake.retry_after("a") == pytest.approx(30.0)  # the longest wait
    clock.now += 12
    assert brake.retry_after("a") == pytest.approx(18.0)
    clock.now += 100
    assert brake.retry_after("a") == 0.0
    brake.fail("a")
    assert brake.retry_after("a") == pytest.approx(10.0)  # afresh
    brake.succeed("a")
    assert brake.retry_after("a") == 0.0


def test_a_new_pin_has_six_digits_unless_asked_otherwise() -> None:
    pins = {new_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 1
    assert len(new_pin(8)) == 8


def test_a_join_code_is_long_and_random() -> None:
    codes = {new_token() for _ in range(50)}
    assert len(codes) == 50 and all(len(c) == 32 for c in codes)


def test_the_default_pin_is_random_and_printed_from_the_config(service: Service) -> None:
    app = make_app(service, TABLE_PIN=None)
    pin = app.config["TABLE_PIN"]
    assert len(pin) == 6 and pin.isdigit()
    assert app.test_client().post("/api/login", json={"pin": pin}).status_code == 200


@pytest.mark.parametrize("pin", ["12", "abcd", 1234, "1" * 13])
def test_a_bad_configured_pin_is_refused(service: Service, pin: object) -> None:
    with pytest.raises(ValueError, match="TABLE_PIN"):
        make_app(service, TABLE_PIN=pin)


def test_the_factory_applies_the_test_config(app: Flask, service: Service) -> None:
    assert app.testing and app.config["TABLE_PIN"] == PIN
    assert app.config["SECRET_KEY"] == "test-secret"
    assert app.extensions["companion"] is service
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Strict"


def test_the_page_defaults_match_the_device() -> None:
    # web takes its settings as plain values (it never imports device): the default it
    # falls back on must be the device's own
    from device.config import defaults
    from web import DEFAULTS

    assert DEFAULTS["SSE_MAX_CLIENTS"] == defaults()["web"]["max_clients"]


def test_the_package_builds_no_app_at_import() -> None:
    import web

    assert not any(isinstance(v, Flask) for v in vars(web).values())
