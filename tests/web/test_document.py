"""Documents: one build per update however many pages listen; the log cut at its state."""

from __future__ import annotations

import json

from device.service import Play, Service
from engine.events import SetSovereign, SetTokens
from web.document import Documents, history


def test_an_update_is_built_once_and_shared(service: Service) -> None:
    docs = Documents(service, boot="b1")
    update = service.call(Play(SetTokens(0, 3, 0, 0)))
    first = docs.json(update)
    assert docs.json(update) is first
    data = json.loads(first)
    assert (data["boot"], data["seq"], data["kind"]) == ("b1", update.seq, "event")


def test_an_older_update_shows_the_log_as_it_was(service: Service) -> None:
    docs = Documents(service)
    older = service.call(Play(SetTokens(0, 3, 0, 0)))
    service.call(Play(SetSovereign(2)))
    doc = json.loads(docs.json(older))
    assert doc["log"][0]["text"] == "Ann has 3 Helium, 0 Influence, Fleet 0"
    assert doc["sovereign"] is None
    events, states, start = history(service.game, older.state, limit=40)
    assert start == 0 and len(events) == 2 and states[-1] is older.state


def test_the_log_is_limited(service: Service) -> None:
    for h in range(12):
        service.call(Play(SetTokens(1, h, 0, 0)))
    latest = service.snapshot()
    events, states, start = history(service.game, latest.state, limit=5)
    assert (len(events), len(states), start) == (5, 6, 13 - 5)
    doc = json.loads(Documents(service, log_limit=5).json(latest))
    # Each correction is an entry; the oldest one read may be cut, so it is left out.
    assert [e["index"] for e in doc["log"]] == [12, 11, 10, 9]


def test_a_notice_is_shown_and_a_game_event_is_not(service: Service) -> None:
    docs = Documents(service)
    notice = service.notify("camera-lost", "camera lost")
    assert json.loads(docs.json(notice))["notice"] == "camera lost"
    chatter = service.notify("camera", "mars: darrow added")  # the tracker's raw reading
    assert json.loads(docs.json(chatter))["notice"] is None
    event = service.call(Play(SetTokens(0, 1, 0, 0)))
    assert json.loads(docs.json(event))["notice"] is None


def test_documents_remember_which_state_each_seq_showed(service: Service) -> None:
    docs = Documents(service)
    update = service.call(Play(SetTokens(0, 1, 0, 0)))
    docs.json(update)
    assert docs.state_of(update.seq) is update.state
    assert docs.state_of(10_000) is None
