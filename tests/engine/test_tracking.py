"""Tracking a physical game: hidden hands and deck, observations, corrections."""

from __future__ import annotations

import pytest
from positions import FixedDie, I, J, L, M

from engine.board import House
from engine.endgame import final_table
from engine.errors import IllegalActionError
from engine.events import (
    DrawFromDeck,
    DrawUnknown,
    GainFrom,
    Identify,
    Lead,
    Place,
    RevealCard,
    RevealHand,
    Scout,
    SeatSpec,
    SetHandCount,
    SetLocation,
    SetSovereign,
    SetTokens,
)
from engine.game import Game
from engine.scoring import score
from engine.setup import tracked_game

LOCATIONS = [["darrow", "sevro"], ["eo", "nero"], ["lorn", "aja"], ["judge", "trigg"]]


def tracked(rng: object = None) -> Game:
    seats = [SeatSpec("Ann", House.MARS), SeatSpec("Bo", House.DIANA)]
    return Game(tracked_game(seats, LOCATIONS, first=0), rng=rng)  # type: ignore[arg-type]


def test_a_player_deploys_a_card_the_camera_names() -> None:
    game = tracked()
    game.play(Lead("quietus", M))
    state = game.state
    assert state.top(M).card == "quietus"
    assert state.players[0].hand.unknown == 4 and state.players[0].hand.known == ()


def test_deploying_a_card_visible_on_the_table_is_refused() -> None:
    game = tracked()
    with pytest.raises(IllegalActionError, match="known not to hold darrow"):
        game.play(Lead("darrow", M))


def test_gaining_a_visible_card_makes_it_known_in_hand() -> None:
    game = tracked()
    game.play(Lead("quietus", M))
    game.play(GainFrom(J))
    ann = game.state.players[0]
    assert ann.hand.known == ("sevro",) and ann.hand.unknown == 4 and ann.fleet == 1


def test_drawing_from_the_deck_adds_an_unknown_card() -> None:
    game = tracked(FixedDie("helium"))
    deck = game.state.deck_count
    game.play(Lead("quietus", M))
    game.play(DrawFromDeck())
    assert game.state.players[0].hand.unknown == 5
    assert game.state.deck_count == deck - 1


def test_scout_places_an_unknown_card_that_the_camera_names() -> None:
    game = tracked()
    game.play(Scout())
    game.play(Place(L, "orion"))
    assert game.state.top(L).card == "orion"
    assert game.state.players[0].hand.unknown == 5


def test_an_unnamed_placement_can_be_identified_later() -> None:
    game = tracked()
    game.play(Scout())
    game.play(Place(L, None))
    assert game.state.top(L).card is None
    game.push(Identify(L, 2, "orion"))
    assert game.state.top(L).card == "orion"
    with pytest.raises(IllegalActionError, match="that card is lorn"):
        game.push(Identify(L, 0, "orion"))


def test_identifying_a_card_as_one_already_elsewhere_is_refused() -> None:
    game = tracked()
    game.play(Scout())
    game.play(Place(L, None))
    with pytest.raises(IllegalActionError, match="already somewhere else"):
        game.push(Identify(L, 2, "darrow"))


def test_draw_unknown_and_hand_count_keep_cards_conserved() -> None:
    game = tracked()
    game.push(DrawUnknown(1, 2))
    assert game.state.players[1].hand.size == 7
    game.push(SetHandCount(1, 4))
    assert game.state.players[1].hand.size == 4
    assert game.state.cards_in_play() == 112


def test_reveal_card_turns_an_unknown_hand_card_into_a_known_one() -> None:
    game = tracked()
    game.push(RevealCard(0, "quietus"))
    assert game.state.players[0].hand.known == ("quietus",)
    with pytest.raises(IllegalActionError):
        game.push(RevealCard(1, "quietus"))


def test_set_location_moves_cards_conservatively() -> None:
    game = tracked()
    game.push(SetLocation(J, ("darrow",)))  # sevro was banished
    assert game.state.banished == ("sevro",)
    game.push(SetLocation(J, ("darrow", "sevro")))  # …and it comes back from the pile
    assert game.state.banished == ()
    game.push(SetLocation(J, ("darrow", "sevro", "invictus")))  # a new card from the deck
    assert game.state.cards_in_play() == 112


@pytest.mark.parametrize(("tokens", "message"), [
    ((-1, 0, 0), "negative"), ((0, 11, 0), "Influence"), ((0, 0, 11), "Fleet"),
])
def test_token_corrections_are_validated(tokens: tuple[int, int, int], message: str) -> None:
    game = tracked()
    before = game.state
    with pytest.raises(IllegalActionError, match=message):
        game.push(SetTokens(0, *tokens))
    assert game.state is before


def test_corrections_are_undoable() -> None:
    game = tracked()
    before = game.state
    game.push(SetTokens(0, 3, 2, 1))
    game.push(SetSovereign(1))
    game.undo()
    game.undo()
    assert game.state == before


def test_a_correction_refreshes_the_open_question() -> None:
    game = tracked()
    game.play(Lead("quietus", M))
    assert GainFrom(I) in game.legal_actions()
    game.push(SetLocation(I, (), removed_to="banished"))
    assert GainFrom(I) not in game.legal_actions()


def test_cannot_gain_from_an_empty_location_while_tracking() -> None:
    game = tracked()
    game.push(SetLocation(I, (), removed_to="banished"))
    game.play(Lead("quietus", M))
    with pytest.raises(IllegalActionError, match="no cards"):
        game.play(GainFrom(I))


def test_at_the_end_hands_are_laid_out_then_scored() -> None:
    game = tracked()
    game.push(SetTokens(0, 6, 0, 7))
    game.play(Lead("quietus", L))
    game.play(GainFrom(M))  # Ann reaches 7 Helium with Fleet 7: the end is triggered
    game.play(Lead("invictus", J))
    game.play(GainFrom(I))  # Bo's turn: everyone has played equally, no Apollo
    pending = game.state.pending
    assert pending.kind.value == "confirm" and pending.player == 0
    with pytest.raises(IllegalActionError, match="holds 5 cards, not 2"):
        game.play(RevealHand(0, ("orion", "nero")))
    game.play(RevealHand(0, ("nero", "virga", "pelus", "orion", "morning-star")))
    game.play(RevealHand(1, ("trigg", "helga", "stained", "sefi", "ragnar")))
    state = game.state
    assert state.phase.value == "over"  # no end-of-game abilities in these hands
    sheet = score(final_table(state))
    assert [p.name for p in sheet.players] == ["Ann", "Bo"] and sheet.winners
