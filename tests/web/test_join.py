"""Joining the table: an unlocked phone's /join QR code unlocks the phone that scans it."""

from __future__ import annotations

import pytest
import segno
from flask.testing import FlaskClient
from pagekit import Table, make_app

from device.service import Service

TOKEN = "k" * 22 + "-_0123456789"
PUBLIC = "http://companion.local:8080/"


@pytest.fixture
def client(service: Service) -> FlaskClient:
    return make_app(service, JOIN_TOKEN=TOKEN, PUBLIC_URL=PUBLIC).test_client()


def svg(url: str, title: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=8, dark="#000", light="#fff",
                                                 omitsize=True, title=title)


def test_a_locked_phones_join_page_shows_the_address_and_no_code(client: FlaskClient) -> None:
    page = client.get("/join").get_data(as_text=True)
    assert svg(PUBLIC, "Address of this page") in page
    assert TOKEN not in page and "read-only until it is unlocked" in page


def test_an_unlocked_phones_join_page_carries_the_code(client: FlaskClient) -> None:
    Table(client)
    page = client.get("/join").get_data(as_text=True)
    assert svg(f"{PUBLIC}unlock/{TOKEN}", "Unlocks the phone that scans it") in page
    assert f'id="address">{PUBLIC}<' in page
    assert "nothing to type" in page


def test_scanning_the_code_unlocks_the_phone_in_one_step(client: FlaskClient,
                                                         service: Service) -> None:
    reply = client.get(f"/unlock/{TOKEN}")
    assert reply.status_code == 303 and reply.headers["Location"] == "/"
    assert "SameSite=Strict" in reply.headers["Set-Cookie"]
    session = client.get("/api/session").json
    assert session["authenticated"] is True and session["csrf"]
    done = client.post("/api/corrections/tokens", json={"player": 0, "helium": 7,
                       "influence": 0, "fleet": 0}, headers={"X-CSRF-Token": session["csrf"]})
    assert done.status_code == 200 and service.snapshot().state.players[0].helium == 7


def test_a_wrong_code_is_refused_and_counts_as_a_wrong_guess(client: FlaskClient) -> None:
    for _ in range(3):
        reply = client.get("/unlock/" + "x" * 32)
        assert reply.status_code == 403 and 'id="stale"' in reply.get_data(as_text=True)
    assert client.get("/api/session").json["authenticated"] is False
    assert client.get(f"/unlock/{TOKEN}").status_code == 429  # the brake, as for PINs


def test_a_new_code_voids_the_old_one_and_keeps_unlocked_phones(service: Service) -> None:
    app = make_app(service, JOIN_TOKEN=TOKEN, PUBLIC_URL=PUBLIC)
    holder = app.test_client()
    table = Table(holder)
    reply = table.post("/api/join", {})
    url = reply.json["url"]
    assert reply.status_code == 200 and TOKEN not in url and "/unlock/" in url
    guest = app.test_client()
    assert guest.get(f"/unlock/{TOKEN}").status_code == 403
    assert guest.get(url.removeprefix(PUBLIC.rstrip("/"))).status_code == 303
    assert holder.get("/api/session").json["authenticated"] is True


def test_only_an_unlocked_phone_draws_a_new_code(client: FlaskClient) -> None:
    assert client.post("/api/join", json={}).status_code == 401


def test_the_code_is_random_unless_configured(service: Service) -> None:
    first, second = (make_app(service).config["JOIN_TOKEN"] for _ in range(2))
    assert first != second and len(first) == 32


@pytest.mark.parametrize("token", ["short", "x" * 21, "has space" * 4, 12345678901234567890123])
def test_a_bad_configured_code_is_refused(service: Service, token: object) -> None:
    with pytest.raises(ValueError, match="JOIN_TOKEN"):
        make_app(service, JOIN_TOKEN=token)
