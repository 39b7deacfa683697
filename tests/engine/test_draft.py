"""Draft: a frozen state holds exactly its fields, and each primitive does one rule's work."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from engine.board import Location
from engine.cards import ALL_IDS
from engine.draft import Draft
from engine.errors import IllegalActionError
from engine.game import Game
from engine.setup import new_game
from engine.state import (
    Change,
    ChangeKind,
    GameState,
    Phase,
    Slot,
    Track,
    Trigger,
    TurnKind,
)


def test_frozen_states_hold_exactly_the_state_fields() -> None:
    rng = random.Random(4)
    game = Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)
    names = {f.name for f in fields(GameState)}
    for _ in range(120):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
        assert set(vars(game.state)) == names
    assert all(isinstance(vars(s)["players"], tuple) for s in game.states)
    # While tracking, the deck's order is unknown: it stays None, and no other field is added.
    tracked = _tracked()
    for state in (tracked, Draft(tracked).freeze()):
        assert (set(vars(state)), state.deck) == (names, None)


def test_known_cards_are_exactly_the_cards_known_elsewhere() -> None:
    # Naming an unseen card gathers the known cards once (known_cards); it must agree,
    # card by card, with is_known_elsewhere: in a simulated game (the deck known) and in
    # a tracked one (hands and deck unknown, only the table seen).
    from engine.tracking.script import write_script

    rng = random.Random(7)
    game = Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng)
    for _ in range(80):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    tracked = Game()
    tracked.play(write_script(3, seed=2).tracked_setup)
    for state in (*game.states[::10], tracked.state):
        draft = Draft(state)
        assert draft.known_cards() == {c for c in ALL_IDS if draft.is_known_elsewhere(c)}
    assert len(Draft(tracked.state).known_cards()) == 8  # the eight cards laid out


# --- the primitives, one rule each (written from engine/draft.py's mutation survivors) ---
# Each change a primitive notes is what the log, the voice and the tracker are told
# happened, so a test pins the whole Change, not only the new token count.

def _simulated() -> GameState:
    rng = random.Random(4)
    return Game(new_game(["Ann", "Bo", "Cy"], rng), rng=rng).state


def _tracked() -> GameState:
    from engine.tracking.script import write_script

    game = Game()
    game.play(write_script(3, seed=2).tracked_setup)
    return game.state


def test_losses_are_noted_as_negative_amounts_and_losing_nothing_notes_nothing() -> None:
    # §1: each player's Helium, Fleet position and Influence on the Institute; a card that
    # takes some away takes at most what the player has ("lose 1 Helium" with none is void).
    draft = Draft(_simulated())
    draft.add_helium(1, 3)
    draft.advance(1, 3)
    draft.place_influence(1, 3)
    draft.changes.clear()
    assert (draft.lose_helium(1, 2), draft.regress(1, 2), draft.remove_influence(1, 2)) == (2, 2, 2)
    assert draft.changes == [Change(ChangeKind.HELIUM, player=1, amount=-2),
                             Change(ChangeKind.FLEET, player=1, amount=-2),
                             Change(ChangeKind.INFLUENCE, player=1, amount=-2)]
    draft.changes.clear()
    assert (draft.lose_helium(2), draft.regress(2), draft.remove_influence(2)) == (0, 0, 0)
    assert draft.changes == []
    bare = draft.players[2]
    assert (bare.helium, bare.fleet, bare.influence) == (0, 0, 0)


def test_a_draw_names_the_card_only_when_the_deck_is_known() -> None:
    # §3 Lead 3b: the deck's top card goes into the hand. A simulated game knows the deck;
    # while tracking, the camera never sees a drawn card, so the change cannot name it.
    state = _simulated()
    draft = Draft(state)
    top = state.deck[0] if state.deck else None
    assert draft.draw(0) == top
    assert draft.changes == [Change(ChangeKind.DRAW, player=0, card=top, source="deck")]
    assert draft.players[0].hand.known[-1] == top
    tracked = Draft(_tracked())
    assert tracked.draw(1) is None
    assert tracked.changes == [Change(ChangeKind.DRAW, player=1, source="deck")]
    assert tracked.players[1].hand.unknown == 6


def test_a_scout_places_the_turned_over_card_and_no_other() -> None:
    # §3 Scout: flip the deck's top card and place it; the camera naming another card
    # for it is refused, with the rule it breaks.
    state = _simulated()
    draft = Draft(state)
    top = draft.reveal_from_deck()
    assert top is not None
    other = state.players[0].hand.known[0]
    with pytest.raises(IllegalActionError) as wrong:
        draft.place_revealed(Location.MARS, card=other)
    assert (str(wrong.value), wrong.value.rule) == (
        f"the turned-over card is {top}, not {other} [place]", "place")
    draft = Draft(state)
    draft.reveal_from_deck()
    draft.changes.clear()
    assert draft.place_revealed(Location.MARS).card == top
    assert draft.changes == [Change(ChangeKind.PLACE, card=top, target="mars")]
    assert draft.top(Location.MARS) == Slot(top)


def test_a_card_deployed_this_event_cannot_be_named_again() -> None:
    # §1: one copy of each of the 112 cards. While tracking, a card deployed from an unseen
    # hand is on the table from that moment, so a card turned over in the same event
    # cannot be named as it too.
    draft = Draft(_tracked())
    unseen = next(c for c in ALL_IDS if c not in draft.known_cards())
    draft.deploy(1, unseen, Location.LUNA)
    assert draft.is_known_elsewhere(unseen)
    draft.reveal_from_deck()
    with pytest.raises(IllegalActionError) as again:
        draft.place_revealed(Location.MARS, card=unseen)
    assert (str(again.value), again.value.rule) == (
        f"{unseen} is already somewhere else [one-copy]", "one-copy")


def test_end_your_turn_skips_the_gain_and_keeps_the_turn() -> None:
    # §3: "End your turn" in an ability means step 3 is skipped; the turn itself (whose it
    # is, where they deployed, its kind) is still the one being played.
    state = _simulated()
    draft = Draft(state)
    draft.end_turn_early()
    assert state.turn is not None
    assert draft.turn == replace(state.turn, end_requested=True)


def test_a_move_is_noted_from_where_to_where() -> None:
    # §3: moving a card is never a deploy; the table is told which card went where.
    state = _simulated()
    draft = Draft(state)
    top = state.locations[Location.JUPITER.pos][-1]
    assert draft.move(Location.JUPITER, -1, Location.MARS) == top
    assert draft.changes == [Change(ChangeKind.MOVE, card=top.card, source="jupiter",
                                    target="mars")]
    assert draft.top(Location.MARS) == top


def test_banishing_from_a_hand_and_taking_it_back() -> None:
    # §7 Banish: the card goes to the public pile, whose hand it left said; it may come back
    # through card effects, and only a card that is there can.
    state = _simulated()
    draft = Draft(state)
    card = state.players[0].hand.known[0]
    draft.banish_from_hand(0, card)
    assert draft.banished == [card]
    assert draft.changes == [Change(ChangeKind.BANISH, player=0, card=card, source="hand")]
    draft.changes.clear()
    draft.take_banished(1, card)
    assert (draft.banished, draft.players[1].hand.known[-1]) == ([], card)
    assert draft.changes == [Change(ChangeKind.GAIN, player=1, card=card, source="banished")]
    with pytest.raises(IllegalActionError) as absent:
        draft.take_banished(1, card)
    assert (str(absent.value), absent.value.rule) == (f"{card} is not banished [banished]",
                                                      "banished")


def test_an_unnamed_card_cannot_be_banished() -> None:
    # §1: the banished pile is face up and public, so a card goes there by name; a card the
    # camera has not read yet must be named first.
    draft = Draft(_tracked())
    draft.reveal_from_deck()
    draft.place_revealed(Location.JUPITER)
    with pytest.raises(IllegalActionError) as unnamed:
        draft.banish_at(Location.JUPITER)
    assert (str(unnamed.value), unnamed.value.rule) == (
        "name the card before banishing it [banish]", "banish")


def test_index_of_counts_from_the_bottom_of_the_stack() -> None:
    # §1: each location is an ordered stack, new cards on top.
    state = _simulated()
    draft = Draft(state)
    stack = state.locations[Location.LUNA.pos]
    assert [draft.index_of(Location.LUNA, s.card or "") for s in stack] == list(range(len(stack)))
    card = state.players[0].hand.known[0]
    with pytest.raises(IllegalActionError) as missing:
        draft.index_of(Location.LUNA, card)
    assert (str(missing.value), missing.value.rule) == (f"{card} is not on Luna [location]",
                                                        "location")


def test_players_with_cards_are_those_holding_one_or_more() -> None:
    # §11: a card that picks an opponent to take from can only pick one holding a card.
    state = _simulated()
    draft = Draft(state)
    for card in state.players[1].hand.known[1:]:
        draft.take_from_hand(1, card)
    for card in state.players[2].hand.known:
        draft.take_from_hand(2, card)
    assert [draft.hand(p).size for p in range(3)] == [6, 1, 0]
    assert draft.players_with_cards([0, 1, 2]) == [0, 1]


def test_gains_are_noted_for_whose_track_and_gaining_nothing_notes_nothing() -> None:
    # §1 and §8: every change of Helium, Fleet or Influence is told (the trigger is checked
    # after each); a gain of nothing is no change.
    draft = Draft(_simulated())
    assert (draft.add_helium(0, 2), draft.advance(0, 2), draft.place_influence(0, 2)) == (2, 2, 2)
    assert draft.changes == [Change(ChangeKind.HELIUM, player=0, amount=2),
                             Change(ChangeKind.FLEET, player=0, amount=2),
                             Change(ChangeKind.INFLUENCE, player=0, amount=2)]
    draft.changes.clear()
    assert draft.add_helium(0, 0) == 0
    assert (draft.changes, draft.players[0].helium) == ([], 2)


def test_reveals_and_gains_are_noted_with_the_card_and_where_it_came_from() -> None:
    # §3: the Scout's flipped card comes from the deck; a Lead's gain from a location.
    state = _simulated()
    draft = Draft(state)
    top = draft.reveal_from_deck()
    jupiter = state.locations[Location.JUPITER.pos][-1]
    assert draft.gain_from(0, Location.JUPITER) == jupiter
    assert draft.changes == [Change(ChangeKind.REVEAL, card=top, source="deck"),
                             Change(ChangeKind.GAIN, player=0, card=jupiter.card,
                                    source="jupiter")]


def test_an_empty_deck_or_location_gives_nothing() -> None:
    # §10 Empty deck: nothing can draw from it or reveal from it; an empty location has no
    # card to take.
    draft = Draft(_simulated())
    draft.deck_count = 0
    with pytest.raises(IllegalActionError) as empty:
        draft.draw(0)
    assert (str(empty.value), empty.value.rule) == ("the deck is empty [empty-deck]",
                                                    "empty-deck")
    with pytest.raises(IllegalActionError, match=r"^the deck is empty \[empty-deck\]$"):
        draft.reveal_from_deck()
    for _ in range(len(draft.stack_at(Location.MARS))):
        draft.take_at(Location.MARS, -1)
    with pytest.raises(IllegalActionError) as bare:
        draft.take_at(Location.MARS, -1)
    assert (str(bare.value), bare.value.rule) == ("Mars has no cards [empty-location]",
                                                  "empty-location")


def test_identifying_needs_a_name_and_keeps_a_known_card() -> None:
    # §1: a stack card is one card; naming an unread one needs a name, and a read one
    # cannot be renamed.
    state = _tracked()
    draft = Draft(state)
    draft.reveal_from_deck()
    draft.place_revealed(Location.JUPITER)
    with pytest.raises(IllegalActionError) as unnamed:
        draft.identify(Location.JUPITER, -1, None)
    assert (str(unnamed.value), unnamed.value.rule) == (
        "name the card first: nobody has identified it [identify]", "identify")
    known = state.locations[Location.MARS.pos][0].card
    other = state.locations[Location.LUNA.pos][0].card
    with pytest.raises(IllegalActionError) as renamed:
        draft.identify(Location.MARS, 0, other)
    assert (str(renamed.value), renamed.value.rule) == (
        f"that card is {known}, not {other} [identify]", "identify")


def test_the_sovereign_is_noted_with_whom_it_came_from_and_only_when_it_moves() -> None:
    # §2.3: the Sovereign token starts unclaimed. §4 Luna: taking it removes it from whoever
    # had it. §6: a player who already holds it keeps it (the house ability still fires, but
    # the token does not move, so nothing is told).
    draft = Draft(_simulated())
    assert draft.sovereign is None
    draft.set_sovereign(0)
    assert draft.changes == [Change(ChangeKind.SOVEREIGN, player=0)]
    draft.changes.clear()
    draft.set_sovereign(2)
    assert draft.changes == [Change(ChangeKind.SOVEREIGN, player=2, source="0")]
    assert draft.sovereign == 2
    draft.changes.clear()
    draft.set_sovereign(2)
    assert (draft.sovereign, draft.changes) == (2, [])


def test_the_end_is_triggered_once_by_the_player_whose_turn_it_is() -> None:
    # §8 Trigger: all three conditions over any players, or two by one player alone; it is
    # told once, for the player whose turn it is, and a later gain does not move it.
    draft = Draft(_simulated())
    me, other, third = draft.current, (draft.current + 1) % 3, (draft.current + 2) % 3
    draft.add_helium(other, 7)
    draft.advance(me, 7)
    assert draft.trigger is None
    draft.place_influence(third, 7)
    assert draft.trigger == Trigger(me, 1, (Track.FLEET, Track.HELIUM, Track.INFLUENCE))
    assert draft.changes[-1] == Change(ChangeKind.TRIGGER, player=me)
    draft.changes.clear()
    draft.current = other
    draft.advance(other, 7)
    assert draft.trigger == Trigger(me, 1, (Track.FLEET, Track.HELIUM, Track.INFLUENCE))
    assert draft.changes == [Change(ChangeKind.FLEET, player=other, amount=7)]


def test_one_player_meeting_two_conditions_triggers_with_those_two() -> None:
    # §8 Trigger: "one player alone meets two of them": the trigger names that player's two
    # conditions, even when another player's token makes the third.
    draft = Draft(_simulated())
    me, other = draft.current, (draft.current + 1) % 3
    draft.place_influence(other, 7)
    draft.add_helium(me, 7)
    assert draft.trigger is None
    draft.advance(me, 7)
    assert draft.trigger == Trigger(me, 1, (Track.FLEET, Track.HELIUM))


def test_a_trigger_on_a_borrowed_turn_is_dated_by_the_turns_already_counted() -> None:
    # §8 Finishing counts turns; Loan Shark's turn "out of order" is borrowed and not counted,
    # so a trigger during it falls in the turns the player has already had.
    state = _simulated()
    assert state.turn is not None
    for kind, turn in ((TurnKind.NORMAL, 4), (TurnKind.OUT_OF_ORDER, 3)):
        draft = Draft(state)
        draft.turn = replace(state.turn, kind=kind)
        draft.set_turns(draft.current, 3)
        draft.add_helium(draft.current, 7)
        draft.advance(draft.current, 7)
        assert draft.trigger == Trigger(draft.current, turn, (Track.FLEET, Track.HELIUM))


def test_the_end_is_not_triggered_outside_the_turns() -> None:
    # §8: the trigger ends the turns; once the game has moved on to its end (§9 step 1,
    # end-of-game abilities that gain tokens), there is nothing left to trigger.
    draft = Draft(_simulated())
    draft.phase = Phase.FINALE
    draft.add_helium(0, 7)
    draft.advance(0, 7)
    assert (draft.trigger, draft.changes[-1].kind) == (None, ChangeKind.FLEET)


def test_a_deploy_is_noted_with_who_which_card_and_where() -> None:
    # §3 Lead 1: one card from the hand, face up, on top of a location.
    state = _simulated()
    draft = Draft(state)
    card = state.players[0].hand.known[0]
    draft.deploy(0, card, Location.LUNA)
    assert draft.changes == [Change(ChangeKind.DEPLOY, player=0, card=card, target="luna")]
    assert draft.top(Location.LUNA) == Slot(card)
    assert card not in draft.players[0].hand.known


def test_a_player_whose_hand_is_empty_holds_no_card() -> None:
    # §10 Empty hand: a Lead skips the deploy. While tracking, an unseen hand that has been
    # played out cannot hold a card nobody has seen either.
    draft = Draft(_tracked())
    unseen = iter(sorted(c for c in ALL_IDS if c not in draft.known_cards()))
    for _ in range(5):
        card = next(unseen)
        assert draft.may_hold(1, card)
        draft.deploy(1, card, Location.MARS)
    card = next(unseen)
    assert (draft.hand(1).size, draft.may_hold(1, card)) == (0, False)
    with pytest.raises(IllegalActionError) as empty:
        draft.deploy(1, card, Location.MARS)
    assert (str(empty.value), empty.value.rule) == (f"P2 is known not to hold {card} [hand]",
                                                    "hand")
