"""The JSON API through Flask's test client, against a real Service and engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from pagekit import Table, make_app

from device.service import Service
from engine.cards import ALL_IDS, CARDS
from engine.game import Game
from engine.state import Phase


def fen(service: Service) -> str:
    return service.snapshot().state.fen()


def option(doc: dict[str, Any], text: str) -> dict[str, Any]:
    """The first visible option whose label contains ``text``."""
    return next(o for o in doc["pending"]["options"] if text in o["label"])


def deploy(table: Table, card: str = "harmony", where: str = "Luna") -> Any:
    doc = table.state()
    chosen = next(o for o in doc["pending"]["options"] if o["short"] == where)
    return table.post("/api/answer", {"index": chosen["index"], "seq": doc["seq"], "card": card})


# --- reading ------------------------------------------------------------------------------


def test_the_state_is_public(client: FlaskClient, service: Service) -> None:
    reply = client.get("/api/state")
    assert reply.status_code == 200 and reply.mimetype == "application/json"
    doc = reply.json
    assert doc["seq"] == service.snapshot().seq
    assert [loc["id"] for loc in doc["locations"]] == ["jupiter", "mars", "luna", "institute"]
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bo", "Cy"]
    assert doc["log"][0]["text"].startswith("New game")
    assert doc["can_undo"] is False  # only the setup so far
    assert reply.headers["Cache-Control"] == "no-store"


def test_the_card_list_is_public(client: FlaskClient) -> None:
    cards = client.get("/api/cards").json["cards"]
    assert [c["id"] for c in cards] == list(ALL_IDS)
    darrow = next(c for c in cards if c["id"] == "darrow")
    assert (darrow["name"], darrow["core"], darrow["caste_name"]) == (
        CARDS["darrow"].name, CARDS["darrow"].core, "Red")


def test_the_openapi_file_is_served(client: FlaskClient) -> None:
    reply = client.get("/api/openapi.yaml")
    assert reply.status_code == 200 and b"openapi: 3.1.0" in reply.data


def test_unknown_api_paths_and_methods_answer_in_json(client: FlaskClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "error" in missing.json
    wrong = client.get("/api/answer")
    assert wrong.status_code == 405 and "error" in wrong.json


def test_an_oversized_body_is_refused(table: Table, service: Service) -> None:
    before = fen(service)
    reply = table.post("/api/corrections/location",
                       {"location": "mars", "cards": ["darrow"] * 70_000})
    assert reply.status_code == 413 and "error" in reply.json
    assert fen(service) == before


def test_the_page_carries_security_headers(client: FlaskClient) -> None:
    reply = client.get("/")
    assert reply.status_code == 200 and b'id="locations"' in reply.data
    assert "script-src 'self'" in reply.headers["Content-Security-Policy"]
    assert reply.headers["X-Frame-Options"] == "DENY"


# --- answering decisions ------------------------------------------------------------------------


def test_a_deploy_names_its_card_and_lands_on_the_location(table: Table) -> None:
    reply = deploy(table, "harmony", "Luna")
    assert reply.status_code == 200, reply.json
    luna = reply.json["locations"][2]
    assert luna["top"]["id"] == "harmony" and luna["depth"] == 3
    assert reply.json["pending"]["kind"] == "gain"
    assert reply.json["seq"] == table.state()["seq"]


def test_drawing_from_the_deck_rolls_the_die(table: Table) -> None:
    deploy(table)
    doc = table.state()
    chosen = option(doc, "Draw the deck's top card")
    reply = table.post("/api/answer", {"index": chosen["index"], "seq": doc["seq"]})
    assert reply.status_code == 200
    assert reply.json["last_roll"] == {"face": "helium", "label": "Helium",
                                       "text": "Ann rolled Helium", "index": 3}
    assert reply.json["players"][0]["helium"] == 1
    assert reply.json["turn"]["name"] == "Bo"


def test_a_deploy_without_naming_the_card_is_refused(table: Table, service: Service) -> None:
    before = fen(service)
    doc = table.state()
    chosen = next(o for o in doc["pending"]["options"] if o["short"] == "Mars")
    reply = table.post("/api/answer", {"index": chosen["index"], "seq": doc["seq"]})
    assert reply.status_code == 422
    assert "name the card" in reply.json["error"]
    assert fen(service) == before


def test_a_stale_seq_is_refused(table: Table, service: Service) -> None:
    old = table.state()
    assert deploy(table).status_code == 200
    before = fen(service)
    reply = table.post("/api/answer", {"index": 0, "seq": old["seq"]})
    assert reply.status_code == 409 and "changed" in reply.json["error"]
    assert fen(service) == before


def test_a_device_notice_does_not_make_the_page_stale(table: Table, service: Service) -> None:
    doc = table.state()
    service.notify("camera-lost", "camera lost: check the cable")
    assert table.state()["notice"] == "camera lost: check the cable"
    chosen = next(o for o in doc["pending"]["options"] if o["short"] == "Luna")
    reply = table.post("/api/answer", {"index": chosen["index"], "seq": doc["seq"],
                                       "card": "harmony"})
    assert reply.status_code == 200


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"seq": 1}, 400, "missing field 'index'"),
    ({"index": 0}, 400, "missing field 'seq'"),
    ({"index": True, "seq": 1}, 400, "whole number"),
    ({"index": "1", "seq": 1}, 400, "whole number"),
    ({"index": -1, "seq": 1}, 400, "0 to 10000, not -1"),
    ({"index": 0, "seq": 1, "colour": "red"}, 400, "unknown field 'colour'"),
    ({"index": 0, "seq": 1, "card": "not-a-card"}, 400, "unknown card id"),
    ({"index": 999, "seq": None}, 400, "whole number"),
    ([1, 2], 400, "JSON object"),
])
def test_bad_answers_are_refused_with_a_clear_message(
        table: Table, service: Service, body: Any, status: int, message: str) -> None:
    before = fen(service)
    if isinstance(body, dict) and body.get("seq") == 1:
        body = {**body, "seq": table.state()["seq"]}
    reply = table.post("/api/answer", body)
    assert reply.status_code == status
    assert message in reply.json["error"]
    assert fen(service) == before


def test_an_option_that_does_not_exist(table: Table, service: Service) -> None:
    reply = table.post("/api/answer", {"index": 999, "seq": table.state()["seq"]})
    assert reply.status_code == 422 and "option 999 does not exist" in reply.json["error"]


def test_a_card_for_an_option_that_names_its_own_is_refused(table: Table) -> None:
    doc = table.state()
    scout = option(doc, "Scout")
    reply = table.post("/api/answer", {"index": scout["index"], "seq": doc["seq"],
                                       "card": "harmony"})
    assert reply.status_code == 400 and "leaves its card unnamed" in reply.json["error"]


def test_a_seq_from_the_future_is_refused(table: Table) -> None:
    reply = table.post("/api/answer", {"index": 0, "seq": table.state()["seq"] + 5})
    assert reply.status_code == 400 and "ahead" in reply.json["error"]


def test_a_body_that_is_not_json_is_refused(table: Table) -> None:
    reply = table.client.post("/api/answer", data="index=0",
                              headers={"X-CSRF-Token": table.csrf})
    assert reply.status_code == 400 and "JSON" in reply.json["error"]


def test_answering_when_nothing_is_asked() -> None:
    empty = Service(Game())
    app = make_app(empty)
    table = Table(app.test_client())
    reply = table.post("/api/answer", {"index": 0, "seq": 0})
    assert reply.status_code == 409 and "nothing is being asked" in reply.json["error"]


# --- undo ----------------------------------------------------------------------------------


def test_undo_takes_back_the_last_event(table: Table, service: Service) -> None:
    before = fen(service)
    deploy(table)
    assert table.state()["can_undo"] is True
    reply = table.post("/api/undo", {"seq": table.state()["seq"]})
    assert reply.status_code == 200 and reply.json["kind"] == "undo"
    assert fen(service) == before


def test_undo_takes_the_die_roll_back_with_the_draw(table: Table, service: Service) -> None:
    deploy(table)
    before = fen(service)
    doc = table.state()
    table.post("/api/answer", {"index": option(doc, "Draw")["index"], "seq": doc["seq"]})
    assert table.post("/api/undo", {}).status_code == 200
    assert fen(service) == before


def test_the_setup_is_never_undone_from_the_page(table: Table, service: Service) -> None:
    before = fen(service)
    reply = table.post("/api/undo", {})
    assert reply.status_code == 409 and "only the setup" in reply.json["error"]
    assert fen(service) == before


def test_a_stale_undo_is_refused(table: Table, service: Service) -> None:
    old = table.state()["seq"]
    deploy(table)
    before = fen(service)
    assert table.post("/api/undo", {"seq": old}).status_code == 409
    assert table.post("/api/undo", {"seq": "x"}).status_code == 400
    assert fen(service) == before


# --- corrections ----------------------------------------------------------------------------------


def test_set_a_locations_cards(table: Table, service: Service) -> None:
    reply = table.post("/api/corrections/location",
                       {"location": "mars", "cards": ["mustang", None, "harmony"],
                        "removed_to": "banished"})
    assert reply.status_code == 200, reply.json
    mars = reply.json["locations"][1]
    assert [c["id"] for c in mars["covered"]] == ["mustang", None]
    assert mars["top"]["id"] == "harmony"
    assert reply.json["banished"] == [CARDS["cassius"].name]
    assert reply.json["log"][0]["title"] == "Correction"
    assert reply.json["log"][0]["text"].startswith("Mars holds")


def test_set_tokens(table: Table) -> None:
    reply = table.post("/api/corrections/tokens",
                       {"player": 2, "helium": 7, "influence": 3, "fleet": 4, "seq": None})
    assert reply.status_code == 200, reply.json
    cy = reply.json["players"][2]
    assert (cy["helium"], cy["influence"], cy["fleet"], cy["fleet_points"]) == (7, 3, 4, 10)
    assert cy["conditions"]["helium"] is True


def test_set_the_sovereign_and_take_it_away(table: Table) -> None:
    given = table.post("/api/corrections/sovereign", {"player": 1})
    assert given.status_code == 200 and given.json["sovereign"] == 1
    taken = table.post("/api/corrections/sovereign", {"player": None})
    assert taken.status_code == 200 and taken.json["sovereign"] is None


def test_set_a_hand_count(table: Table, service: Service) -> None:
    deck = service.snapshot().state.deck_count
    reply = table.post("/api/corrections/hand", {"player": 0, "count": 7})
    assert reply.status_code == 200
    assert reply.json["players"][0]["hand"] == 7 and reply.json["deck_count"] == deck - 2


def test_identify_an_unidentified_card(table: Table) -> None:
    table.post("/api/corrections/location", {"location": "luna", "cards": ["lorn", None]})
    reply = table.post("/api/corrections/identify",
                       {"location": "luna", "index": 1, "card": "harmony"})
    assert reply.status_code == 200, reply.json
    assert reply.json["locations"][2]["top"]["id"] == "harmony"


@pytest.mark.parametrize(("path", "body", "status", "message"), [
    ("location", {"location": "venus", "cards": []}, 400, "'location' must be one of"),
    ("location", {"location": "mars", "cards": "darrow"}, 400, "must be a list"),
    ("location", {"location": "mars", "cards": ["nobody"]}, 400, "unknown card id"),
    ("location", {"location": "mars", "cards": ["darrow", "darrow"]}, 422, "twice"),
    ("location", {"location": "mars", "cards": ["darrow"], "face_down": [1]}, 400, "face_down"),
    ("location", {"location": "mars", "cards": [], "removed_to": "bin"}, 400, "removed_to"),
    ("location", {"cards": []}, 400, "missing field 'location'"),
    ("tokens", {"player": 0, "helium": -1, "influence": 0, "fleet": 0}, 400, "'helium'"),
    ("tokens", {"player": 0, "helium": 0, "influence": 11, "fleet": 0}, 400, "'influence'"),
    ("tokens", {"player": 0, "helium": 0, "influence": 0, "fleet": 11}, 400, "'fleet'"),
    ("tokens", {"player": 9, "helium": 0, "influence": 0, "fleet": 0}, 400, "'player'"),
    ("tokens", {"player": 4, "helium": 0, "influence": 0, "fleet": 0}, 422, "no player 4"),
    ("tokens", {"player": 0, "helium": 1.5, "influence": 0, "fleet": 0}, 400, "whole number"),
    ("sovereign", {}, 400, "missing field 'player'"),
    ("sovereign", {"player": "Ann"}, 400, "whole number"),
    ("hand", {"player": 0, "count": -2}, 400, "'count'"),
    ("hand", {"player": 0}, 400, "missing field 'count'"),
    ("identify", {"location": "mars", "index": 7, "card": "harmony"}, 422, "no card 7"),
    ("identify", {"location": "mars", "index": 0, "card": "cassius"}, 422, "mustang"),
    ("identify", {"location": "mars", "index": 0}, 400, "missing field 'card'"),
])
def test_bad_corrections_are_refused_and_change_nothing(
        table: Table, service: Service, path: str, body: dict[str, Any], status: int,
        message: str) -> None:
    before = fen(service)
    reply = table.post(f"/api/corrections/{path}", body)
    assert reply.status_code == status, reply.json
    assert message in reply.json["error"]
    assert fen(service) == before


def test_a_correction_can_carry_seq(table: Table, service: Service) -> None:
    old = table.state()["seq"]
    deploy(table)
    before = fen(service)
    reply = table.post("/api/corrections/sovereign", {"player": 0, "seq": old})
    assert reply.status_code == 409
    assert fen(service) == before


# --- the table's buttons -------------------------------------------------------------------------


def test_an_unknown_button_is_refused(table: Table, service: Service) -> None:
    before = fen(service)
    reply = table.post("/api/press", {"button": "explode"})
    assert reply.status_code == 400 and "'button'" in reply.json["error"]
    assert fen(service) == before


def test_the_die_button_draws_and_rolls(table: Table, client: FlaskClient) -> None:
    buttons = client.get("/api/session").json["buttons"]
    if "die" not in buttons:
        pytest.skip("this service has no table buttons (device.controls is absent)")
    deploy(table)
    reply = table.post("/api/press", {"button": "die"})
    assert reply.status_code == 200, reply.json
    assert reply.json["last_roll"]["face"] == "helium"


def test_a_button_with_no_meaning_now_is_refused(table: Table, client: FlaskClient,
                                                 service: Service) -> None:
    if "die" not in client.get("/api/session").json["buttons"]:
        pytest.skip("this service has no table buttons (device.controls is absent)")
    before = fen(service)
    reply = table.post("/api/press", {"button": "die"})  # a turn is asked, not a gain
    assert reply.status_code == 422 and "DIE" in reply.json["error"]
    assert fen(service) == before


def test_the_game_is_still_playing(service: Service) -> None:
    assert service.snapshot().state.phase is Phase.PLAYING


def test_a_simulated_game_shows_hand_sizes_never_hands(sim_service: Service) -> None:
    state = sim_service.snapshot().state
    doc = make_app(sim_service).test_client().get("/api/state").json
    for location in doc["locations"]:  # catalogue texts may name other cards
        for card in [location["top"], *location["covered"]]:
            card.pop("summary", None)
    doc.pop("rulings")  # the settings' descriptions name cards, never where they are
    text = json.dumps(doc)
    secret = {c for p in state.players for c in p.hand.known} | set(state.deck or ())
    assert [c for c in secret if f'"{c}"' in text or CARDS[c].name in text] == []
    assert [p["hand"] for p in doc["players"]] == [p.hand.size for p in state.players]
