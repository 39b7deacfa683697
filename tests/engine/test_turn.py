"""The turn: Lead (deploy, ability, gain + bonus or deck + die) or Scout (place + bonus)."""

from __future__ import annotations

import pytest
from positions import FixedDie, I, J, L, M, position

from engine.board import House
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import (
    DrawFromDeck,
    Face,
    GainFrom,
    Lead,
    Place,
    Roll,
    Scout,
    SeatSpec,
    SetLocation,
)
from engine.game import Game
from engine.setup import tracked_game
from engine.wording import event_text

HANDS = [["darrow", "sevro", "eo"], ["nero", "lorn"]]
STACKS = [["pelus"], ["virga"], ["orion"], ["the-pax"]]


def test_lead_deploys_then_gains_a_top_card_and_its_bonus() -> None:
    game = position(HANDS, STACKS)
    game.play(Lead("eo", M))  # Eo's ability targets hands; no abilities are loaded here
    assert game.state.top(M).card == "eo"
    assert game.pending.kind is Kind.GAIN
    game.play(GainFrom(J))
    ann = game.state.players[0]
    assert "pelus" in ann.hand.known and ann.fleet == 1
    assert game.state.stack_at(J) == ()
    assert game.state.current == 1 and ann.turns == 1


def test_cannot_gain_from_the_location_just_deployed_to() -> None:
    game = position(HANDS, STACKS)
    game.play(Lead("eo", M))
    before = game.state
    with pytest.raises(IllegalActionError, match="you deployed there") as err:
        game.play(GainFrom(M))
    assert err.value.rule == "gain-from-other-location"
    assert game.state is before and len(game.log) == 2


def test_cannot_gain_from_an_empty_location() -> None:
    game = position(HANDS, [["pelus"], [], ["orion"], []])
    game.play(Lead("eo", J))
    assert GainFrom(M) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="no cards"):
        game.play(GainFrom(M))


def test_gain_from_the_deck_draws_and_rolls_the_die() -> None:
    game = position(HANDS, STACKS, deck=["quietus"], rng=FixedDie("helium"))
    game.play(Lead("eo", M))
    game.play(DrawFromDeck())
    ann = game.state.players[0]
    assert "quietus" in ann.hand.known and ann.helium == 1
    assert game.state.last_roll == "helium"


def test_deploying_a_card_not_in_hand_is_refused_and_changes_nothing() -> None:
    game = position(HANDS, STACKS)
    before = game.state
    with pytest.raises(IllegalActionError, match="known not to hold nero"):
        game.play(Lead("nero", M))
    with pytest.raises(IllegalActionError, match="unknown card id"):
        game.play(Lead("nobody", M))
    assert game.state is before


def test_scout_places_the_deck_top_and_takes_that_bonus_without_a_card() -> None:
    game = position(HANDS, STACKS, deck=["quietus"])
    game.play(Scout())
    assert game.pending.kind is Kind.PLACE
    game.play(Place(I, "quietus"))
    ann = game.state.players[0]
    assert game.state.top(I).card == "quietus"
    assert ann.influence == 1 and ann.hand.size == 3


def test_a_scout_ends_the_turn_and_counts_it() -> None:
    game = position(HANDS, STACKS, deck=["quietus"])
    game.play(Scout())
    game.play(Place(I, "quietus"))
    assert [p.turns for p in game.state.players] == [1, 0] and game.state.current == 1


def test_refusals_name_the_rule_in_one_line() -> None:
    # Bad input gets a clear one-line error naming the rule, and changes nothing.
    with pytest.raises(IllegalActionError) as idle:
        Game().play(Scout())
    assert (str(idle.value), idle.value.rule) == (
        f"{event_text(Scout())}: nothing is being asked [no-decision]", "no-decision")
    game = position(HANDS, STACKS)
    game.play(Lead("eo", M))
    game.play(GainFrom(J))  # P2's turn now: P1 holds Darrow
    with pytest.raises(IllegalActionError) as held:
        game.play(Lead("darrow", M))
    assert (str(held.value), held.value.rule) == (
        "P2 is known not to hold darrow [deploy-from-hand]", "deploy-from-hand")
    with pytest.raises(IllegalActionError) as odd:
        game.play(Place(I, "quietus"))
    assert odd.value.rule == "turn" and "is not a legal answer to: P2: Lead or Scout?" in str(
        odd.value)
    game.push(SetLocation(J, game.state.deck or ()))  # the whole deck spread onto Jupiter
    before = game.state
    with pytest.raises(IllegalActionError) as empty:
        game.play(Scout())
    assert (str(empty.value), empty.value.rule) == ("the deck is empty [empty-deck]",
                                                    "empty-deck")
    with pytest.raises(IllegalActionError, match="is not a legal answer"):
        game.play(Place(I, "quietus"))  # the empty deck is not the reason here
    assert game.state is before


