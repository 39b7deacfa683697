"""web/openapi.yaml describes the app: the same routes, and the bodies it really sends."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from pagekit import PIN, Table, make_app, running

from engine.automa import new_solo_game
from engine.game import Game
from engine.setup import new_game

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "web" / "openapi.yaml").read_text())
IGNORED_METHODS = {"HEAD", "OPTIONS"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def routes(app: Flask) -> set[tuple[str, str]]:
    """The app's routes, Flask's ``<int:game_id>`` written as OpenAPI's ``{game_id}``."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # Flask's <token>: {token}
        found |= {(path, m.lower()) for m in rule.methods or () if m not in IGNORED_METHODS}
    return found


def described() -> set[tuple[str, str]]:
    return {(path, method) for path, item in SPEC["paths"].items() for method in item}


def test_the_file_lists_exactly_the_apps_routes(app: Flask) -> None:
    assert described() == routes(app)


# --- a small JSON-schema check (the subset the file uses) ---------------------------------------


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = SPEC
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    schema = resolve(schema)
    if "oneOf" in schema:
        tries = [problems(value, s, where) for s in schema["oneOf"]]
        return [] if any(not t for t in tries) else [f"{where}: matches no alternative"]
    found = _type_problems(value, schema, where)
    if found:
        return found
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    if isinstance(value, dict):
        return _object_problems(value, schema, where)
    if isinstance(value, list) and "items" in schema:
        item = schema["items"]
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    return []


def _type_problems(value: Any, schema: dict[str, Any], where: str) -> list[str]:
    wanted = schema.get("type")
    if wanted is None:
        return []
    names = wanted if isinstance(wanted, list) else [wanted]
    for name in names:
        if name == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return []
        if name == "number" and isinstance(value, int | float) and not isinstance(value, bool):
            return []
        if name in TYPES and isinstance(value, TYPES[name]):
            return []
    return [f"{where}: {value!r} is not {wanted}"]


def _object_problems(value: dict[str, Any], schema: dict[str, Any], where: str) -> list[str]:
    found = [f"{where}: missing {k!r}" for k in schema.get("required", []) if k not in value]
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        if key in props:
            found += problems(item, props[key], f"{where}.{key}")
        elif isinstance(extra, dict):
            found += problems(item, extra, f"{where}.{key}")
    return found


def response_schema(path: str, method: str, status: int) -> dict[str, Any]:
    response = resolve(SPEC["paths"][path][method]["responses"][str(status)])
    return response["content"]["application/json"]["schema"]


def check(reply: Any, path: str, method: str = "get") -> None:
    schema = response_schema(path, method, reply.status_code)
    assert problems(reply.json, schema) == []


# --- the bodies the app sends match the file ---------------------------------------------------


def test_the_checker_finds_problems() -> None:
    schema = resolve({"$ref": "#/components/schemas/Session"})
    assert problems({"authenticated": True, "csrf": None}, schema) == []
    assert problems({"authenticated": "yes"}, schema) == [
        "$: missing 'csrf'", "$.authenticated: 'yes' is not boolean"]


def test_documents_match_through_a_game(table: Table) -> None:
    check(table.client.get("/api/state"), "/api/state")
    doc = table.state()
    chosen = next(o for o in doc["pending"]["options"] if o["short"] == "Luna")
    reply = table.post("/api/answer", {"index": chosen["index"], "seq": doc["seq"],
                                       "card": "harmony"})
    check(reply, "/api/answer", "post")
    draw = next(o for o in reply.json["pending"]["options"] if "Draw" in o["label"])
    check(table.post("/api/answer", {"index": draw["index"], "seq": reply.json["seq"]}),
          "/api/answer", "post")
    check(table.post("/api/corrections/tokens",
                     {"player": 1, "helium": 7, "influence": 7, "fleet": 0}),
          "/api/corrections/tokens", "post")
    check(table.post("/api/undo", {}), "/api/undo", "post")


def test_a_finished_game_with_its_scorepad_matches() -> None:
    rng = random.Random(8)
    game = Game(new_game(["Ann", "Bo"], rng), rng=rng)
    pick = random.Random(8)
    while not game.is_over:
        game.play(pick.choice(game.legal_actions()))
    with running(game) as service:
        reply = make_app(service).test_client().get("/api/state")
        assert reply.json["scorepad"]["available"] is True
        check(reply, "/api/state")


