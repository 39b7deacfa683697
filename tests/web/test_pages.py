"""The HTML pages: the table view and /join's QR code."""

from __future__ import annotations

import socket

from flask.testing import FlaskClient
from pagekit import make_app

from device.service import Service


def test_the_table_page_loads_its_script_and_styles(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<meta name="viewport"' in page
    assert "/static/app.js" in page and "/static/app.css" in page
    assert "<script>" not in page  # no inline script: the CSP forbids it
    for static in ("/static/app.js", "/static/app.css"):
        with client.get(static) as reply:
            assert reply.status_code == 200


def test_join_shows_a_qr_code_and_the_address(client: FlaskClient) -> None:
    reply = client.get("/join", base_url="http://192.168.1.20:8080")
    page = reply.get_data(as_text=True)
    assert reply.status_code == 200
    assert "<svg" in page and "qrline" in page
    assert 'id="address">http://192.168.1.20:8080/<' in page


def test_join_from_the_pi_itself_gives_the_mdns_name(client: FlaskClient) -> None:
    page = client.get("/join", base_url="http://127.0.0.1:8080").get_data(as_text=True)
    name = socket.gethostname().split(".")[0]
    assert f'id="address">http://{name}.local:8080/<' in page


def test_join_uses_the_configured_address(service: Service) -> None:
    app = make_app(service, PUBLIC_URL="http://companion.local:8080/")
    page = app.test_client().get("/join").get_data(as_text=True)
    assert 'id="address">http://companion.local:8080/<' in page


def test_the_qr_code_encodes_the_address(client: FlaskClient) -> None:
    import segno

    url = "http://192.168.1.20:8080/"
    expected = segno.make(url, error="m").svg_inline(scale=8, dark="#000", light="#fff",
                                                    omitsize=True, title="Address of this page")
    page = client.get("/join", base_url="http://192.168.1.20:8080").get_data(as_text=True)
    assert expected in page


def test_a_companion_on_loopback_only_says_how_to_let_phones_in(service: Service) -> None:
    app = make_app(service, LISTEN_HOST="127.0.0.1")
    page = app.test_client().get("/join", base_url="http://127.0.0.1:8080").get_data(
        as_text=True)
    assert 'id="address">http://127.0.0.1:8080/<' in page  # never a name nobody can reach
    assert "--host 0.0.0.0" in page


def test_listening_everywhere_gives_the_mdns_name_and_no_hint(service: Service) -> None:
    app = make_app(service, LISTEN_HOST="0.0.0.0")
    page = app.test_client().get("/join", base_url="http://127.0.0.1:8080").get_data(
        as_text=True)
    assert ".local:8080/<" in page and "--host" not in page


def test_the_icon_is_served_where_browsers_look(client: FlaskClient) -> None:
    for path in ("/favicon.ico", "/static/icon.svg"):
        with client.get(path) as reply:
            assert reply.status_code == 200 and reply.mimetype == "image/svg+xml"
            assert reply.get_data().startswith(b"<svg")
    assert 'rel="icon"' in client.get("/").get_data(as_text=True)