def test_scout_must_place_the_card_it_turned_over() -> None:
    game = position(HANDS, STACKS, deck=["quietus"])
    game.play(Scout())
    with pytest.raises(IllegalActionError):
        game.play(Place(I, "invictus"))


def test_empty_deck_allows_neither_scout_nor_the_deck_gain() -> None:
    game = position(HANDS, STACKS)
    deck = game.state.deck
    assert deck
    game.push(SetLocation(J, ("pelus", *deck)))  # the whole deck spread onto Jupiter
    assert game.state.deck_count == 0
    assert Scout() not in game.legal_actions()
    game.play(Lead("eo", M))
    assert DrawFromDeck() not in game.legal_actions()


def test_empty_hand_lead_skips_the_deploy() -> None:
    game = position([[], ["nero"]], STACKS)
    assert Lead(None, None) in game.legal_actions()
    game.play(Lead(None, None))
    assert game.pending.kind is Kind.GAIN
    assert GainFrom(M) in game.legal_actions()  # nothing was deployed anywhere
    game.play(GainFrom(M))
    assert game.state.players[0].helium == 1


@pytest.mark.parametrize(
    ("location", "field"), [(J, "fleet"), (M, "helium"), (I, "influence")]
)
def test_location_bonuses(location: object, field: str) -> None:
    game = position(HANDS, STACKS)
    deploy_to = L if location is not L else J
    game.play(Lead("eo", deploy_to))
    game.play(GainFrom(location))  # type: ignore[arg-type]
    assert getattr(game.state.players[0], field) == 1


def test_luna_bonus_takes_the_sovereign() -> None:
    game = position(HANDS, STACKS)
    game.play(Lead("eo", J))
    game.play(GainFrom(L))
    assert game.state.sovereign == 0


def test_fleet_stops_at_ten() -> None:
    game = position(HANDS, [["pelus", "virga"], [], [], []], tokens={0: (0, 0, 10)})
    game.play(Lead("eo", M))
    game.play(GainFrom(J))
    assert game.state.players[0].fleet == 10


def test_influence_stops_when_all_ten_tokens_are_placed() -> None:
    game = position(HANDS, [[], [], [], ["the-pax", "orion"]], tokens={0: (0, 10, 0)})
    game.play(Lead("eo", M))
    game.play(GainFrom(I))
    assert game.state.players[0].influence == 10
    assert game.state.players[0].supply == 0


def test_helium_is_unlimited() -> None:
    game = position(HANDS, STACKS, tokens={0: (40, 0, 0)})
    game.play(Lead("eo", J))
    game.play(GainFrom(M))
    assert game.state.players[0].helium == 41


def test_turns_pass_clockwise_and_are_counted() -> None:
    game = position(HANDS, STACKS, first=1)
    assert game.state.current == 1
    game.play(Lead("nero", M))
    game.play(GainFrom(J))
    assert game.state.current == 0
    assert [p.turns for p in game.state.players] == [0, 1]


def test_the_deck_gain_is_offered_down_to_its_last_card() -> None:
    game = position(HANDS, STACKS)
    rest = game.state.deck or ()
    game.push(SetLocation(J, ("pelus", *rest[1:])))  # one card left in the deck
    assert game.state.deck_count == 1 and Scout() in game.legal_actions()
    game.play(Lead("eo", M))
    assert DrawFromDeck() in game.legal_actions() and game.pending.prompt == "P1: gain a card"


def test_each_turn_is_noted_and_its_context_names_the_player() -> None:
    game = position(HANDS, STACKS)
    assert game.state.turn is not None and game.state.turn.player == 0
    game.play(Lead("eo", M))
    assert game.state.turn is not None and game.state.turn.player == 0
    game.play(GainFrom(J))
    assert ("turn", 1) in [(c.kind, c.player) for c in game.state.changes]
    turn = game.state.turn
    assert turn is not None and (turn.player, turn.kind) == (1, "normal")


def test_a_placed_card_is_named_in_the_options_and_on_the_table() -> None:
    game = position(HANDS, STACKS, deck=["quietus"])
    game.play(Scout())
    assert set(game.legal_actions()) == {Place(loc, "quietus") for loc in (J, M, L, I)}
    assert game.pending.prompt == "Scout: place the turned-over card"
    tracked = Game(tracked_game([SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)],
                                [["pelus"], ["virga"], ["orion"], ["the-pax"]], first=0))
    with pytest.raises(IllegalActionError, match=r"name the card that was deployed \[deploy\]"):
        tracked.play(Lead(None, M))
    with pytest.raises(IllegalActionError, match="Ann is known not to hold pelus"):
        tracked.play(Lead("pelus", M))  # it lies on Jupiter
    tracked.play(Lead("lorn", M))  # on Virga, a Blue: nothing to banish
    tracked.play(DrawFromDeck())
    tracked.play(Roll(Face.REVEAL))  # the die's reveal face: a card nobody has seen yet
    tracked.play(Place(I, "quietus"))  # the table names it as it lands
    assert tracked.state.top(I).card == "quietus"