def test_a_solo_game_with_au_toma_matches() -> None:
    rng = random.Random(2)
    game = Game(new_solo_game("Ann", rng, level=2), rng=rng)
    with running(game) as service:
        reply = make_app(service).test_client().get("/api/state")
        assert reply.json["automa"] is not None
        check(reply, "/api/state")


def test_the_other_bodies_match(client: FlaskClient) -> None:
    check(client.get("/api/cards"), "/api/cards")
    check(client.get("/api/session"), "/api/session")
    check(client.post("/api/login", json={"pin": "0000"}), "/api/login", "post")
    check(client.post("/api/corrections/hand", json={}), "/api/corrections/hand", "post")
    login = client.post("/api/login", json={"pin": "2468"})
    check(login, "/api/login", "post")
    headers = {"X-CSRF-Token": login.json["csrf"]}
    check(client.post("/api/answer", json={"index": 99, "seq": 0}, headers=headers),
          "/api/answer", "post")
    check(client.post("/api/join", json={}, headers=headers), "/api/join", "post")
    check(client.post("/api/logout", json={}, headers=headers), "/api/logout", "post")


# --- request bodies: the file's fields are the ones the app accepts ---------------------------


def request_fields(path: str) -> set[str]:
    body = SPEC["paths"][path]["post"].get("requestBody")
    if body is None:
        return set()
    schema = resolve(body["content"]["application/json"]["schema"])
    assert schema.get("additionalProperties") is False, path
    return set(schema["properties"])


def valid_body(path: str, doc: dict[str, Any]) -> dict[str, Any]:
    """A body using every documented field, acceptable to the validator."""
    seq = doc["seq"]
    luna = next(o for o in doc["pending"]["options"] if o["short"] == "Luna")
    return {
        "/api/login": {"pin": PIN},
        "/api/logout": {},
        "/api/join": {},
        "/api/answer": {"index": luna["index"], "seq": seq, "card": "harmony"},
        "/api/undo": {"seq": seq},
        "/api/press": {"button": "next"},
        "/api/question": {"index": 0},
        "/api/game": {"players": [{"name": "Ann", "house": "diana"}], "first": 0,
                      "locations": [["darrow", "sevro"], ["mustang", "cassius"],
                                    ["lorn", "tactus"], ["victra", "ragnar"]],
                      "automa_level": 3, "priorities": {"A": "mars", "B": "luna",
                                                        "C": "jupiter", "D": "institute"},
                      "parity": "odd", "variants": ["automa-variant"]},
        "/api/corrections/location": {"location": "mars", "cards": ["mustang", "cassius"],
                                      "face_down": [False, False], "removed_to": "deck",
                                      "seq": seq},
        "/api/corrections/tokens": {"player": 0, "helium": 1, "influence": 1, "fleet": 1,
                                    "seq": seq},
        "/api/corrections/sovereign": {"player": 0, "seq": seq},
        "/api/corrections/hand": {"player": 0, "count": 5, "seq": seq},
        "/api/corrections/identify": {"location": "mars", "index": 0, "card": "mustang",
                                      "seq": seq},
    }[path]


POSTS = sorted(path for path, method in described() if method == "post")
# Fields that exclude the ones valid_body uses, exercised by their own tests:
# an answer names a card (here) or a whole hand laid out (tests/web/test_hand.py); a
# location question is answered with what lies there (tests/web/test_location_question.py).
ALTERNATIVES = {"/api/answer": {"cards"}, "/api/question": {"top", "card", "count"}}


@pytest.mark.parametrize("path", POSTS)
def test_the_documented_fields_are_exactly_the_ones_accepted(table: Table, path: str) -> None:
    body = valid_body(path, table.state())
    assert set(body) | ALTERNATIVES.get(path, set()) == request_fields(path)
    extra = table.post(path, {**body, "zzz": 1})
    assert extra.status_code == 400 and extra.json["error"] == "unknown field 'zzz'"
    reply = table.post(path, body)
    assert reply.status_code != 400, reply.json
