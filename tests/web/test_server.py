"""The app behind waitress, over real sockets on loopback."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
from flask import Flask

from device.service import Play, Service
from engine.events import SetTokens
from web import Server
from web.server import threads_for


@pytest.fixture
def server(app: Flask) -> Iterator[Server]:
    with Server(app) as running:
        yield running


def open_stream(server: Server) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request("GET", "/events")
    return conn, conn.getresponse()


def next_update(reply: http.client.HTTPResponse) -> dict[str, object]:
    """Read lines until an update's data line."""
    while True:
        line = reply.readline()
        if not line:
            raise EOFError("the stream ended")
        if line.startswith(b"data: "):
            return json.loads(line[6:])


def test_the_page_and_the_state_are_served(server: Server, service: Service) -> None:
    with urlopen(server.url + "/", timeout=5) as page:
        assert page.status == 200 and b"app.js" in page.read()
    with urlopen(server.url + "/api/state", timeout=5) as reply:
        assert json.loads(reply.read())["seq"] == service.snapshot().seq


def test_an_update_reaches_a_stream_through_waitress(server: Server, service: Service) -> None:
    conn, reply = open_stream(server)
    assert reply.status == 200 and reply.getheader("Content-Type").startswith("text/event-stream")
    first = next_update(reply)
    update = service.call(Play(SetTokens(1, 6, 0, 0)))
    pushed = next_update(reply)
    assert pushed["seq"] == update.seq > first["seq"]
    assert pushed["players"][1]["helium"] == 6
    conn.close()


def test_stopping_the_server_ends_open_streams(app: Flask) -> None:
    running = Server(app).start()
    conn, reply = open_stream(running)
    next_update(reply)
    done = threading.Event()

    def read_to_end() -> None:
        try:
            while reply.readline():
                pass
        except OSError:
            pass
        done.set()

    threading.Thread(target=read_to_end, daemon=True).start()
    running.stop()
    assert done.wait(5)
    conn.close()


def test_the_thread_pool_covers_every_stream_and_some_requests(app: Flask) -> None:
    assert threads_for(app) >= app.config["SSE_MAX_CLIENTS"] + 4
    assert app.config["SSE_MAX_CLIENTS"] >= 20



def test_stopping_survives_a_trigger_pipe_closed_already(app: Flask) -> None:
    import errno

    server = Server(app).start()

    def closed(*args: object) -> None:  # as if the loop had torn its map down
        raise OSError(errno.EBADF, "Bad file descriptor")

    server._server.trigger.pull_trigger = closed
    server.stop()  # must not raise: the sockets are closed from here instead
    with pytest.raises(OSError):
        urlopen(server.url + "/", timeout=2)
