"""Server-Sent Events through Flask's test client: order, reconnection, the cap, shutdown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pagekit import make_app

from device.service import Play, Service
from engine.events import SetTokens
from web.events import parse_last_id


class Stream:
    """One open event stream, read frame by frame."""

    def __init__(self, client: FlaskClient, last_id: str | None = None) -> None:
        headers = {"Last-Event-ID": last_id} if last_id else {}
        self.reply = client.get("/events", headers=headers, buffered=False)
        self.chunks: Iterator[bytes] = iter(self.reply.response)

    def frame(self) -> dict[str, Any]:
        """The next frame: its fields, with ``data`` parsed."""
        fields: dict[str, Any] = {}
        for line in next(self.chunks).decode().strip("\n").split("\n"):
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
        return fields

    def close(self) -> None:
        self.reply.close()


def change(service: Service, helium: int) -> int:
    return service.call(Play(SetTokens(0, helium, 0, 0))).seq


@pytest.fixture
def stream(client: FlaskClient) -> Iterator[Stream]:
    s = Stream(client)
    yield s
    s.close()


def test_a_new_stream_gets_the_current_document_first(stream: Stream, service: Service) -> None:
    assert stream.reply.mimetype == "text/event-stream"
    assert stream.reply.headers["Cache-Control"] == "no-cache"
    assert stream.frame() == {"retry": "2000"}
    first = stream.frame()
    assert first["event"] == "update"
    assert first["data"]["seq"] == service.snapshot().seq
    assert first["id"] == f"{first['data']['boot']}.{first['data']['seq']}"


def test_every_update_follows_in_order(stream: Stream, service: Service) -> None:
    stream.frame(), stream.frame()
    seqs = [change(service, h) for h in (1, 2, 3)]
    frames = [stream.frame() for _ in seqs]
    assert [f["data"]["seq"] for f in frames] == seqs
    assert [f["data"]["players"][0]["helium"] for f in frames] == [1, 2, 3]


def test_a_device_notice_reaches_the_page(stream: Stream, service: Service) -> None:
    stream.frame(), stream.frame()
    service.notify("camera-lost", "camera lost")
    data = stream.frame()["data"]
    assert (data["kind"], data["notice"]) == ("camera-lost", "camera lost")


def test_an_idle_stream_sends_keepalive_comments(stream: Stream) -> None:
    stream.frame(), stream.frame()
    assert next(stream.chunks) == b": keepalive\n\n"  # SSE_KEEPALIVE is 0.05 s here


def test_reconnecting_replays_what_was_missed(client: FlaskClient, service: Service) -> None:
    first = Stream(client)
    first.frame()
    last = first.frame()["id"]
    first.close()
    missed = [change(service, h) for h in (4, 5)]
    again = Stream(client, last_id=last)
    again.frame()  # retry
    assert [again.frame()["data"]["seq"] for _ in missed] == missed
    assert next(again.chunks) == b": keepalive\n\n"  # nothing else, no duplicate snapshot
    again.close()


def test_reconnecting_up_to_date_sends_nothing_old(client: FlaskClient, service: Service) -> None:
    first = Stream(client)
    first.frame()
    last = first.frame()["id"]
    first.close()
    again = Stream(client, last_id=last)
    again.frame()
    assert next(again.chunks) == b": keepalive\n\n"
    again.close()


def test_an_id_from_before_a_restart_gets_the_current_document(client: FlaskClient,
                                                               service: Service) -> None:
    s = Stream(client, last_id="deadbeef.9999")
    s.frame()
    assert s.frame()["data"]["seq"] == service.snapshot().seq
    s.close()


def test_a_reconnection_older_than_the_history_gets_the_current_document(
        client: FlaskClient, service: Service) -> None:
    boot = client.get("/api/state").json["boot"]
    for h in range(Service.HISTORY + 3):
        change(service, h % 50)
    s = Stream(client, last_id=f"{boot}.1")
    s.frame()
    assert s.frame()["data"]["seq"] == service.snapshot().seq
    s.close()


def test_the_number_of_streams_is_capped(service: Service) -> None:
    app = make_app(service, SSE_MAX_CLIENTS=1)
    client = app.test_client()
    first = Stream(client)
    first.frame()
    refused = client.get("/events")
    assert refused.status_code == 503 and "already following" in refused.json["error"]
    assert refused.headers["Retry-After"] == "10"
    first.close()  # the slot is given back when the page goes away
    assert app.extensions["companion_web"].streams.count == 0
    second = Stream(client)
    assert second.frame() == {"retry": "2000"}
    second.close()


def test_closing_a_stream_unsubscribes_it(app: Flask, client: FlaskClient,
                                          service: Service) -> None:
    s = Stream(client)
    s.frame()
    assert app.extensions["companion_web"].streams.count == 1
    s.close()
    assert app.extensions["companion_web"].streams.count == 0
    change(service, 1)  # publishing to nobody is fine


def test_shutdown_ends_every_stream(app: Flask, client: FlaskClient) -> None:
    s = Stream(client)
    s.frame(), s.frame()
    app.extensions["companion_web"].streams.shutdown()
    with pytest.raises(StopIteration):
        while True:
            assert next(s.chunks) == b": keepalive\n\n"
    assert client.get("/events").status_code == 503


@pytest.mark.parametrize(("value", "expected"), [
    (None, None), ("", None), ("ab12.7", 7), ("other.7", None), ("ab12.x", None), ("ab12", None),
])
def test_parse_last_id(value: str | None, expected: int | None) -> None:
    assert parse_last_id(value, "ab12") == expected
