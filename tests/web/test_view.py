"""The page's view of a game: what it shows, and what it must never show."""

from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace

import pytest
from pagekit import TRACKED_LOCATIONS, Rolls, tracked_setup

from engine import endgame
from engine.automa import automa_setup, tracked_solo_game
from engine.board import House, Location
from engine.cards import CARDS
from engine.events import (
    DrawFromDeck,
    Lead,
    Place,
    Scout,
    SeatSpec,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.game import Game
from engine.setup import new_game, tracked_game
from engine.state import GameState, Phase, evolve
from web import view
from web.labels import public_cards, shown


def tracked(*faces: str) -> Game:
    return Game(tracked_setup(), rng=Rolls(*faces))


def simulated(seed: int = 3, players: int = 3) -> Game:
    rng = random.Random(seed)
    names = ["Ann", "Bo", "Cy", "Di", "Ed"][:players]
    return Game(new_game(names, rng), rng=rng)


def play_out(game: Game, seed: int = 2, limit: int = 10_000) -> Game:
    pick = random.Random(seed)
    while not game.is_over and len(game.log) < limit:
        game.play(pick.choice(game.legal_actions()))
    return game


# --- what the page shows ------------------------------------------------------------------


def test_locations_show_the_top_card_in_full_and_the_covered_cards_oldest_first() -> None:
    state = tracked().state
    mars = view.game_view(state)["locations"][1]
    assert (mars["id"], mars["name"], mars["bonus"], mars["depth"]) == ("mars", "Mars", "helium", 2)
    top = mars["top"]
    card = CARDS["cassius"]
    assert (top["id"], top["name"], top["core"]) == ("cassius", card.name, card.core)
    assert (top["caste"], top["caste_name"]) == ("gold", "Gold")  # colour and its name
    assert top["summary"] == card.deploy
    assert [c["id"] for c in mars["covered"]] == ["mustang"]


def test_an_empty_location_has_no_top_card() -> None:
    game = tracked()
    game.play(SetLocation(Location.LUNA, (), removed_to="deck"))
    luna = view.game_view(game.state)["locations"][2]
    assert (luna["depth"], luna["top"], luna["covered"]) == (0, None, [])


def test_unidentified_and_face_down_cards_are_shown_without_a_name() -> None:
    game = tracked()
    game.play(SetLocation(Location.JUPITER, ("darrow", None, "sevro"), (False, False, True)))
    jupiter = view.game_view(game.state)["locations"][0]
    assert jupiter["top"] == {"id": None, "name": "Face-down card", "face_down": True}
    assert jupiter["covered"][1]["name"] == "Unidentified card"
    assert "sevro" not in json.dumps(jupiter)


def test_players_show_house_tokens_fleet_points_sovereign_and_hand_size() -> None:
    game = tracked()
    game.play(SetTokens(1, helium=4, influence=2, fleet=5))
    game.play(SetSovereign(1))
    bo = view.game_view(game.state)["players"][1]
    assert bo["name"] == "Bo" and bo["house"] == "ceres" and bo["house_name"] == "House Ceres"
    assert (bo["helium"], bo["influence"], bo["fleet"], bo["fleet_points"]) == (4, 2, 5, 15)
    assert bo["sovereign"] is True and bo["hand"] == 6  # Ceres draws six
    assert bo["conditions"] == {"helium": False, "influence": False, "fleet": False}


def test_the_round_counts_one_seat_not_the_table() -> None:
    game = tracked()
    game.play(Lead("harmony", Location.LUNA))
    game.play(DrawFromDeck())  # the die shows Helium: Bo's turn, still round 1
    turn = view.game_view(game.state)["turn"]
    assert (turn["round"], turn["name"]) == (1, "Bo")
    assert view.game_view(game.state)["players"][0]["turns"] == 1


def roll_of(game: Game) -> object:
    return view.roll_view(game.log, game.states)


def test_the_die_is_shown_for_its_turn_and_the_next_only() -> None:
    game = tracked("fleet")
    assert roll_of(game) is None
    game.play(Lead("harmony", Location.LUNA))
    game.play(DrawFromDeck())
    assert roll_of(game) == {"face": "fleet", "label": "Fleet", "text": "Ann rolled Fleet",
                             "index": 3}
    game.play(Scout())  # Bo scouts: Ann's roll was the turn before, still shown
    assert game.state.current == 1 and roll_of(game)["text"] == "Ann rolled Fleet"  # type: ignore[index]
    game.play(Place(Location.MARS))  # Cy's turn: the roll is two turns old
    assert game.state.current == 2 and roll_of(game) is None


# --- the end-game meter -------------------------------------------------------------------


def test_the_meter_shows_each_condition_before_the_trigger() -> None:
    game = tracked()
    game.play(SetTokens(2, helium=7, influence=0, fleet=3))
    state = view.game_view(game.state)
    assert state["players"][2]["conditions"] == {"helium": True, "influence": False,
                                                 "fleet": False}
    assert state["endgame"]["triggered"] is False
    assert state["endgame"]["text"].startswith("Not triggered")


def test_the_meter_counts_down_after_the_trigger_and_says_apollo_plays_last() -> None:
    seats = (SeatSpec("Ann", House.APOLLO), SeatSpec("Bo", House.MARS), SeatSpec("Cy", House.DIANA))
    game = Game(tracked_game(seats, TRACKED_LOCATIONS, first=0), rng=random.Random(1))
    game.play(SetTokens(0, helium=7, influence=0, fleet=7))  # two conditions alone
    end = view.game_view(game.state)["endgame"]
    assert end["triggered"] is True and end["by"] == "Ann"
    assert end["conditions"] == ["fleet", "helium"]
    left = endgame.turns_left(game.state)
    assert left[1] == left[2] == 1 and left[0] >= 1  # Bo, Cy, and Apollo's extra turn
    assert end["total_left"] == sum(left.values())
    assert end["apollo_last"] is True
    assert end["text"] == f"End triggered — {end['total_left']} turns left, Apollo plays last"


def test_without_apollo_the_countdown_does_not_mention_her() -> None:
    game = tracked()
    game.play(SetTokens(0, helium=7, influence=7, fleet=0))
    end = view.game_view(game.state)["endgame"]
    assert end["total_left"] == sum(endgame.turns_left(game.state).values()) >= 2
    assert end["text"] == f"End triggered — {end['total_left']} turns left"
    assert end["apollo_last"] is False


# --- the pending decision -------------------------------------------------------------------


def test_a_tracked_turn_offers_deploys_to_name_and_scout() -> None:
    pending = view.game_view(tracked().state)["pending"]
    assert (pending["kind"], pending["player"], pending["player_name"]) == ("turn", 0, "Ann")
    deploys = [o for o in pending["options"] if o["group"]]
    assert [o["short"] for o in deploys] == ["Jupiter", "Mars", "Luna", "The Institute"]
    assert all(o["names_card"] == "required" for o in deploys)
    assert any(o["label"].startswith("Scout") for o in pending["options"])
    assert pending["hidden_options"] == 0
    options = tracked().state.pending.options
    assert all(isinstance(options[o["index"]], Lead) for o in deploys)


def test_options_naming_a_privately_dealt_card_are_withheld() -> None:
    state = simulated().state  # the engine knows Ann's hand; the table does not
    pending = view.pending_view(state)
    hand = state.players[state.current].hand.known
    assert pending["hidden_options"] == 4 * len(set(hand))
    assert [o["label"] for o in pending["options"]] == ["Scout: turn over the deck's top card"]


def test_a_gain_option_names_the_card_on_top_of_the_location() -> None:
    game = tracked()
    game.play(Lead("harmony", Location.LUNA))
    labels = [o["label"] for o in view.pending_view(game.state)["options"]]
    assert f"Gain {CARDS['sevro'].name} from Jupiter (+Fleet)" in labels
    assert all("Luna" not in label for label in labels)  # not where she deployed


# --- hidden information never leaves -----------------------------------------------------------


def _private_cards(state: GameState, seen: set[str]) -> set[str]:
    """Cards in hands or the deck that the table has never seen face up."""
    hands = {c for p in state.players for c in p.hand.known}
    return (hands | set(state.deck or ())) - seen


def _without_summaries(data: object) -> object:
    """The view minus catalogue texts (an ability summary or a ruling may name cards)."""
    if isinstance(data, dict):
        return {k: _without_summaries(v) for k, v in data.items()
                if k not in ("summary", "rulings")}
    if isinstance(data, list):
        return [_without_summaries(v) for v in data]
    return data


_BY_NAME = {card.name: cid for cid, card in CARDS.items()}
_MENTION = re.compile(r'"([a-z0-9-]+)"|\b(' + "|".join(
    re.escape(name) for name in sorted(_BY_NAME, key=len, reverse=True)) + r")\b")


def _leaks(text: str, cards: set[str]) -> list[str]:
    """The cards among ``cards`` that ``text`` names, by id (quoted) or printed name."""
    named = {m[1] or _BY_NAME[m[2]] for m in _MENTION.finditer(text)}
    return sorted(named & cards)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_hand_or_deck_card_ever_appears_in_a_simulated_game(seed: int) -> None:
    game = play_out(simulated(seed, players=2 + seed), seed=seed)
    assert game.is_over
    seen: set[str] = set()
    for i in range(1, len(game.states)):
        state = game.states[i]
        seen |= public_cards(state) | shown(state.changes)  # turned face up at some point
        if state.phase is Phase.OVER:
            continue  # hands are laid out for scoring
        page = [view.game_view(state), view.log_view(game.log[:i], game.states[: i + 1])]
        text = json.dumps(_without_summaries(page))
        assert _leaks(text, _private_cards(state, seen)) == [], f"state {i}: {state.fen()}"


def solo(first: int = 0) -> Game:
    her = automa_setup(random.Random(4), level=3, parity="odd")
    setup = tracked_solo_game("Ann", House.MARS, TRACKED_LOCATIONS, first=first, automa=her)
    return Game(setup, rng=Rolls())


def test_au_toma_shows_her_level_parity_tokens_and_hand_size() -> None:
    state = solo().state
    panel = view.game_view(state)["automa"]
    assert (panel["name"], panel["level"], panel["parity"]) == ("Au Toma", 3, "odd")
    assert panel["hand"] == state.players[1].hand.size
    assert (panel["helium"], panel["influence"], panel["fleet"]) == (0, 0, 0)
    assert view.automa_turn_view([state]) is None  # Ann plays first: no card of hers out


def test_her_card_shows_each_step_and_what_the_table_must_do() -> None:
    game = solo(first=1)
    state = game.state
    pending = state.pending
    assert pending is not None and pending.player == 1
    assert view.automa_view(state)["deck"] == len(state.automa.deck)
    card = view.automa_turn_view(game.states)
    assert card is not None and card["card"] == state.automa.current
    assert card["steps"][0]["status"] == "now"
    assert card["steps"][0]["text"].startswith("Deploy the deck's top card to ")
    assert card["waiting"].startswith("The camera waits for the deck's top card on ")
    game.play(pending.options[0])  # the camera saw her deploy
    after = view.automa_turn_view(game.states)
    assert after is not None and [s["status"] for s in after["steps"][:2]] == ["done", "now"]
    assert after["steps"][1]["text"].startswith("Gain the top card of ")


def test_her_cards_never_appear() -> None:
    game = solo(first=1)
    her = game.state.automa
    hand = ("darrow-the-reaper", "eo")
    state = evolve(game.state, automa=SimpleNamespace(level=her.level, parity=her.parity,
                                                       deck=her.deck, cards=hand, current=7))
    panel = view.automa_view(state)
    assert set(panel) == {"player", "name", "helium", "influence", "fleet", "fleet_points",
                          "hand", "level", "parity", "turn", "deck"}
    text = json.dumps(panel)
    assert "eo" not in text and "darrow" not in text


def test_the_au_toma_panel_copes_without_her_engine_state() -> None:
    state = solo().state
    panel = view.automa_view(evolve(state, automa=None))
    assert panel is not None and panel["level"] is None and panel["deck"] is None
    assert view.automa_view(tracked().state) is None


# --- the scorepad --------------------------------------------------------------------------------


def test_the_scorepad_appears_when_the_game_is_over() -> None:
    game = simulated(4)
    assert view.game_view(game.state)["scorepad"] is None
    play_out(game, seed=4)
    pad = view.game_view(game.state)["scorepad"]
    if not pad["available"]:
        pytest.fail(pad["message"])
    assert [r["step"] for r in pad["rows"]] == [s.value for s in view.SCORE_ROWS]
    fleet = next(r for r in pad["rows"] if r["step"] == "fleet")
    assert fleet["help"] and all(why == [f"position {p}"] for why, p in zip(
        fleet["why"], [next(q.fleet for q in game.state.players if q.name == n)
                       for n in pad["players"]], strict=True))
    columns = list(zip(*(r["points"] for r in pad["rows"]), strict=True))
    assert pad["totals"] == [sum(c) for c in columns]
    best = max(pad["totals"])
    assert {pad["players"][i] for i, t in enumerate(pad["totals"]) if t == best} >= set(
        pad["winners"])
    assert sorted(pad["players"]) == ["Ann", "Bo", "Cy"]


def test_the_scorepad_waits_for_hands_nobody_has_seen() -> None:
    state = evolve(tracked().state, phase=Phase.OVER, pending=None, turn=None)
    pad = view.scorepad_view(state)
    assert pad is not None and pad["available"] is False
    assert "unidentified" in pad["message"]


# --- the log ----------------------------------------------------------------------------------


def test_the_log_reads_newest_first_with_what_each_event_changed() -> None:
    game = tracked()
    game.play(Lead("harmony", Location.LUNA))
    game.play(DrawFromDeck())
    log = view.log_view(game.log, game.states)
    assert [e["index"] for e in log] == [1, 0]  # one entry for Ann's turn, one for the setup
    assert log[1]["title"] == "New game"
    assert log[1]["text"] == ("New game: Ann (House Mars), Bo (House Ceres), Cy (House Diana);"
                              " Ann goes first")
    assert log[0]["title"] == "Round 1 · Ann"
    assert log[0]["text"] == (f"deployed {CARDS['harmony'].name} to Luna, drew a card,"
                              " rolled Helium, +1 Helium")
    assert log[0]["lines"] == [f"Ann: Deploy {CARDS['harmony'].name} to Luna",
                               "Ann: Draw the deck's top card and roll the die",
                               "Ann rolled Helium"]


def test_a_correction_is_an_entry_of_its_own() -> None:
    game = tracked()
    game.play(Lead("harmony", Location.LUNA))
    game.play(SetTokens(1, helium=2, influence=0, fleet=0))
    log = view.log_view(game.log, game.states)
    assert (log[0]["title"], log[0]["text"]) == ("Correction",
                                                 "Bo has 2 Helium, 0 Influence, Fleet 0")
    assert log[1]["title"] == "Round 1 · Ann"


def test_au_tomas_reshuffle_is_one_line() -> None:
    from pagekit import play_demo_until

    from device.service import Service

    service = Service(rng=random.Random(3))
    service.start()
    try:
        play_demo_until(service, lambda s: any(c.kind == "automa-shuffle" for c in s.changes))
        game = service.game
    finally:
        service.stop()
    log = view.log_view(game.log, game.states, limit=50)
    lines = [line for e in log for line in e["lines"]]
    assert lines.count("Au Toma's deck was shuffled") == 1
    assert not any("random" in line for line in lines)


def test_the_log_keeps_only_the_newest_turns() -> None:
    game = play_out(simulated(5), seed=5, limit=60)
    log = view.log_view(game.log[-30:], game.states[-31:], limit=4, start=len(game.log) - 30)
    assert len(log) == 4 and [e["index"] for e in log] == sorted(
        (e["index"] for e in log), reverse=True)
    assert all(e["index"] >= len(game.log) - 30 for e in log)


def test_the_log_needs_one_state_around_each_event() -> None:
    game = tracked()
    with pytest.raises(ValueError, match="one state before each event"):
        view.log_view(game.log, game.states[:1])


def test_a_ruling_that_decided_a_deploy_is_in_the_log_and_the_rulings_list() -> None:
    from engine.rulings import SELF_BANISH_ALONE

    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    for variants, said in (((), "Romulus had nothing to gain: stays"),
                           ((SELF_BANISH_ALONE,), "Romulus had nothing to gain: banished")):
        game = Game(tracked_game(seats, [["deanna"], [], [], []], first=0, variants=variants))
        game.play(Lead("romulus", Location.MARS))  # no Blue on an empty Mars
        entry = view.log_view(game.log, game.states)[0]
        assert any(said in line for line in [entry["text"], *entry["lines"]]), entry
        listed = {r["setting"]: r["value"] for r in view.game_view(game.state)["rulings"]}
        assert listed["self_banish_needs_gain"] is (not variants)
