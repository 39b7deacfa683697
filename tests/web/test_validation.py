"""Whatever JSON arrives, the API answers 2xx or a clear 4xx, and a refusal changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pagekit import Rolls, Table, make_app, running, tracked_setup

from device.service import Service
from engine.game import Game

PATHS = ["/api/answer", "/api/undo", "/api/press", "/api/corrections/location",
         "/api/corrections/tokens", "/api/corrections/sovereign", "/api/corrections/hand",
         "/api/corrections/identify"]
FIELDS = ["index", "seq", "card", "button", "location", "cards", "face_down", "removed_to",
          "player", "helium", "influence", "fleet", "count", "pin"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 120), st.floats(allow_nan=False),
                    st.sampled_from(["mars", "luna", "darrow", "harmony", "deck", "die", "x", ""]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=6)
bodies = st.one_of(st.dictionaries(st.sampled_from(FIELDS), values, max_size=6),
                   st.lists(scalars, max_size=3), scalars)


def test_random_bodies_never_break_the_api() -> None:
    with running(Game(tracked_setup(), rng=Rolls())) as service:
        table = Table(make_app(service).test_client())

        # examples: the Hypothesis profile (tests/conftest.py); web/test_malformed.py
        # fuzzes every route with it too, benchmarks/web_fuzz.py with thousands
        @settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(path=st.sampled_from(PATHS), body=bodies)
        def check(path: str, body: Any) -> None:
            before = service.snapshot().state
            reply = table.post(path, body)
            assert reply.status_code in (200, 400, 409, 422), (path, body, reply.json)
            if reply.status_code != 200:
                assert isinstance(reply.json["error"], str) and reply.json["error"]
                assert service.snapshot().state is before, (path, body)

        check()


def test_au_toma_can_go_first_as_the_page_offers(table: Table, service: Service) -> None:
    # The page's "who goes first" lists "Au Toma" as 1 in a solo game (fuzzing found
    # the API refusing it: 'first' was capped at the number of players given).
    stacks = [["darrow", "sevro"], ["mustang", "cassius"], ["lorn", "tactus"],
              ["victra", "ragnar"]]
    reply = table.post("/api/game", {"players": [{"name": "Ann", "house": "mars"}],
                                     "first": 1, "locations": stacks})
    assert reply.status_code == 200, reply.json
    assert service.game.state.current == 1 and service.game.state.players[1].automa
    too_far = table.post("/api/game", {"players": [{"name": "Ann", "house": "mars"}],
                                       "first": 2, "locations": stacks})
    assert too_far.status_code == 400 and "'first'" in too_far.json["error"]
