"""The rules around abilities, the registry, and abilities while tracking a physical game."""

from __future__ import annotations

import pytest
from abilities_support import (
    I,
    J,
    L,
    M,
    at,
    gain_is_next,
    hand,
    lead,
    pick,
    play,
    seat,
    stack,
    table,
    tracked,
    turn_of,
    values,
)

from engine.abilities import DEPLOY, primitives
from engine.cards import CARDS
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, GainFrom, Place, SetLocation, SetSovereign
from engine.game import Game


def test_every_deploy_ability_is_registered_with_a_one_line_summary() -> None:
    assert set(DEPLOY) == {c for c, card in CARDS.items() if card.deploy}
    for card, fn in DEPLOY.items():
        assert fn.__doc__ and fn.__doc__.strip(), card


def test_the_multiplayer_variant_is_a_named_setting() -> None:
    assert primitives.MULTIPLAYER_VARIANT == "multiplayer-variant"
    game = table([["aja"], ["lorn"]], variants=[primitives.MULTIPLAYER_VARIANT])
    assert game.state.variants == frozenset({"multiplayer-variant"})


def test_end_your_turn_skips_the_gain_step() -> None:
    game = table([["developer"], ["judge"]], [["lorn"], ["eo"], [], []])
    lead(game, "developer", J)
    play(game, pick("lorn", J, 0))
    assert turn_of(game) == 1 and game.state.players[0].turns == 1
    assert not any(c.kind == "gain" and c.source == "mars" for c in game.state.changes)


def test_moving_or_placing_is_never_a_deploy() -> None:
    game = table([["janitor"], ["judge"]], [["pelus"], [], [], []])
    lead(game, "janitor", J)
    play(game, at(M))  # Pelus moves; its "advance twice" does not fire
    assert stack(game, M) == ["pelus"] and game.state.players[0].fleet == 1
    assert game.state.players[1].fleet == 0


def test_the_card_under_is_read_when_the_ability_starts() -> None:
    game = table([["victra"], ["judge"]], [["lorn"], [], [], []])
    lead(game, "victra", J)  # she takes the Gold she was deployed on, and still stays
    assert hand(game) == ("lorn",) and stack(game, J) == ["victra"]


def test_a_card_that_moves_itself_still_counts_as_deployed_where_it_was() -> None:
    game = table([["zanzibar"], ["judge"]], [[], ["eo"], [], []])
    lead(game, "zanzibar", J)
    play(game, at(M))
    assert stack(game, J) == [] and game.state.turn.deployed_to is J
    assert GainFrom(J) not in game.legal_actions() and GainFrom(M) in game.legal_actions()


def test_another_location_excludes_the_one_deployed_to() -> None:
    game = table([["ragnar"], ["judge"]], [["eo"], ["deanna"], ["lorn"], []])
    lead(game, "ragnar", J)
    assert {o.location for o in game.legal_actions()} == {M, L}


def test_a_face_down_card_has_no_color() -> None:
    game = table([["ash-lord"], ["judge"]])
    game.push(SetLocation(M, ("pelus", "virga", "lorn"), face_down=(True, False, False)))
    lead(game, "ash-lord", M)
    assert game.state.banished == ("virga",)  # the face-down Blue is not seen as one
    assert stack(game, M) == ["pelus", "lorn", "ash-lord"]


# --- tracking a physical game ---------------------------------------------------------


def test_tracking_visible_effects_are_noted_for_the_camera() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "assassin", J)
    confirm(game)  # the table banishes Lorn: a step of its own, which the camera sees
    kinds = [(c.kind, c.card, c.source) for c in game.state.changes]
    assert ("banish", "lorn", "jupiter") in kinds
    assert game.state.players[0].influence == 1  # tokens apply at once


def test_tracking_face_down_cards_stay_unknown_on_each_other_location() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    count = game.state.deck_count
    lead(game, "firewall-expert", J)
    assert values(game) == {"mars", "luna", "institute"}  # which card is nobody's business
    play(game, at(L), at(M))  # one at a time, as the camera sees them
    assert game.legal_actions() == (at(I),)  # the last is forced, and still a step of its own
    play(game, at(I))
    for loc in (M, L, I):
        top = game.state.top(loc)
        assert top is not None and top.card is None and top.face_down
    assert game.state.deck_count == count - 3 and gain_is_next(game)
    assert [c.kind for c in game.state.changes].count("place-down") == 1


def test_tracking_a_card_drawn_from_the_deck_is_unknown() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "lysander", M)
    confirm(game)  # Lysander leaves the table
    player = game.state.players[0]
    assert player.hand.unknown == 5 and player.hand.known == ()  # 5 - Lysander + 1
    assert "lysander" in game.state.banished


def test_tracking_random_picks_become_decisions_for_the_table() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    game.play(SetLocation(J, ()))  # Lorn was banished
    game.play(SetLocation(L, ()))  # and Deanna
    lead(game, "researcher", M)
    assert game.pending.kind is Kind.CONFIRM and game.pending.player == 0
    assert values(game) == {"lorn", "deanna"}
    play(game, Choose("deanna"))
    confirm(game)  # slid in at the bottom
    assert stack(game, M) == ["deanna", "eo", "researcher"]


def test_tracking_a_stolen_unseen_card_stays_unseen() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "tactus", M)
    play(game, seat(1), Decline(), Choose(None))
    assert game.state.players[0].hand.unknown == 5 and game.state.players[1].hand.unknown == 4


def test_tracking_a_revealed_card_is_named_by_the_camera_where_it_lands() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "calliope", M)
    assert game.pending.kind is Kind.PLACE and Place(I, None) in game.legal_actions()
    with pytest.raises(IllegalActionError, match="somewhere else"):
        game.play(Place(I, "lorn"))  # a card seen elsewhere cannot be the one
    play(game, Place(I, "uncle-narol"))
    assert stack(game, I) == ["aja", "uncle-narol"] and game.state.players[0].helium == 2


def test_tracking_an_unidentified_card_under_is_named_first() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    game.play(SetLocation(J, ("lorn", None)))
    lead(game, "assassin", J)
    assert game.pending.kind is Kind.CONFIRM
    play(game, Choose("nero", J, 1))
    confirm(game)
    assert game.state.banished == ("nero",) and game.state.players[0].influence == 1


def confirm(game: Game) -> None:
    """The camera confirms the one physical step the engine waits for."""
    assert game.pending is not None and game.pending.kind is Kind.CONFIRM
    (seen,) = game.legal_actions()
    assert isinstance(seen, primitives.Moved)
    play(game, seen)


def test_tracking_seer_places_the_card_the_camera_names() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    game.play(SetSovereign(0))
    lead(game, "seer", M)
    assert Place(L, None) in game.legal_actions()  # the camera will name it
    play(game, Place(L, "sevro"))
    assert stack(game, L) == ["deanna", "sevro"]


def test_tracking_an_answer_made_stale_by_a_correction_is_refused() -> None:
    game = tracked([["lorn"], ["eo"], ["deanna"], ["aja"]])
    lead(game, "ragnar", J)
    game.play(SetLocation(M, ()))  # the camera: Mars is empty after all
    before = game.state
    with pytest.raises(IllegalActionError, match="has no card"):
        game.play(pick("eo", M, 0))
    assert game.state is before
    play(game, pick("deanna", L, 0))
    assert "deanna" in game.state.banished
